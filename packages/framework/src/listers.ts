// upstream: staging/src/k8s.io/kube-scheduler/framework/listers.go (NodeInfoLister,
// StorageInfoLister, SharedLister): the cycle's snapshot as plugins read it.
import type { NodeInfo } from "./node-info";

/**
 * Nodes of the cycle's snapshot, in node-tree (zone round-robin) order.
 * @public
 */
export interface NodeInfoLister {
  /** Every node of the snapshot. */
  list(): readonly NodeInfo[];
  /** Nodes with pods that have pod affinity or anti-affinity. */
  havePodsWithAffinityList(): readonly NodeInfo[];
  /** Nodes with pods that have required pod anti-affinity. */
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[];
  /** The node's NodeInfo, or undefined when the snapshot has no such node. */
  get(nodeName: string): NodeInfo | undefined;
}

/**
 * The volume usage of the cycle's snapshot (upstream StorageInfoLister).
 * @public
 */
export interface StorageInfoLister {
  /** Whether a `namespace/name` PVC is used by some scheduled pod. */
  isPVCUsedByPods(key: string): boolean;
}

/**
 * The cycle's snapshot (`handle.snapshotSharedLister()`), fixed from the start of the cycle until
 * Permit. Use it during the scheduling cycle only; queueing hints, PreEnqueue and the binding
 * cycle read the informer caches (`handle.listers()`) instead, as upstream.
 * @public
 */
export interface SharedLister {
  /** The snapshot's nodes. */
  nodeInfos(): NodeInfoLister;
  /** The snapshot's volume usage. */
  storageInfos(): StorageInfoLister;
}
