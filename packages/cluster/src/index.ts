export type { ClusterEventHandlers, ClusterSource, OtherResourceKind } from "@kubesched/scheduler";
export * from "./admission";
export * from "./capacity";
export * from "./counterfactual";
export type { AllocatedDevice, DeviceClassResult, NodeDeviceResult, PodClaimResult } from "./device-usage";
export * from "./diff";
export { SpillExplanationStore } from "./explain-spill";
export * from "./fragmentation";
export * from "./in-memory-cluster";
export { defaultMaxInputBytes, formatByteSize } from "./input-reader";
export * from "./load";
export * from "./parsed-input-cache";
export * from "./plan";
export {
  devicesFit,
  type PlanDeviceBound,
  type PlanDeviceFindings,
  planDeviceBound,
  planDeviceFindings,
} from "./plan-device-bound";
export * from "./plan-report-schema";
export { poolResourceSlices } from "./pool-resource-slices";
export { redactedValue, redactObject, schedulerAnnotationPrefixes } from "./redact";
export {
  claimGenerateName,
  FailedResourceClaimCreation,
  ResourceClaimController,
} from "./resourceclaim-controller";
export { type RecordedServerVersion, serverVersionAnnotation, snapshotList } from "./server-version";
export * from "./simulate";
export * from "./simulation-result-schema";
export * from "./why";
export type { WhyFix, WhyFixSearch } from "./why-fixes";
export * from "./why-report-schema";
export * from "./workloads";
