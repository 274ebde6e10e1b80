export { isConflict, isNotFound, KubeApiError } from "./api-error";
export { type KubeClusterClientOptions, kubeClusterClient, podStatusPatchBody } from "./client";
export {
  KubeEventRecorder,
  type KubeEventRecorderOptions,
  maxNoteLength,
  truncateNote,
} from "./event-recorder";
export {
  type BackoffOptions,
  defaultBackoff,
  Informer,
  type InformerHandlers,
  type InformerOptions,
} from "./informer";
export {
  type Informers,
  KubeClusterSource,
  type KubeClusterSourceOptions,
  type WatchedObjects,
} from "./kube-cluster-source";
export { buildKubeConfig, type KubeConfig } from "./kube-config";
export {
  jitterFactor,
  type LeaderCallbacks,
  type LeaderElectionRecord,
  LeaderElector,
  type LeaderElectorOptions,
} from "./leader-election";
export { formatMicroTime, formatTime } from "./micro-time";
export { RawClient, type RawRequestOptions } from "./raw-client";
export { type ReadClusterOptions, readCluster } from "./read-cluster";
export { podFieldSelector, type ResourceSpec, resources, type WatchedKind, watchedKinds } from "./resources";
