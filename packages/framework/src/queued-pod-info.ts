// upstream: pkg/scheduler/framework/types.go (QueuedPodInfo)
import type { PodInfo } from "./pod-info";

/**
 * A pod in the scheduling queue with its queueing bookkeeping (what a QueueSort plugin compares).
 * @public
 */
export interface QueuedPodInfo {
  /** The pod. */
  podInfo: PodInfo;
  /** When the pod was (re)added to the queue, in clock milliseconds. */
  timestamp: number;
  /** Number of times the pod was popped for scheduling. */
  attempts: number;
  /** Rejections by plugins, for backoff. */
  unschedulableCount: number;
  /** Consecutive errors (no rejecting plugin), for backoff. */
  consecutiveErrorsCount: number;
  /** When the pod was first popped; null until then. */
  initialAttemptTimestamp: number | null;
  /** Plugins that rejected the pod in its last attempt (Unschedulable / UnschedulableAndUnresolvable). */
  unschedulablePlugins: Set<string>;
  /** Plugins that returned Pending in its last attempt. */
  pendingPlugins: Set<string>;
  /** The PreEnqueue plugin gating the pod, "" when not gated. */
  gatingPlugin: string;
}
