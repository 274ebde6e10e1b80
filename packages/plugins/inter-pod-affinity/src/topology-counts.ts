// upstream: interpodaffinity/filtering.go (topologyToMatchedTermCount) and scoring.go (scoreMap).
//
// Counts keyed by topology pair, stored as one Map per topology key so that lookups in the per-node
// hot paths (Filter, Score) never build a key string. There are only ever a handful of topology
// keys, so they live in a small array that is scanned linearly.
import type { LabelColumn } from "@kubesched/framework/columnar";

/** Reads a node label without tripping over Object.prototype members ("constructor", ...). */
export function labelValue(
  labels: Readonly<Record<string, string>> | undefined,
  key: string,
): string | undefined {
  if (labels === undefined) return undefined;
  const v = labels[key];
  return typeof v === "string" ? v : undefined;
}

export class TopologyCounts {
  /** Topology keys seen so far (a key stays even when all its pairs went back to zero). */
  readonly keys: string[] = [];
  /** maps[i]: topology value → count, for keys[i]. Zero counts are deleted. */
  readonly maps: Map<string, number>[] = [];
  /** Number of (key, value) pairs with a non-zero count (upstream len(map)). */
  pairs = 0;
  /** Bumped on every mutation; views shared with a cycle state use it to detect reuse. */
  version = 0;
  /**
   * Per key index: the counts as arrays by label value id of a snapshot's label column (for the
   * columnar Filter and Score), kept equal to the maps by every add. Not cloned.
   */
  private mirrors: (Map<LabelColumn, Float64Array> | undefined)[] = [];

  /**
   * The counts of `key` by value id of `column` (0 for values without a count), kept current as
   * the counts change; null when some counted value is not in the column (then look values up).
   */
  byValueId(key: string, column: LabelColumn): Float64Array | null {
    const i = this.keys.indexOf(key);
    if (i < 0) return null;
    let byColumn = this.mirrors[i];
    let arr = byColumn?.get(column);
    if (arr !== undefined) {
      if (arr.length < column.values.length) {
        const grown = new Float64Array(Math.max(column.values.length, arr.length * 2));
        grown.set(arr);
        arr = grown;
        byColumn!.set(column, arr);
      }
      return arr;
    }
    arr = new Float64Array(Math.max(column.values.length, 16));
    for (const [value, n] of this.maps[i]!) {
      const id = column.idOf(value);
      if (id < 0) return null;
      arr[id] = n;
    }
    if (byColumn === undefined) {
      byColumn = new Map();
      this.mirrors[i] = byColumn;
    }
    byColumn.set(column, arr);
    return arr;
  }

  get(key: string, value: string): number {
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === key) return this.maps[i]!.get(value) ?? 0;
    }
    return 0;
  }

  /** Adds delta to a pair, deleting it when it reaches zero (delta may be negative). */
  add(key: string, value: string, delta: number): void {
    let i = this.keys.indexOf(key);
    if (i < 0) {
      i = this.keys.length;
      this.keys.push(key);
      this.maps.push(new Map());
    }
    const m = this.maps[i]!;
    const prev = m.get(value);
    const next = (prev ?? 0) + delta;
    if (next === 0) {
      if (prev !== undefined) {
        m.delete(value);
        this.pairs--;
      }
    } else {
      if (prev === undefined) this.pairs++;
      m.set(value, next);
    }
    this.version++;
    const byColumn = this.mirrors[i];
    if (byColumn !== undefined) {
      for (const [column, arr] of byColumn) {
        const id = column.idOf(value);
        if (id < 0 || id >= arr.length) byColumn.delete(column);
        else arr[id] = next;
      }
    }
  }

  /** Adds every entry of a pair list, each multiplied by sign. */
  addList(list: PairList, sign: number): void {
    for (let i = 0; i < list.keys.length; i++)
      this.add(list.keys[i]!, list.values[i]!, list.counts[i]! * sign);
  }

  clone(): TopologyCounts {
    const c = new TopologyCounts();
    for (let i = 0; i < this.keys.length; i++) {
      c.keys.push(this.keys[i]!);
      c.maps.push(new Map(this.maps[i]));
    }
    c.pairs = this.pairs;
    return c;
  }

  /** `key\0value` → count, for tests and debugging. */
  toRecord(): Record<string, number> {
    const out: Record<string, number> = {};
    for (let i = 0; i < this.keys.length; i++) {
      for (const [v, n] of this.maps[i]!) out[`${this.keys[i]}\u0000${v}`] = n;
    }
    return out;
  }
}

/**
 * What one node contributes: parallel arrays of topology key, value and count (upstream
 * topologyToMatchedTermCountList). Appending is cheaper than updating a map per match.
 */
export class PairList {
  readonly keys: string[] = [];
  readonly values: string[] = [];
  readonly counts: number[] = [];

  get length(): number {
    return this.keys.length;
  }

  push(key: string, value: string, count: number): void {
    this.keys.push(key);
    this.values.push(value);
    this.counts.push(count);
  }
}
