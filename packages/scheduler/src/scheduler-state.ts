// The scheduler's state, shared by the scheduling and binding cycles (schedule-one.ts) and the
// event handlers (event-handlers.ts). Internal: the package exports `Scheduler`, not this.
import type { Pod } from "@kubesched/api";
import type { Cache, Snapshot } from "@kubesched/cache";
import type { Clock, Extender, Logger, Random } from "@kubesched/framework";
import type { SchedulingQueue } from "@kubesched/queue";
import type { Framework } from "@kubesched/runtime";
import type { ClusterSource } from "./cluster-source";
import type { SchedulerMetrics } from "./metrics";
import type { CyclePhases } from "./schedule-one";

export interface SchedulerState {
  readonly profiles: ReadonlyMap<string, Framework>;
  readonly queue: SchedulingQueue;
  readonly cache: Cache;
  /** Updated from the cache at the start of every cycle; the frameworks read it. */
  readonly snapshot: Snapshot;
  readonly source: ClusterSource;
  readonly extenders: readonly Extender[];
  /** The cache and queue gauges (updateCacheMetrics); the cycles record through `cycle`. */
  readonly metrics: SchedulerMetrics | null;
  /** scheduleOne's phase functions: plain, or decorated for the scheduler's observer. */
  readonly cycle: CyclePhases;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly rand: Random;
  readonly percentageOfNodesToScore: number;
  /**
   * SchedulerQueueingHints (locked on upstream): assigned-pod events reach every unschedulable
   * pod's queueing hints, not only the pods the queue's in-tree pre-filter picks.
   */
  readonly queueingHints: boolean;
  /**
   * DRANodeAllocatableResources: the cache counts the node allocatable resources of bound pods'
   * DRA claims (`status.nodeAllocatableResourceClaimStatuses`); off, it does not read them
   * (upstream PodInfo.CalculateResource's gate).
   */
  readonly draNodeAllocatableResources: boolean;
  frameworkForPod(pod: Pod): Framework | undefined;
  responsibleForPod(pod: Pod): boolean;
  /** Where the next cycle starts filtering (upstream nextStartNodeIndex). */
  nextStartNodeIndex: number;
  /** The signal `run` was given (upstream's ctx): every cycle's CycleState carries it. */
  runSignal: AbortSignal | undefined;
  /** Binding cycles in progress. */
  readonly inflightBindings: Set<Promise<void>>;
}
