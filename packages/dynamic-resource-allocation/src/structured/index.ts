// The structured parameters allocator (upstream k8s.io/dynamic-resource-allocation/structured).
export {
  type Allocator,
  type AllocatorOptions,
  type AllocatorStats,
  allocatorChannel,
  newAllocator,
} from "./allocator";
export { taintPreventsAllocation, toleratesTaint } from "./device-taints";
export { PoolCache } from "./pool-cache";
export { gatherPools, nodeMatches, type Pool } from "./pools";
export {
  applyDeviceTaintRules,
  ResourceSliceTracker,
  type RetaintedSlice,
  type SliceTrackerSources,
  slicesRetainted,
} from "./resource-slice-tracker";
export {
  type AllocatedState,
  type AllocatorChannel,
  type ConsumedCapacity,
  type DeviceClassLister,
  type DeviceID,
  FailedAllocationOnNodeError,
  type Features,
  featureSet,
  featuresAll,
  isFailedAllocationOnNode,
  makeDeviceID,
  makeSharedDeviceID,
  type SharedDeviceID,
} from "./types";
export { type PoolChanges, VersionedDeviceSet } from "./versioned-device-set";
