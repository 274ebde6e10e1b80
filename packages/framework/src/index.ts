// @kubesched/framework — the plugin API. Plugins import this package and @kubesched/api only.
export * from "./args-decoding";
export * from "./cluster";
export * from "./cycle-state";
export * from "./descriptor";
export * from "./diagnosis";
export * from "./events";
export * from "./extender";
export * from "./features";
export * from "./field-errors";
export * from "./handle";
export * from "./interface";
export * from "./node-info";
export * from "./normalize-score";
export * from "./pod-info";
export * from "./queued-pod-info";
export * from "./resource";
export * from "./status";
