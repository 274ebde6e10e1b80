// Test object builders and the runner of the shared allocator table, for tests only (not exported
// by the package). upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go
// (read at kubernetes/kubernetes 008b3652): the same helper names and shapes, so that cases port
// line by line.
import type {
  AllocationResult,
  CounterSet,
  Device,
  DeviceAllocationConfiguration,
  DeviceAttribute,
  DeviceClaimConfiguration,
  DeviceClass,
  DeviceConfiguration,
  DeviceConstraint,
  DeviceCounterConsumption,
  DeviceRequest,
  DeviceRequestAllocationResult,
  DeviceSelector,
  DeviceSubRequest,
  DeviceTaint,
  DeviceToleration,
  Node,
  NodeSelector,
  ResourceClaim,
  ResourcePool,
  ResourceSlice,
} from "@kubesched/api";
import { Quantity } from "@kubesched/api";
import { expect } from "vitest";
import { Cache } from "../cel/cache";
import { type Allocator, newAllocator } from "./allocator";
import type { PoolCache } from "./pool-cache";
import type { DeviceClassLister, DeviceID, Features } from "./types";
import type { VersionedDeviceSet } from "./versioned-device-set";

export const region1 = "region-1";
export const region2 = "region-2";
export const node1 = "node-1";
export const node2 = "node-2";
export const classA = "class-a";
export const classB = "class-b";
export const driverA = "driver-a";
export const driverB = "driver-b";
export const pool1 = "pool-1";
export const pool2 = "pool-2";
export const pool3 = "pool-3";
export const pool4 = "pool-4";
export const req0 = "req-0";
export const req1 = "req-1";
export const req2 = "req-2";
export const req3 = "req-3";
export const subReq0 = "subReq-0";
export const subReq1 = "subReq-1";
export const req0SubReq0 = "req-0/subReq-0";
export const req0SubReq1 = "req-0/subReq-1";
export const req1SubReq0 = "req-1/subReq-0";
export const req1SubReq1 = "req-1/subReq-1";
export const req2SubReq0 = "req-2/subReq-0";
export const req2SubReq1 = "req-2/subReq-1";
export const claim0 = "claim-0";
export const claim1 = "claim-1";
export const slice1 = "slice-1";
export const slice2 = "slice-2";
export const slice3 = "slice-3";
export const slice4 = "slice-4";
export const device0 = "device-0";
export const device1 = "device-1";
export const device2 = "device-2";
export const device3 = "device-3";
export const device4 = "device-4";
export const counterSet1 = "counter-set-1";
export const counterSet2 = "counter-set-2";
export const capacity0 = "capacity-0";
export const capacity1 = "capacity-1";

export const fieldNameKey = "metadata.name";
export const regionKey = "region";
export const planetKey = "planet";
export const planetValueEarth = "earth";

const clone = <T>(v: T): T => structuredClone(v);

/** A node with a region and planet label. */
export function node(name: string, region: string): Node {
  return { metadata: { name, labels: { [regionKey]: region, [planetKey]: planetValueEarth } } };
}

/** A DeviceClass selecting the driver's devices. */
export function deviceClass(name: string, driver: string): DeviceClass {
  return {
    metadata: { name },
    spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] },
  };
}

/** A DeviceClass also selecting on allowMultipleAllocations. */
export function classWithAllowMultipleAllocations(
  name: string,
  driver: string,
  multialloc: boolean,
): DeviceClass {
  return {
    metadata: { name },
    spec: {
      selectors: [
        {
          cel: {
            expression: `device.driver == "${driver}" && device.allowMultipleAllocations == ${multialloc}`,
          },
        },
      ],
    },
  };
}

/** Opaque parameters `{attribute: attributeValue}`. */
export function deviceConfiguration(driver: string, attribute: string): DeviceConfiguration {
  return { opaque: { driver, parameters: { [attribute]: `${attribute}Value` } } };
}

export function classWithConfig(name: string, driver: string, attribute: string): DeviceClass {
  const c = deviceClass(name, driver);
  c.spec!.config = [deviceConfiguration(driver, attribute)];
  return c;
}

export function cel(expression: string): DeviceSelector {
  return { cel: { expression } };
}

export class WrapResourceClaim {
  constructor(readonly claim: ResourceClaim) {}
  obj(): ResourceClaim {
    return this.claim;
  }
  #requests(): DeviceRequest[] {
    return this.claim.spec!.devices!.requests!;
  }
  withTolerations(...tolerations: DeviceToleration[]): WrapResourceClaim {
    const out = clone(this.claim);
    for (const request of out.spec!.devices!.requests ?? []) {
      request.exactly!.tolerations = [...(request.exactly!.tolerations ?? []), ...tolerations];
    }
    return new WrapResourceClaim(out);
  }
  withRequests(...requests: WrapDeviceRequest[]): WrapResourceClaim {
    const out = clone(this.claim);
    out.spec = {
      ...out.spec,
      devices: { ...out.spec?.devices, requests: requests.map((r) => clone(r.obj())) },
    };
    return new WrapResourceClaim(out);
  }
  withConstraints(...constraints: DeviceConstraint[]): WrapResourceClaim {
    const out = clone(this.claim);
    out.spec = { ...out.spec, devices: { ...out.spec?.devices, constraints } };
    return new WrapResourceClaim(out);
  }
  withConfigs(configs: DeviceClaimConfiguration[]): WrapResourceClaim {
    const out = clone(this.claim);
    out.spec = { ...out.spec, devices: { ...out.spec?.devices, config: configs } };
    return new WrapResourceClaim(out);
  }
  /** Direct access for cases that edit the claim in place, as upstream's closures do. */
  get requests(): DeviceRequest[] {
    return this.#requests();
  }
}

export function claimWithRequests(
  name: string,
  constraints: DeviceConstraint[] | null,
  ...requests: DeviceRequest[]
): WrapResourceClaim {
  const devices: ResourceClaim["spec"] = { devices: { requests } };
  if (constraints !== null) devices.devices!.constraints = constraints;
  return new WrapResourceClaim({ metadata: { name }, spec: devices });
}

/** A DeviceRequest for `count` devices of the class. */
export function request(
  name: string,
  className: string,
  count: number,
  ...selectors: DeviceSelector[]
): DeviceRequest {
  const exactly: NonNullable<DeviceRequest["exactly"]> = {
    count,
    allocationMode: "ExactCount",
    deviceClassName: className,
  };
  if (selectors.length > 0) exactly.selectors = selectors;
  return { name, exactly };
}

export class WrapDeviceRequest {
  constructor(readonly request: DeviceRequest) {}
  obj(): DeviceRequest {
    return this.request;
  }
  withCapacityRequest(quantity: string | null): WrapDeviceRequest {
    const out = clone(this.request);
    out.exactly!.capacity = capacityRequests(quantity);
    return new WrapDeviceRequest(out);
  }
  withSelectors(...selectors: DeviceSelector[]): WrapDeviceRequest {
    const out = clone(this.request);
    out.exactly!.selectors = selectors;
    return new WrapDeviceRequest(out);
  }
}

export function deviceRequest(name: string, className: string, count: number): WrapDeviceRequest {
  return new WrapDeviceRequest(request(name, className, count));
}

export function allDeviceRequest(name: string, className: string): WrapDeviceRequest {
  return new WrapDeviceRequest({ name, exactly: { allocationMode: "All", deviceClassName: className } });
}

export class WrapDeviceSubRequest {
  constructor(readonly subRequest: DeviceSubRequest) {}
  obj(): DeviceSubRequest {
    return this.subRequest;
  }
  withAllocationMode(mode: string): WrapDeviceSubRequest {
    const out = clone(this.subRequest);
    out.allocationMode = mode;
    return new WrapDeviceSubRequest(out);
  }
  withCapacityRequest(quantity: string | null): WrapDeviceSubRequest {
    const out = clone(this.subRequest);
    out.capacity = capacityRequests(quantity);
    return new WrapDeviceSubRequest(out);
  }
}

/** A subrequest; extra fields are selectors (`{cel}`) or tolerations. */
export function subRequest(
  name: string,
  className: string,
  count: number,
  ...fields: (DeviceSelector | DeviceToleration)[]
): WrapDeviceSubRequest {
  const sub: DeviceSubRequest = { name, count, allocationMode: "ExactCount", deviceClassName: className };
  for (const field of fields) {
    if ("cel" in field) sub.selectors = [...(sub.selectors ?? []), field as DeviceSelector];
    else sub.tolerations = [...(sub.tolerations ?? []), field as DeviceToleration];
  }
  return new WrapDeviceSubRequest(sub);
}

export function requestWithPrioritizedList(
  name: string,
  ...subRequests: WrapDeviceSubRequest[]
): WrapDeviceRequest {
  return new WrapDeviceRequest({ name, firstAvailable: subRequests.map((s) => s.obj()) });
}

export function claimWithRequest(
  name: string,
  req: string,
  className: string,
  ...constraints: DeviceConstraint[]
): WrapResourceClaim {
  return claimWithRequests(name, constraints.length > 0 ? constraints : null, request(req, className, 1));
}

export function claim(name: string): WrapResourceClaim {
  return new WrapResourceClaim({ metadata: { name }, spec: { devices: {} } });
}

export function claimWithDeviceConfig(
  name: string,
  req: string,
  className: string,
  driver: string,
  attribute: string,
): WrapResourceClaim {
  const c = claimWithRequest(name, req, className);
  c.claim.spec!.devices!.config = [deviceConfiguration(driver, attribute)];
  return c;
}

export function deviceClaimConfig(requests: string[], config: DeviceConfiguration): DeviceClaimConfiguration {
  return { requests, ...config };
}

export const fromCounters = "fromCounters";

export class WrapDevice {
  constructor(
    readonly device: Device,
    readonly capacityFromCounters = false,
  ) {}
  obj(): Device {
    return this.device;
  }
  withTaints(...taints: DeviceTaint[]): WrapDevice {
    const out = clone(this.device);
    out.taints = [...(out.taints ?? []), ...taints];
    return new WrapDevice(out);
  }
  withDeviceCounterConsumption(...consumption: DeviceCounterConsumption[]): WrapDevice {
    const out = clone(this.device);
    out.consumesCounters = [...(out.consumesCounters ?? []), ...consumption];
    if (this.capacityFromCounters) {
      const capacity: NonNullable<Device["capacity"]> = {};
      for (const c of out.consumesCounters) {
        for (const [name, counter] of Object.entries(c.counters)) capacity[name] = { value: counter.value };
      }
      out.capacity = capacity;
    }
    return new WrapDevice(out);
  }
  withNodeSelection(nodeSelection: NodeSelector | string): WrapDevice {
    const out = clone(this.device);
    if (typeof nodeSelection !== "string") out.nodeSelector = nodeSelection;
    else if (nodeSelection === nodeSelectionAll) out.allNodes = true;
    else if (nodeSelection === nodeSelectionPerDevice)
      throw new Error("nodeSelectionPerDevice is not supported for devices");
    else out.nodeName = nodeSelection;
    return new WrapDevice(out);
  }
  withBindingConditions(
    bindingConditions: string[] | null,
    bindingFailureConditions: string[] | null,
  ): WrapDevice {
    const out = clone(this.device);
    if (bindingConditions !== null) out.bindingConditions = bindingConditions;
    if (bindingFailureConditions !== null) out.bindingFailureConditions = bindingFailureConditions;
    return new WrapDevice(out);
  }
  withBindsToNode(bindsToNode: boolean): WrapDevice {
    const out = clone(this.device);
    out.bindsToNode = bindsToNode;
    return new WrapDevice(out);
  }
  /** Adds capacities with the request policy default 2, range min 2, step 2, max 4. */
  withCapacityRequestPolicyRange(capacity: Record<string, string>): WrapDevice {
    const out = clone(this.device);
    out.capacity ??= {};
    for (const [name, value] of Object.entries(capacity)) {
      out.capacity[name] = {
        value,
        requestPolicy: { default: "2", validRange: { min: "2", step: "2", max: "4" } },
      };
    }
    return new WrapDevice(out);
  }
  /** Adds capacities with the request policy default `defaultValue`, valid values it and `additional`. */
  withCapacityRequestPolicyValidValues(
    defaultValue: string,
    capacity: Record<string, string>,
    additional: string[] | null,
  ): WrapDevice {
    const out = clone(this.device);
    out.capacity ??= {};
    for (const [name, value] of Object.entries(capacity)) {
      out.capacity[name] = {
        value,
        requestPolicy: { default: defaultValue, validValues: [defaultValue, ...(additional ?? [])] },
      };
    }
    return new WrapDevice(out);
  }
  withAllowMultipleAllocations(): WrapDevice {
    const out = clone(this.device);
    out.allowMultipleAllocations = true;
    return new WrapDevice(out);
  }
}

/** A device; `capacity` is a map of quantities, `fromCounters` or null. */
export function device(
  name: string,
  capacity: Record<string, string> | typeof fromCounters | null,
  attributes: Record<string, DeviceAttribute> | null,
): WrapDevice {
  const d: Device = { name };
  if (attributes !== null) d.attributes = attributes;
  if (capacity !== null && capacity !== fromCounters) d.capacity = toDeviceCapacity(capacity);
  return new WrapDevice(d, capacity === fromCounters);
}

export function deviceCounterConsumption(
  counterSet: string,
  counters: Record<string, string>,
): DeviceCounterConsumption {
  return { counterSet, counters: toCounters(counters) };
}

export const nodeSelectionAll = "nodeSelectionAll";
export const nodeSelectionPerDevice = "nodeSelectionPerDevice";

/**
 * A ResourceSlice. `nodeSelection` is nodeSelectionAll, nodeSelectionPerDevice, a node name or a
 * node selector; `pool` a pool name (one slice, generation 1) or a ResourcePool.
 */
export function slice(
  name: string,
  nodeSelection: NodeSelector | string,
  pool: string | ResourcePool,
  driver: string,
): ResourceSlice {
  const resourcePool: ResourcePool =
    typeof pool === "string" ? { name: pool, resourceSliceCount: 1, generation: 1 } : clone(pool);
  const s: ResourceSlice = { metadata: { name }, spec: { driver, pool: resourcePool } };
  if (typeof nodeSelection !== "string") s.spec.nodeSelector = nodeSelection;
  else if (nodeSelection === nodeSelectionAll) s.spec.allNodes = true;
  else if (nodeSelection === nodeSelectionPerDevice) s.spec.perDeviceNodeSelection = true;
  else s.spec.nodeName = nodeSelection;
  return s;
}

export class WrapResourceSlice {
  constructor(readonly slice: ResourceSlice) {}
  obj(): ResourceSlice {
    return this.slice;
  }
  get spec(): ResourceSlice["spec"] {
    return this.slice.spec;
  }
}

export function sliceWithDevices(
  name: string,
  nodeSelection: NodeSelector | string,
  pool: string | ResourcePool,
  driver: string,
  ...devices: WrapDevice[]
): WrapResourceSlice {
  const s = slice(name, nodeSelection, pool, driver);
  if (devices.length > 0) s.spec.devices = devices.map((d) => clone(d.obj()));
  return new WrapResourceSlice(s);
}

export function sliceWithCounterSets(
  name: string,
  nodeSelection: NodeSelector | string,
  pool: string | ResourcePool,
  driver: string,
  ...counterSets: CounterSet[]
): WrapResourceSlice {
  const s = slice(name, nodeSelection, pool, driver);
  s.spec.sharedCounters = counterSets;
  return new WrapResourceSlice(s);
}

export function resourcePool(name: string, count: number): ResourcePool {
  return { name, resourceSliceCount: count, generation: 1 };
}

export function deviceAllocationResult(
  req: string,
  driver: string,
  pool: string,
  deviceName: string,
  adminAccess: boolean,
  ...tolerations: DeviceToleration[]
): DeviceRequestAllocationResult {
  const r: DeviceRequestAllocationResult = { request: req, driver, pool, device: deviceName };
  if (tolerations.length > 0) r.tolerations = tolerations;
  if (adminAccess) r.adminAccess = true;
  return r;
}

/** The share ID the runner puts in place of generated ones (upstream fixedShareID). */
export const fixedShareID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";

export class WrapDeviceRequestAllocationResult {
  constructor(readonly result: DeviceRequestAllocationResult) {}
  withConsumedCapacity(
    shareID: string | null,
    consumedCapacity: Record<string, string> | null,
  ): DeviceRequestAllocationResult {
    const out = clone(this.result);
    if (shareID !== null) out.shareID = shareID;
    if (consumedCapacity !== null) out.consumedCapacity = consumedCapacity;
    return out;
  }
}

export function deviceRequestAllocationResult(
  req: string,
  driver: string,
  pool: string,
  deviceName: string,
): WrapDeviceRequestAllocationResult {
  return new WrapDeviceRequestAllocationResult({ request: req, driver, pool, device: deviceName });
}

export function capacityRequests(request: string | null): { requests: Record<string, string> } {
  return { requests: request === null ? {} : { [capacity0]: request } };
}

export function multipleDeviceAllocationResults(
  req: string,
  driver: string,
  pool: string,
  count: number,
  startIndex: number,
): DeviceRequestAllocationResult[] {
  const results: DeviceRequestAllocationResult[] = [];
  for (let i = startIndex; i < startIndex + count; i++) {
    results.push(deviceAllocationResult(req, driver, pool, `device-${i}`, false));
  }
  return results;
}

/** A node selector with a label match for key in values. */
export function nodeLabelSelector(key: string, ...values: string[]): NodeSelector {
  return { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: "In", values }] }] };
}

/** A node selector for a specific node (by field). */
export function localNodeSelector(nodeName: string): NodeSelector {
  return {
    nodeSelectorTerms: [{ matchFields: [{ key: fieldNameKey, operator: "In", values: [nodeName] }] }],
  };
}

/**
 * An expected AllocationResult where the order of the device results and of the node
 * selector's terms, requirements and values does not matter, and there is no config (upstream
 * allocationResult, a gomega matcher).
 */
export interface UnorderedAllocationResult {
  readonly unordered: true;
  readonly nodeSelector: NodeSelector | null;
  readonly results: DeviceRequestAllocationResult[];
}

export function allocationResult(
  selector: NodeSelector | null,
  ...results: DeviceRequestAllocationResult[]
): UnorderedAllocationResult {
  return { unordered: true, nodeSelector: selector, results };
}

export function allocationResultWithConfig(
  selector: NodeSelector | null,
  driver: string,
  source: DeviceAllocationConfiguration["source"],
  attribute: string,
  ...results: DeviceRequestAllocationResult[]
): AllocationResult {
  const r: AllocationResult = {
    devices: { results, config: [{ source, ...deviceConfiguration(driver, attribute) }] },
  };
  if (selector !== null) r.nodeSelector = selector;
  return r;
}

export function allocationResultWithConfigs(
  selector: NodeSelector | null,
  results: DeviceRequestAllocationResult[],
  configs: DeviceAllocationConfiguration[],
): AllocationResult {
  const r: AllocationResult = { devices: { results, config: configs } };
  if (selector !== null) r.nodeSelector = selector;
  return r;
}

export function sliceWithNoDevices(
  name: string,
  nodeSelection: NodeSelector | string,
  pool: string | ResourcePool,
  driver: string,
): WrapResourceSlice {
  return sliceWithDevices(name, nodeSelection, pool, driver);
}

/** A slice with the one device "device-1". */
export function sliceWithOneDevice(
  name: string,
  nodeSelection: NodeSelector | string,
  pool: string | ResourcePool,
  driver: string,
): WrapResourceSlice {
  return sliceWithDevices(name, nodeSelection, pool, driver, device(device1, null, null));
}

/** A slice with the devices "device-0" … "device-<count-1>". */
export function sliceWithMultipleDevices(
  name: string,
  nodeSelection: NodeSelector | string,
  pool: string | ResourcePool,
  driver: string,
  count: number,
): WrapResourceSlice {
  const devices: WrapDevice[] = [];
  for (let i = 0; i < count; i++) devices.push(device(`device-${i}`, null, null));
  return sliceWithDevices(name, nodeSelection, pool, driver, ...devices);
}

export function counterSet(name: string, counters: Record<string, string>): CounterSet {
  return { name, counters: toCounters(counters) };
}

function toDeviceCapacity(capacity: Record<string, string>): NonNullable<Device["capacity"]> {
  const out: NonNullable<Device["capacity"]> = {};
  for (const [name, value] of Object.entries(capacity)) out[name] = { value };
  return out;
}

function toCounters(counters: Record<string, string>): Record<string, { value: string }> {
  const out: Record<string, { value: string }> = {};
  for (const [name, value] of Object.entries(counters)) out[name] = { value };
  return out;
}

export function deviceRequestAllocationResultWithBindingConditions(
  req: string,
  driver: string,
  pool: string,
  deviceName: string,
  bindingConditions: string[] | null,
  bindingFailureConditions: string[] | null,
  ...tolerations: DeviceToleration[]
): DeviceRequestAllocationResult {
  const r: DeviceRequestAllocationResult = { request: req, driver, pool, device: deviceName };
  if (bindingConditions !== null) r.bindingConditions = bindingConditions;
  if (bindingFailureConditions !== null) r.bindingFailureConditions = bindingFailureConditions;
  if (tolerations.length > 0) r.tolerations = tolerations;
  return r;
}

export function unwrapResourceSlices(...objs: WrapResourceSlice[]): ResourceSlice[] {
  return objs.map((o) => o.obj());
}

/** A case of the shared table (upstream AllocatorTestCase). */
export interface AllocatorTestCase {
  features?: Features;
  claimsToAllocate?: WrapResourceClaim[];
  allocatedDevices?: DeviceID[];
  allocatedSharedDeviceIDs?: string[];
  /** Capacity consumed by existing shares, per device (upstream allocatedCapacityDevices). */
  allocatedCapacityDevices?: Record<DeviceID, Record<string, string>>;
  classes?: DeviceClass[];
  slices?: ResourceSlice[] | null;
  node?: Node;
  /** undefined or null: the claims cannot be allocated (upstream's nil). */
  expectResults?: (UnorderedAllocationResult | AllocationResult)[] | null;
  /** A substring of the expected error (upstream MatchError(ContainSubstring(…))). */
  expectError?: string;
  expectNumAllocateOneInvocations?: number;
}

/** A DeviceClassLister over a list, as upstream's informerLister (NotFound: `not found`). */
export function classLister(classes: readonly DeviceClass[]): DeviceClassLister {
  return {
    list: () => classes,
    get(name: string): DeviceClass {
      const found = classes.find((c) => c.metadata?.name === name);
      if (found === undefined) throw new Error(`"not found" not found`);
      return found;
    },
  };
}

function sortedSelector(selector: NodeSelector | undefined | null): unknown {
  if (selector === undefined || selector === null) return null;
  const requirements = (list: NonNullable<NodeSelector["nodeSelectorTerms"]>[number]["matchFields"]) =>
    (list ?? [])
      .map((r) => ({ key: r.key, operator: r.operator, values: [...(r.values ?? [])].sort() }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return (selector.nodeSelectorTerms ?? [])
    .map((t) => ({
      matchFields: requirements(t.matchFields),
      matchExpressions: requirements(t.matchExpressions),
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

function sortedResults(results: readonly DeviceRequestAllocationResult[] | undefined): unknown[] {
  return [...(results ?? [])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/**
 * Runs one case as upstream's RunTestAllocator: build, allocate, compare, check inputs untouched.
 * `kept`: a PoolCache for the allocator and the class objects to use (instead of copies), so
 * that a case run twice reuses the first run's pools and selector results.
 */
export function runAllocatorTestCase(
  tc: AllocatorTestCase,
  kept?: { poolCache: PoolCache; classes: DeviceClass[]; allocatedDevices?: VersionedDeviceSet },
): Allocator {
  const features = tc.features ?? {};
  const classes = kept?.classes ?? (tc.classes ?? []).map(clone);
  const claims = (tc.claimsToAllocate ?? []).map((c) => c.obj());
  const claimsBefore = clone(claims);
  const slices = tc.slices ?? [];
  const slicesBefore = clone(slices);
  const allocator = newAllocator({
    features,
    allocatedState: {
      allocatedDevices: kept?.allocatedDevices ?? new Set(tc.allocatedDevices ?? []),
      allocatedSharedDeviceIDs: new Set(tc.allocatedSharedDeviceIDs ?? []),
      aggregatedCapacity: new Map(
        Object.entries(tc.allocatedCapacityDevices ?? {}).map(([id, consumed]) => [
          id,
          new Map(Object.entries(consumed).map(([name, value]) => [name, Quantity.parse(value)])),
        ]),
      ),
    },
    classLister: classLister(classes),
    slices,
    celCache: new Cache(1, {
      enableConsumableCapacity: features.consumableCapacity === true,
      enableListTypeAttributes: features.listTypeAttributes === true,
    }),
    poolCache: kept?.poolCache,
  });
  let results: AllocationResult[] | null = null;
  let error: unknown;
  try {
    results = allocator.allocate(tc.node ?? node(node1, region1), claims);
  } catch (err) {
    error = err;
  }
  if (tc.expectError !== undefined) {
    expect(error, "an error").toBeInstanceOf(Error);
    expect((error as Error).message).toContain(tc.expectError);
  } else if (error !== undefined) {
    throw error;
  }
  // Replace every share ID with a fixed value, as upstream's runner.
  for (const result of results ?? []) {
    for (const device of result.devices?.results ?? []) {
      if (device.shareID !== undefined) device.shareID = fixedShareID;
    }
  }
  const expected = tc.expectResults ?? [];
  expect((results ?? []).length, "number of allocation results").toBe(expected.length);
  expected.forEach((want, i) => {
    const got = results![i]!;
    if ("unordered" in want) {
      expect(sortedResults(got.devices?.results)).toEqual(sortedResults(want.results));
      expect(got.devices?.config).toBeUndefined();
      expect(sortedSelector(got.nodeSelector)).toEqual(sortedSelector(want.nodeSelector));
      expect(got.allocationTimestamp).toBeUndefined();
    } else {
      expect(got).toEqual(want);
    }
  });
  // Objects the allocator had access to must not have been modified.
  expect(claims).toEqual(claimsBefore);
  expect(slices).toEqual(slicesBefore);
  expect(classes).toEqual(tc.classes ?? []);
  // With a kept VersionedDeviceSet, a later run may take the kept search and make no step.
  if (
    tc.expectNumAllocateOneInvocations !== undefined &&
    tc.expectNumAllocateOneInvocations > 0 &&
    kept?.allocatedDevices === undefined
  ) {
    expect(allocator.stats().numAllocateOneInvocations).toBe(tc.expectNumAllocateOneInvocations);
  }
  return allocator;
}
