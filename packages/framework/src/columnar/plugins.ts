// The columnar fast path's plugin interfaces (not upstream; @beta). A plugin may add these to
// its per-node Filter/Score/PreScore: the runtime then calls the columnar method instead of the
// per-node one over a window of nodes, reading the snapshot's columns (NodeColumns). The per-node
// methods stay the contract: the columnar ones must return exactly what they would.
import type { Pod } from "@kubesched/api";
import type {
  CycleState,
  FilterPlugin,
  Plugin,
  PreScorePlugin,
  ScoreExtensions,
  ScorePlugin,
  Status,
} from "@kubesched/framework";
import type { NodeColumns } from "./node-columns";

/**
 * The nodes a columnar method runs over: `columns.nodeInfos[indices[k]]` for k in `[0, count)`.
 * The runtime keeps one such object and sets its fields before each call (no allocation per
 * call): read them during the call, never keep the window or its `indices` (they belong to the
 * runtime, and hold the next call's nodes afterwards).
 * @beta
 */
export interface ColumnWindow {
  /** The cycle snapshot's columns. */
  readonly columns: NodeColumns;
  /** Column indices of the window's nodes; only `[0, count)` is meaningful. */
  readonly indices: Int32Array;
  /** The number of nodes in the window. */
  readonly count: number;
}

/**
 * Filter over a window of nodes at once, over the snapshot's columns (optional; not upstream).
 * `filter()` stays the contract: the runtime calls `filterColumns` instead of `filter` on the nodes
 * of a scheduling cycle when the snapshot has columns, and must get exactly what `filter` would
 * return on each node. The runtime keeps per-node behaviour around it: the nodes a plugin runs on
 * (only those every earlier plugin passed), the rotating start index, the early stop at
 * numFeasibleNodesToFind (results past it are discarded), nodes with nominated pods (run per node
 * with the pods added), statuses, explain and metrics.
 * @beta
 */
export interface ColumnarFilterPlugin extends FilterPlugin {
  /**
   * For every k in `[0, window.count)`: `out[k]` = what
   * `filter(state, pod, window.columns.nodeInfos[window.indices[k]])` returns (null or a Success
   * status when the node passes). Every `out[k]` must be written. A rejection has the same code
   * and reasons as `filter`'s; one Status object may stand for several nodes of the call (the
   * runtime only names the plugin on it, and nothing may change it afterwards). Runs
   * synchronously, during a cycle only: the window is valid for this call.
   */
  filterColumns(state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void;
}

/**
 * Score over the feasible nodes at once, over the snapshot's columns (optional; not upstream):
 * the runtime calls it instead of `score()` on every node, and must get the same scores.
 * @beta
 */
export interface ColumnarScorePlugin extends ScorePlugin {
  /**
   * For every k in `[0, window.count)`: `scores[k]` = what
   * `score(state, pod, window.columns.nodeInfos[window.indices[k]])` returns (0 where it returns a
   * Success status). Returns null, or, when `score` fails on some node, the status it returns on
   * the first such node in k order (the scores are then ignored).
   */
  scoreColumns(state: CycleState, pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null;
}

/**
 * PreScore over the feasible nodes given as column indices (optional; not upstream): the runtime
 * calls it instead of `preScore(state, pod, nodes)` when it knows the nodes' indices in the
 * snapshot's columns, and it must leave the cycle state as `preScore` would (the same scores
 * follow) and return what `preScore` returns.
 * @beta
 */
export interface ColumnarPreScorePlugin extends PreScorePlugin {
  /**
   * `preScore(state, pod, nodes)` for `nodes[k] = window.columns.nodeInfos[window.indices[k]]`,
   * k in `[0, window.count)`.
   */
  preScoreColumns(state: CycleState, pod: Pod, window: ColumnWindow): Status | null;
}

/**
 * NormalizeScore over a score array (optional, with ColumnarScorePlugin; not upstream).
 * @beta
 */
export interface ColumnarScoreExtensions extends ScoreExtensions {
  /**
   * Rewrites `scores[0..window.count)` in place exactly as `normalizeScore` would rewrite the
   * NodeScore list `{ name: window.columns.nodeInfos[window.indices[k]].nodeName, score: scores[k] }`,
   * and returns what it would return. `scores` belongs to the runtime: do not keep it.
   */
  normalizeScoreColumns(
    state: CycleState,
    pod: Pod,
    window: ColumnWindow,
    scores: Float64Array,
  ): Status | null;
}

// The methods read by name (not `p[m]` with a variable name): the checks run per plugin per cycle,
// and a named read is a cached lookup where a keyed one is not.
type Methods<K extends string> = { readonly [M in K]?: unknown };

/**
 * Whether the plugin has `filterColumns` (and `filter`).
 * @beta
 */
export const isColumnarFilterPlugin = (p: Plugin): p is ColumnarFilterPlugin =>
  typeof (p as Methods<"filter">).filter === "function" &&
  typeof (p as Methods<"filterColumns">).filterColumns === "function";
/**
 * Whether the plugin has `scoreColumns` (and `score`).
 * @beta
 */
export const isColumnarScorePlugin = (p: Plugin): p is ColumnarScorePlugin =>
  typeof (p as Methods<"score">).score === "function" &&
  typeof (p as Methods<"scoreColumns">).scoreColumns === "function";
/**
 * Whether the plugin has `preScoreColumns` (and `preScore`).
 * @beta
 */
export const isColumnarPreScorePlugin = (p: Plugin): p is ColumnarPreScorePlugin =>
  typeof (p as Methods<"preScore">).preScore === "function" &&
  typeof (p as Methods<"preScoreColumns">).preScoreColumns === "function";
/**
 * Whether the score extensions have `normalizeScoreColumns`.
 * @beta
 */
export const isColumnarScoreExtensions = (e: ScoreExtensions): e is ColumnarScoreExtensions =>
  typeof (e as Methods<"normalizeScoreColumns">).normalizeScoreColumns === "function";
