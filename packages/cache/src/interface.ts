// upstream: pkg/scheduler/backend/cache/interface.go (Cache, Dump)
import type { Node, Pod } from "@kubesched/api";
import type { NodeInfo } from "@kubesched/framework";
import type { Snapshot } from "./snapshot";

/** What Cache.dump returns (upstream Dump). */
export interface CacheDump {
  /** Node name → a snapshot of its NodeInfo (including nodes known only through their pods). */
  nodes: Map<string, NodeInfo>;
  /** UIDs of the assumed pods. */
  assumedPods: Set<string>;
}

/**
 * The scheduler cache (upstream backend/cache.Cache): pods' information aggregated per node, for
 * the scheduling cycles to read through an incremental Snapshot. Its operations are pod centric
 * and driven by informer events, which may be missed or late.
 *
 * A pod's states, as upstream: Initial → Assumed (assumePod, after a successful scheduling cycle)
 * → Added (addPod, the informer confirms it) → Deleted (removePod); an assumed pod goes back to
 * Initial when its binding fails (forgetPod); a pod can be added without being assumed (bound by
 * another scheduler); Added pods are updated (updatePod). No pod is assumed twice, and a pod that
 * was not added is neither updated nor removed (those throw).
 *
 * The scheduler (`@kubesched/scheduler`) depends on this interface only: `Scheduler.create`
 * takes one in its `cache` option (default: `newCache({ clock })`).
 */
export interface Cache {
  /** NodeInfos in the cache, including nodes known only through their pods (upstream NodeCount). */
  nodeCount(): number;
  /** Pods in the cache, assumed ones and those on deleted nodes included (upstream PodCount). */
  podCount(): number;
  /** Assumed pods (the `scheduler_cache_size{type="assumed_pods"}` gauge). */
  assumedPodCount(): number;

  /** Counts the pod on its node (spec.nodeName) until binding confirms or fails it. */
  assumePod(pod: Pod): void;
  /** Marks the assumed pod's binding finished (it may expire from then on when a TTL is set). */
  finishBinding(pod: Pod): void;
  /** Removes an assumed pod (its binding failed). */
  forgetPod(pod: Pod): void;
  /** An assigned pod appeared in the informer: confirms an assumed pod, or adds the pod. */
  addPod(pod: Pod): void;
  /** An assigned pod changed in the informer. */
  updatePod(oldPod: Pod, newPod: Pod): void;
  /** An assigned pod was deleted. */
  removePod(pod: Pod): void;
  /** The cached pod with the pod's UID (possibly on a deleted node), or undefined. */
  getPod(pod: Pod): Pod | undefined;
  /** Whether the pod is assumed. */
  isAssumedPod(pod: Pod): boolean;

  /** Adds (or replaces) a node; returns a snapshot of its NodeInfo. */
  addNode(node: Node): NodeInfo;
  /** Replaces a node (adding it when unknown); returns a snapshot of its NodeInfo. */
  updateNode(oldNode: Node | null, newNode: Node): NodeInfo;
  /** Removes a node; its NodeInfo stays until the deletions of its pods arrive. */
  removeNode(node: Node): void;

  /**
   * Brings `snapshot` up to date with the cache: the NodeInfos of the nodes that exist (with pods
   * scheduled or assumed there), copying only those changed since the snapshot's generation.
   */
  updateSnapshot(snapshot: Snapshot): void;
  /** A copy of every cached NodeInfo and the assumed pods, for debugging (expensive). */
  dump(): CacheDump;
  /**
   * Expires assumed pods whose binding finished more than the TTL before `now` (a no-op without
   * a TTL, the default); upstream runs it every second.
   */
  cleanupAssumedPods(now?: number): void;
}
