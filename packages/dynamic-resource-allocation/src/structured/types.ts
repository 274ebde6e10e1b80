// The allocator's contract with its callers. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/allocator.go,
// structured/internal/types.go and structured/schedulerapi/types.go (read at kubernetes/kubernetes
// 008b3652 and 03ab440c, the 1.37 allocator).
import type { DeviceClass, QualifiedName, Quantity } from "@kubesched/api";

/**
 * The optional allocator functionality that is enabled (upstream internal.Features). Each entry
 * corresponds to Kubernetes feature gates: `adminAccess` DRAAdminAccess, `consumableCapacity`
 * DRAConsumableCapacity, `deviceBindingAndStatus` DRADeviceBindingConditions and
 * DRAResourceClaimDeviceStatus (both), `deviceTaints` DRADeviceTaints, `partitionableDevices`
 * DRAPartitionableDevices, `prioritizedList` DRAPrioritizedList, `listTypeAttributes`
 * DRAListTypeAttributes (alpha; only upstream's experimental variant supports it),
 * `deviceCompatibilityGroups` DRADeviceCompatibilityGroups, `derivedAttributes`
 * DRADerivedAttributes and `optionalNodeOperations` DRAOptionalNodeOperations (alpha in 1.37;
 * experimental variant), `fractionalCapacityRange` DRAFractionalCapacityRange (beta in 1.37, off
 * by default; only the experimental and incubating variants read it). Absent means off.
 */
export interface Features {
  adminAccess?: boolean;
  consumableCapacity?: boolean;
  deviceBindingAndStatus?: boolean;
  deviceTaints?: boolean;
  partitionableDevices?: boolean;
  prioritizedList?: boolean;
  listTypeAttributes?: boolean;
  deviceCompatibilityGroups?: boolean;
  derivedAttributes?: boolean;
  optionalNodeOperations?: boolean;
  fractionalCapacityRange?: boolean;
}

/** The names of the enabled features as upstream's Features.Set() spells them, sorted. */
export function featureSet(features: Features): string[] {
  const enabled: string[] = [];
  if (features.adminAccess) enabled.push("DRAAdminAccess");
  if (features.consumableCapacity) enabled.push("DRAConsumableCapacity");
  if (features.deviceBindingAndStatus)
    enabled.push("DRADeviceBindingConditions+DRAResourceClaimDeviceStatus");
  if (features.deviceCompatibilityGroups) enabled.push("DRADeviceCompatibilityGroups");
  if (features.derivedAttributes) enabled.push("DRADerivedAttributes");
  if (features.optionalNodeOperations) enabled.push("DRAOptionalNodeOperations");
  if (features.fractionalCapacityRange) enabled.push("DRAFractionalCapacityRange");
  if (features.deviceTaints) enabled.push("DRADeviceTaints");
  if (features.listTypeAttributes) enabled.push("DRAListTypeAttributes");
  if (features.partitionableDevices) enabled.push("DRAPartitionableDevices");
  if (features.prioritizedList) enabled.push("DRAPrioritizedList");
  return enabled.sort();
}

/**
 * The reason a filter timeout aborts the allocator's signal with (upstream
 * context.DeadlineExceeded: "context deadline exceeded"). With a {@link PoolCache}, a search
 * stopped by it is kept as timed out: the same claims on the same node, while nothing the search
 * depended on changed, are answered at once with the same abort when the caller's signal would
 * abort with a DeadlineExceeded too (its `reason`, read before it fires) — the search would only
 * run into its deadline again.
 */
export class DeadlineExceeded extends Error {
  constructor() {
    super("context deadline exceeded");
    this.name = "DeadlineExceeded";
  }
}

/** The feature names in a fixed order: bit i of {@link featureBits} is `featureOrder[i]`. */
const featureOrder: readonly (keyof Features)[] = [
  "adminAccess",
  "consumableCapacity",
  "deviceBindingAndStatus",
  "deviceTaints",
  "partitionableDevices",
  "prioritizedList",
  "listTypeAttributes",
  "deviceCompatibilityGroups",
  "derivedAttributes",
  "optionalNodeOperations",
  "fractionalCapacityRange",
];

/** @internal The enabled features as a number (one bit per feature): equal sets, equal numbers. */
export function featureBits(features: Features): number {
  let bits = 0;
  for (let i = 0; i < featureOrder.length; i++) if (features[featureOrder[i]!] === true) bits |= 1 << i;
  return bits;
}

const featureKeys = new Map<number, string>();

/** @internal `featureSet(features).join(",")`, made once per set of enabled features. */
export function featureKey(features: Features): string {
  const bits = featureBits(features);
  let key = featureKeys.get(bits);
  if (key === undefined) {
    key = featureSet(features).join(",");
    featureKeys.set(bits, key);
  }
  return key;
}

/**
 * What 1.37's default feature gates enable (upstream internal.FeaturesAll, with the alpha
 * DRAListTypeAttributes, DRADeviceCompatibilityGroups, DRADerivedAttributes and
 * DRAOptionalNodeOperations off; DRAFractionalCapacityRange is beta but off by default).
 */
export const featuresAll: Readonly<Required<Features>> = Object.freeze({
  adminAccess: true,
  consumableCapacity: true,
  deviceBindingAndStatus: true,
  deviceTaints: true,
  partitionableDevices: true,
  prioritizedList: true,
  listTypeAttributes: false,
  deviceCompatibilityGroups: false,
  derivedAttributes: false,
  optionalNodeOperations: false,
  fractionalCapacityRange: false,
});

/** A device: `<driver>/<pool>/<device>` (upstream DeviceID and its String()). */
export type DeviceID = string;

/** The DeviceID of a device. */
export function makeDeviceID(driver: string, pool: string, device: string): DeviceID {
  return `${driver}/${pool}/${device}`;
}

/**
 * One share of a device that allows multiple allocations: `<driver>/<pool>/<device>/<shareID>`
 * (upstream SharedDeviceID).
 */
export type SharedDeviceID = string;

/** The SharedDeviceID of one allocation of a device (upstream MakeSharedDeviceID). */
export function makeSharedDeviceID(deviceID: DeviceID, shareID: string | undefined): SharedDeviceID {
  return shareID === undefined ? deviceID : `${deviceID}/${shareID}`;
}

/** Capacity consumed from one device, by capacity name (upstream ConsumedCapacity). */
export type ConsumedCapacity = ReadonlyMap<QualifiedName, Quantity>;

/**
 * What existing allocations already use (upstream schedulerapi.AllocatedState): devices
 * allocated exclusively, the shares of devices that allow multiple allocations, and the
 * capacity those shares consume per device.
 */
export interface AllocatedState {
  allocatedDevices: ReadonlySet<DeviceID>;
  allocatedSharedDeviceIDs?: ReadonlySet<SharedDeviceID>;
  aggregatedCapacity?: ReadonlyMap<DeviceID, ConsumedCapacity>;
}

/**
 * Access to DeviceClasses (upstream DeviceClassLister). `get` throws when the class does not
 * exist; its message ends up in the allocator's error (`could not retrieve device class X: …`).
 */
export interface DeviceClassLister {
  list(): readonly DeviceClass[];
  get(className: string): DeviceClass;
}

/**
 * An error of Allocate that only concerns the node it ran for (upstream
 * ErrFailedAllocationOnNode, checked with errors.Is): the scheduler reports it as the node's
 * unschedulable reason and goes on with other nodes. Every other error Allocate throws is fatal
 * for the scheduling attempt (invalid input such as a CEL selector that fails).
 */
export class FailedAllocationOnNodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FailedAllocationOnNodeError";
  }
}

/** Whether an error thrown by Allocate only affects its node (upstream errors.Is(err, ErrFailedAllocationOnNode)). */
export function isFailedAllocationOnNode(err: unknown): err is FailedAllocationOnNodeError {
  return err instanceof FailedAllocationOnNodeError;
}

/**
 * The three implementations upstream keeps (structured/internal/{stable,incubating,experimental}):
 * NewAllocator picks the first whose supported features cover the enabled ones.
 */
export type AllocatorChannel = "stable" | "incubating" | "experimental";
