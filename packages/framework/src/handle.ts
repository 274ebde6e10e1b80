// upstream: staging/src/k8s.io/kube-scheduler/framework/interface.go (Handle, PodNominator,
// PluginsRunner, PodActivator, WaitingPod, PodInPreBind)
import type { Pod } from "@kubesched/api";
import type { ClusterClient } from "./client";
import type { Clock } from "./clock";
import type { ClusterListers } from "./cluster-listers";
import type { CycleState } from "./cycle-state";
import type { EventRecorder } from "./event-recorder";
import type { Extender } from "./extender";
import type { Features } from "./features";
import type { NodePluginScores, NominatingInfo, Plugin } from "./interface";
import type { SharedLister } from "./listers";
import type { Logger } from "./logger";
import type { NodeInfo } from "./node-info";
import type { PodInfo } from "./pod-info";
import type { Random } from "./random";
import type { SharedDRAManager } from "./shared-dra-manager";
import type { Status } from "./status";

/**
 * The queue's record of pods nominated to nodes by preemption (upstream PodNominator); a
 * {@link Handle} is one.
 * @public
 */
export interface PodNominator {
  /** Records `pod` as nominated to `nominatingInfo`'s node (or to its status' nominatedNodeName). */
  addNominatedPod(pod: PodInfo, nominatingInfo: NominatingInfo | null): void;
  /** Forgets the pod's nomination, if any. */
  deleteNominatedPodIfExists(pod: Pod): void;
  /** Replaces `oldPod`'s nomination record with `newPodInfo` (a pod update). */
  updateNominatedPod(oldPod: Pod, newPodInfo: PodInfo): void;
  /** Pods nominated to the node (copies of the queued PodInfos). */
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /**
   * Optional: false when no pod is nominated to any node (every nominatedPodsForNode is empty),
   * so a cycle need not ask node by node.
   * @internal
   */
  hasNominatedPods?(): boolean;
  /**
   * Optional: the names of the nodes some pod is nominated to (exactly those whose
   * nominatedPodsForNode is not empty), so a cycle can mark them once instead of asking node by
   * node. Read it at once: it may change with the next nomination.
   * @internal
   */
  nominatedNodeNames?(): Iterable<string>;
}

/**
 * Running the profile's plugins from inside a plugin (preemption's dry runs), as upstream
 * PluginsRunner; a {@link Handle} is one.
 * @public
 */
export interface PluginsRunner {
  /** Runs the PreScore plugins; a non-success status of any rejects the pod. */
  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | null;
  /** Runs the Score plugins (with NormalizeScore and weights): per-node scores, or a failure status. */
  runScorePlugins(
    state: CycleState,
    pod: Pod,
    nodes: readonly NodeInfo[],
  ): { scores: NodePluginScores[]; status: Status | null };
  /**
   * Runs the Filter plugins on one node. `nodeInfo` may be a copy that differs from the
   * snapshot's (preemption removes victims from a clone).
   */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null;
  /** Runs the PreFilter plugins' AddPod extensions; stops at the first non-success status. */
  runPreFilterExtensionAddPod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null;
  /** Runs the PreFilter plugins' RemovePod extensions; stops at the first non-success status. */
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
 * @public
 */
export interface PluginMetrics {
  /** One preemption attempt (a PostFilter run of a preemption plugin). */
  preemptionAttempt(): void;
  /** The number of victims of the selected candidate. */
  preemptionVictims(count: number): void;
}

/**
 * A pod waiting at Permit (upstream WaitingPod), as `handle.getWaitingPod()` returns it.
 * @public
 */
export interface WaitingPod {
  /** The waiting pod. */
  getPod(): Pod;
  /** The Permit plugins that returned Wait and have not allowed the pod yet. */
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
 * @public
 */
export interface PodInPreBind {
  /** The pod in PreBind. */
  getPod(): Pod;
  /**
   * Cancels the pod's binding cycle: PreBind fails with `msg` and the pod goes back to the queue
   * (its assumed place is released). false when the pod already left PreBind.
   */
  cancelPod(msg: string): boolean;
}

/**
 * Moving pods to activeQ (upstream PodActivator); a {@link Handle} is one.
 * @public
 */
export interface PodActivator {
  /** Moves the given pods (key → pod) to activeQ. */
  activate(pods: Map<string, Pod>): void;
}

/**
 * What plugins get at construction (upstream framework.Handle): the cycle's snapshot, the queue's
 * nominator, the cluster, tools. The framework hands it to plugins, so new methods may be added
 * in a minor release without breaking them (see the version policy).
 * @public
 */
export interface Handle extends PodNominator, PluginsRunner, PodActivator {
  /** The profile's schedulerName. */
  profileName(): string;
  /** The cycle's snapshot (read it during the scheduling cycle only). */
  snapshotSharedLister(): SharedLister;
  /** Calls `callback` for every pod waiting at Permit. */
  iterateOverWaitingPods(callback: (wp: WaitingPod) => void): void;
  /** The pod waiting at Permit with this UID, or undefined. */
  getWaitingPod(uid: string): WaitingPod | undefined;
  /** Rejects the waiting pod with this UID; false when no such pod was waiting. */
  rejectWaitingPod(uid: string): boolean;
  /** The pod if its binding cycle is in PreBind (upstream GetPodInPreBind). */
  getPodInPreBind(uid: string): PodInPreBind | undefined;
  /** Runs Filter plugins with the pods nominated to the node (two-pass), as upstream. */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null;
  /** Informer-backed listers. */
  listers(): ClusterListers;
  /**
   * The scheduler's one DRA state, shared by every profile (upstream SharedDRAManager): the
   * ResourceClaims through the assume cache with the in-flight allocations, the ResourceSlices
   * (patched by DeviceTaintRules) and the DeviceClasses. null when the scheduler was built
   * without it (DynamicResourceAllocation off); a plugin needing it fails at construction.
   */
  sharedDRAManager(): SharedDRAManager | null;
  /** API writes (bind, delete, status patches). */
  client(): ClusterClient;
  /** The events.k8s.io recorder. */
  eventRecorder(): EventRecorder;
  /** The profile's scheduler extenders (HTTP webhooks), in configuration order. */
  extenders(): readonly Extender[];
  /** The scheduler's clock (simulated time in the simulator). */
  clock(): Clock;
  /** Seeded randomness (simulation is deterministic for a seed). */
  rand(): Random;
  /** The feature gates of the profile's scheduler, as upstream hands `feature.Features` to factories. */
  features(): Features;
  /**
   * The Kubernetes release the scheduler behaves as (`major.minor`, kube-scheduler's
   * `--emulated-version`; default `defaultKubernetesVersion`), for plugins whose ungated behaviour
   * differs between releases.
   */
  kubernetesVersion(): string;
  /** The profile's logger (errors a plugin cannot return as a status go here). */
  logger(): Logger;
  /** The scheduler metrics plugins record themselves, as upstream plugins do. */
  pluginMetrics(): PluginMetrics;
  /** Plugin instances of this profile by name (for plugins that cooperate). */
  plugin(name: string): Plugin | undefined;
}
