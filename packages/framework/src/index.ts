// @kubesched/framework — the plugin API: upstream's plugin contract (k8s.io/kube-scheduler/framework
// and the small shared pieces of pkg/scheduler/framework). Plugins import this package and
// @kubesched/api only; the opt-in columnar fast path is the `@kubesched/framework/columnar` subpath.
export * from "./client";
export * from "./clock";
export * from "./cluster-events";
export * from "./cluster-listers";
export * from "./custom-resources";
export * from "./cycle-state";
export * from "./define-args";
export * from "./descriptor";
export * from "./diagnosis";
export * from "./dra-node-allocatable";
export * from "./event-recorder";
export * from "./extender";
export * from "./features";
export * from "./field-errors";
export * from "./filter-details";
export * from "./handle";
export * from "./hint-objects";
export * from "./interface";
export * from "./listers";
export * from "./logger";
export * from "./manual-clock";
export * from "./node-info";
export * from "./normalize-score";
export * from "./plugin-args";
export * from "./pod-info";
export * from "./queued-pod-info";
export * from "./random";
export * from "./resource";
export * from "./shared-dra-manager";
export * from "./signers";
export * from "./status";
