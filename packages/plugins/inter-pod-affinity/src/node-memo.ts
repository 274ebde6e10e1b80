// upstream: pkg/scheduler/framework/plugins/nodememo (generation_memo.go, memo_lru.go).
//
// Per-node contributions memoized across scheduling cycles and validated with NodeInfo.generation:
// a cycle recomputes only the nodes whose generation moved since the previous cycle (usually the
// one node that received the last bound pod) instead of walking every pod of the cluster. The
// contributions are derived from the cycle's snapshot, exactly what the full computation reads,
// so the aggregate is identical to the full computation's (tests compare the two after mutations).
//
// When the snapshot tracks changes (ColumnarNodeInfoLister.changedSince, the scheduler cache's Snapshot), a
// memo last refreshed against the same list of the same snapshot visits only the changed nodes:
// O(changed) per cycle instead of a generation check per listed node.
import type { NodeInfo, NodeInfoLister } from "@kubesched/framework";
import { type ColumnarNodeInfoLister, columnarNodeInfos } from "@kubesched/framework/columnar";

/**
 * Where `nodes` came from, for refreshing from the snapshot's changes: `nodes` must be the list
 * `lister` returns for `member` (list() when null, else the havePodsWith* list of the nodes
 * `member` accepts).
 */
export interface NodeSource {
  lister: NodeInfoLister;
  member: ((nodeInfo: NodeInfo) => boolean) | null;
}

interface Slot<T> {
  readonly name: string;
  node: NodeInfo;
  generation: number;
  value: T | null;
  epoch: number;
}

/** Contributions of the nodes of a list, refreshed by generation. */
export class NodeMemo<T> {
  private readonly byName = new Map<string, Slot<T>>();
  /** Slot of the node at each index of the last list (a fast path when the list keeps its order). */
  private positional: Slot<T>[] = [];
  private epoch = 0;
  /** The lister and list (member) of the last refresh and its change token; lister null: none. */
  private lister: ColumnarNodeInfoLister | null = null;
  private member: ((nodeInfo: NodeInfo) => boolean) | null = null;
  private token = -1;

  /**
   * Brings the memo up to date with `nodes`: nodes with a new generation are recomputed, nodes no
   * longer listed are withdrawn. `apply(value, sign)` folds a contribution into (sign 1) or out of
   * (sign -1) the caller's aggregate. `compute` returns null when the node contributes nothing.
   * With `source` (where `nodes` came from), only the nodes changed since the last refresh from
   * the same source are visited when the snapshot can tell which.
   */
  refresh(
    nodes: readonly NodeInfo[],
    compute: (nodeInfo: NodeInfo) => T | null,
    apply: (value: T, sign: 1 | -1) => void,
    source: NodeSource | null = null,
  ): void {
    const lister = source === null ? null : columnarNodeInfos(source.lister);
    if (lister === null) {
      this.lister = null;
    } else {
      const same = this.lister === lister && this.member === source!.member;
      const changes = lister.changedSince(same ? this.token : -1);
      this.lister = lister;
      this.member = source!.member;
      this.token = changes.token;
      if (same && changes.nodes !== null) {
        this.refreshChanged(changes.nodes, source!.member, compute, apply);
        return;
      }
    }
    const epoch = ++this.epoch;
    const positional = this.positional;
    let seen = 0;
    for (let i = 0; i < nodes.length; i++) {
      const ni = nodes[i]!;
      let slot = positional[i];
      if (slot === undefined || (slot.node !== ni && slot.name !== ni.nodeName)) {
        const name = ni.nodeName;
        slot = this.byName.get(name);
        if (slot === undefined) {
          slot = { name, node: ni, generation: Number.NaN, value: null, epoch: 0 };
          this.byName.set(name, slot);
        }
        positional[i] = slot;
      }
      if (slot.epoch === epoch) continue; // the same node listed twice: count it once
      slot.epoch = epoch;
      slot.node = ni;
      seen++;
      if (slot.generation !== ni.generation) {
        if (slot.value !== null) apply(slot.value, -1);
        slot.value = compute(ni);
        if (slot.value !== null) apply(slot.value, 1);
        slot.generation = ni.generation;
      }
    }
    positional.length = nodes.length;
    if (seen !== this.byName.size) {
      for (const [name, slot] of this.byName) {
        if (slot.epoch === epoch) continue;
        if (slot.value !== null) apply(slot.value, -1);
        this.byName.delete(name);
      }
    }
  }

  /** Applies the changes of the listed nodes `changed` (members or not: see NodeSource). */
  private refreshChanged(
    changed: readonly NodeInfo[],
    member: ((nodeInfo: NodeInfo) => boolean) | null,
    compute: (nodeInfo: NodeInfo) => T | null,
    apply: (value: T, sign: 1 | -1) => void,
  ): void {
    for (let i = 0; i < changed.length; i++) {
      const ni = changed[i]!;
      const name = ni.nodeName;
      let slot = this.byName.get(name);
      if (member !== null && !member(ni)) {
        // Left the list.
        if (slot !== undefined) {
          if (slot.value !== null) apply(slot.value, -1);
          this.byName.delete(name);
          // The positional fast path must not find the dropped slot again.
          this.positional.length = 0;
        }
        continue;
      }
      if (slot === undefined) {
        slot = { name, node: ni, generation: Number.NaN, value: null, epoch: 0 };
        this.byName.set(name, slot);
      }
      slot.node = ni;
      if (slot.generation !== ni.generation) {
        if (slot.value !== null) apply(slot.value, -1);
        slot.value = compute(ni);
        if (slot.value !== null) apply(slot.value, 1);
        slot.generation = ni.generation;
      }
    }
  }
}

/**
 * A small LRU of memo entries keyed by pod shape. A shape gets an entry only the second time it is
 * seen: a memo's first pass costs more than the full computation, so pods whose shape never repeats
 * (unique labels) keep taking the full computation.
 */
export class MemoLRU<V> {
  private readonly entries = new Map<string, V>();
  private readonly seenOnce = new Map<string, true>();

  constructor(private readonly capacity: number) {}

  /** The entry for key (created when the key repeats), or undefined on a key's first sighting. */
  get(key: string, create: () => V): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    if (!this.seenOnce.has(key)) {
      this.seenOnce.set(key, true);
      if (this.seenOnce.size > this.capacity * 4) this.seenOnce.delete(this.seenOnce.keys().next().value!);
      return undefined;
    }
    this.seenOnce.delete(key);
    const v = create();
    this.entries.set(key, v);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return v;
  }
}

/** Entries kept per memo (distinct pod shapes scheduled in alternation). */
export const DefaultMemoCapacity = 32;
