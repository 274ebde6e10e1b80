// upstream: pkg/scheduler/framework/types.go (NodeInfo)
import {
  HostPortInfo,
  type Node,
  type Pod,
  podHasRequiredAntiAffinity,
  podUID,
  type Taint,
} from "@kubesched/api";
import { PodInfo } from "./pod-info";
import { Resource } from "./resource";

/**
 * Image size and how many nodes have it; shared by every NodeInfo that has the image (upstream
 * ImageStateSummary).
 * @public
 */
export interface ImageStateSummary {
  /** The image's size in bytes. */
  size: number;
  /** How many nodes of the cluster have the image. */
  numNodes: number;
}

/** The image states of every node without images: shared, so it must never change. */
class NoImageStates extends Map<string, ImageStateSummary> {
  override set(): this {
    throw new Error("NodeInfo.imageStates of a node without images is shared: assign a new Map instead");
  }
}
const sharedNoImageStates: Map<string, ImageStateSummary> = new NoImageStates();

/**
 * The one empty image-state map every NodeInfo without images shares (never mutate it).
 * @internal
 */
export function noImageStates(): Map<string, ImageStateSummary> {
  return sharedNoImageStates;
}
const noTaints: readonly Taint[] = Object.freeze([]);

let generationCounter = 0;

/**
 * A process-wide, monotonically increasing generation (never reused, like upstream's).
 * @internal
 */
export function nextGeneration(): number {
  generationCounter += 1;
  return generationCounter;
}

/** Above this many pods, NodeInfo.removePod finds a pod by an index rather than a walk. */
const podIndexThreshold = 64;

/** NodeInfo.podList while the pods are shared (never read or changed: `pods` replaces it first). */
const unreadPodList: PodInfo[] = [];

/** Above this many pods, copies of a NodeInfo share its pod list until they read it. */
const podListShareThreshold = 64;

/**
 * Node-level aggregated information: the node, its pods and what they use (upstream NodeInfo).
 * Plugins read the snapshot's NodeInfos and never change them; preemption works on clones.
 * @public
 */
export class NodeInfo {
  private nodeObj: Node | null = null;
  /** The pods, unless `lentFrom` is set (see `pods`). */
  private podList: PodInfo[] = [];
  /**
   * A copy made by copyInto shares its source's pod list instead of copying it: its pods are the
   * first `lentLength` entries of `lentFrom` as they were at the copy, which the source keeps
   * recoverable through `lentUndo` (entries from `lentUndoStart` on; set whenever `lentFrom` is).
   * `pods` materializes them.
   */
  private lentFrom: PodInfo[] | null = null;
  private lentLength = 0;
  private lentUndo: PodListUndo | null = null;
  private lentUndoStart = 0;
  /** How far copies share `podList` (positions below are recorded in `undo` when changed). */
  private lentMax = 0;
  private undo: PodListUndo | null = null;
  /** Pods with podAffinity or podAntiAffinity. */
  podsWithAffinity: PodInfo[] = [];
  /** Pods with required podAntiAffinity terms. */
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  /** Host ports (ip, protocol, port) the node's pods use. */
  usedPorts: HostPortInfo = new HostPortInfo();
  /** Sum of the pods' requests. */
  requested: Resource = new Resource();
  /** cpu/memory with 100m/200Mi assumed for containers without a request; used for scoring. */
  nonZeroRequested: Resource = new Resource();
  /** The node's allocatable resources (`status.allocatable`). */
  allocatable: Resource = new Resource();
  /** Image name (each of status.images[].names) → summary; one shared empty map when none. */
  imageStates: Map<string, ImageStateSummary> = sharedNoImageStates;
  /** `namespace/claimName` → number of pods on this node using it. */
  pvcRefCounts: Map<string, number> = new Map();
  /**
   * Changes whenever the NodeInfo does (node, pods): process-wide and never reused, so equal
   * generations mean an unchanged node.
   */
  generation: number = nextGeneration();

  /** A NodeInfo without a node, holding `pods` (upstream NewNodeInfo). */
  constructor(...pods: Pod[]) {
    for (const p of pods) this.addPod(p);
  }

  /**
   * The pods on this node (do not change the list: use addPod/removePod).
   *
   * Read it only when the pods themselves are needed (to match selectors, sum volumes...), and
   * {@link NodeInfo.podCount} for how many there are. A copy (the snapshot's NodeInfos, clones)
   * shares its source's list and copies it the first time `pods` is read, so that a node with tens
   * of thousands of pods is not copied on every snapshot update while no plugin looks at its pods:
   * reading `pods` on such a node in Filter or Score copies its list once per snapshot update.
   */
  get pods(): PodInfo[] {
    if (this.lentFrom !== null) this.materializePods();
    return this.podList;
  }

  set pods(pods: PodInfo[]) {
    this.ownPodList(pods);
  }

  /** How many pods are on this node: `pods.length` without copying a shared list (see `pods`). */
  get podCount(): number {
    return this.lentFrom !== null ? this.lentLength : this.podList.length;
  }

  private materializePods(): void {
    const src = this.lentFrom!;
    const n = this.lentLength;
    const out = src.length >= n ? src.slice(0, n) : src.slice();
    while (out.length < n) out.push(undefined as unknown as PodInfo);
    const u = this.lentUndo!;
    for (let k = u.pos.length - 1; k >= this.lentUndoStart; k--) {
      const p = u.pos[k]!;
      if (p < n) out[p] = u.val[k]!;
    }
    this.ownPodList(out);
  }

  /** Makes this NodeInfo's pods the first `length` of `from` as `undo` (from `undoStart` on) recovers them. */
  private borrow(from: PodInfo[], length: number, undo: PodListUndo, undoStart: number): void {
    // Its own list, if any, is no longer its pods (and may be what other copies share).
    this.podList = unreadPodList;
    this.lentFrom = from;
    this.lentLength = length;
    this.lentUndo = undo;
    this.lentUndoStart = undoStart;
    this.lentMax = 0;
    this.undo = null;
  }

  private ownPodList(pods: PodInfo[]): void {
    this.podList = pods;
    this.lentFrom = null;
    this.lentUndo = null;
    this.lentMax = 0;
    this.undo = null;
  }

  /** The node's name ("" until the node is set): a field, read on every hot path. */
  nodeName = "";
  /**
   * `node.spec.taints` (a shared empty list when none) and `node.spec.unschedulable`, kept on
   * the NodeInfo: Filter reads them for every node, and following node → spec → taints costs a
   * cache miss per hop on nodes that were not touched recently.
   */
  taints: readonly Taint[] = noTaints;
  /** `node.spec.unschedulable` (see `taints`). */
  unschedulable = false;

  /** The node object; null for a node the cache knows only through its pods. */
  get node(): Node | null {
    return this.nodeObj;
  }

  /** Sets the node (its name, taints, unschedulable flag and allocatable follow). */
  setNode(node: Node): void {
    this.nodeObj = node;
    this.nodeName = node.metadata?.name ?? "";
    this.taints = node.spec?.taints ?? noTaints;
    this.unschedulable = node.spec?.unschedulable === true;
    this.allocatable = Resource.fromList(node.status?.allocatable);
    this.generation = nextGeneration();
  }

  /** Clears the node (the cache keeps a NodeInfo for pods of a deleted node until they go). */
  removeNode(): void {
    this.nodeObj = null;
    this.nodeName = "";
    this.taints = noTaints;
    this.unschedulable = false;
    this.generation = nextGeneration();
  }

  /** Adds a pod: its requests, ports, volumes and affinity are accounted (upstream AddPod). */
  addPod(pod: Pod): void {
    this.addPodInfo(new PodInfo(pod));
  }

  /** Adds a pod whose PodInfo is already built (upstream AddPodInfo). */
  addPodInfo(pi: PodInfo): void {
    // An append changes no position a copy shares that was not recorded when it was removed.
    const pods = this.pods;
    pods.push(pi);
    if (this.podIndexOf === pods) this.podIndex!.set(pi.uid(), pods.length - 1);
    if (pi.hasPodAffinity) {
      this.podsWithAffinity.push(pi);
      if (podHasRequiredAntiAffinity(pi.pod)) this.podsWithRequiredAntiAffinity.push(pi);
    }
    this.update(pi, 1);
  }

  /** Removes a pod by UID; throws when the pod is not on this node. */
  removePod(pod: Pod): void {
    const uid = podUID(pod);
    removeFrom(this.podsWithAffinity, uid);
    removeFrom(this.podsWithRequiredAntiAffinity, uid);
    let pods = this.pods;
    let i: number;
    if (pods.length > podIndexThreshold) {
      // A node with many pods keeps their positions (built at its first removal, kept up to date
      // while its pod list is the same array): removal is not a walk over every pod.
      if (this.podIndexOf !== pods) {
        const index = new Map<string, number>();
        for (let k = 0; k < pods.length; k++) index.set(pods[k]!.uid(), k);
        this.podIndex = index;
        this.podIndexOf = pods;
      }
      i = this.podIndex!.get(uid) ?? -1;
    } else {
      i = -1;
    }
    // Pods sharing a UID (only in hand-built inputs) are found by a walk, as without the index.
    if (i < 0 || pods[i]!.uid() !== uid) {
      i = pods.length - 1;
      while (i >= 0 && pods[i]!.uid() !== uid) i--;
    }
    if (i < 0) {
      throw new Error(`no corresponding pod ${pod.metadata?.name ?? ""} in pods of node ${this.nodeName}`);
    }
    const pi = pods[i]!;
    if (this.lentMax > 0) {
      // Copies share this list: record what the removal overwrites (position i) and drops (the
      // last position) where they can see it, so they can still recover their pods.
      const undo = this.undo!;
      const last = pods.length - 1;
      if (i < this.lentMax) undo.record(i, pi);
      if (last !== i && last < this.lentMax) undo.record(last, pods[last]!);
    }
    swapRemove(pods, i);
    if (this.undo !== null && this.undo.pos.length > pods.length + 64) {
      // The log outgrew the list: leave the old list and log to the copies, continue on a copy
      // (positions are the same, so the index carries over).
      const own = pods.slice();
      const indexed = this.podIndexOf === pods;
      this.ownPodList(own);
      if (indexed) this.podIndexOf = own;
      pods = own;
    }
    if (this.podIndexOf === pods) {
      const index = this.podIndex!;
      index.delete(uid);
      if (i < pods.length) index.set(pods[i]!.uid(), i);
    }
    this.update(pi, -1);
  }
  /** Position of each pod in `pods` by UID, valid while `podIndexOf === pods`. */
  private podIndex: Map<string, number> | null = null;
  private podIndexOf: PodInfo[] | null = null;

  private update(pi: PodInfo, sign: 1 | -1): void {
    const res = pi.calculateResource();
    if (sign === 1) this.requested.addResource(res.resource);
    else this.requested.subResource(res.resource);
    this.nonZeroRequested.milliCPU += sign * res.nonZeroCPU;
    this.nonZeroRequested.memory += sign * res.nonZeroMemory;
    for (const p of pi.hostPorts()) {
      if (sign === 1) this.usedPorts.add(p.hostIP ?? "", p.protocol ?? "", p.hostPort ?? 0);
      else this.usedPorts.remove(p.hostIP ?? "", p.protocol ?? "", p.hostPort ?? 0);
    }
    for (const key of pi.claimKeys()) {
      const n = (this.pvcRefCounts.get(key) ?? 0) + sign;
      if (n <= 0) this.pvcRefCounts.delete(key);
      else this.pvcRefCounts.set(key, n);
    }
    this.generation = nextGeneration();
  }

  /** A copy for the snapshot: own lists and aggregates, shared PodInfos and image summaries. */
  snapshot(): NodeInfo {
    const c = new NodeInfo();
    this.copyInto(c, true);
    return c;
  }

  /**
   * Makes `c` a copy of this NodeInfo as snapshot() would (own lists and aggregates, shared
   * PodInfos and image summaries), keeping `c`'s identity: what the scheduler cache does to the
   * snapshot's NodeInfos, which the snapshot's lists point at. `fresh`: `c` was just constructed,
   * so its own empty lists and aggregates are filled rather than replaced (a preemption dry run
   * copies a NodeInfo per candidate node).
   * @internal
   */
  copyInto(c: NodeInfo, fresh = false): void {
    c.nodeObj = this.nodeObj;
    c.nodeName = this.nodeName;
    c.taints = this.taints;
    c.unschedulable = this.unschedulable;
    // Share a long pod list rather than copy it (see `pods`); short ones are copied.
    if (this.lentFrom !== null) {
      c.borrow(this.lentFrom, this.lentLength, this.lentUndo!, this.lentUndoStart);
    } else if (this.podList.length <= podListShareThreshold) {
      c.ownPodList(this.podList.slice());
    } else {
      const list = this.podList;
      const undo = this.undo ?? new PodListUndo();
      this.undo = undo;
      if (list.length > this.lentMax) this.lentMax = list.length;
      c.borrow(list, list.length, undo, undo.pos.length);
    }
    if (fresh) {
      if (this.podsWithAffinity.length > 0) c.podsWithAffinity = this.podsWithAffinity.slice();
      if (this.podsWithRequiredAntiAffinity.length > 0)
        c.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.slice();
      if (!this.usedPorts.isEmpty()) c.usedPorts = this.usedPorts.clone();
      c.requested.copyFrom(this.requested);
      c.nonZeroRequested.copyFrom(this.nonZeroRequested);
      c.allocatable.copyFrom(this.allocatable);
      if (this.pvcRefCounts.size > 0) c.pvcRefCounts = new Map(this.pvcRefCounts);
    } else {
      c.podsWithAffinity = this.podsWithAffinity.slice();
      c.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.slice();
      c.usedPorts = this.usedPorts.clone();
      c.requested = this.requested.clone();
      c.nonZeroRequested = this.nonZeroRequested.clone();
      c.allocatable = this.allocatable.clone();
      c.pvcRefCounts = this.pvcRefCounts.size === 0 ? new Map() : new Map(this.pvcRefCounts);
    }
    c.imageStates = this.imageStates.size === 0 ? sharedNoImageStates : new Map(this.imageStates);
    c.generation = this.generation;
  }

  /** Same as snapshot(): the copy used for preemption dry runs and nominated-pod passes. */
  clone(): NodeInfo {
    return this.snapshot();
  }
}

/** What removals overwrote in a shared pod list, oldest first (NodeInfo.pods). */
class PodListUndo {
  readonly pos: number[] = [];
  readonly val: PodInfo[] = [];

  record(pos: number, val: PodInfo): void {
    this.pos.push(pos);
    this.val.push(val);
  }
}

function removeFrom(list: PodInfo[], uid: string): void {
  for (let i = 0; i < list.length; i++) {
    if (list[i]!.uid() === uid) {
      swapRemove(list, i);
      return;
    }
  }
}

/** Removes index i by moving the last element there (upstream does the same: order is not kept). */
function swapRemove<T>(list: T[], i: number): void {
  const last = list.length - 1;
  if (i !== last) list[i] = list[last]!;
  list.pop();
}
