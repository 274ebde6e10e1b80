// upstream: pkg/scheduler/backend/cache/cache.go (cacheImpl, New)
import { type Node, type Pod, podUID } from "@kubesched/api";
import { type Clock, type ImageStateSummary, NodeInfo, noImageStates, realClock } from "@kubesched/framework";
import type { Cache, CacheDump } from "./interface";
import { NodeTree } from "./node-tree";
import type { Snapshot } from "./snapshot";

/**
 * Thrown where upstream exits the process: the cache saw a pod move between nodes, which means
 * the informer stream and the cache disagree and every later decision would be wrong.
 */
export class CacheCorruptionError extends Error {
  override name = "CacheCorruptionError";
}

export interface CacheOptions {
  /** Time source for finishBinding deadlines. Default: the real clock. */
  clock?: Clock;
  /**
   * How long an assumed pod whose binding finished stays assumed before cleanupAssumedPods drops
   * it, in milliseconds. 0 (the default, as upstream since #106361) never expires assumed pods.
   */
  ttlMs?: number;
  /** Receives inconsistencies upstream only logs (HandleError). Default: ignore them. */
  onError?: (err: Error) => void;
}

/** A NodeInfo in the most-recently-updated-first list. */
interface NodeInfoListItem {
  info: NodeInfo;
  next: NodeInfoListItem | null;
  prev: NodeInfoListItem | null;
}

interface PodState {
  pod: Pod;
  /** When an assumed pod expires (ms); null: never. */
  deadline: number | null;
  /** Assumed pods are never expired while their binding is in progress. */
  bindingFinished: boolean;
}

/**
 * An image's size and the nodes having it, shared by every cache NodeInfo that has the image
 * so numNodes is always current there; snapshots copy it (upstream ImageStateSummary.Snapshot).
 */
class ImageState implements ImageStateSummary {
  readonly nodes = new Set<string>();
  constructor(readonly size: number) {}
  get numNodes(): number {
    return this.nodes.size;
  }
}

/** A NodeInfo copy with frozen image summaries (upstream NodeInfo.Snapshot). */
function snapshotNodeInfo(info: NodeInfo): NodeInfo {
  const clone = new NodeInfo();
  snapshotNodeInfoInto(info, clone);
  return clone;
}

/** snapshotNodeInfo into an existing NodeInfo (the snapshot's, which keeps its identity). */
function snapshotNodeInfoInto(info: NodeInfo, target: NodeInfo): void {
  info.copyInto(target);
  if (target.imageStates.size > 0) {
    const frozen = new Map<string, ImageStateSummary>();
    for (const [name, s] of target.imageStates) frozen.set(name, { size: s.size, numNodes: s.numNodes });
    target.imageStates = frozen;
  }
}

function podRef(pod: Pod): string {
  return `${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`;
}

/** The scheduler cache (upstream cache.New); see Cache for the operations. */
export function newCache(opts: CacheOptions = {}): Cache {
  return new CacheImpl(opts);
}

/**
 * The scheduler cache (upstream cacheImpl): what is (or is assumed to be) running on every node.
 * Pods are keyed by UID. Assumed pods (AssumePod after a successful scheduling cycle) count on
 * their node until the informer confirms them (addPod) or binding fails (forgetPod).
 *
 * Every NodeInfo mutation takes a fresh global generation and moves the node to the head of a
 * list, so updateSnapshot copies only the nodes changed since the snapshot's generation.
 */
export class CacheImpl implements Cache {
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly onError: (err: Error) => void;
  private readonly assumedPods = new Set<string>();
  private readonly podStates = new Map<string, PodState>();
  private readonly nodes = new Map<string, NodeInfoListItem>();
  /** The most recently updated NodeInfo. */
  private headNode: NodeInfoListItem | null = null;
  private readonly nodeTree = new NodeTree();
  private readonly imageStates = new Map<string, ImageState>();

  constructor(opts: CacheOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.ttlMs = opts.ttlMs ?? 0;
    this.onError = opts.onError ?? (() => {});
  }

  // --- linked list (upstream moveNodeInfoToHead / removeNodeInfoFromList) ---

  private moveNodeInfoToHead(name: string): void {
    const ni = this.nodes.get(name);
    if (!ni) {
      this.onError(new Error(`No node info with given name found in the cache: node ${name}`));
      return;
    }
    if (ni === this.headNode) return;
    if (ni.prev) ni.prev.next = ni.next;
    if (ni.next) ni.next.prev = ni.prev;
    if (this.headNode) this.headNode.prev = ni;
    ni.next = this.headNode;
    ni.prev = null;
    this.headNode = ni;
  }

  private removeNodeInfoFromList(name: string): void {
    const ni = this.nodes.get(name);
    if (!ni) {
      this.onError(new Error(`No node info with given name found in the cache: node ${name}`));
      return;
    }
    if (ni.prev) ni.prev.next = ni.next;
    if (ni.next) ni.next.prev = ni.prev;
    if (ni === this.headNode) this.headNode = ni.next;
    this.nodes.delete(name);
  }

  private getOrCreateItem(name: string): NodeInfoListItem {
    let n = this.nodes.get(name);
    if (!n) {
      n = { info: new NodeInfo(), next: null, prev: null };
      this.nodes.set(name, n);
    }
    return n;
  }

  // --- snapshots ---

  /** A copy of every cached NodeInfo and the assumed pods, for debugging (expensive). */
  dump(): CacheDump {
    const nodes = new Map<string, NodeInfo>();
    for (const [name, item] of this.nodes) nodes.set(name, snapshotNodeInfo(item.info));
    return { nodes, assumedPods: new Set(this.assumedPods) };
  }

  /**
   * Brings `snapshot` up to date, copying only the NodeInfos changed since its generation.
   * The snapshot's NodeInfo objects keep their identity (their contents are replaced), so the node
   * list is rebuilt only when nodes were added or removed; the affinity lists are patched (in node
   * list order, as a rebuild would give) for the nodes that started or stopped having pods with
   * (required anti-)affinity, and the PVC set gains and loses the keys of the changed nodes (by a
   * count of nodes per key; upstream rebuilds it over every node when a node's PVCs changed). The
   * snapshot records which NodeInfos changed (Snapshot.changedSince). Throws after repairing the snapshot
   * when the list and the node tree disagree (upstream returns that error and fails the cycle).
   */
  updateSnapshot(snapshot: Snapshot): void {
    const snapshotGeneration = snapshot.generation;
    let updateAllLists = false;
    let affinityFlips: NodeInfo[] | null = null;
    let requiredAntiAffinityFlips: NodeInfo[] | null = null;
    let updateUsedPVCSet = false;
    // PVC keys the changed NodeInfos gained and lost (for the incremental usedPVCSet).
    let pvcChanges: PVCKeyChanges | null = null;
    const changed: NodeInfo[] = [];

    for (let item = this.headNode; item !== null; item = item.next) {
      if (item.info.generation <= snapshotGeneration) break;
      const node = item.info.node;
      if (node === null) continue;
      const name = node.metadata?.name ?? "";
      let existing = snapshot.nodeInfoMap.get(name);
      if (!existing) {
        updateAllLists = true;
        existing = new NodeInfo();
        snapshot.nodeInfoMap.set(name, existing);
      }
      const info = item.info;
      const affinityFlipped = existing.podsWithAffinity.length > 0 !== info.podsWithAffinity.length > 0;
      const requiredAntiAffinityFlipped =
        existing.podsWithRequiredAntiAffinity.length > 0 !== info.podsWithRequiredAntiAffinity.length > 0;
      if (existing.pvcRefCounts.size !== 0 || info.pvcRefCounts.size !== 0) {
        pvcChanges ??= { added: [], removed: [] };
        if (diffPVCKeys(existing.pvcRefCounts, info.pvcRefCounts, pvcChanges)) updateUsedPVCSet = true;
      }
      // Keep the object: the snapshot's lists point at it and may not be rebuilt.
      snapshotNodeInfoInto(info, existing);
      changed.push(existing);
      if (affinityFlipped) {
        affinityFlips ??= [];
        affinityFlips.push(existing);
      }
      if (requiredAntiAffinityFlipped) {
        requiredAntiAffinityFlips ??= [];
        requiredAntiAffinityFlips.push(existing);
      }
    }
    if (this.headNode) snapshot.generation = this.headNode.info.generation;

    // Deleted nodes leave the tree but may stay in `nodes` while they still have pods.
    if (snapshot.nodeInfoMap.size > this.nodeTree.numNodes) {
      this.removeDeletedNodesFromSnapshot(snapshot);
      updateAllLists = true;
    }

    if (updateAllLists) {
      this.updateNodeInfoSnapshotList(snapshot, true);
    } else {
      const patched =
        (affinityFlips === null && requiredAntiAffinityFlips === null) ||
        patchAffinityLists(snapshot, affinityFlips, requiredAntiAffinityFlips);
      if (!patched) this.updateNodeInfoSnapshotList(snapshot, false);
      else if (updateUsedPVCSet && pvcChanges !== null) updateUsedPVCSetIncrementally(snapshot, pvcChanges);
    }

    snapshot.updateColumns(changed);
    if (snapshot.nodeInfoList.length !== this.nodeTree.numNodes) {
      const msg =
        `snapshot state is not consistent, length of NodeInfoList=${snapshot.nodeInfoList.length} not equal to length of nodes in tree=${this.nodeTree.numNodes} ` +
        `, length of NodeInfoMap=${snapshot.nodeInfoMap.size}, length of nodes in cache=${this.nodes.size}` +
        ", trying to recover";
      // Recreate the lists for the next cycle, but still fail this one.
      this.updateNodeInfoSnapshotList(snapshot, true);
      snapshot.updateColumns(changed);
      snapshot.recordUpdate(changed, true);
      throw new Error(msg);
    }
    snapshot.recordUpdate(changed, updateAllLists);
  }

  private updateNodeInfoSnapshotList(snapshot: Snapshot, updateAll: boolean): void {
    snapshot.havePodsWithAffinityNodeInfoList = [];
    snapshot.havePodsWithRequiredAntiAffinityNodeInfoList = [];
    snapshot.usedPVCSet = new Set();
    if (updateAll) {
      snapshot.nodeInfoList = [];
      const { names, err } = this.nodeTree.list();
      if (err) this.onError(err);
      for (const name of names) {
        const ni = snapshot.nodeInfoMap.get(name);
        if (!ni) {
          this.onError(
            new Error(`Node exists in nodeTree but not in NodeInfoMap, this should not happen: ${name}`),
          );
          continue;
        }
        snapshot.nodeInfoList.push(ni);
      }
    }
    for (const ni of snapshot.nodeInfoList) {
      if (ni.podsWithAffinity.length > 0) snapshot.havePodsWithAffinityNodeInfoList.push(ni);
      if (ni.podsWithRequiredAntiAffinity.length > 0) {
        snapshot.havePodsWithRequiredAntiAffinityNodeInfoList.push(ni);
      }
      for (const key of ni.pvcRefCounts.keys()) snapshot.usedPVCSet.add(key);
    }
  }

  private removeDeletedNodesFromSnapshot(snapshot: Snapshot): void {
    let toDelete = snapshot.nodeInfoMap.size - this.nodeTree.numNodes;
    for (const name of snapshot.nodeInfoMap.keys()) {
      if (toDelete <= 0) break;
      const n = this.nodes.get(name);
      if (!n || n.info.node === null) {
        snapshot.nodeInfoMap.delete(name);
        toDelete--;
      }
    }
  }

  // --- counts ---

  /** NodeInfos in the cache, including nodes known only through their pods. */
  nodeCount(): number {
    return this.nodes.size;
  }

  /** Pods in the cache (assumed ones and those on deleted nodes included). */
  podCount(): number {
    let count = 0;
    for (const n of this.nodes.values()) count += n.info.podCount;
    return count;
  }

  assumedPodCount(): number {
    return this.assumedPods.size;
  }

  // --- pods ---

  /** Counts the pod on its node (spec.nodeName) until binding confirms or fails it. */
  assumePod(pod: Pod): void {
    const key = podUID(pod);
    if (this.podStates.has(key)) {
      throw new Error(`pod ${key}(${podRef(pod)}) is in the cache, so can't be assumed`);
    }
    this.addPodInternal(pod, true);
  }

  /** Marks the assumed pod's binding finished (it may expire from now on when ttlMs > 0). */
  finishBinding(pod: Pod): void {
    const key = podUID(pod);
    const state = this.podStates.get(key);
    if (state && this.assumedPods.has(key)) {
      state.deadline = this.ttlMs === 0 ? null : this.clock.now() + this.ttlMs;
      state.bindingFinished = true;
    }
  }

  /** Removes an assumed pod (binding failed). */
  forgetPod(pod: Pod): void {
    const key = podUID(pod);
    const state = this.podStates.get(key);
    const nodeName = pod.spec?.nodeName ?? "";
    const stateNode = state?.pod.spec?.nodeName ?? "";
    if (state && stateNode !== nodeName) {
      throw new Error(`pod ${key}(${podRef(pod)}) was assumed on ${nodeName} but assigned to ${stateNode}`);
    }
    if (state && this.assumedPods.has(key)) {
      this.removePodInternal(pod);
      return;
    }
    throw new Error(`pod ${key}(${podRef(pod)}) wasn't assumed so cannot be forgotten`);
  }

  private addPodInternal(pod: Pod, assumed: boolean): void {
    const key = podUID(pod);
    const nodeName = pod.spec?.nodeName ?? "";
    const n = this.getOrCreateItem(nodeName);
    n.info.addPod(pod);
    this.moveNodeInfoToHead(nodeName);
    this.podStates.set(key, { pod, deadline: null, bindingFinished: false });
    if (assumed) this.assumedPods.add(key);
  }

  private updatePodInternal(oldPod: Pod, newPod: Pod): void {
    this.removePodInternal(oldPod);
    this.addPodInternal(newPod, false);
  }

  /** Removes the pod from its node; drops the node's NodeInfo when it was deleted and is now empty. */
  private removePodInternal(pod: Pod): void {
    const key = podUID(pod);
    const nodeName = pod.spec?.nodeName ?? "";
    const n = this.nodes.get(nodeName);
    if (!n) {
      this.onError(
        new Error(`Node not found when trying to remove pod: node ${nodeName}, pod ${podRef(pod)}`),
      );
    } else {
      n.info.removePod(pod);
      if (n.info.podCount === 0 && n.info.node === null) this.removeNodeInfoFromList(nodeName);
      else this.moveNodeInfoToHead(nodeName);
    }
    this.podStates.delete(key);
    this.assumedPods.delete(key);
  }

  /** An assigned pod appeared in the informer: confirms an assumed pod, or adds the pod. */
  addPod(pod: Pod): void {
    const key = podUID(pod);
    const state = this.podStates.get(key);
    if (state && this.assumedPods.has(key)) {
      // Replace the assumed copy with the informer's, which also confirms it.
      try {
        this.updatePodInternal(state.pod, pod);
      } catch (e) {
        this.onError(e instanceof Error ? e : new Error(String(e)));
      }
      return;
    }
    if (!state) {
      // Unknown, or an assumed pod that expired: add it back.
      try {
        this.addPodInternal(pod, false);
      } catch (e) {
        this.onError(e instanceof Error ? e : new Error(String(e)));
      }
      return;
    }
    throw new Error(`pod ${key}(${podRef(pod)}) was already in added state`);
  }

  /** An assigned pod changed in the informer. */
  updatePod(oldPod: Pod, newPod: Pod): void {
    const key = podUID(oldPod);
    const state = this.podStates.get(key);
    if (!state) {
      throw new Error(`pod ${key}(${podRef(oldPod)}) is not added to scheduler cache, so cannot be updated`);
    }
    // An assumed pod gets an Add (which confirms it) before any Update.
    if (this.assumedPods.has(key)) {
      throw new Error(`assumed pod ${key}(${podRef(oldPod)}) should not be updated`);
    }
    if ((state.pod.spec?.nodeName ?? "") !== (newPod.spec?.nodeName ?? "")) {
      throw new CacheCorruptionError(
        `Pod updated on a different node than previously added to. Scheduler cache is corrupted and can badly affect scheduling decisions: pod ${podRef(oldPod)}`,
      );
    }
    this.updatePodInternal(oldPod, newPod);
  }

  /** An assigned pod was deleted. */
  removePod(pod: Pod): void {
    const key = podUID(pod);
    const state = this.podStates.get(key);
    if (!state) {
      throw new Error(
        `pod ${key}(${podRef(pod)}) is not found in scheduler cache, so cannot be removed from it`,
      );
    }
    const nodeName = pod.spec?.nodeName ?? "";
    if ((state.pod.spec?.nodeName ?? "") !== nodeName && nodeName !== "") {
      // An empty nodeName happens when a delete was missed and the last known state is used.
      throw new CacheCorruptionError(
        `Pod was added to a different node than it was assumed. Scheduler cache is corrupted and can badly affect scheduling decisions: pod ${podRef(pod)}`,
      );
    }
    this.removePodInternal(state.pod);
  }

  isAssumedPod(pod: Pod): boolean {
    return this.assumedPods.has(podUID(pod));
  }

  /** The cached pod (possibly on a deleted node), or undefined. */
  getPod(pod: Pod): Pod | undefined {
    return this.podStates.get(podUID(pod))?.pod;
  }

  // --- nodes ---

  /** Adds (or replaces) a node; returns a snapshot of its NodeInfo. */
  addNode(node: Node): NodeInfo {
    const name = node.metadata?.name ?? "";
    const existed = this.nodes.get(name);
    if (existed) this.removeNodeImageStates(existed.info.node);
    const n = existed ?? this.getOrCreateItem(name);
    this.moveNodeInfoToHead(name);
    this.nodeTree.addNode(node);
    this.addNodeImageStates(node, n.info);
    n.info.setNode(node);
    return snapshotNodeInfo(n.info);
  }

  /** Replaces a node (adding it when unknown); returns a snapshot of its NodeInfo. */
  updateNode(oldNode: Node | null, newNode: Node): NodeInfo {
    const name = newNode.metadata?.name ?? "";
    const existed = this.nodes.get(name);
    if (existed) {
      this.removeNodeImageStates(existed.info.node);
    } else {
      this.nodeTree.addNode(newNode);
    }
    const n = existed ?? this.getOrCreateItem(name);
    this.moveNodeInfoToHead(name);
    this.nodeTree.updateNode(oldNode, newNode);
    this.addNodeImageStates(newNode, n.info);
    n.info.setNode(newNode);
    return snapshotNodeInfo(n.info);
  }

  /**
   * Removes a node from the tree. Its NodeInfo stays (without the node, skipped by snapshots)
   * until the deletions of its pods arrive, which may come later on another watch.
   */
  removeNode(node: Node): void {
    const name = node.metadata?.name ?? "";
    const n = this.nodes.get(name);
    if (!n) throw new Error(`node ${name} is not found`);
    n.info.removeNode();
    if (n.info.podCount === 0) this.removeNodeInfoFromList(name);
    else this.moveNodeInfoToHead(name);
    this.nodeTree.removeNode(node);
    this.removeNodeImageStates(node);
  }

  private addNodeImageStates(node: Node, nodeInfo: NodeInfo): void {
    const name = node.metadata?.name ?? "";
    const newSum = new Map<string, ImageStateSummary>();
    for (const image of node.status?.images ?? []) {
      for (const imageName of image.names ?? []) {
        let state = this.imageStates.get(imageName);
        if (!state) {
          state = new ImageState(image.sizeBytes ?? 0);
          this.imageStates.set(imageName, state);
        }
        state.nodes.add(name);
        if (!newSum.has(imageName)) newSum.set(imageName, state);
      }
    }
    // Nodes without images share one empty map (hot in the CPU cache during Score).
    nodeInfo.imageStates = newSum.size === 0 ? noImageStates() : newSum;
  }

  private removeNodeImageStates(node: Node | null): void {
    if (!node) return;
    const name = node.metadata?.name ?? "";
    for (const image of node.status?.images ?? []) {
      for (const imageName of image.names ?? []) {
        const state = this.imageStates.get(imageName);
        if (!state) continue;
        state.nodes.delete(name);
        // Keep imageStates' size equal to the number of distinct images on the nodes.
        if (state.nodes.size === 0) this.imageStates.delete(imageName);
      }
    }
  }

  /**
   * Expires assumed pods whose binding finished more than ttlMs before `now` (only when ttlMs > 0;
   * the engine calls it periodically, upstream every second).
   */
  cleanupAssumedPods(now: number = this.clock.now()): void {
    for (const key of [...this.assumedPods]) {
      const ps = this.podStates.get(key);
      if (!ps) {
        throw new CacheCorruptionError(
          "Key found in assumed set but not in podStates, potentially a logical error",
        );
      }
      if (!ps.bindingFinished) continue;
      if (this.ttlMs !== 0 && ps.deadline !== null && now > ps.deadline) {
        try {
          this.removePodInternal(ps.pod);
        } catch (e) {
          this.onError(e instanceof Error ? e : new Error(String(e)));
        }
      }
    }
  }
}

/** PVC keys that NodeInfos gained and lost in one updateSnapshot. */
interface PVCKeyChanges {
  added: string[];
  removed: string[];
}

/**
 * Adds the keys in `next` but not in `prev` to `out.added` and those in `prev` but not in `next`
 * to `out.removed`; whether there were any.
 */
function diffPVCKeys(
  prev: ReadonlyMap<string, number>,
  next: ReadonlyMap<string, number>,
  out: PVCKeyChanges,
): boolean {
  let any = false;
  for (const key of next.keys()) {
    if (!prev.has(key)) {
      out.added.push(key);
      any = true;
    }
  }
  for (const key of prev.keys()) {
    if (!next.has(key)) {
      out.removed.push(key);
      any = true;
    }
  }
  return any;
}

/**
 * Per snapshot: how many listed NodeInfos use each PVC key, valid while `set` is the snapshot's
 * usedPVCSet (a rebuild of the lists replaces the set, and the counts are then rebuilt on the next
 * incremental update). Kept outside Snapshot so its public shape stays upstream's.
 */
const pvcNodeCounts = new WeakMap<Snapshot, PVCNodeCounts>();

/** A snapshot's usedPVCSet and how many listed NodeInfos use each of its keys. */
interface PVCNodeCounts {
  set: Set<string>;
  counts: Map<string, number>;
}

/**
 * usedPVCSet after the listed NodeInfos gained and lost the given keys (the node list itself
 * unchanged): O(changes) with the counts, as a rebuild over every node (upstream) would give.
 */
function updateUsedPVCSetIncrementally(snapshot: Snapshot, changes: PVCKeyChanges): void {
  let idx = pvcNodeCounts.get(snapshot);
  if (idx === undefined || idx.set !== snapshot.usedPVCSet) {
    // First incremental update since the set was built elsewhere: count over every node.
    idx = { set: new Set(), counts: new Map() };
    for (const ni of snapshot.nodeInfoList) for (const key of ni.pvcRefCounts.keys()) addPVCKey(idx, key);
    snapshot.usedPVCSet = idx.set;
    pvcNodeCounts.set(snapshot, idx);
    return;
  }
  for (const key of changes.added) addPVCKey(idx, key);
  const { set, counts } = idx;
  for (const key of changes.removed) {
    const c = counts.get(key);
    if (c === undefined) continue;
    if (c <= 1) {
      counts.delete(key);
      set.delete(key);
    } else {
      counts.set(key, c - 1);
    }
  }
}

/** One more node uses `key`. */
function addPVCKey(idx: PVCNodeCounts, key: string): void {
  const c = idx.counts.get(key);
  if (c === undefined) {
    idx.counts.set(key, 1);
    idx.set.add(key);
  } else {
    idx.counts.set(key, c + 1);
  }
}

/** nodeInfoList positions (built once per node list, see Snapshot.nodeIndex). */
function nodeIndexOf(snapshot: Snapshot): Map<NodeInfo, number> {
  if (snapshot.nodeIndex !== null && snapshot.nodeIndexList === snapshot.nodeInfoList) {
    return snapshot.nodeIndex;
  }
  const index = new Map<NodeInfo, number>();
  const list = snapshot.nodeInfoList;
  for (let i = 0; i < list.length; i++) index.set(list[i]!, i);
  snapshot.nodeIndex = index;
  snapshot.nodeIndexList = list;
  return index;
}

/**
 * Patches the affinity lists for the listed nodes whose membership flipped, keeping node list
 * order (the result equals a rebuild over nodeInfoList). False when a flipped node is not listed
 * (the caller rebuilds).
 */
function patchAffinityLists(
  snapshot: Snapshot,
  affinityFlips: readonly NodeInfo[] | null,
  requiredAntiAffinityFlips: readonly NodeInfo[] | null,
): boolean {
  const index = nodeIndexOf(snapshot);
  if (affinityFlips !== null) {
    const list = patchList(
      snapshot.havePodsWithAffinityNodeInfoList,
      affinityFlips,
      (ni) => ni.podsWithAffinity.length > 0,
      index,
    );
    if (list === null) return false;
    snapshot.havePodsWithAffinityNodeInfoList = list;
  }
  if (requiredAntiAffinityFlips !== null) {
    const list = patchList(
      snapshot.havePodsWithRequiredAntiAffinityNodeInfoList,
      requiredAntiAffinityFlips,
      (ni) => ni.podsWithRequiredAntiAffinity.length > 0,
      index,
    );
    if (list === null) return false;
    snapshot.havePodsWithRequiredAntiAffinityNodeInfoList = list;
  }
  return true;
}

/**
 * A new list: `old` without the flipped nodes that left, with the flipped nodes that joined at
 * their node list position. Null when a flipped node has no position.
 */
function patchList(
  old: readonly NodeInfo[],
  flipped: readonly NodeInfo[],
  member: (ni: NodeInfo) => boolean,
  index: ReadonlyMap<NodeInfo, number>,
): NodeInfo[] | null {
  const joined: { ni: NodeInfo; at: number; pos: number }[] = [];
  let left: Set<NodeInfo> | null = null;
  for (const ni of flipped) {
    const at = index.get(ni);
    if (at === undefined) return null;
    if (member(ni)) joined.push({ ni, at, pos: 0 });
    else {
      left ??= new Set();
      left.add(ni);
    }
  }
  joined.sort((a, b) => a.at - b.at);
  for (const j of joined) {
    // The first entry of `old` after the node in list order.
    let lo = 0;
    let hi = old.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const at = index.get(old[mid]!);
      if (at === undefined) return null;
      if (at < j.at) lo = mid + 1;
      else hi = mid;
    }
    j.pos = lo;
  }
  const out: NodeInfo[] = [];
  let k = 0;
  for (let i = 0; i < old.length; i++) {
    while (k < joined.length && joined[k]!.pos === i) out.push(joined[k++]!.ni);
    const ni = old[i]!;
    if (left?.has(ni)) continue;
    out.push(ni);
  }
  while (k < joined.length) out.push(joined[k++]!.ni);
  return out;
}
