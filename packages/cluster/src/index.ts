export type { ClusterEventHandlers, ClusterSource, OtherResourceKind } from "@kubesched/scheduler";
export * from "./admission";
export * from "./capacity";
export * from "./diff";
export * from "./in-memory-cluster";
export { defaultMaxInputBytes, formatByteSize } from "./input-reader";
export * from "./load";
export * from "./simulate";
export * from "./workloads";
