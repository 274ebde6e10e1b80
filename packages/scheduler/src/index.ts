export * from "./cluster-source";
export * from "./custom-resource-stores";
export * from "./explain";
export * from "./extender";
export { type CreateLoggerOptions, createLogger } from "./logger";
export * from "./metrics";
export * from "./object-store";
export {
  minFeasibleNodesPercentageToFind,
  minFeasibleNodesToFind,
  numFeasibleNodesToFind,
} from "./schedule-one";
export { Scheduler, type SchedulerOptions, type SchedulingObserver } from "./scheduler";
