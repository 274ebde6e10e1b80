// Scratch buffers of the columnar Filter/Score paths (framework.ts): reused from cycle to cycle so a
// cycle allocates nothing per node on the success path. One set per framework (profile); Filter
// and Score are synchronous, so a cycle's use never overlaps another's.
import type { Pod } from "@kubesched/api";
import type { CycleState, FilterPlugin, NodeInfo, Status } from "@kubesched/framework";
import type { ColumnWindow, NodeColumns } from "@kubesched/framework/columnar";

/**
 * The ColumnWindow the runtime hands to columnar methods: one object per framework whose fields
 * are set before each call (`at`), so a call allocates nothing.
 */
export class ReusedColumnWindow implements ColumnWindow {
  columns!: NodeColumns;
  indices: Int32Array = new Int32Array(0);
  count = 0;

  /** The window over `indices[0, count)` of `columns`. */
  at(columns: NodeColumns, indices: Int32Array, count: number): this {
    this.columns = columns;
    this.indices = indices;
    this.count = count;
    return this;
  }
}

/** Buffers for one window of Filter: the candidate nodes and, per node, what the plugins said. */
export class FilterWindow {
  capacity = 0;
  /** Column index of each candidate (-1: not in the snapshot's columns). */
  colIdx = new Int32Array(0);
  /** Index of the plugin that rejected each candidate (the number of plugins: none did; -1: the
   * candidate is filtered per node, for its nominated pods or because it has no column index). */
  failAt = new Int32Array(0);
  /** The rejection (as the runtime reports it: plugin named, non-rejections as Error). */
  status: (Status | null)[] = [];
  /** Column indices of the candidates still passing, and their positions in the window. */
  alive = new Int32Array(0);
  aliveK = new Int32Array(0);
  /** What a plugin returned for each alive candidate. */
  out: (Status | null)[] = [];

  ensure(n: number): void {
    if (n <= this.capacity) return;
    const c = Math.max(n, this.capacity * 2, 64);
    this.colIdx = new Int32Array(c);
    this.failAt = new Int32Array(c);
    this.alive = new Int32Array(c);
    this.aliveK = new Int32Array(c);
    this.status = new Array(c).fill(null);
    this.out = new Array(c).fill(null);
    this.capacity = c;
  }

  /** Drops the statuses of the window's nodes from `k` on (left when the loop stopped early). */
  clearFrom(k: number, n: number): void {
    for (let i = k; i < n; i++) this.status[i] = null;
  }
}

/** Feasible nodes with their column indices, as the last Filter returned them (for Score). */
export class FeasibleIndex {
  nodes: readonly NodeInfo[] | null = null;
  count = 0;
  indices = new Int32Array(64);

  reset(): void {
    this.nodes = null;
    this.count = 0;
  }

  push(k: number, idx: number): void {
    if (k >= this.indices.length) {
      const b = new Int32Array(this.indices.length * 2);
      b.set(this.indices);
      this.indices = b;
    }
    this.indices[k] = idx;
  }
}

/** Per-plugin score rows (plugin p's score of node n at rows[p][n]), reused across cycles. */
export class ScoreRows {
  rows: Float64Array[] = [];
  totals = new Float64Array(0);
  indices = new Int32Array(0);

  ensure(plugins: number, nodes: number): void {
    if (this.totals.length < nodes) {
      const c = Math.max(nodes, this.totals.length * 2);
      this.totals = new Float64Array(c);
      this.indices = new Int32Array(c);
      this.rows = this.rows.map(() => new Float64Array(c));
    }
    while (this.rows.length < plugins) this.rows.push(new Float64Array(this.totals.length));
  }
}

/**
 * A per-node Filter plugin over a window, as a columnar one runs: `out[k]` = its `filter` on
 * `window.columns.nodeInfos[window.indices[k]]` for k in `[0, window.count)`.
 */
export function filterEach(
  pl: FilterPlugin,
  state: CycleState,
  pod: Pod,
  window: ColumnWindow,
  out: (Status | null)[],
): void {
  const { columns, indices, count } = window;
  const infos = columns.nodeInfos;
  for (let k = 0; k < count; k++) out[k] = pl.filter(state, pod, infos[indices[k] as number] as NodeInfo);
}
