// @kubesched/queue — the scheduling queue (upstream pkg/scheduler/backend/queue).
export {
  clusterEventIsWildCard,
  EventAssignedPodAdd,
  EventAssignedPodDelete,
  EventAssignedPodUpdate,
  EventForceActivate,
  EventUnschedulableTimeout,
  EventUnscheduledPodAdd,
  EventUnscheduledPodDelete,
  EventUnscheduledPodUpdate,
  nodeSchedulingPropertiesChange,
  podSchedulingPropertiesChange,
} from "./events";
export {
  buildQueueingHintMap,
  type QueueingHintFunction,
  type QueueingHintMap,
  type QueueingHintMapPerProfile,
} from "./queueing-hints";
export {
  DefaultPodInitialBackoffMs,
  DefaultPodMaxBackoffMs,
  DefaultPodMaxInUnschedulablePodsDurationMs,
  PriorityQueue,
  type QueueCounts,
  QueueingStrategy,
  type QueueMetricsRecorder,
  type QueueName,
  type QueueOptions,
  type SchedulingQueue,
  UnschedulablePodsFlushIntervalMs,
} from "./scheduling-queue";
