// upstream: pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
import { type Pod, type PodDisruptionBudget, podPriority, podUID } from "@kubesched/api";
import {
  asStatus,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type ExtenderVictims,
  type Features,
  type Handle,
  type NodeInfo,
  type NodeToStatus,
  type PodInfo,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PreEnqueuePlugin,
  Status,
} from "@kubesched/framework";
import {
  type Candidate,
  type CandidateScoreFunc,
  Evaluator,
  filterPodsWithPDBViolation,
  moreImportantPod,
  type PreemptionInterface,
  podTerminatingByPreemption,
  type SelectVictimsResult,
} from "@kubesched/preemption";
import type { DefaultPreemptionArgs } from "./args";
import { eventsToRegister } from "./events";
import {
  ErrReasonNoVictims,
  ErrReasonPreemptionInProgress,
  ErrReasonPreemptionPolicyNever,
  ErrReasonTerminatingPodOnNominatedNode,
  MessagePrefix,
} from "./reasons";

export const name = "DefaultPreemption";

/**
 * Whether `victim` on `nodeInfo` may be preempted by `preemptor`, in addition to the built-in
 * rule that the victim has a lower priority. Keep system pods able to preempt normal pods.
 */
export type IsEligiblePodFunc = (nodeInfo: NodeInfo, victim: PodInfo, preemptor: Pod) => boolean;

/**
 * Whether `a` is more important than `b` (b is considered for preemption first). Victims are
 * reprieved most important first.
 */
export type MoreImportantPodFunc = (a: Pod, b: Pod) => boolean;

/** An Error status for selectVictimsOnNode's failure with `s`. */
function victimsFailure(s: Status): SelectVictimsResult {
  return {
    victims: [],
    numViolatingVictim: 0,
    status: new Status(Code.Error).withError(s.asError() ?? new Error(s.message())),
  };
}

/**
 * The comparator `more(a, b) ? -1 : more(b, a) ? 1 : 0` of moreImportantPod, over keys read once:
 * higher priority first, then the earlier start time.
 */
function byPriorityThenStart(a: { prio: number; start: number }, b: { prio: number; start: number }): number {
  if (a.prio !== b.prio) return a.prio > b.prio ? -1 : 1;
  return a.start < b.start ? -1 : b.start < a.start ? 1 : 0;
}

/**
 * DefaultPreemption: when no node fits, finds a node where evicting lower-priority pods makes
 * the pod fit, preempts them and nominates the node.
 */
export class DefaultPreemption
  implements PostFilterPlugin, PreEnqueuePlugin, EnqueueExtensions, PreemptionInterface
{
  readonly evaluator: Evaluator;
  /** Extra victim eligibility; default: every lower-priority pod is eligible. */
  isEligiblePod: IsEligiblePodFunc = () => true;
  /** Victim ordering; default: priority, then start time (upstream util.MoreImportantPod). */
  moreImportantPod: MoreImportantPodFunc;
  /** The default moreImportantPod, recognised to sort by precomputed keys. */
  private readonly defaultMoreImportantPod: MoreImportantPodFunc;

  constructor(
    private readonly args: DefaultPreemptionArgs,
    private readonly handle: Handle,
    private readonly fts: Features,
  ) {
    this.evaluator = new Evaluator(name, handle, this, fts.enableAsyncPreemption);
    this.defaultMoreImportantPod = (a, b) => moreImportantPod(a, b, handle.clock().now());
    this.moreImportantPod = this.defaultMoreImportantPod;
  }

  name(): string {
    return name;
  }

  async postFilter(state: CycleState, pod: Pod, m: NodeToStatus): Promise<PostFilterOutput> {
    // upstream: `defer metrics.PreemptionAttempts.Inc()` — every attempt counts, failed ones too.
    this.handle.pluginMetrics().preemptionAttempt();
    const { result, status } = await this.evaluator.preempt(state, pod, m);
    const msg = status ? status.message() : "";
    if (status && msg.length > 0) return { result, status: new Status(status.code, MessagePrefix + msg) };
    return { result, status };
  }

  /**
   * Holds the preemptor back while its victims are being preempted asynchronously, so that it
   * does not run preemption again meanwhile (gate SchedulerAsyncPreemption; always admits
   * without it, the preparation having finished inside PostFilter).
   */
  preEnqueue(pod: Pod): Status | null {
    if (!this.fts.enableAsyncPreemption) return null;
    if (this.evaluator.isPodRunningPreemption(podUID(pod))) {
      return new Status(Code.UnschedulableAndUnresolvable, ErrReasonPreemptionInProgress);
    }
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.fts.enableAsyncPreemption);
  }

  /** upstream calculateNumCandidates: max(numNodes × percentage / 100, absolute), at most numNodes. */
  calculateNumCandidates(numNodes: number): number {
    let n = Math.trunc((numNodes * this.args.minCandidateNodesPercentage) / 100);
    if (n < this.args.minCandidateNodesAbsolute) n = this.args.minCandidateNodesAbsolute;
    if (n > numNodes) n = numNodes;
    return n;
  }

  getOffsetAndNumCandidates(numNodes: number): { offset: number; numCandidates: number } {
    return {
      offset: this.handle.rand().intn(numNodes),
      numCandidates: this.calculateNumCandidates(numNodes),
    };
  }

  candidatesToVictimsMap(candidates: readonly Candidate[]): Map<string, ExtenderVictims> {
    const m = new Map<string, ExtenderVictims>();
    for (const c of candidates) m.set(c.name, c.victims);
    return m;
  }

  /**
   * Not eligible with `preemptionPolicy: Never`, or while a lower-priority pod on the nominated
   * node is still terminating because of an earlier preemption (unless that node is now
   * UnschedulableAndUnresolvable).
   */
  podEligibleToPreemptOthers(
    pod: Pod,
    nominatedNodeStatus: Status | null,
  ): { eligible: boolean; reason: string } {
    if (pod.spec?.preemptionPolicy === "Never")
      return { eligible: false, reason: ErrReasonPreemptionPolicyNever };
    const nomNodeName = pod.status?.nominatedNodeName ?? "";
    if (nomNodeName.length > 0) {
      if (nominatedNodeStatus?.code === Code.UnschedulableAndUnresolvable)
        return { eligible: true, reason: "" };
      const nodeInfo = this.handle.snapshotSharedLister().nodeInfos().get(nomNodeName);
      if (nodeInfo) {
        const prio = podPriority(pod);
        for (const p of nodeInfo.pods) {
          if (this.isPreemptionAllowed(nodeInfo, p, pod, prio) && podTerminatingByPreemption(p.pod)) {
            return { eligible: false, reason: ErrReasonTerminatingPodOnNominatedNode };
          }
        }
      }
    }
    return { eligible: true, reason: "" };
  }

  /**
   * Removes every lower-priority pod, checks that the pod fits, then adds pods back — PDB-violating
   * ones first, most important first — keeping each that still lets the pod fit.
   */
  selectVictimsOnNode(
    state: CycleState,
    pod: Pod,
    nodeInfo: NodeInfo,
    pdbs: readonly PodDisruptionBudget[],
  ): SelectVictimsResult {
    const handle = this.handle;
    const potentialVictims: PodInfo[] = [];
    const prio = podPriority(pod);
    for (const pi of nodeInfo.pods)
      if (this.isPreemptionAllowed(nodeInfo, pi, pod, prio)) potentialVictims.push(pi);
    for (const pi of potentialVictims) {
      const s = this.removeVictim(state, pod, pi, nodeInfo);
      if (s) return victimsFailure(s);
    }
    // Nothing to remove: the node's state did not change, no need to evaluate it again.
    if (potentialVictims.length === 0) {
      return {
        victims: [],
        numViolatingVictim: 0,
        status: new Status(Code.UnschedulableAndUnresolvable, ErrReasonNoVictims),
      };
    }
    // If the pod does not fit without all of them, this node is not a candidate. (Affinity of
    // the pod to the victims themselves is deliberately not considered, as upstream.)
    const fits = handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
    if (fits !== null && !fits.isSuccess()) return { victims: [], numViolatingVictim: 0, status: fits };

    this.sortByImportance(potentialVictims);
    const { violating, nonViolating } = filterPodsWithPDBViolation(potentialVictims, pdbs);
    const victims: PodInfo[] = [];
    let numViolatingVictim = 0;
    // Adds each pod back; keeps it when the preemptor still fits, else removes it again as a victim.
    for (let g = 0; g < 2; g++) {
      const group = g === 0 ? violating : nonViolating;
      for (const pi of group) {
        nodeInfo.addPodInfo(pi);
        const a = handle.runPreFilterExtensionAddPod(state, pod, pi, nodeInfo);
        if (a !== null && !a.isSuccess()) return victimsFailure(a);
        const s = handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
        if (s !== null && !s.isSuccess()) {
          const r = this.removeVictim(state, pod, pi, nodeInfo);
          if (r) return victimsFailure(r);
          victims.push(pi);
          if (g === 0) numViolatingVictim++;
        }
      }
    }
    // Keep the victims ordered by importance when both groups contributed.
    if (violating.length > 0 && nonViolating.length > 0) this.sortByImportance(victims);
    const pods: Pod[] = new Array(victims.length);
    for (let i = 0; i < victims.length; i++) pods[i] = (victims[i] as PodInfo).pod;
    return { victims: pods, victimInfos: victims, numViolatingVictim, status: null };
  }

  /** Removes `pi` from the node copy and runs the PreFilter extensions' RemovePod; a failure's status. */
  private removeVictim(state: CycleState, pod: Pod, pi: PodInfo, nodeInfo: NodeInfo): Status | null {
    try {
      nodeInfo.removePod(pi.pod);
    } catch (e) {
      return asStatus(e);
    }
    const s = this.handle.runPreFilterExtensionRemovePod(state, pod, pi, nodeInfo);
    return s === null || s.isSuccess() ? null : s;
  }

  /**
   * Sorts most important first with `moreImportantPod`. With the default order, each pod's
   * priority and start time are read once, from its PodInfo (one clock reading for pods that
   * have not started), instead of at every comparison; the same comparisons, so the same order.
   */
  private sortByImportance(pods: PodInfo[]): void {
    if (pods.length < 2) return;
    const more = this.moreImportantPod;
    if (more !== this.defaultMoreImportantPod) {
      pods.sort((a, b) => (more(a.pod, b.pod) ? -1 : more(b.pod, a.pod) ? 1 : 0));
      return;
    }
    const now = this.handle.clock().now();
    const keyed: { pi: PodInfo; prio: number; start: number }[] = new Array(pods.length);
    for (let i = 0; i < pods.length; i++) {
      const pi = pods[i] as PodInfo;
      keyed[i] = { pi, prio: pi.priority(), start: pi.startTime() ?? now };
    }
    keyed.sort(byPriorityThenStart);
    for (let i = 0; i < pods.length; i++) pods[i] = (keyed[i] as { pi: PodInfo }).pi;
  }

  /** null: the default candidate selection criteria. */
  orderedScoreFuncs(): CandidateScoreFunc[] | null {
    return null;
  }

  /**
   * The victim must have a lower priority than the preemptor (`preemptorPriority`), and pass
   * isEligiblePod.
   */
  private isPreemptionAllowed(
    nodeInfo: NodeInfo,
    victim: PodInfo,
    preemptor: Pod,
    preemptorPriority: number,
  ): boolean {
    return victim.priority() < preemptorPriority && this.isEligiblePod(nodeInfo, victim, preemptor);
  }
}
