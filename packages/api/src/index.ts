export { type DecodedJSON, decodeJSON, formatJSONPath, isJsonObject, type JSONPath, jsonDepth } from "./json";
export {
  everything,
  LabelSelectorError,
  type Labels,
  labelSelectorAsSelector,
  matchesNothing,
  newRequirement,
  nothing,
  type Operator,
  operatorString,
  parseInt64,
  parseSelector,
  type Requirement,
  requirementErrors,
  type Selector,
  selectorFromRequirements,
  selectorFromSet,
} from "./labels";
export {
  getRequiredNodeAffinity,
  NodeSelectorError,
  NodeSelectorMatcher,
  type NodeSelectorOptions,
  newNodeSelector,
  PreferredSchedulingTermsMatcher,
  RequiredNodeAffinity,
} from "./node-affinity";
export {
  getPodCondition,
  hasSchedulingGates,
  isPodTerminating,
  namespacedName,
  podHasAffinity,
  podHasRequiredAntiAffinity,
  podIsTerminal,
  podKey,
  podPriority,
  podStartTime,
  podStartTimeMillis,
  podUID,
  updatePodCondition,
} from "./pod";
export { DefaultBindAllHostIP, getContainerPorts, HostPortInfo } from "./ports";
export {
  parseQuantity,
  Quantity,
  type QuantityFormat,
  QuantityParseError,
  quantityMilliValue,
  quantityValue,
  tryParseQuantity,
} from "./quantity";
export {
  convertResourceObjectToV1,
  deviceTaintRuleAPIVersions,
  type ResourceKind,
  resourceAPIVersions,
  resourceKinds,
} from "./resource-conversion";
export type * from "./resource-v1";
export {
  AllocationResultsMaxSize,
  CELSelectorExpressionMaxCost,
  CELSelectorExpressionMaxLength,
  DRAAdminNamespaceLabelKey,
  ExtendedResourceClaimAnnotation,
  PodResourceClaimAnnotation,
  ResourceAPIVersion,
  ResourceClaimFinalizer,
  ResourceClaimReservedForMaxSize,
  ResourceDeviceClassPrefix,
  ResourceSliceMaxDevices,
  ResourceSliceMaxDevicesWithAdvancedFeatures,
} from "./resource-v1";
export {
  type ContainerResourcesFn,
  DefaultMemoryRequest,
  DefaultMilliCPURequest,
  formatResourceAmount,
  getContainerDRAAllocations,
  isAttachableVolumeResourceName,
  isExtendedResourceName,
  isHugePageResourceName,
  isNativeResource,
  isPodLevelLimitsSet,
  isPodLevelRequestsSet,
  isPodLevelResourcesSet,
  isPodResizeInfeasible,
  isPrefixedNativeResource,
  isScalarResourceName,
  isSupportedPodLevelResource,
  type PodResourcesOptions,
  podLimits,
  podRequests,
  type ResourceAmounts,
  ResourceCPU,
  ResourceEphemeralStorage,
  ResourceMemory,
  ResourcePods,
  resourceAmount,
  resourceListToAmounts,
} from "./resources";
export {
  BetaStorageClassAnnotation,
  getPersistentVolumeClaimClass,
  getPersistentVolumeClass,
} from "./storage";
export {
  doNotScheduleTaintsFilter,
  findMatchingUntoleratedTaint,
  formatTaintForMessage,
  TaintEffectNoExecute,
  TaintEffectNoSchedule,
  TaintEffectPreferNoSchedule,
  type TolerationOptions,
  taintToString,
  tolerationsTolerateTaint,
  tolerationToleratesTaint,
} from "./taints";
export { escapeTerminal } from "./terminal";
export { formatMicroTime, formatTime } from "./time";
export type * from "./types";
export { isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from "./validation";
export { type VersionInfo, versionInfoMinor } from "./version-info";
export {
  LabelFailureDomainBetaRegion,
  LabelFailureDomainBetaZone,
  LabelHostname,
  LabelTopologyRegion,
  LabelTopologyZone,
} from "./well-known-labels";
