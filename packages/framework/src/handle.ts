// upstream: staging/src/k8s.io/kube-scheduler/framework/interface.go (Handle), listers.go
import type { Pod } from "@kubesched/api";
import type { Clock, ClusterClient, ClusterListers, EventRecorder, Random } from "./cluster";
import type { CycleState } from "./cycle-state";
import type { Extender } from "./extender";
import type { Features } from "./features";
import type { NodePluginScores, NominatingInfo } from "./interface";
import type { Logger } from "./logger";
import type { NodeInfo } from "./node-info";
import type { PodInfo } from "./pod-info";
import type { Status } from "./status";

/** Nodes of the cycle's snapshot, in node-tree (zone round-robin) order. */
export interface NodeInfoLister {
  list(): readonly NodeInfo[];
  /** Nodes with pods that have pod affinity or anti-affinity. */
  havePodsWithAffinityList(): readonly NodeInfo[];
  /** Nodes with pods that have required pod anti-affinity. */
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[];
  get(nodeName: string): NodeInfo | undefined;
}

export interface StorageInfoLister {
  /** Whether a `namespace/name` PVC is used by some scheduled pod. */
  isPVCUsedByPods(key: string): boolean;
}

/** The cycle's snapshot, fixed from the start of the cycle until Permit. */
export interface SharedLister {
  nodeInfos(): NodeInfoLister;
  storageInfos(): StorageInfoLister;
}

export interface PodNominator {
  addNominatedPod(pod: PodInfo, nominatingInfo: NominatingInfo | null): void;
  deleteNominatedPodIfExists(pod: Pod): void;
  updateNominatedPod(oldPod: Pod, newPodInfo: PodInfo): void;
  /** Pods nominated to the node (copies of the queued PodInfos). */
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /**
   * Optional: false when no pod is nominated to any node (every nominatedPodsForNode is empty),
   * so a cycle need not ask node by node.
   */
  hasNominatedPods?(): boolean;
  /**
   * Optional: the names of the nodes some pod is nominated to (exactly those whose
   * nominatedPodsForNode is not empty), so a cycle can mark them once instead of asking node by
   * node. Read it at once: it may change with the next nomination.
   */
  nominatedNodeNames?(): Iterable<string>;
}

/** Running plugins from inside a plugin (preemption's dry runs). */
export interface PluginsRunner {
  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | null;
  runScorePlugins(
    state: CycleState,
    pod: Pod,
    nodes: readonly NodeInfo[],
  ): { scores: NodePluginScores[]; status: Status | null };
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null;
  runPreFilterExtensionAddPod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null;
  runPreFilterExtensionRemovePod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null;
}

/**
 * Scheduler metrics that upstream plugins record themselves (pkg/scheduler/metrics): DefaultPreemption
 * counts `scheduler_preemption_attempts_total` and observes `scheduler_preemption_victims`.
 */
export interface PluginMetrics {
  /** One preemption attempt (a PostFilter run of a preemption plugin). */
  preemptionAttempt(): void;
  /** The number of victims of the selected candidate. */
  preemptionVictims(count: number): void;
}

/** A pod waiting at Permit. */
export interface WaitingPod {
  getPod(): Pod;
  getPendingPlugins(): string[];
  /** The plugin allows the pod; the last Allow releases it. */
  allow(pluginName: string): void;
  /** Rejects the pod (it becomes unschedulable); false when it was no longer waiting. */
  reject(pluginName: string, msg: string): boolean;
  /** Like reject, but the pod is not marked unschedulable (preempted while waiting). */
  preempt(pluginName: string, msg: string): boolean;
}

/**
 * A pod whose binding cycle runs its PreBind plugins (upstream fwk.PodInPreBind): preemption
 * cancels it there instead of deleting the pod.
 */
export interface PodInPreBind {
  getPod(): Pod;
  /**
   * Cancels the pod's binding cycle: PreBind fails with `msg` and the pod goes back to the queue
   * (its assumed place is released). false when the pod already left PreBind.
   */
  cancelPod(msg: string): boolean;
}

export interface PodActivator {
  /** Moves the given pods (key → pod) to activeQ. */
  activate(pods: Map<string, Pod>): void;
}

/** What plugins get at construction: the snapshot, the queue's nominator, the cluster, tools. */
export interface Handle extends PodNominator, PluginsRunner, PodActivator {
  /** The profile's schedulerName. */
  profileName(): string;
  snapshotSharedLister(): SharedLister;
  iterateOverWaitingPods(callback: (wp: WaitingPod) => void): void;
  getWaitingPod(uid: string): WaitingPod | undefined;
  rejectWaitingPod(uid: string): boolean;
  /** The pod if its binding cycle is in PreBind (upstream GetPodInPreBind). */
  getPodInPreBind(uid: string): PodInPreBind | undefined;
  /** Runs Filter plugins with the pods nominated to the node (two-pass), as upstream. */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null;
  /** Informer-backed listers. */
  listers(): ClusterListers;
  /** API writes (bind, delete, status patches). */
  client(): ClusterClient;
  eventRecorder(): EventRecorder;
  extenders(): readonly Extender[];
  clock(): Clock;
  /** Seeded randomness (simulation is deterministic for a seed). */
  rand(): Random;
  features(): Features;
  /** The profile's logger (errors a plugin cannot return as a status go here). */
  logger(): Logger;
  /** The scheduler metrics plugins record themselves, as upstream plugins do. */
  pluginMetrics(): PluginMetrics;
  /** Plugin instances of this profile by name (for plugins that cooperate). */
  plugin(name: string): import("./interface").Plugin | undefined;
}
