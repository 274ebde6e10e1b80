// The emulator's etcd: objects by kind and key, one resourceVersion counter for every kind (etcd's
// revision), and the history of changes that watches resume from and exact lists read, until it
// is compacted.
import { randomUUID } from "node:crypto";
import { formatTime } from "@kubesched/api";
import { keyOf, kindInfo } from "./collections";

// biome-ignore lint/suspicious/noExplicitAny: wire JSON, inspected loosely by tests
export type Obj = Record<string, any>;

/** One change, as a watch delivers it. */
export interface HistoryEntry {
  rv: number;
  type: "ADDED" | "MODIFIED" | "DELETED";
  key: string;
  obj: Obj;
  old: Obj | undefined;
}

/** Now, as the API server writes timestamps (RFC 3339, seconds). */
export function isoNow(): string {
  return formatTime(Date.now());
}

export class ObjectStore {
  private readonly objects = new Map<string, Map<string, Obj>>();
  private readonly history = new Map<string, HistoryEntry[]>();
  private rv = 1;
  private compacted = 0;

  /** `onChange` hears every change that is not silent (the open watches). */
  constructor(private readonly onChange: (kind: string, entry: HistoryEntry) => void) {}

  /** The current resourceVersion (etcd revision). */
  resourceVersion(): number {
    return this.rv;
  }

  /** Versions at or below this are compacted: their history is gone (410 Expired). */
  compactedRevision(): number {
    return this.compacted;
  }

  /** The objects of a kind, by key. */
  of(kind: string): Map<string, Obj> {
    let m = this.objects.get(kind);
    if (!m) {
      m = new Map();
      this.objects.set(kind, m);
    }
    return m;
  }

  get(kind: string, namespace: string | undefined, name: string): Obj | undefined {
    return this.of(kind).get(keyOf(kindInfo(kind), namespace, name));
  }

  /**
   * Creates or replaces an object (new resourceVersion). `silent`: the change is in the history
   * but not sent to the watches open now (a change they missed).
   */
  put(kind: string, obj: Obj, silent = false): Obj {
    const info = kindInfo(kind);
    const meta = obj.metadata ?? {};
    const key = keyOf(info, meta.namespace ?? (info.namespaced ? "default" : undefined), meta.name);
    const old = this.of(kind).get(key);
    const stored: Obj = {
      ...obj,
      apiVersion: info.apiVersion,
      kind: info.kind,
      metadata: {
        ...meta,
        ...(info.namespaced ? { namespace: meta.namespace ?? "default" } : {}),
        uid: meta.uid ?? old?.metadata?.uid ?? randomUUID(),
        creationTimestamp: meta.creationTimestamp ?? old?.metadata?.creationTimestamp ?? isoNow(),
        resourceVersion: String(++this.rv),
      },
    };
    this.of(kind).set(key, stored);
    this.record(kind, old ? "MODIFIED" : "ADDED", key, stored, old, silent);
    return stored;
  }

  /** Deletes an object (see `put` for `silent`); false when it did not exist. */
  remove(kind: string, namespace: string | undefined, name: string, silent = false): boolean {
    const key = keyOf(kindInfo(kind), namespace, name);
    const old = this.of(kind).get(key);
    if (!old) return false;
    this.of(kind).delete(key);
    const gone = { ...old, metadata: { ...old.metadata, resourceVersion: String(++this.rv) } };
    this.record(kind, "DELETED", key, gone, old, silent);
    return true;
  }

  /** Drops the history up to now. */
  compact(): void {
    this.compacted = this.rv;
    for (const h of this.history.values()) h.length = 0;
  }

  /** The objects of a kind as they were at `rv` (undoing the history after it), by key. */
  stateAt(kind: string, rv: number): Map<string, Obj> {
    const state = new Map(this.of(kind));
    if (rv >= this.rv) return state;
    const h = this.history.get(kind) ?? [];
    for (let i = h.length - 1; i >= 0; i--) {
      const e = h[i] as HistoryEntry;
      if (e.rv <= rv) break;
      if (e.type === "ADDED") state.delete(e.key);
      else if (e.old) state.set(e.key, e.old);
    }
    return state;
  }

  /** The changes of a kind after `rv`, oldest first. */
  changesAfter(kind: string, rv: number): HistoryEntry[] {
    const h = this.history.get(kind) ?? [];
    let lo = 0;
    let hi = h.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((h[mid] as HistoryEntry).rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return h.slice(lo);
  }

  private record(
    kind: string,
    type: HistoryEntry["type"],
    key: string,
    obj: Obj,
    old: Obj | undefined,
    silent: boolean,
  ): void {
    const entry: HistoryEntry = { rv: this.rv, type, key, obj, old };
    let h = this.history.get(kind);
    if (!h) {
      h = [];
      this.history.set(kind, h);
    }
    h.push(entry);
    if (!silent) this.onChange(kind, entry);
  }
}
