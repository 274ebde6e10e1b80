// metav1.Time/MicroTime formatting lives in @kubesched/api; re-exported for existing imports.
export { formatMicroTime, formatTime } from "@kubesched/api";
export {
  isConflict,
  isExpired,
  isNotFound,
  isTooLargeResourceVersion,
  KubeApiError,
} from "./api-error";
export {
  type BackoffConfig,
  delayWithReset,
  jitter,
  reflectorBackoff,
  reflectorBackoffResetMs,
} from "./backoff";
export {
  type EventV1,
  eventSeriesFinishMs,
  eventSeriesRefreshMs,
  KubeEventRecorder,
  type KubeEventRecorderOptions,
  maxNoteLength,
  maxQueuedEvents,
  truncateNote,
} from "./event-recorder";
export { RateLimiterWaitError, TokenBucketRateLimiter } from "./flowcontrol";
export {
  DeletedFinalStateUnknown,
  Informer,
  type InformerHandlers,
  type InformerOptions,
  VeryShortWatchError,
} from "./informer";
export { type KubeClusterClientOptions, kubeClusterClient, podStatusPatchBody } from "./kube-cluster-client";
export {
  draKinds,
  type Informers,
  KubeClusterSource,
  type KubeClusterSourceOptions,
  type WatchedObjects,
} from "./kube-cluster-source";
export {
  inClusterAvailable,
  type KubeConfig,
  KubeConfigError,
  type KubeConfigFlags,
  type ResolvedKubeConfig,
  type ResolveKubeConfigOptions,
  resolveKubeConfig,
  serviceAccountDir,
} from "./kube-config";
export {
  jitterFactor,
  type LeaderCallbacks,
  type LeaderElectionRecord,
  LeaderElector,
  type LeaderElectorOptions,
} from "./leader-election";
export { ClientMetrics } from "./metrics";
export {
  isConnectionRefused,
  RawClient,
  type RawClientOptions,
  type RawRequestOptions,
  type WatchRequest,
  type WatchResult,
} from "./raw-client";
export { type ReadClusterOptions, readCluster, readServerVersion } from "./read-cluster";
export {
  deviceTaintRuleAPIVersionAt,
  deviceTaintRuleResource,
  podFieldSelector,
  type ResourceSpec,
  resources,
  type WatchedKind,
  watchedKinds,
} from "./resources";
export { findUnservedResources, type UnservedResource } from "./served-resources";
