// @kubesched/runtime — the framework runtime (upstream pkg/scheduler/framework/runtime).

export {
  type BatchAttempt,
  type BatchFlushReason,
  type BatchHandle,
  type BatchStats,
  maxBatchAgeMs,
  OpportunisticBatch,
  type RawNodeScores,
  type ScoredCandidate,
  SortedScoredNodes,
} from "./batch";
export {
  diagnoseFilters,
  type FilterDiagnosis,
  type FilterRejection,
  type NodeFilterDiagnosis,
  nodeFits,
  type PreFilterDiagnosis,
  preFilterRejects,
} from "./diagnose-filters";
export {
  formatFilterDetail,
  formatReasonGroup,
  groupFilterDiagnosis,
  type ReasonGroup,
} from "./diagnosis-groups";
export {
  ExtenderName,
  type ExtensionPointName,
  Framework,
  type FrameworkOptions,
  MaxPermitTimeoutMs,
  type NodeScoresOutput,
  type PluginEvents,
  type PreFilterOutput,
  type ScoreOutput,
} from "./framework";
export { newFramework } from "./observed-framework";
export {
  composeObservers,
  observerMethods,
  type SchedulingObserver,
  type SchedulingPhase,
  schedulingPhases,
} from "./observer";
export { chunkSizeFor, DefaultParallelism, Parallelizer } from "./parallelize";
export { newProfileMap, type ProfileMap, type ProfileMapOptions } from "./profile-map";
export { createRegistry, mergeRegistries } from "./registry";
export { WaitingPodImpl, WaitingPodsMap } from "./waiting-pods-map";
