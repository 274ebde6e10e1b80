// upstream: pkg/scheduler/backend/heap/heap.go — a binary heap whose items are also reachable
// by key, so they can be updated and deleted in O(log n).

/** An item with its key and its position in the heap array (kept current by every move). */
interface Entry<T> {
  item: T;
  readonly key: string;
  pos: number;
}

/**
 * The heap's bookkeeping is per entry: moving an item updates its entry's position, never the
 * key index (a key is computed once, when the item is added). The comparisons and swaps are
 * upstream's, so items come out in the same order.
 */
export class Heap<T> {
  private readonly items: Entry<T>[] = [];
  private readonly index = new Map<string, Entry<T>>();

  constructor(
    private readonly keyFn: (item: T) => string,
    private readonly lessFn: (a: T, b: T) => boolean,
  ) {}

  /** Inserts the item, or replaces the item with the same key and restores the order. */
  addOrUpdate(item: T): void {
    const key = this.keyFn(item);
    const e = this.index.get(key);
    if (e !== undefined) {
      e.item = item;
      this.fix(e.pos);
      return;
    }
    const entry: Entry<T> = { item, key, pos: this.items.length };
    this.items.push(entry);
    this.index.set(key, entry);
    this.up(entry.pos);
  }

  /** Removes the item with the key of `item`; returns the removed item, or undefined. */
  delete(item: T): T | undefined {
    return this.deleteKey(this.keyFn(item));
  }

  deleteKey(key: string): T | undefined {
    const e = this.index.get(key);
    if (e === undefined) return undefined;
    this.remove(e);
    return e.item;
  }

  private remove(e: Entry<T>): void {
    const i = e.pos;
    const last = this.items.length - 1;
    if (i !== last) this.swap(i, last);
    this.items.pop();
    this.index.delete(e.key);
    if (i !== last) this.fix(i);
  }

  peek(): T | undefined {
    return this.items[0]?.item;
  }

  pop(): T | undefined {
    const head = this.items[0];
    if (head === undefined) return undefined;
    this.remove(head);
    return head.item;
  }

  get(item: T): T | undefined {
    return this.getByKey(this.keyFn(item));
  }

  getByKey(key: string): T | undefined {
    return this.index.get(key)?.item;
  }

  has(item: T): boolean {
    return this.index.has(this.keyFn(item));
  }

  /** The items in heap (not sorted) order. */
  list(): T[] {
    return this.items.map((e) => e.item);
  }

  len(): number {
    return this.items.length;
  }

  private fix(i: number): void {
    if (!this.down(i)) this.up(i);
  }

  private up(j: number): void {
    const items = this.items;
    while (j > 0) {
      const parent = (j - 1) >> 1;
      if (!this.lessFn(items[j]!.item, items[parent]!.item)) break;
      this.swap(parent, j);
      j = parent;
    }
  }

  /** Moves item i down; true if it moved. */
  private down(i0: number): boolean {
    const items = this.items;
    const n = items.length;
    let i = i0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let j = l;
      const r = l + 1;
      if (r < n && this.lessFn(items[r]!.item, items[l]!.item)) j = r;
      if (!this.lessFn(items[j]!.item, items[i]!.item)) break;
      this.swap(i, j);
      i = j;
    }
    return i > i0;
  }

  private swap(i: number, j: number): void {
    const items = this.items;
    const a = items[i]!;
    const b = items[j]!;
    items[i] = b;
    items[j] = a;
    b.pos = i;
    a.pos = j;
  }
}
