export * from "./cluster-source";
export * from "./explain";
export * from "./extender";
export { type CreateLoggerOptions, createLogger } from "./logger";
export * from "./metrics";
export * from "./object-store";
export {
  errNoNodesAvailable,
  extenderName,
  handleSchedulingFailure,
  minFeasibleNodesPercentageToFind,
  minFeasibleNodesToFind,
  numFeasibleNodesToFind,
  type ScheduleResult,
  selectHost,
} from "./schedule-one";
export * from "./scheduler";
