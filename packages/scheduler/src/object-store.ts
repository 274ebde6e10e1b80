// An informer's cache: one kind's objects by namespace/name, with the lists the listers hand out
// cached until the next change (plugins list on every cycle; the store changes far less often).
// Shared by every ClusterSource: the in-memory cluster and the API-server source.
import type { ObjectMeta } from "@kubesched/api";
import type { ClusterScopedLister, Lister } from "@kubesched/framework";

/** The part of every Kubernetes object the informers look at. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

export function objectKey(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ""}/${obj.metadata?.name ?? ""}`;
}

export class ObjectStore<T extends KubeObject> implements Lister<T>, ClusterScopedLister<T> {
  private readonly items = new Map<string, T>();
  private all: T[] | null = null;
  private readonly byNamespace = new Map<string, T[]>();

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
    this.invalidate();
    return old;
  }

  /** Removes the object with this key; returns it. */
  removeKey(key: string): T | undefined {
    const old = this.items.get(key);
    if (old !== undefined) {
      this.items.delete(key);
      this.invalidate();
    }
    return old;
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
