// upstream: pkg/scheduler/backend/heap/heap.go — a binary heap whose items are also reachable
// by key, so they can be updated and deleted in O(log n).

export class Heap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(
    private readonly keyFn: (item: T) => string,
    private readonly lessFn: (a: T, b: T) => boolean,
  ) {}

  /** Inserts the item, or replaces the item with the same key and restores the order. */
  addOrUpdate(item: T): void {
    const key = this.keyFn(item);
    const i = this.index.get(key);
    if (i !== undefined) {
      this.items[i] = item;
      this.fix(i);
      return;
    }
    this.items.push(item);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  /** Removes the item with the key of `item`; returns the removed item, or undefined. */
  delete(item: T): T | undefined {
    return this.deleteKey(this.keyFn(item));
  }

  deleteKey(key: string): T | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const removed = this.items[i]!;
    const last = this.items.length - 1;
    if (i !== last) this.swap(i, last);
    this.items.pop();
    this.index.delete(key);
    if (i !== last) this.fix(i);
    return removed;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    const head = this.items[0]!;
    this.deleteKey(this.keyFn(head));
    return head;
  }

  get(item: T): T | undefined {
    return this.getByKey(this.keyFn(item));
  }

  getByKey(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  has(item: T): boolean {
    return this.index.has(this.keyFn(item));
  }

  /** The items in heap (not sorted) order. */
  list(): T[] {
    return this.items.slice();
  }

  len(): number {
    return this.items.length;
  }

  private fix(i: number): void {
    if (!this.down(i)) this.up(i);
  }

  private up(j: number): void {
    while (j > 0) {
      const parent = (j - 1) >> 1;
      if (!this.lessFn(this.items[j]!, this.items[parent]!)) break;
      this.swap(parent, j);
      j = parent;
    }
  }

  /** Moves item i down; true if it moved. */
  private down(i0: number): boolean {
    const n = this.items.length;
    let i = i0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let j = l;
      const r = l + 1;
      if (r < n && this.lessFn(this.items[r]!, this.items[l]!)) j = r;
      if (!this.lessFn(this.items[j]!, this.items[i]!)) break;
      this.swap(i, j);
      i = j;
    }
    return i > i0;
  }

  private swap(i: number, j: number): void {
    const a = this.items[i]!;
    const b = this.items[j]!;
    this.items[i] = b;
    this.items[j] = a;
    this.index.set(this.keyFn(b), i);
    this.index.set(this.keyFn(a), j);
  }
}
