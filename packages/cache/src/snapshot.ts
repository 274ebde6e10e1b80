// upstream: pkg/scheduler/backend/cache/snapshot.go
import { type Node, namespacedName, type Pod } from "@kubesched/api";
import {
  type ImageStateSummary,
  NodeInfo,
  type NodeInfoLister,
  type SharedLister,
  type StorageInfoLister,
} from "@kubesched/framework";
import type { NodeColumns } from "@kubesched/framework/columnar";
import { SnapshotColumns } from "./node-columns";

/**
 * What a scheduling cycle sees: a copy of the cache's NodeInfos and the node-tree order, taken at
 * the start of the cycle (Cache.updateSnapshot) and fixed until the cycle ends.
 */
export class Snapshot implements SharedLister, NodeInfoLister, StorageInfoLister {
  /** Node name → snapshot NodeInfo. */
  nodeInfoMap: Map<string, NodeInfo> = new Map();
  /** The nodes in node-tree (zone round-robin) order. */
  nodeInfoList: NodeInfo[] = [];
  /** Nodes with at least one pod declaring pod affinity or anti-affinity. */
  havePodsWithAffinityNodeInfoList: NodeInfo[] = [];
  /** Nodes with at least one pod declaring required pod anti-affinity. */
  havePodsWithRequiredAntiAffinityNodeInfoList: NodeInfo[] = [];
  /** `namespace/name` of PVCs used by at least one scheduled pod. */
  usedPVCSet: Set<string> = new Set();
  /** The newest cache generation this snapshot reflects. */
  generation = 0;
  /**
   * Position of each listed NodeInfo in nodeInfoList, valid while `nodeIndexList` is
   * nodeInfoList (the cache uses it to keep the affinity lists in list order when patching them).
   */
  nodeIndex: Map<NodeInfo, number> | null = null;
  nodeIndexList: readonly NodeInfo[] | null = null;

  /** NodeInfos whose contents changed, oldest first; changeLog[0] has token position changeLogStart. */
  private readonly changeLog: NodeInfo[] = [];
  private changeLogStart = 0;
  /** Whether a cache maintains this snapshot (only then changedSince answers). */
  private tracking = false;
  /** The columns, built on first use and then maintained with the snapshot. */
  private columnsImpl: SnapshotColumns | null = null;
  private columnsList: readonly NodeInfo[] | null = null;

  nodeInfos(): NodeInfoLister {
    return this;
  }

  storageInfos(): StorageInfoLister {
    return this;
  }

  numNodes(): number {
    return this.nodeInfoList.length;
  }

  list(): readonly NodeInfo[] {
    return this.nodeInfoList;
  }

  havePodsWithAffinityList(): readonly NodeInfo[] {
    return this.havePodsWithAffinityNodeInfoList;
  }

  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    return this.havePodsWithRequiredAntiAffinityNodeInfoList;
  }

  /** The node's NodeInfo; undefined for unknown nodes and for nodes known only through their pods. */
  get(nodeName: string): NodeInfo | undefined {
    const ni = this.nodeInfoMap.get(nodeName);
    return ni && ni.node !== null ? ni : undefined;
  }

  /**
   * NodeInfoLister.columns: the nodes of list() as typed-array columns. Built the first time
   * (O(nodes)); a cache then keeps them current in updateSnapshot (O(changed nodes)). A snapshot
   * whose list was replaced by hand is rebuilt here.
   */
  columns(): NodeColumns {
    if (this.columnsImpl === null) this.columnsImpl = new SnapshotColumns();
    if (this.columnsList !== this.nodeInfoList) {
      this.columnsImpl.rebuild(this.nodeInfoList);
      this.columnsList = this.nodeInfoList;
    }
    return this.columnsImpl;
  }

  /**
   * Keeps built columns current after Cache.updateSnapshot: the NodeInfos whose contents were
   * replaced, or all of them when the list was rebuilt.
   */
  updateColumns(changed: readonly NodeInfo[]): void {
    const cols = this.columnsImpl;
    if (cols === null) return;
    if (this.columnsList !== this.nodeInfoList) {
      cols.rebuild(this.nodeInfoList);
      this.columnsList = this.nodeInfoList;
      return;
    }
    for (let i = 0; i < changed.length; i++) cols.update(changed[i]!);
  }

  isPVCUsedByPods(key: string): boolean {
    return this.usedPVCSet.has(key);
  }

  /** NodeInfoLister.changedSince: the NodeInfos changed since `token` (see there). */
  changedSince(token: number): { token: number; nodes: readonly NodeInfo[] | null } {
    const end = this.changeLogStart + this.changeLog.length;
    if (!this.tracking || !Number.isInteger(token) || token < this.changeLogStart || token > end) {
      return { token: end, nodes: null };
    }
    return {
      token: end,
      nodes: token === end ? noNodeInfos : this.changeLog.slice(token - this.changeLogStart),
    };
  }

  /**
   * Records one Cache.updateSnapshot: the NodeInfos whose contents it replaced, and whether nodes
   * were added or removed (then every earlier token is stale). The first call starts the tracking.
   */
  recordUpdate(changed: readonly NodeInfo[], listChanged: boolean): void {
    if (listChanged || !this.tracking) {
      // Strictly past every token handed out so far.
      this.changeLogStart += this.changeLog.length + 1;
      this.changeLog.length = 0;
      this.tracking = true;
      return;
    }
    for (let i = 0; i < changed.length; i++) this.changeLog.push(changed[i]!);
    const cap = Math.max(maxChangeLog, this.nodeInfoList.length);
    if (this.changeLog.length > cap) {
      // Keep the newer half: memos not refreshed since the dropped entries walk in full.
      const drop = this.changeLog.length - (cap >> 1);
      this.changeLog.splice(0, drop);
      this.changeLogStart += drop;
    }
  }
}

const noNodeInfos: readonly NodeInfo[] = Object.freeze([]);

/**
 * Columns built from a node list as it is now (not maintained afterwards): for tests and tools
 * that check a columnar plugin against its per-node methods.
 */
export function nodeColumnsOf(list: readonly NodeInfo[]): NodeColumns {
  const c = new SnapshotColumns();
  c.rebuild(list);
  return c;
}

/** Entries kept in a snapshot's change log at least (more on larger clusters: one per node). */
const maxChangeLog = 4096;

/**
 * A snapshot of the given pods and nodes (upstream NewSnapshot), for tests and tools. Nodes keep
 * the given order; pods whose node is not among `nodes` are kept in the map (as upstream) but not
 * listed.
 */
export function newSnapshot(pods: readonly Pod[], nodes: readonly Node[]): Snapshot {
  const nodeInfoMap = createNodeInfoMap(pods, nodes);
  const s = new Snapshot();
  s.nodeInfoMap = nodeInfoMap;
  const listed = new Set<NodeInfo>();
  for (const node of nodes) {
    const ni = nodeInfoMap.get(node.metadata?.name ?? "")!;
    if (listed.has(ni)) continue;
    listed.add(ni);
    s.nodeInfoList.push(ni);
    if (ni.podsWithAffinity.length > 0) s.havePodsWithAffinityNodeInfoList.push(ni);
    if (ni.podsWithRequiredAntiAffinity.length > 0) s.havePodsWithRequiredAntiAffinityNodeInfoList.push(ni);
  }
  s.usedPVCSet = createUsedPVCSet(pods);
  return s;
}

function createNodeInfoMap(pods: readonly Pod[], nodes: readonly Node[]): Map<string, NodeInfo> {
  const m = new Map<string, NodeInfo>();
  for (const pod of pods) {
    const nodeName = pod.spec?.nodeName ?? "";
    let ni = m.get(nodeName);
    if (!ni) {
      ni = new NodeInfo();
      m.set(nodeName, ni);
    }
    ni.addPod(pod);
  }
  const imageExistenceMap = createImageExistenceMap(nodes);
  for (const node of nodes) {
    const name = node.metadata?.name ?? "";
    let ni = m.get(name);
    if (!ni) {
      ni = new NodeInfo();
      m.set(name, ni);
    }
    ni.setNode(node);
    ni.imageStates = getNodeImageStates(node, imageExistenceMap);
  }
  return m;
}

/** PVCs (`namespace/claimName`) referenced by scheduled pods. */
export function createUsedPVCSet(pods: readonly Pod[]): Set<string> {
  const used = new Set<string>();
  for (const pod of pods) {
    if (!pod.spec?.nodeName) continue;
    for (const v of pod.spec.volumes ?? []) {
      if (!v.persistentVolumeClaim) continue;
      used.add(namespacedName(pod.metadata?.namespace, v.persistentVolumeClaim.claimName));
    }
  }
  return used;
}

/** The node's image states, with the number of nodes having each image from `imageExistenceMap`. */
export function getNodeImageStates(
  node: Node,
  imageExistenceMap: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, ImageStateSummary> {
  const states = new Map<string, ImageStateSummary>();
  for (const image of node.status?.images ?? []) {
    for (const name of image.names ?? []) {
      states.set(name, { size: image.sizeBytes ?? 0, numNodes: imageExistenceMap.get(name)?.size ?? 0 });
    }
  }
  return states;
}

/** Image name → names of the nodes having it. */
export function createImageExistenceMap(nodes: readonly Node[]): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const node of nodes) {
    const nodeName = node.metadata?.name ?? "";
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) {
        let set = m.get(name);
        if (!set) {
          set = new Set();
          m.set(name, set);
        }
        set.add(nodeName);
      }
    }
  }
  return m;
}
