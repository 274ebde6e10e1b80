// The structured parameters allocator (upstream k8s.io/dynamic-resource-allocation/structured).
export {
  type Allocator,
  type AllocatorOptions,
  type AllocatorStats,
  allocatorChannel,
  newAllocator,
} from "./allocator";
export { taintPreventsAllocation, toleratesTaint } from "./device-taints";
export {
  allocationSkipsNodeOperations,
  nodeDeclaresOptionalNodeOperations,
  optionalNodeOperationsFeature,
} from "./optional-node-operations";
export { groupSlicesByNode, KeptSlicesByNode, PoolCache, type SlicesByNode, sameObjects } from "./pool-cache";
export {
  deviceReachesNode,
  gatherPools,
  NodeSelectorCache,
  type NodeSelectorSource,
  nodeMatches,
  type Pool,
  parseNodeSelector,
  parsingNodeSelectors,
  sliceReachesNode,
} from "./pools";
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
  DeadlineExceeded,
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
