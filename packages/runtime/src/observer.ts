// One observer of scheduling: what the scheduler's metrics, `simulate --explain`, the benchmark's
// phase breakdown and callers watching outcomes see. Upstream spreads the same instrumentation
// over the framework's metrics recorder (runtime/framework.go), the instrumented plugins
// (runtime/instrumented_plugins.go) and the metrics calls of schedule_one.go; here each of them
// is an implementation of this one interface, applied at the edges: the runtime wraps plugins
// and its run*Plugins entry points when a profile is built (instrumented-plugins.ts,
// observed-framework.ts), the scheduler decorates schedule-one's phase functions. Without an
// observer nothing is wrapped and the loops run plain.
import type { Pod } from "@kubesched/api";
import type {
  CycleState,
  NodeScore,
  NominatingInfo,
  PostFilterResult,
  PreFilterResult,
  QueuedPodInfo,
  Status,
} from "@kubesched/framework";
import type { BatchAttempt, BatchFlushReason } from "./batch";

/** The phases an attempt's time is split into (`onPhase`), in cycle order. */
export const schedulingPhases = [
  /** queue.pop and the checks before a cycle (profile lookup, skipped pods). */
  "pop",
  /** cache.updateSnapshot: the NodeInfos (and columns) changed since the last cycle. */
  "snapshot",
  "preFilter",
  /** Filter over the nodes (with nominated pods). */
  "filter",
  /** PostFilter (preemption) after a FitError, until its first await. */
  "postFilter",
  /** PreScore, Score, NormalizeScore and weights. */
  "score",
  /** selectHost. */
  "select",
  /** The assumed pod: cache.assumePod, Reserve, Permit. */
  "assume",
  /** The binding cycle's synchronous stretches: PreBind, Bind (the API call and what the cluster source does with it), PostBind. */
  "bind",
  /** Events and pod status patches. */
  "events",
  /** A failed attempt back to the queue (the failure handling without events and metrics). */
  "requeue",
  /** The scheduler's metrics (`SchedulerMetrics`): time spent recording them, taken out of the phase they were recorded in. */
  "metrics",
] as const;

export type SchedulingPhase = (typeof schedulingPhases)[number];

/**
 * What happens while pods are scheduled. Every method is optional; an observer implements the
 * events it needs, and only those are instrumented: the runtime wraps plugins when some plugin
 * event is implemented, decorates its run*Plugins entry points for `onExtensionPoint`, and the
 * scheduler decorates its phase functions for the attempt events. Methods run synchronously
 * inside the scheduling loop: keep them cheap. Combine several with `composeObservers`.
 */
export interface SchedulingObserver {
  // -------------------------------------------------------------------------------------------
  // Attempts (the scheduler's scheduleOne)

  /**
   * A scheduling cycle begins for the pod (after the queue pop and the skip checks). When the
   * observer implements `onPluginDuration`, `state.recordPluginMetrics` is already set: 10 % of
   * cycles are sampled (upstream pluginMetricsSamplePercent).
   */
  onAttemptStart?(pod: Pod, profile: string, state: CycleState): void;
  /**
   * A synchronous stretch of an attempt spent in `phase`, from `startMs` to `endMs`
   * (`performance.now()`). Asynchronous work is counted up to its first await.
   */
  onPhase?(phase: SchedulingPhase, startMs: number, endMs: number): void;
  /** The scheduling algorithm (snapshot, PreFilter, Filter, Score, select) ran, whether a host was found or not. */
  onAlgorithmDone?(pod: Pod, durationMs: number): void;
  /**
   * The host selected, with the final score of every feasible node in their order (null when a
   * single node was feasible: nothing was scored).
   */
  onHostSelected?(pod: Pod, host: string, finalScores: readonly NodeScore[] | null): void;
  /** The scheduling cycle ended: null, the pod is assumed on its host and its binding cycle starts; else why it failed. */
  onSchedulingCycleDone?(pod: Pod, status: Status | null): void;
  /** A binding cycle started; `inFlight` are in progress (this one included). */
  onBindingStart?(inFlight: number): void;
  /** The pod was bound to `nodeName` (before PostBind, where upstream records the attempt). */
  onScheduled?(pod: Pod, nodeName: string, info: QueuedPodInfo, profile: string, attemptMs: number): void;
  /** An attempt failed; `reason` is the PodScheduled condition reason, `message` the status message. */
  onFailed?(
    pod: Pod,
    status: Status,
    reason: "Unschedulable" | "SchedulerError",
    message: string,
    nominatingInfo: NominatingInfo | null,
    info: QueuedPodInfo,
    profile: string,
    attemptMs: number,
  ): void;

  // -------------------------------------------------------------------------------------------
  // Extension points (the framework's run*Plugins entry points)

  /**
   * All plugins of an extension point ran (upstream framework_extension_point_duration_seconds;
   * `point` as upstream's label: PreFilter, Filter, PostFilter, PreScore, Score, Reserve,
   * Unreserve, Permit, PreBindPreFlight, PreBind, Bind, PostBind). Filter is the pass over the
   * nodes of a cycle, its status an Error when a node's Filter errored.
   */
  onExtensionPoint?(profile: string, point: string, status: Status | null, durationMs: number): void;

  // -------------------------------------------------------------------------------------------
  // Plugins (each plugin wrapped when the profile is built)

  /**
   * `runs` runs of a plugin at `point` (upstream plugin_execution_duration_seconds labels, plus
   * PreFilterExtensionAddPod/RemovePod and ScoreExtensionNormalize) that returned `status` (its
   * code) and took `durationMs` each (the average of a columnar call over several nodes). Only
   * on cycles with `state.recordPluginMetrics`.
   */
  onPluginDuration?(
    plugin: string,
    point: string,
    status: Status | null,
    durationMs: number,
    runs: number,
  ): void;
  /** A PreFilter plugin's status and result. */
  onPreFilter?(plugin: string, status: Status | null, result: PreFilterResult | null): void;
  /**
   * A Filter plugin's outcome on a node, as the runtime reports it: null when it passes, else
   * the status with the plugin named (anything but a rejection becomes an Error). Every plugin
   * run on every node is reported, in node order, up to the first that fails on that node; with
   * this method the runtime filters node by node (no windows past the early stop).
   */
  onFilter?(plugin: string, nodeName: string, status: Status | null): void;
  /** A PostFilter plugin's status and result. */
  onPostFilter?(plugin: string, status: Status | null, result: PostFilterResult | null): void;
  /** A PreScore plugin's status. */
  onPreScore?(plugin: string, status: Status | null): void;
  /** A Score plugin's raw score of a node (`weight`: the plugin's weight in the profile). */
  onScore?(plugin: string, nodeName: string, score: number, weight: number): void;
  /** The node's score after the plugin's NormalizeScore (only for plugins that have one). */
  onNormalizeScore?(plugin: string, nodeName: string, score: number, weight: number): void;

  // -------------------------------------------------------------------------------------------
  // Metrics plugins record themselves (Handle.pluginMetrics())

  /** One preemption attempt (upstream scheduler_preemption_attempts_total). */
  onPreemptionAttempt?(): void;
  /** The victims of the selected preemption candidate (upstream scheduler_preemption_victims). */
  onPreemptionVictims?(count: number): void;

  // -------------------------------------------------------------------------------------------
  // Opportunistic batching (KEP-5598)

  /**
   * A pod asked the batch for a node hint ("no_hint"), or a node was selected after one
   * ("hint_used", "hint_not_used") (upstream scheduler_batch_attempts_total).
   */
  onBatchAttempt?(profile: string, result: BatchAttempt): void;
  /** A usable batch state was discarded, and why (upstream scheduler_batch_cache_flushed_total). */
  onBatchCacheFlushed?(profile: string, reason: BatchFlushReason): void;
}

type Method = keyof SchedulingObserver;

// Every method, checked complete by the type: composeObservers forwards each.
const methodSet: Record<Method, true> = {
  onAttemptStart: true,
  onPhase: true,
  onAlgorithmDone: true,
  onHostSelected: true,
  onSchedulingCycleDone: true,
  onBindingStart: true,
  onScheduled: true,
  onFailed: true,
  onExtensionPoint: true,
  onPluginDuration: true,
  onPreFilter: true,
  onFilter: true,
  onPostFilter: true,
  onPreScore: true,
  onScore: true,
  onNormalizeScore: true,
  onPreemptionAttempt: true,
  onPreemptionVictims: true,
  onBatchAttempt: true,
  onBatchCacheFlushed: true,
};

/** The observer's methods, for decorators that forward each one. */
export const observerMethods = Object.keys(methodSet) as readonly Method[];

type AnyMethod = (...args: unknown[]) => void;

/**
 * One observer that forwards every event to each of `observers` that implements it, in order.
 * It implements exactly the methods some of them do, so what is instrumented is still decided by
 * what is observed. Absent observers (null, undefined) are skipped.
 */
export function composeObservers(
  ...observers: (SchedulingObserver | null | undefined)[]
): SchedulingObserver {
  const present = observers.filter((o): o is SchedulingObserver => o != null);
  if (present.length === 1) return present[0] as SchedulingObserver;
  const out: Partial<Record<Method, AnyMethod>> = {};
  for (const m of observerMethods) {
    const fns = present.flatMap((o) => {
      const f = o[m] as AnyMethod | undefined;
      return typeof f === "function" ? [f.bind(o)] : [];
    });
    if (fns.length === 1) out[m] = fns[0];
    else if (fns.length > 1) {
      out[m] = (...args) => {
        for (const f of fns) f(...args);
      };
    }
  }
  return out as SchedulingObserver;
}

/** Whether the observer wants plugin-level events (the plugins are then wrapped). */
export function observesPlugins(o: SchedulingObserver): boolean {
  return (
    o.onPluginDuration !== undefined ||
    o.onPreFilter !== undefined ||
    o.onFilter !== undefined ||
    o.onPostFilter !== undefined ||
    o.onPreScore !== undefined ||
    o.onScore !== undefined ||
    o.onNormalizeScore !== undefined
  );
}
