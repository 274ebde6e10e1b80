// upstream: staging/src/k8s.io/kube-scheduler/framework/extender.go
import type { Pod } from "@kubesched/api";
import type { NodeInfo } from "./node-info";

/** Victims an extender keeps for a candidate node (upstream extenderv1.Victims). */
export interface ExtenderVictims {
  pods: Pod[];
  numPDBViolations: number;
}

export interface ExtenderFilterResult {
  /** Nodes that passed. */
  nodes: NodeInfo[];
  /** node → reason: the node failed and preemption may help. */
  failedNodes: Map<string, string>;
  /** node → reason: the node failed and preemption will not help. */
  failedAndUnresolvableNodes: Map<string, string>;
}

/** A scheduler extender (HTTP webhook), as upstream's Extender interface. */
export interface Extender {
  name(): string;
  isIgnorable(): boolean;
  isInterested(pod: Pod): boolean;
  isFilter(): boolean;
  isPrioritizer(): boolean;
  isBinder(): boolean;
  supportsPreemption(): boolean;
  filter(pod: Pod, nodes: NodeInfo[]): Promise<ExtenderFilterResult>;
  /** Scores 0..MaxExtenderPriority (10) per node, and this extender's weight. */
  prioritize(pod: Pod, nodes: NodeInfo[]): Promise<{ scores: Map<string, number>; weight: number }>;
  bind(pod: Pod, nodeName: string): Promise<void>;
  processPreemption(pod: Pod, victims: Map<string, ExtenderVictims>): Promise<Map<string, ExtenderVictims>>;
}

export const MaxExtenderPriority = 10;
