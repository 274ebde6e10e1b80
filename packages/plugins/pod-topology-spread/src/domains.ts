// Per-domain counts over interned topology values: PreFilter hands Filter a copy of the memo's
// counts every cycle, and a copy of typed arrays is a memcpy where a Map<string, number> of 4000
// hostname domains was 4000 insertions. The values behave as that map (get, set, size, iteration
// in insertion order), which is what upstream's TpValueToMatchNum is.
import type { LabelColumn } from "@kubesched/framework/columnar";

/** The values of one topology key, interned: an id is never reused nor renamed (append-only). */
export class ValueIds {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  // The translation of one label column's ids (the column of the snapshot's key, whose values
  // are append-only too): column id → id here, -1 for a value not interned (no domain has it).
  // Translated again from the start when values were interned since.
  private colValues: readonly string[] | null = null;
  private colIds = new Int32Array(0);
  private colDone = 0;
  private colInterned = 0;

  /** The id of `v`, interned when new. */
  idOf(v: string): number {
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(v);
      this.ids.set(v, id);
    }
    return id;
  }

  /** The id of `v`, -1 when never interned. */
  find(v: string): number {
    return this.ids.get(v) ?? -1;
  }

  /** Per value id of `col`, the id here of that value (-1 when not interned: no domain has it). */
  fromColumn(col: LabelColumn): Int32Array {
    const values = col.values;
    if (values !== this.colValues || this.values.length !== this.colInterned) {
      this.colValues = values;
      this.colInterned = this.values.length;
      this.colDone = 0;
    }
    const n = values.length;
    if (n > this.colDone) {
      if (n > this.colIds.length) this.colIds = grownInt32(this.colIds, n, this.colDone);
      for (let i = this.colDone; i < n; i++) this.colIds[i] = this.find(values[i]!);
      this.colDone = n;
    }
    return this.colIds;
  }
}

const empty = new Int32Array(0);

/**
 * A longer copy of `a` for at least `length` entries (at least double, at least 16), its first
 * `keep` entries copied, the rest 0.
 */
export function grownInt32(a: Int32Array, length: number, keep: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(length, a.length * 2, 16));
  grown.set(keep === a.length ? a : a.subarray(0, keep));
  return grown;
}

/** How many of the first domains by (count, insertion stamp) DomainCounts keeps. */
const topK = 16;

/**
 * Topology value → matching pods, for the domains that exist (a value absent is no domain, as a
 * key absent from upstream's map). Backed by one array indexed by ValueIds ids, two slots each:
 * `data[2 * id]` the count (0 where absent) and `data[2 * id + 1]` the domain's insertion stamp
 * (0 where absent), so iteration in insertion order is iteration by stamp.
 */
export class DomainCounts implements Iterable<[string, number]> {
  /** Stamps are renumbered (1, 2, ... in the same order) when the next one would pass this. */
  static maxStamp = 0x7fffffff;

  data: Int32Array;
  size: number;
  /** The last insertion stamp handed out. */
  private stamp: number;
  // The `topLen` first domains by (count, insertion stamp), in that order (at most topK): kept
  // through changes (a changed domain leaves or joins them where that is certain), found again by
  // a scan once fewer than two are known. Keys are distinct (stamps are).
  private top = new Int32Array(topK);
  private topLen = 0;
  private topKnown = true;

  constructor(
    readonly ids: ValueIds,
    data: Int32Array = empty,
    size = 0,
    stamp = 0,
  ) {
    this.data = data;
    this.size = size;
    this.stamp = stamp;
  }

  private ensure(id: number): void {
    if (2 * id < this.data.length) return;
    this.data = grownInt32(this.data, 2 * id + 2, this.data.length);
  }

  /** Whether the value with id `id` is a domain. */
  hasId(id: number): boolean {
    return id >= 0 && 2 * id < this.data.length && this.data[2 * id + 1] !== 0;
  }

  /** The count of the value with id `id`; 0 when it is no domain (a map's `get(v) ?? 0`). */
  countOf(id: number): number {
    return id >= 0 && 2 * id < this.data.length ? this.data[2 * id]! : 0;
  }

  get(v: string): number | undefined {
    const id = this.ids.find(v);
    return this.hasId(id) ? this.data[2 * id] : undefined;
  }

  has(v: string): boolean {
    return this.hasId(this.ids.find(v));
  }

  set(v: string, n: number): void {
    this.setId(this.ids.idOf(v), n);
  }

  /** Sets the count of the value with id `id`, making it a domain (inserted last) when it was none. */
  setId(id: number, n: number): void {
    this.ensure(id);
    const data = this.data;
    if (data[2 * id + 1] === 0) {
      if (this.stamp >= DomainCounts.maxStamp) this.renumber();
      data[2 * id + 1] = ++this.stamp;
      this.size++;
    } else if (data[2 * id] === n) {
      return;
    }
    data[2 * id] = n;
    this.changed(id);
  }

  /** Removes the domain of the value with id `id`. */
  deleteId(id: number): void {
    if (!this.hasId(id)) return;
    this.data[2 * id] = 0;
    this.data[2 * id + 1] = 0;
    this.size--;
    this.changed(id);
  }

  /** Whether the domain `x` comes before the domain `y` by (count, insertion stamp). */
  private before(x: number, y: number): boolean {
    const d = this.data;
    const cx = d[2 * x]!;
    const cy = d[2 * y]!;
    return cx < cy || (cx === cy && d[2 * x + 1]! < d[2 * y + 1]!);
  }

  /**
   * Keeps `top` the first domains after the key of `id` changed (or it was deleted). Before, they
   * are the topLen first of all; without `id`, the first of the others. `id` joins them when it
   * comes before their last, or when they are all the others: every other domain comes after.
   */
  private changed(id: number): void {
    if (!this.topKnown) return;
    const top = this.top;
    let len = this.topLen;
    for (let i = 0; i < len; i++) {
      if (top[i] === id) {
        top.copyWithin(i, i + 1, len);
        len--;
        break;
      }
    }
    if (this.hasId(id) && ((len > 0 && this.before(id, top[len - 1]!)) || len === this.size - 1)) {
      len = this.insertTop(id, len);
    }
    this.topLen = len;
    if (len < 2 && len < this.size) this.topKnown = false;
  }

  /** Inserts `id` in order among the first `len` of `top` (the last dropped past topK); the new length. */
  private insertTop(id: number, len: number): number {
    const top = this.top;
    if (len === topK && !this.before(id, top[topK - 1]!)) return len;
    let i = len < topK ? len : topK - 1;
    while (i > 0 && this.before(id, top[i - 1]!)) {
      top[i] = top[i - 1]!;
      i--;
    }
    top[i] = id;
    return len < topK ? len + 1 : len;
  }

  private findTop(): void {
    const data = this.data;
    let len = 0;
    for (let j = 0; j < data.length; j += 2) {
      if (data[j + 1] === 0) continue;
      const id = j >> 1;
      len = this.insertTop(id, len);
    }
    this.topLen = len;
    this.topKnown = true;
  }

  /** The id of the domain with the fewest pods, the first inserted among equals; -1 when none. */
  firstId(): number {
    if (!this.topKnown) this.findTop();
    return this.topLen > 0 ? this.top[0]! : -1;
  }

  /** firstId among the other domains. */
  secondId(): number {
    if (!this.topKnown) this.findTop();
    return this.topLen > 1 ? this.top[1]! : -1;
  }

  /** Stamps 1..size in the same order. */
  private renumber(): void {
    const order = this.idsInOrder();
    for (let i = 0; i < order.length; i++) this.data[2 * order[i]! + 1] = i + 1;
    this.stamp = order.length;
  }

  /** An independent copy (the same ids, the same insertion order). */
  copy(): DomainCounts {
    const n = Math.min(this.data.length, 2 * this.ids.values.length);
    const c = new DomainCounts(this.ids, this.data.slice(0, n), this.size, this.stamp);
    c.top.set(this.top);
    c.topLen = this.topLen;
    c.topKnown = this.topKnown;
    return c;
  }

  /** The ids of the domains in insertion order. */
  idsInOrder(): number[] {
    const out: number[] = [];
    const data = this.data;
    for (let id = 0; 2 * id < data.length; id++) if (data[2 * id + 1] !== 0) out.push(id);
    return out.sort((a, b) => data[2 * a + 1]! - data[2 * b + 1]!);
  }

  *entries(): IterableIterator<[string, number]> {
    for (const id of this.idsInOrder()) yield [this.ids.values[id]!, this.data[2 * id]!];
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return this.entries();
  }
}
