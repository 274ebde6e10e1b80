export type { ClusterEventHandlers, ClusterSource, OtherResourceKind } from "@kubesched/scheduler";
export * from "./admission";
export * from "./capacity";
export * from "./diff";
export * from "./in-memory-cluster";
export * from "./load";
export * from "./simulate";
export * from "./simulation-result-schema";
export * from "./workloads";
