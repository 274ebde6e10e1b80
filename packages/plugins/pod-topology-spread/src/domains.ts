// Per-domain counts over interned topology values: PreFilter hands Filter a copy of the memo's
// counts every cycle, and a copy of typed arrays is a memcpy where a Map<string, number> of 4000
// hostname domains was 4000 insertions. The values behave as that map (get, set, size, iteration
// in insertion order), which is what upstream's TpValueToMatchNum is.
import type { LabelColumn } from "@kubesched/framework";

/** The values of one topology key, interned: an id is never reused nor renamed (append-only). */
export class ValueIds {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  // The translation of one label column's ids (the column of the snapshot's key, whose values
  // are append-only too): column id → id here.
  private colValues: readonly string[] | null = null;
  private colIds = new Int32Array(0);
  private colDone = 0;

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

  /** Per value id of `col`, the id here of that value (every value of the column interned). */
  fromColumn(col: LabelColumn): Int32Array {
    const values = col.values;
    if (values !== this.colValues) {
      this.colValues = values;
      this.colDone = 0;
    }
    const n = values.length;
    if (n > this.colDone) {
      if (n > this.colIds.length) {
        const grown = new Int32Array(Math.max(n, this.colIds.length * 2, 16));
        grown.set(this.colIds.subarray(0, this.colDone));
        this.colIds = grown;
      }
      for (let i = this.colDone; i < n; i++) this.colIds[i] = this.idOf(values[i]!);
      this.colDone = n;
    }
    return this.colIds;
  }
}

const empty = new Int32Array(0);

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
  // The first and second domain by (count, insertion stamp), -1 for none: kept through changes
  // of other domains, found again by a scan after a change of one of them.
  private first = -1;
  private second = -1;
  private firstsKnown = true;

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
    const data = new Int32Array(2 * Math.max(id + 1, this.data.length, 16));
    data.set(this.data);
    this.data = data;
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

  /** Keeps the first two domains after the key of `id` changed (or it was deleted). */
  private changed(id: number): void {
    if (!this.firstsKnown) return;
    if (id === this.first || id === this.second) {
      this.firstsKnown = false;
    } else if (this.hasId(id)) {
      if (this.first < 0 || this.before(id, this.first)) {
        this.second = this.first;
        this.first = id;
      } else if (this.second < 0 || this.before(id, this.second)) {
        this.second = id;
      }
    }
  }

  private findFirsts(): void {
    const data = this.data;
    let a = -1;
    let ca = 0;
    let sa = 0;
    let b = -1;
    let cb = 0;
    let sb = 0;
    for (let j = 0; j < data.length; j += 2) {
      const s = data[j + 1]!;
      if (s === 0) continue;
      const c = data[j]!;
      if (a < 0 || c < ca || (c === ca && s < sa)) {
        b = a;
        cb = ca;
        sb = sa;
        a = j >> 1;
        ca = c;
        sa = s;
      } else if (b < 0 || c < cb || (c === cb && s < sb)) {
        b = j >> 1;
        cb = c;
        sb = s;
      }
    }
    this.first = a;
    this.second = b;
    this.firstsKnown = true;
  }

  /** The id of the domain with the fewest pods, the first inserted among equals; -1 when none. */
  firstId(): number {
    if (!this.firstsKnown) this.findFirsts();
    return this.first;
  }

  /** firstId among the other domains. */
  secondId(): number {
    if (!this.firstsKnown) this.findFirsts();
    return this.second;
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
    c.first = this.first;
    c.second = this.second;
    c.firstsKnown = this.firstsKnown;
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
