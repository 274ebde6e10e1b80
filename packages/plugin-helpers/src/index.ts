// @kubesched/plugin-helpers — code several plugins share: upstream
// pkg/scheduler/framework/plugins/helper and noderesources' resource allocation scorer.

export {
  AllocatedStateCounter,
  addClaimToAllocatedState,
  cloneAllocatedState,
  foreachAllocatedDevice,
  type MutableAllocatedState,
  newAllocatedState,
  removeClaimFromAllocatedState,
} from "./allocated-state";
export { DeviceClassResolver, isDRAExtendedResourceName } from "./device-class-resolver";
export {
  DRAExtendedResourceScoring,
  DRAPreScoreState,
  type DRAScoringCELFeatures,
} from "./dra-extended-resource-score";
export { ClaimTracker, DefaultDRAManager, type DRAManagerOptions } from "./dra-manager";
export {
  leastResourceScorer,
  mostResourceScorer,
  ResourceAllocationScorer,
  type ResourceAllocationScorerOptions,
  type ResourceScorerBatchFn,
  type ResourceScorerFn,
  requestedToCapacityRatioScorer,
  scoreColumnsPerNode,
} from "./resource-allocation";
export { buildBrokenLinearFunction, type FunctionShapePoint } from "./shape-score";
export { signatureDisabledWithDRAExtendedResource, signPodResources } from "./sign-resources";
export { type FollowedSource, type ListedObject, ListFollower } from "./sync-list";
