// The scheduler's state, shared by the scheduling and binding cycles (schedule-one.ts) and the
// event handlers (event-handlers.ts). Internal: the package exports `Scheduler`, not this.
import type { Pod } from "@kubesched/api";
import type { Cache, Snapshot } from "@kubesched/cache";
import type { Clock, Extender, Logger, Random } from "@kubesched/framework";
import type { SchedulingQueue } from "@kubesched/queue";
import type { Framework } from "@kubesched/runtime";
import type { ClusterSource } from "./cluster-source";
import type { ExplainRecorder } from "./explain";
import type { SchedulerMetrics } from "./metrics";
import type { PhaseRecorder } from "./phases";
import type { SchedulingObserver } from "./scheduler";

export interface SchedulerState {
  readonly profiles: ReadonlyMap<string, Framework>;
  readonly queue: SchedulingQueue;
  readonly cache: Cache;
  /** Updated from the cache at the start of every cycle; the frameworks read it. */
  readonly snapshot: Snapshot;
  readonly source: ClusterSource;
  readonly extenders: readonly Extender[];
  readonly metrics: SchedulerMetrics | null;
  readonly observer: SchedulingObserver;
  readonly explain: ExplainRecorder | null;
  /** Per-phase wall time of the cycles (benchmarks); null: not measured. */
  readonly phases: PhaseRecorder | null;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly rand: Random;
  readonly percentageOfNodesToScore: number;
  /**
   * SchedulerQueueingHints (locked on upstream): assigned-pod events reach every unschedulable
   * pod's queueing hints, not only the pods the queue's in-tree pre-filter picks.
   */
  readonly queueingHints: boolean;
  frameworkForPod(pod: Pod): Framework | undefined;
  responsibleForPod(pod: Pod): boolean;
  /** Where the next cycle starts filtering (upstream nextStartNodeIndex). */
  nextStartNodeIndex: number;
  /** Counts cycles to sample plugin metrics on 10 % of them without touching the seeded stream. */
  cycleCounter: number;
  /** Binding cycles in progress. */
  readonly inflightBindings: Set<Promise<void>>;
}
