// The one observer of scheduling is the runtime's (its framework events are emitted there).
export {
  composeObservers,
  type SchedulingObserver,
  type SchedulingPhase,
  schedulingPhases,
} from "@kubesched/runtime";
export * from "./cluster-source";
export * from "./custom-resource-stores";
export * from "./explain";
export * from "./extender";
export { type CreateLoggerOptions, createLogger } from "./logger";
export * from "./metrics";
export * from "./object-store";
export { PhaseRecorder } from "./phases";
export {
  minFeasibleNodesPercentageToFind,
  minFeasibleNodesToFind,
  numFeasibleNodesToFind,
} from "./schedule-one";
export { Scheduler, type SchedulerOptions } from "./scheduler";
export { lastAppliedConfigAnnotation, trimObject } from "./trim-object";
