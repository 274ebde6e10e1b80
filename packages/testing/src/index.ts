// @kubesched/testing — builders (upstream pkg/scheduler/testing/wrappers.go) and test helpers.
export * from "./builders";
export { type StatusSummary, statusSummary } from "./status-summary";
