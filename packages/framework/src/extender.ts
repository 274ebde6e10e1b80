// upstream: staging/src/k8s.io/kube-scheduler/framework/extender.go
import type { Pod } from "@kubesched/api";
import type { NodeInfo } from "./node-info";

/**
 * Victims an extender keeps for a candidate node (upstream extenderv1.Victims).
 * @public
 */
export interface ExtenderVictims {
  /** The pods to evict. */
  pods: Pod[];
  /** How many PodDisruptionBudgets evicting them violates. */
  numPDBViolations: number;
}

/**
 * What an extender's filter returns.
 * @public
 */
export interface ExtenderFilterResult {
  /** Nodes that passed. */
  nodes: NodeInfo[];
  /** node → reason: the node failed and preemption may help. */
  failedNodes: Map<string, string>;
  /** node → reason: the node failed and preemption will not help. */
  failedAndUnresolvableNodes: Map<string, string>;
}

/**
 * A scheduler extender (HTTP webhook), as upstream's Extender interface; preemption plugins
 * consult the profile's extenders through `handle.extenders()`.
 * @public
 */
export interface Extender {
  /** The extender's name (its URL prefix). */
  name(): string;
  /** Whether scheduling goes on when the extender is unavailable. */
  isIgnorable(): boolean;
  /** Whether the extender manages some resource the pod requests. */
  isInterested(pod: Pod): boolean;
  /** Whether the extender filters nodes. */
  isFilter(): boolean;
  /** Whether the extender scores nodes. */
  isPrioritizer(): boolean;
  /** Whether the extender binds pods. */
  isBinder(): boolean;
  /** Whether the extender takes part in preemption (processPreemption). */
  supportsPreemption(): boolean;
  /** Filters the nodes for the pod. */
  filter(pod: Pod, nodes: NodeInfo[]): Promise<ExtenderFilterResult>;
  /** Scores 0..MaxExtenderPriority (10) per node, and this extender's weight. */
  prioritize(pod: Pod, nodes: NodeInfo[]): Promise<{ scores: Map<string, number>; weight: number }>;
  /** Binds the pod to the node. */
  bind(pod: Pod, nodeName: string): Promise<void>;
  /** Narrows the preemption candidates (node → victims) to those the extender accepts. */
  processPreemption(pod: Pod, victims: Map<string, ExtenderVictims>): Promise<Map<string, ExtenderVictims>>;
}

/**
 * The highest score an extender gives (upstream extenderv1.MaxExtenderPriority).
 * @internal
 */
export const MaxExtenderPriority = 10;
