// The diagnostic hook of Filter plugins: what a plugin can say about a rejection beyond upstream's
// reason strings (its own numbers), asked only by the runtime's diagnostic pass (`kubesched why`),
// never by the scheduling cycle, so that Filter itself stays as upstream's and costs nothing more.
import type { Pod, Taint } from "@kubesched/api";
import type { CycleState } from "./cycle-state";
import { type FilterPlugin, isFilterPlugin, type Plugin } from "./interface";
import type { NodeInfo } from "./node-info";
import type { Status } from "./status";

/**
 * A resource the node lacks (NodeResourcesFit). Amounts are canonical integers: `cpu` in
 * millicores, memory and storage in bytes, other resources in their units.
 * @public
 */
export interface InsufficientResourceDetail {
  /** The discriminant. */
  kind: "InsufficientResource";
  /** The resource name ("cpu", "memory", "pods", "nvidia.com/gpu"). */
  resource: string;
  /** What the pod requests. */
  requested: number;
  /** What the node's pods already request. */
  used: number;
  /** The node's allocatable amount. */
  capacity: number;
  /** How much is missing: requested − (capacity − used). */
  short: number;
}

/**
 * A taint of the node the pod does not tolerate (TaintToleration).
 * @public
 */
export interface UntoleratedTaintDetail {
  /** The discriminant. */
  kind: "UntoleratedTaint";
  /** The taint. */
  taint: Taint;
}

/**
 * The node is cordoned: `spec.unschedulable` without a toleration of its taint (NodeUnschedulable).
 * @public
 */
export interface CordonedDetail {
  /** The discriminant. */
  kind: "Cordoned";
}

/**
 * A `spec.nodeSelector` entry or a required node affinity requirement the node's labels do not
 * satisfy (NodeAffinity).
 * @public
 */
export interface NodeLabelMismatchDetail {
  /** The discriminant. */
  kind: "NodeLabelMismatch";
  /**
   * Where the requirement is: `spec.nodeSelector`, or
   * `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[i]`
   * (every term failed; one requirement each), or the scheduler's `addedAffinity`.
   */
  source: string;
  /** The requirement as kubectl prints it ("disktype=ssd", "zone in (a,b)", "gpu exists"). */
  requirement: string;
  /** The node's label key the requirement reads (a field for matchFields). */
  key: string;
  /** The node's value for that key; null when the node has no such label. */
  nodeValue: string | null;
}

/**
 * A host port of the pod already used on the node (NodePorts).
 * @public
 */
export interface HostPortConflictDetail {
  /** The discriminant. */
  kind: "HostPortConflict";
  /** The port's protocol (TCP when the pod leaves it empty). */
  protocol: string;
  /** The host IP it binds (0.0.0.0 when empty). */
  hostIP: string;
  /** The host port. */
  hostPort: number;
}

/**
 * A topology spread constraint the node violates (PodTopologySpread): the skew placing the pod in
 * the node's domain would give, or a node without the topology key.
 * @public
 */
export interface TopologySpreadDetail {
  /** The discriminant. */
  kind: "TopologySpread";
  /** The constraint's topology key. */
  topologyKey: string;
  /** The node's value of the key; null when the node lacks the label. */
  domain: string | null;
  /** Matching pods in the node's domain (before this pod), when the domain exists. */
  matchingPods: number | null;
  /** The minimum number of matching pods over the eligible domains, when the domain exists. */
  minMatchingPods: number | null;
  /** Skew with the pod placed here: matchingPods + selfMatch − minMatchingPods. */
  skew: number | null;
  /** The constraint's maxSkew. */
  maxSkew: number;
}

/**
 * An inter-pod (anti-)affinity term the node fails (InterPodAffinity): for the pod's affinity,
 * the term no pod in the node's domain matches; for anti-affinity (the pod's or an existing pod's),
 * the existing pods it conflicts with.
 * @public
 */
export interface PodAffinityDetail {
  /** The discriminant. */
  kind: "PodAffinity";
  /** "affinity", "antiAffinity" (the pod's term) or "existingAntiAffinity" (a running pod's term). */
  rule: "affinity" | "antiAffinity" | "existingAntiAffinity";
  /** The term's topology key. */
  topologyKey: string;
  /** The node's value of it; null when the node lacks the label. */
  domain: string | null;
  /** Conflicting existing pods as namespace/name (empty for an unmatched affinity term). */
  pods: string[];
}

/**
 * What a Filter plugin reports about one rejection: the plugin's own numbers.
 * @public
 */
export type FilterDetail =
  | InsufficientResourceDetail
  | UntoleratedTaintDetail
  | CordonedDetail
  | NodeLabelMismatchDetail
  | HostPortConflictDetail
  | TopologySpreadDetail
  | PodAffinityDetail;

/**
 * A Filter plugin that explains its rejections. `filterDetails` is called by the runtime's
 * diagnostic pass only, right after `filter` rejected the node with `status` (same state, pod and
 * node); it must not change the state or what `filter` returns. Plugins without it report their
 * reasons alone.
 * @public
 */
export interface FilterDetailsPlugin extends FilterPlugin {
  /** The details of `status`, the node's rejection by this plugin's `filter`. */
  filterDetails(state: CycleState, pod: Pod, nodeInfo: NodeInfo, status: Status): FilterDetail[];
}

/**
 * Whether a plugin explains its Filter rejections.
 * @public
 */
export function isFilterDetailsPlugin(p: Plugin): p is FilterDetailsPlugin {
  return isFilterPlugin(p) && typeof (p as Partial<FilterDetailsPlugin>).filterDetails === "function";
}
