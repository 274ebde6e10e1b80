// Counts per topology value looked up by a node's label id (NodeColumns.labelColumn) instead of
// its label string: the columnar Filter and Score read node labels from the snapshot's columns.
import type { NodeColumns } from "@kubesched/framework/columnar";
import type { TopologyCounts } from "./topology-counts";

/** Label columns with few values cache their counts per value id; larger ones look each up. */
const maxCachedValues = 1024;

/** One topology key's counts, by the label id of a node's value of that key. */
export class CountsByLabel {
  readonly valueIds: Int32Array;
  private readonly values: readonly string[];
  private readonly counts: ReadonlyMap<string, number> | undefined;
  /** The counts by value id, kept current by the TopologyCounts (null: look values up). */
  private readonly byId: Float64Array | null;
  /** Counts looked up so far, by value id (NaN: not yet), for small columns without byId. */
  private readonly cache: Float64Array | null;

  constructor(columns: NodeColumns, key: string, counts: TopologyCounts) {
    const col = columns.labelColumn(key);
    const i = counts.keys.indexOf(key);
    this.valueIds = col.valueIds;
    this.values = col.values;
    this.counts = i < 0 ? undefined : counts.maps[i];
    this.byId = i < 0 ? null : counts.byValueId(key, col);
    this.cache =
      this.byId === null && col.values.length <= maxCachedValues
        ? new Float64Array(col.values.length).fill(Number.NaN)
        : null;
  }

  /** The count of value id `id` (>= 0); 0 when absent, as TopologyCounts.get. */
  get(id: number): number {
    const byId = this.byId;
    if (byId !== null) return byId[id] ?? 0;
    const cache = this.cache;
    if (cache !== null) {
      const c = cache[id]!;
      if (!Number.isNaN(c)) return c;
      const v = this.counts?.get(this.values[id]!) ?? 0;
      cache[id] = v;
      return v;
    }
    return this.counts?.get(this.values[id]!) ?? 0;
  }
}
