// upstream: staging/src/k8s.io/kube-scheduler/framework/interface.go (plugin interfaces)
//
// Conventions (differences from Go, all deliberate):
// - no context.Context: cancellation is not needed in a single-threaded event loop;
// - a status of `null` is Success (upstream's nil);
// - the hot paths (Filter, Score) are synchronous and allocation-free by contract:
//   Score returns the score as a number, or a Status on failure;
// - PostFilter may be asynchronous (preemption deletes pods); PreBind, Bind and PostBind are.
import type { Pod } from "@kubesched/api";
import type { CycleState } from "./cycle-state";
import type { NodeToStatus } from "./diagnosis";
import type { ClusterEventWithHint } from "./events";
import type { NodeColumns } from "./node-columns";
import type { NodeInfo } from "./node-info";
import type { PodInfo } from "./pod-info";
import type { QueuedPodInfo } from "./queued-pod-info";
import type { Status } from "./status";

export const MaxNodeScore = 100;
export const MinNodeScore = 0;
export const MaxTotalScore = Number.MAX_SAFE_INTEGER;

export interface Plugin {
  /** The plugin's registered name ("TaintToleration"). */
  name(): string;
}

export interface PreEnqueuePlugin extends Plugin {
  /** Runs before a pod enters activeQ/backoffQ; a non-success status gates it. Keep it cheap. */
  preEnqueue(pod: Pod): Status | null;
}

export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/** Cluster events that may make a pod rejected by this plugin schedulable. */
export interface EnqueueExtensions extends Plugin {
  eventsToRegister(): ClusterEventWithHint[];
}

/** The nodes downstream extension points consider; `nodeNames: null` means all. */
export interface PreFilterResult {
  nodeNames: ReadonlySet<string> | null;
}

/** Incremental updates of a PreFilter plugin's state (used by preemption and nominated pods). */
export interface PreFilterExtensions {
  addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | null;
  removePod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null;
}

export interface PreFilterPlugin extends Plugin {
  /**
   * Runs once per cycle. Return null (Success, all nodes), a PreFilterResult narrowing the
   * nodes, or a Status (Skip skips this plugin's Filter and extensions for the cycle).
   */
  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterResult | Status | null;
  preFilterExtensions(): PreFilterExtensions | null;
}

export interface FilterPlugin extends Plugin {
  /** Whether the pod fits the node. Hot path: no allocation on success. */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null;
}

/** How a PostFilter result changes the pod's nominated node. */
export const NominatingMode = { Noop: 0, Override: 1 } as const;
export type NominatingMode = (typeof NominatingMode)[keyof typeof NominatingMode];

export interface NominatingInfo {
  nominatedNodeName: string;
  nominatingMode: NominatingMode;
}

export interface PostFilterResult {
  nominatingInfo: NominatingInfo | null;
}

export interface PostFilterOutput {
  result: PostFilterResult | null;
  status: Status | null;
}

export interface PostFilterPlugin extends Plugin {
  /** Called when no node fits; may make the pod schedulable later (preemption). */
  postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatusMap: NodeToStatus,
  ): PostFilterOutput | Promise<PostFilterOutput>;
}

export interface PreScorePlugin extends Plugin {
  /** Runs once with the feasible nodes; Skip skips this plugin's Score for the cycle. */
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | null;
}

export interface NodeScore {
  name: string;
  score: number;
}

export interface ScoreExtensions {
  /** Rewrites `scores` in place into [MinNodeScore, MaxNodeScore]. */
  normalizeScore(state: CycleState, pod: Pod, scores: NodeScore[]): Status | null;
}

export interface ScorePlugin extends Plugin {
  /** The node's score (an integer), or a Status on failure. Hot path: no allocation. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status;
  scoreExtensions(): ScoreExtensions | null;
}

/**
 * Filter over a window of nodes at once, over the snapshot's columns (optional; not upstream).
 * `filter()` stays the contract: the runtime calls `filterBatch` instead of `filter` on the nodes
 * of a scheduling cycle when the snapshot has columns, and must get exactly what `filter` would
 * return on each node. The runtime keeps per-node behaviour around it: the nodes a plugin runs on
 * (only those every earlier plugin passed), the rotating start index, the early stop at
 * numFeasibleNodesToFind (results past it are discarded), nodes with nominated pods (run per node
 * with the pods added), statuses, explain and metrics.
 */
export interface BatchFilterPlugin extends FilterPlugin {
  /**
   * For every k in `[0, count)`: `out[k]` = what `filter(state, pod, columns.nodeInfos[indices[k]])`
   * returns (null or a Success status when the node passes). Every `out[k]` must be written. A
   * rejection has the same code and reasons as `filter`'s; one Status object may stand for
   * several nodes of the call (the runtime only names the plugin on it, and nothing may change it
   * afterwards). Runs synchronously, during a cycle only: `columns` and `indices` are valid for
   * this call.
   */
  filterBatch(
    state: CycleState,
    pod: Pod,
    columns: NodeColumns,
    indices: Int32Array,
    count: number,
    out: (Status | null)[],
  ): void;
}

/**
 * Score over the feasible nodes at once, over the snapshot's columns (optional; not upstream):
 * the runtime calls it instead of `score()` on every node, and must get the same scores.
 */
export interface BatchScorePlugin extends ScorePlugin {
  /**
   * For every k in `[0, count)`: `scores[k]` = what `score(state, pod, columns.nodeInfos[indices[k]])`
   * returns (0 where it returns a Success status). Returns null, or, when `score` fails on some
   * node, the status it returns on the first such node in k order (the scores are then ignored).
   */
  scoreBatch(
    state: CycleState,
    pod: Pod,
    columns: NodeColumns,
    indices: Int32Array,
    count: number,
    scores: Float64Array,
  ): Status | null;
}

/**
 * PreScore over the feasible nodes given as column indices (optional; not upstream): the runtime
 * calls it instead of `preScore(state, pod, nodes)` when it knows the nodes' indices in the
 * snapshot's columns, and it must leave the cycle state as `preScore` would (the same scores
 * follow) and return what `preScore` returns.
 */
export interface BatchPreScorePlugin extends PreScorePlugin {
  /** `preScore(state, pod, nodes)` for `nodes[k] = columns.nodeInfos[indices[k]]`, k in `[0, count)`. */
  preScoreBatch(
    state: CycleState,
    pod: Pod,
    columns: NodeColumns,
    indices: Int32Array,
    count: number,
  ): Status | null;
}

/** NormalizeScore over a score array (optional, with BatchScorePlugin; not upstream). */
export interface BatchScoreExtensions extends ScoreExtensions {
  /**
   * Rewrites `scores[0..count)` in place exactly as `normalizeScore` would rewrite the
   * NodeScore list `{ name: columns.nodeInfos[indices[k]].nodeName, score: scores[k] }`, and
   * returns what it would return. `scores` belongs to the runtime: do not keep it.
   */
  normalizeScoreBatch(
    state: CycleState,
    pod: Pod,
    columns: NodeColumns,
    indices: Int32Array,
    count: number,
    scores: Float64Array,
  ): Status | null;
}

export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): Status | null;
  /** Must be idempotent; may be called without a prior reserve. */
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

export interface PermitOutput {
  status: Status | null;
  /** With a Wait status: how long to wait, in milliseconds (capped at 15 minutes). */
  timeoutMs: number;
}

export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: Pod, nodeName: string): PermitOutput;
}

export interface PreBindPreFlightResult {
  allowParallel: boolean;
}

export interface PreBindPlugin extends Plugin {
  /** Success: this plugin will act in PreBind; Skip: nothing to do (PreBind is skipped). */
  preBindPreFlight(state: CycleState, pod: Pod, nodeName: string): Status | null;
  preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null>;
}

export interface BindPlugin extends Plugin {
  /** Bind the pod, or return Skip to let the next Bind plugin do it. */
  bind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null>;
}

export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

/** Per-node scores of one cycle (upstream NodePluginScores). */
export interface PluginScore {
  name: string;
  score: number;
}

export interface NodePluginScores {
  name: string;
  scores: PluginScore[];
  totalScore: number;
}

// Type guards: a plugin's extension points are the methods it has.
type AnyPlugin = Plugin & Record<string, unknown>;
const has = (p: Plugin, m: string): boolean => typeof (p as AnyPlugin)[m] === "function";

export const isPreEnqueuePlugin = (p: Plugin): p is PreEnqueuePlugin => has(p, "preEnqueue");
export const isQueueSortPlugin = (p: Plugin): p is QueueSortPlugin => has(p, "less");
export const isEnqueueExtensions = (p: Plugin): p is EnqueueExtensions => has(p, "eventsToRegister");
export const isPreFilterPlugin = (p: Plugin): p is PreFilterPlugin => has(p, "preFilter");
export const isFilterPlugin = (p: Plugin): p is FilterPlugin => has(p, "filter");
export const isPostFilterPlugin = (p: Plugin): p is PostFilterPlugin => has(p, "postFilter");
export const isPreScorePlugin = (p: Plugin): p is PreScorePlugin => has(p, "preScore");
export const isScorePlugin = (p: Plugin): p is ScorePlugin => has(p, "score");
export const isReservePlugin = (p: Plugin): p is ReservePlugin => has(p, "reserve");
export const isPermitPlugin = (p: Plugin): p is PermitPlugin => has(p, "permit");
export const isPreBindPlugin = (p: Plugin): p is PreBindPlugin => has(p, "preBind");
export const isBindPlugin = (p: Plugin): p is BindPlugin => has(p, "bind");
export const isPostBindPlugin = (p: Plugin): p is PostBindPlugin => has(p, "postBind");
export const isBatchFilterPlugin = (p: Plugin): p is BatchFilterPlugin =>
  has(p, "filter") && has(p, "filterBatch");
export const isBatchScorePlugin = (p: Plugin): p is BatchScorePlugin =>
  has(p, "score") && has(p, "scoreBatch");
export const isBatchPreScorePlugin = (p: Plugin): p is BatchPreScorePlugin =>
  has(p, "preScore") && has(p, "preScoreBatch");
export const isBatchScoreExtensions = (e: ScoreExtensions): e is BatchScoreExtensions =>
  typeof (e as unknown as Record<string, unknown>).normalizeScoreBatch === "function";
