// upstream: staging/src/k8s.io/kube-scheduler/framework/listers.go (SharedDRAManager,
// ResourceClaimTracker, ResourceSliceLister, DeviceClassLister, DeviceClassResolver) at
// kubernetes/kubernetes@81810de6; NodeResourcesFit reads it in noderesources/resource_allocation.go
// (getDRAPreScoredParams: ResourceClaims().GatherAllocatedState(), ResourceSlices()
// .ListWithDeviceTaintRules()) at kubernetes/kubernetes@b170451c.
import type { DeviceClass, Quantity, ResourceClaim, ResourceSlice } from "@kubesched/api";
import type { ClusterScopedLister } from "./cluster-listers";

/**
 * What allocated claims use (upstream structured.AllocatedState): devices allocated exclusively
 * (`<driver>/<pool>/<device>`), the shares of devices that allow multiple allocations
 * (`<device id>/<share id>`) and the capacity those shares consume per device.
 * @public
 */
export interface DRAAllocatedState {
  /** Devices allocated exclusively (upstream AllocatedDevices). */
  readonly allocatedDevices: ReadonlySet<string>;
  /** Shares of devices that allow multiple allocations (upstream AllocatedSharedDeviceIDs). */
  readonly allocatedSharedDeviceIDs: ReadonlySet<string>;
  /** Per device, the capacity its shares consume by name (upstream AggregatedCapacity). */
  readonly aggregatedCapacity: ReadonlyMap<string, ReadonlyMap<string, Quantity>>;
}

/**
 * The ResourceClaims as the scheduler sees them between cycles (upstream ResourceClaimTracker):
 * the informer's objects through the assume cache (the object PreBind wrote wins until the
 * informer catches up) and the in-flight allocations (Reserve allocated, PreBind not written).
 * @public
 */
export interface ResourceClaimTracker {
  /** The claim through the assume cache, or undefined. */
  get(namespace: string, name: string): ResourceClaim | undefined;
  /** Every claim, through the assume cache. */
  list(): ResourceClaim[];
  /**
   * upstream ListAllAllocatedDevices: the devices of every allocated claim (assume cache) and of
   * every in-flight allocation; admin access takes no device.
   */
  listAllAllocatedDevices(): Set<string>;
  /**
   * What {@link gatherAllocatedState} gathers (without consumable capacity, shared allocations
   * count as devices), kept up to date between calls: read it within the cycle and do not change
   * it (the next call does; copy it to change it).
   */
  allocatedState(enableConsumableCapacity: boolean): DRAAllocatedState;
  /**
   * upstream IsDeviceAllocated over {@link allocatedState}: the devices some claim holds,
   * exclusively or by a share (admin access takes none). Kept with the allocated state of the
   * same setting; read it within the cycle and do not change it.
   */
  heldDevices(enableConsumableCapacity: boolean): ReadonlySet<string>;
  /** upstream GatherAllocatedState (with DRAConsumableCapacity): a new state, gathered from every claim. */
  gatherAllocatedState(): DRAAllocatedState;
  /** upstream SignalClaimPendingAllocation: Reserve allocated the claim (not written yet). */
  signalClaimPendingAllocation(claimUID: string, allocatedClaim: ResourceClaim): void;
  /** upstream ClaimHasPendingAllocation. */
  claimHasPendingAllocation(claimUID: string): boolean;
  /** upstream RemoveClaimPendingAllocation; true when the claim was in flight. */
  removeClaimPendingAllocation(claimUID: string): boolean;
  /** upstream AssumeClaimAfterAPICall: the object the API server answered PreBind's write with. */
  assumeClaimAfterAPICall(claim: ResourceClaim): void;
  /** upstream AssumedClaimRestore: drops an assumed object, the informer's is current again. */
  assumedClaimRestore(namespace: string, name: string): void;
  /** The claims whose allocation is in flight. */
  inFlightClaims(): ResourceClaim[];
  /** The claims the assume cache holds newer than the informer's. */
  assumedClaims(): ResourceClaim[];
}

/**
 * Which DeviceClass backs an extended resource name (upstream DeviceClassResolver,
 * DRAExtendedResource).
 * @public
 */
export interface DeviceClassResolver {
  /** The class backing `resourceName`, or undefined. */
  getDeviceClass(resourceName: string): DeviceClass | undefined;
  /** Whether some DeviceClass exists. */
  hasClasses(): boolean;
}

/**
 * The ResourceSlices the scheduler allocates from (upstream ResourceSliceLister).
 * @public
 */
export interface ResourceSliceLister {
  /**
   * Every slice; with DRADeviceTaintRules, with the taints of the DeviceTaintRules added
   * (upstream ListWithDeviceTaintRules). The same array, and the same slice objects, while
   * nothing changed.
   */
  list(): readonly ResourceSlice[];
}

/**
 * The scheduler's one DRA state (upstream fwk.SharedDRAManager), made once per scheduler and
 * handed to every profile's framework (`handle.sharedDRAManager()`): the DynamicResources plugin
 * and NodeResourcesFit's DRA-backed extended resources of every profile read and update it, so
 * that a device one profile allocates is taken for all of them.
 * @public
 */
export interface SharedDRAManager {
  /** The claims through the assume cache, with the in-flight allocations. */
  resourceClaims(): ResourceClaimTracker;
  /** The slices, patched by DeviceTaintRules with DRADeviceTaintRules. */
  resourceSlices(): ResourceSliceLister;
  /** The DeviceClass informer cache. */
  deviceClasses(): ClusterScopedLister<DeviceClass>;
  /** The DeviceClass backing each extended resource name (DRAExtendedResource). */
  deviceClassResolver(): DeviceClassResolver;
}
