// An informer's cache: one kind's objects by namespace/name, with the lists the listers hand out
// cached until the next change (plugins list on every cycle; the store changes far less often).
// Shared by every ClusterSource: the in-memory cluster and the API-server source. Indexes as
// client-go's Indexer keeps them (cache.Indexers: index name -> values of an object), for
// controllers that look objects up by something other than their name. A change feed (framework
// ChangeFeed) for state kept from every object: what changed since a cursor, without a listing.
import type { ObjectMeta } from "@kubesched/api";
import type { ChangeFeed, ClusterScopedLister, Lister } from "@kubesched/framework";

/** The part of every Kubernetes object the informers look at. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

export function objectKey(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ""}/${obj.metadata?.name ?? ""}`;
}

/** An index: the values an object is found by, and per value the keys of the objects. */
interface StoreIndex<T> {
  // A method (not a function property), so that a store of a kind stays a store of its supertype.
  values(obj: T): readonly string[];
  keys: Map<string, Set<string>>;
}

/**
 * The change feed keeps at least this many changes, and a quarter as many as the store holds
 * objects: a follower further behind starts over from the listing, which costs about as much. (It
 * holds on to replaced objects until they are dropped, so it keeps no more than that.)
 */
const minKeptChanges = 1024;

export class ObjectStore<T extends KubeObject> implements Lister<T>, ClusterScopedLister<T>, ChangeFeed<T> {
  private readonly items = new Map<string, T>();
  private all: T[] | null = null;
  private readonly byNamespace = new Map<string, T[]>();
  /** Per index: its function and, per value, the keys of the objects that have it. */
  private readonly indexes = new Map<string, StoreIndex<T>>();
  /** Each key's place in the store's order (kept while there is an index). */
  private readonly order = new Map<string, number>();
  private nextOrder = 0;
  /**
   * The change feed: (old, new) pairs, the first one the change after cursor `logBase`; recorded
   * once asked for (a store nobody follows keeps no replaced objects).
   */
  private readonly log: (T | undefined)[] = [];
  private logBase = 0;
  private feeding = false;
  private changes = 0;

  constructor(readonly namespaced: boolean) {}

  get size(): number {
    return this.items.size;
  }

  keys(): IterableIterator<string> {
    return this.items.keys();
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Stores the object; returns the one it replaced. */
  set(obj: T): T | undefined {
    const k = objectKey(obj);
    const old = this.items.get(k);
    this.items.set(k, obj);
    if (this.indexes.size > 0) {
      if (old !== undefined) this.unindex(k, old);
      else this.order.set(k, this.nextOrder++);
      this.index(k, obj);
    }
    this.invalidate();
    this.record(old, obj);
    return old;
  }

  /** Removes the object with this key; returns it. */
  removeKey(key: string): T | undefined {
    const old = this.items.get(key);
    if (old !== undefined) {
      this.items.delete(key);
      if (this.indexes.size > 0) {
        this.unindex(key, old);
        this.order.delete(key);
      }
      this.invalidate();
      this.record(old, undefined);
    }
    return old;
  }

  /**
   * Adds an index (client-go cache.Indexers) unless one of this name exists: `fn` gives the values
   * an object is found by. The store keeps it as objects are set and removed.
   */
  ensureIndex(name: string, fn: (obj: T) => readonly string[]): void {
    if (this.indexes.has(name)) return;
    if (this.indexes.size === 0) {
      this.order.clear();
      for (const k of this.items.keys()) this.order.set(k, this.nextOrder++);
    }
    this.indexes.set(name, { values: fn, keys: new Map() });
    for (const [k, obj] of this.items) this.indexOne(name, k, obj);
  }

  /** The objects the index finds for `value`, in the store's order (client-go ByIndex). */
  byIndex(name: string, value: string): T[] {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`object store: no index ${name}`);
    const keys = index.keys.get(value);
    if (!keys) return [];
    return [...keys]
      .sort((a, b) => (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0))
      .map((k) => this.items.get(k) as T);
  }

  private index(k: string, obj: T): void {
    for (const name of this.indexes.keys()) this.indexOne(name, k, obj);
  }

  private indexOne(name: string, k: string, obj: T): void {
    const index = this.indexes.get(name);
    if (!index) return;
    for (const v of index.values(obj)) {
      let keys = index.keys.get(v);
      if (!keys) {
        keys = new Set();
        index.keys.set(v, keys);
      }
      keys.add(k);
    }
  }

  private unindex(k: string, obj: T): void {
    for (const index of this.indexes.values()) {
      for (const v of index.values(obj)) {
        const keys = index.keys.get(v);
        if (!keys) continue;
        keys.delete(k);
        if (keys.size === 0) index.keys.delete(v);
      }
    }
  }

  changeCursor(): number {
    if (!this.feeding) {
      this.feeding = true;
      this.logBase = this.changes;
    }
    return this.changes;
  }

  changesSince(cursor: number, visit: (old: T | undefined, cur: T | undefined) => void): boolean {
    if (!this.feeding || cursor < this.logBase || cursor > this.changes) return false;
    const log = this.log;
    for (let i = (cursor - this.logBase) * 2; i < log.length; i += 2) visit(log[i], log[i + 1]);
    return true;
  }

  private record(old: T | undefined, cur: T | undefined): void {
    this.changes++;
    if (!this.feeding) return;
    const log = this.log;
    log.push(old, cur);
    const kept = Math.max(minKeptChanges, this.items.size >> 2);
    if (log.length >= 4 * kept) {
      // Keep the newest `kept` (at least half the log goes: amortized O(1) per change).
      const drop = log.length / 2 - kept;
      log.splice(0, drop * 2);
      this.logBase += drop;
    }
  }

  private invalidate(): void {
    this.all = null;
    this.byNamespace.clear();
  }

  list(namespace?: string): readonly T[] {
    this.all ??= [...this.items.values()];
    if (namespace === undefined || !this.namespaced) return this.all;
    let l = this.byNamespace.get(namespace);
    if (!l) {
      l = this.all.filter((o) => (o.metadata?.namespace ?? "") === namespace);
      this.byNamespace.set(namespace, l);
    }
    return l;
  }

  /** get(name) for cluster-scoped kinds, get(namespace, name) for namespaced ones. */
  get(namespaceOrName: string, name?: string): T | undefined {
    if (name === undefined) return this.items.get(`/${namespaceOrName}`);
    return this.items.get(`${this.namespaced ? namespaceOrName : ""}/${name}`);
  }
}
