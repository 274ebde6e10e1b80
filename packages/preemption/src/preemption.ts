// upstream: pkg/scheduler/framework/preemption/preemption.go (Evaluator, Interface, Candidate,
// DryRunPreemption, callExtenders, SelectCandidate, pickOneNodeForPreemption,
// Preempt) and v1.37's executor.go, here ./executor.ts. Reusable by any PostFilter plugin that
// implements PreemptionInterface, as upstream's Evaluator is.
import { type Pod, type PodDisruptionBudget, podPriority } from "@kubesched/api";
import {
  asStatus,
  Code,
  type CycleState,
  Diagnosis,
  type ExtenderVictims,
  FitError,
  type Handle,
  minorOf,
  type NodeInfo,
  NodeToStatus,
  NominatingMode,
  type PodInfo,
  type PostFilterOutput,
  type PostFilterResult,
  Status,
} from "@kubesched/framework";
import { type Candidate, Executor, type PreemptPodFunc } from "./executor";
import { ErrReasonNoCandidate, ErrReasonPreemptionNotHelpful, foundPlacementMessage } from "./reasons";
import { earliestStartTimeOf, getPodStartTime } from "./util";

/** What SelectVictimsOnNode returns. */
export interface SelectVictimsResult {
  victims: Pod[];
  /**
   * The victims' PodInfos, in the order of `victims`, when the implementation has them: candidate
   * selection then reads priorities and start times from them (read once per PodInfo) rather than
   * from the pods of every candidate.
   */
  victimInfos?: readonly PodInfo[];
  numViolatingVictim: number;
  /** null (Success) when the preemptor fits after removing `victims`. */
  status: Status | null;
}

/** Scores a candidate node; higher is better (see pickOneNodeForPreemption). */
export type CandidateScoreFunc = (nodeName: string) => number;

/**
 * The operations a preemption plugin supplies to the Evaluator (upstream preemption.Interface).
 * DefaultPreemption implements it; an out-of-tree PostFilter plugin can implement it differently.
 */
export interface PreemptionInterface {
  /** A random offset in [0, numNodes) and the number of candidates to shortlist. */
  getOffsetAndNumCandidates(numNodes: number): { offset: number; numCandidates: number };
  /** Node name → victims, for extenders and candidate selection. */
  candidatesToVictimsMap(candidates: readonly Candidate[]): Map<string, ExtenderVictims>;
  /** Whether `pod` may preempt others; the reason when not. */
  podEligibleToPreemptOthers(
    pod: Pod,
    nominatedNodeStatus: Status | null,
  ): { eligible: boolean; reason: string };
  /**
   * The fewest pods to remove from the node for `pod` to fit. `state` and `nodeInfo` are copies
   * the implementation may change.
   */
  selectVictimsOnNode(
    state: CycleState,
    pod: Pod,
    nodeInfo: NodeInfo,
    pdbs: readonly PodDisruptionBudget[],
  ): SelectVictimsResult;
  /** Ordered score functions for candidate selection; null for the default ones. */
  orderedScoreFuncs(nodesToVictims: ReadonlyMap<string, ExtenderVictims>): CandidateScoreFunc[] | null;
}

/** A PostFilterResult nominating `nodeName` (upstream NewPostFilterResultWithNominatedNode). */
export function postFilterResultWithNominatedNode(nodeName: string): PostFilterResult {
  return { nominatingInfo: { nominatedNodeName: nodeName, nominatingMode: NominatingMode.Override } };
}

// 2^31: added to every priority so that sums of negative priorities compare sanely.
const priorityShift = 2 ** 31;

/**
 * upstream pickOneNodeForPreemption. Victims of each node are ordered by decreasing importance.
 * Without custom score functions, in order: fewest PDB violations; lowest highest-priority victim;
 * smallest sum of (shifted) victim priorities; fewest victims; latest start time among the
 * highest-priority victims; then the first remaining node.
 */
export function pickOneNodeForPreemption(
  nodesToVictims: ReadonlyMap<string, ExtenderVictims>,
  scoreFuncs: readonly CandidateScoreFunc[] | null,
  now: number,
): string {
  if (nodesToVictims.size === 0) return "";
  const names = [...nodesToVictims.keys()];
  if (scoreFuncs && scoreFuncs.length > 0) {
    return names[
      pickByCriteria(names.length, scoreFuncs.length, (f, i) =>
        (scoreFuncs[f] as CandidateScoreFunc)(names[i] as string),
      )
    ] as string;
  }
  return names[pickByDefaultCriteria([...nodesToVictims.values()], null, now)] as string;
}

/**
 * pickOneNodeForPreemption's default criteria over candidates' victims; the index of the chosen
 * one. `infos[i]`, when given, are the PodInfos of `victims[i].pods` (same order): priorities and
 * start times are then read from them. Each candidate's priorities are read once, on first use (a
 * criterion is only evaluated for the candidates still tied).
 */
function pickByDefaultCriteria(
  victims: readonly ExtenderVictims[],
  infos: readonly (readonly PodInfo[] | undefined)[] | null,
  now: number,
): number {
  const prios: (number[] | undefined)[] = new Array(victims.length);
  const priosOf = (i: number): number[] => {
    let p = prios[i];
    if (p === undefined) {
      const pis = infos?.[i];
      if (pis !== undefined) {
        p = new Array(pis.length);
        for (let k = 0; k < pis.length; k++) p[k] = (pis[k] as PodInfo).priority();
      } else {
        const pods = (victims[i] as ExtenderVictims).pods;
        p = new Array(pods.length);
        for (let k = 0; k < pods.length; k++) p[k] = podPriority(pods[k] as Pod);
      }
      prios[i] = p;
    }
    return p;
  };
  return pickByCriteria(victims.length, 5, (criterion, i) => {
    switch (criterion) {
      case 0:
        // A node with the fewest PDB violations.
        return -(victims[i] as ExtenderVictims).numPDBViolations;
      case 1: {
        // A node whose highest-priority victim has the lowest priority.
        const p = priosOf(i);
        return p.length > 0 ? -(p[0] as number) : 0;
      }
      case 2: {
        // A node with the smallest sum of victim priorities.
        let sum = 0;
        for (const p of priosOf(i)) sum += p + priorityShift;
        return -sum;
      }
      case 3:
        // A node with the fewest victims.
        return -(victims[i] as ExtenderVictims).pods.length;
      default: {
        // A node whose highest-priority victims started latest.
        const pis = infos?.[i];
        const pods = (victims[i] as ExtenderVictims).pods;
        const earliest = earliestStartTimeOf(
          pods.length,
          priosOf(i),
          pis !== undefined
            ? (k) => (pis[k] as PodInfo).startTime() ?? now
            : (k) => getPodStartTime(pods[k] as Pod, now),
        );
        return earliest ?? Number.NEGATIVE_INFINITY;
      }
    }
  });
}

/**
 * Applies `numCriteria` scores (higher is better) in order to candidates 0..n-1, keeping the
 * best-scored each time; the only one left, or the first remaining. Returns its index.
 */
function pickByCriteria(
  n: number,
  numCriteria: number,
  score: (criterion: number, i: number) => number,
): number {
  let candidates: number[] = new Array(n);
  for (let i = 0; i < n; i++) candidates[i] = i;
  for (let c = 0; c < numCriteria; c++) {
    let selected: number[] = [];
    let maxScore = Number.NEGATIVE_INFINITY;
    for (const i of candidates) {
      const s = score(c, i);
      if (s > maxScore) {
        maxScore = s;
        selected = [];
      }
      if (s === maxScore) selected.push(i);
    }
    if (selected.length === 1) return selected[0] as number;
    // Keep the previous list when every score was -Infinity (e.g. no victims at all).
    if (selected.length > 0) candidates = selected;
  }
  return candidates[0] as number;
}

/** upstream utilerrors.NewAggregate(errs).Error(): the message alone, or `[a, b]`. */
function aggregate(errs: readonly Error[]): Error | null {
  if (errs.length === 0) return null;
  if (errs.length === 1) return errs[0] as Error;
  return new Error(`[${errs.map((e) => e.message).join(", ")}]`);
}

/** Keeps at most `capacity` candidates (upstream candidateList: later adds are dropped). */
class CandidateList {
  readonly items: Candidate[] = [];
  constructor(private readonly capacity: number) {}
  add(c: Candidate): void {
    if (this.items.length < this.capacity) this.items.push(c);
  }
  get size(): number {
    return this.items.length;
  }
}

export interface DryRunResult {
  /** Candidates that violate no PDB first, then the violating ones, each in the order found. */
  candidates: Candidate[];
  /** The status of each node the dry run rejected. */
  nodeToStatus: NodeToStatus;
  /** Errors (Error statuses) of the dry run, aggregated. */
  error: Error | null;
}

/**
 * Runs preemption for a pod whose scheduling attempt found no feasible node (upstream
 * preemption.Evaluator): eligibility, candidates from dry runs, extenders, candidate selection,
 * then the API calls that preempt the victims — awaited inside PostFilter, or with
 * `enableAsyncPreemption` (gate SchedulerAsyncPreemption) started off the scheduling cycle by
 * the {@link Executor}, the plugin's PreEnqueue asking {@link Evaluator.isPodRunningPreemption}.
 */
export class Evaluator {
  /** Carries out the preemption of the chosen candidate (upstream Evaluator.Executor). */
  readonly executor: Executor;

  constructor(
    readonly pluginName: string,
    readonly handle: Handle,
    readonly iface: PreemptionInterface,
    /** upstream NewEvaluator's enableAsyncPreemption; off unless the plugin gates its preemptors. */
    readonly enableAsyncPreemption = false,
  ) {
    this.executor = new Executor(pluginName, handle);
  }

  /** Preempts one victim; replaceable in tests, as upstream's PreemptPod field. */
  get preemptPod(): PreemptPodFunc {
    return this.executor.preemptPod;
  }
  set preemptPod(fn: PreemptPodFunc) {
    this.executor.preemptPod = fn;
  }

  /** Whether the pod's asynchronous preemption still runs (upstream IsPodRunningPreemption). */
  isPodRunningPreemption(uid: string): boolean {
    return this.executor.isPodRunningPreemption(uid);
  }

  /**
   * The result nominates the chosen node (Success), or clears the nomination with the reason
   * preemption cannot help (Unschedulable); a null result keeps the nomination (not eligible,
   * errors).
   */
  async preempt(state: CycleState, pod: Pod, m: NodeToStatus): Promise<PostFilterOutput> {
    // 0) The latest version of the pod, from the informer cache.
    const ns = pod.metadata?.namespace ?? "";
    const name = pod.metadata?.name ?? "";
    const live = this.handle.listers().pods.get(ns, name);
    if (!live) return { result: null, status: asStatus(new Error(`pods "${name}" not found`)) };

    // 1) The preemptor must be eligible.
    const nominatedNodeStatus = m.get(live.status?.nominatedNodeName ?? "");
    const { eligible, reason } = this.iface.podEligibleToPreemptOthers(live, nominatedNodeStatus);
    if (!eligible) return { result: null, status: new Status(Code.Unschedulable, reason) };

    // 2) Candidates.
    const allNodes = this.handle.snapshotSharedLister().nodeInfos().list();
    if (allNodes.length === 0) return { result: null, status: asStatus(new Error("no nodes available")) };
    const { candidates, nodeToStatus, error } = this.findCandidates(state, live, m);
    if (error && candidates.length === 0) return { result: null, status: asStatus(error) };
    if (candidates.length === 0) {
      const diagnosis = new Diagnosis();
      diagnosis.nodeToStatus = nodeToStatus;
      nodeToStatus.absentNodesStatus = new Status(
        Code.UnschedulableAndUnresolvable,
        ErrReasonPreemptionNotHelpful,
      );
      const fitError = new FitError(live, allNodes.length, diagnosis);
      // The empty nomination clears the pod's nominatedNodeName.
      return {
        result: postFilterResultWithNominatedNode(""),
        status: new Status(Code.Unschedulable, fitError.message),
      };
    }

    // 3) Extenders may filter the candidates.
    const ext = await this.callExtenders(live, candidates);
    if (ext.status) return { result: null, status: ext.status };

    // 4) The best candidate.
    const best = this.selectCandidate(ext.candidates);
    if (!best?.name) return { result: null, status: new Status(Code.Unschedulable, ErrReasonNoCandidate) };

    // 5) Preempt the victims (off the cycle when async), then nominate the node.
    if (this.enableAsyncPreemption) {
      this.executor.prepareCandidateAsync(best, live);
    } else {
      this.handle.pluginMetrics().preemptionVictims(best.victims.pods.length);
      const prepared = await this.executor.prepareCandidate(best, live);
      if (prepared) return { result: null, status: prepared };
    }
    // 1.37 says where the pod may go (#140180); earlier releases return a bare Success.
    const status =
      minorOf(this.handle.kubernetesVersion()) >= 37
        ? new Status(Code.Success, foundPlacementMessage(best.name, best.victims.pods.length))
        : null;
    return { result: postFilterResultWithNominatedNode(best.name), status };
  }

  /**
   * Nodes rejected with Unschedulable (those where removing pods may help), dry-run from a random
   * offset (upstream findCandidates).
   */
  findCandidates(state: CycleState, pod: Pod, m: NodeToStatus): DryRunResult {
    const potentialNodes = m.nodesForStatusCode(
      this.handle.snapshotSharedLister().nodeInfos(),
      Code.Unschedulable,
    );
    if (potentialNodes.length === 0) return { candidates: [], nodeToStatus: new NodeToStatus(), error: null };
    const pdbs = this.handle.listers().podDisruptionBudgets.list();
    const { offset, numCandidates } = this.iface.getOffsetAndNumCandidates(potentialNodes.length);
    return this.dryRunPreemption(state, pod, potentialNodes, pdbs, offset, numCandidates);
  }

  /**
   * Selects victims on the potential nodes, starting at `offset` and wrapping around, on copies of
   * the NodeInfo and CycleState (upstream DryRunPreemption). Stops once there is at least one
   * candidate violating no PDB and `numCandidates` in all. Sequential: the same result as
   * upstream with parallelism 1.
   */
  dryRunPreemption(
    state: CycleState,
    pod: Pod,
    potentialNodes: readonly NodeInfo[],
    pdbs: readonly PodDisruptionBudget[],
    offset: number,
    numCandidates: number,
  ): DryRunResult {
    const nonViolating = new CandidateList(numCandidates);
    const violating = new CandidateList(numCandidates);
    const nodeToStatus = new NodeToStatus();
    const errors: Error[] = [];
    const n = potentialNodes.length;
    for (let i = 0; i < n; i++) {
      const nodeInfo = (potentialNodes[(offset + i) % n] as NodeInfo).clone();
      const nodeName = nodeInfo.nodeName;
      const { victims, victimInfos, numViolatingVictim, status } = this.iface.selectVictimsOnNode(
        state.clone(),
        pod,
        nodeInfo,
        pdbs,
      );
      const ok = status === null || status.isSuccess();
      if (ok && victims.length > 0) {
        const c: Candidate = {
          name: nodeName,
          victims: { pods: victims, numPDBViolations: numViolatingVictim },
          victimInfos,
        };
        if (numViolatingVictim === 0) nonViolating.add(c);
        else violating.add(c);
        if (nonViolating.size > 0 && nonViolating.size + violating.size >= numCandidates) break;
        continue;
      }
      const s = ok
        ? asStatus(new Error(`expected at least one victim pod on node "${nodeName}"`))
        : (status as Status);
      if (s.code === Code.Error) errors.push(s.asError() as Error);
      nodeToStatus.set(nodeName, s);
    }
    return {
      candidates: [...nonViolating.items, ...violating.items],
      nodeToStatus,
      error: aggregate(errors),
    };
  }

  /**
   * Lets extenders that support preemption and are interested in the pod filter or change the
   * candidates; an ignorable extender's errors are skipped (upstream callExtenders).
   */
  async callExtenders(
    pod: Pod,
    candidates: Candidate[],
  ): Promise<{ candidates: Candidate[]; status: Status | null }> {
    const extenders = this.handle.extenders();
    if (extenders.length === 0) return { candidates, status: null };
    let victimsMap = this.iface.candidatesToVictimsMap(candidates);
    if (victimsMap.size === 0) return { candidates, status: null };
    for (const extender of extenders) {
      if (!extender.supportsPreemption() || !extender.isInterested(pod)) continue;
      let nodeNameToVictims: Map<string, ExtenderVictims>;
      try {
        nodeNameToVictims = await extender.processPreemption(pod, victimsMap);
      } catch (err) {
        if (extender.isIgnorable()) continue;
        return { candidates: [], status: asStatus(err) };
      }
      for (const [nodeName, victims] of [...nodeNameToVictims]) {
        if (!victims || victims.pods.length === 0) {
          if (extender.isIgnorable()) {
            nodeNameToVictims.delete(nodeName);
            continue;
          }
          return {
            candidates: [],
            status: asStatus(new Error(`expected at least one victim pod on node "${nodeName}"`)),
          };
        }
      }
      victimsMap = nodeNameToVictims;
      if (victimsMap.size === 0) break;
    }
    const out: Candidate[] = [];
    for (const [name, victims] of victimsMap) out.push({ name, victims });
    return { candidates: out, status: null };
  }

  /** The best candidate (upstream SelectCandidate); null when there is none. */
  selectCandidate(candidates: readonly Candidate[]): Candidate | null {
    if (candidates.length === 0) return null;
    if (candidates.length === 1) return candidates[0] as Candidate;
    const victimsMap = this.iface.candidatesToVictimsMap(candidates);
    const scoreFuncs = this.iface.orderedScoreFuncs(victimsMap);
    const now = this.handle.clock().now();
    if ((scoreFuncs === null || scoreFuncs.length === 0) && victimsMap.size > 0) {
      // The default criteria, reading the dry run's PodInfos where the map holds a candidate's
      // own victims (the same pods, in the same order).
      const byName = new Map<string, Candidate>();
      for (const c of candidates) byName.set(c.name, c);
      const names = [...victimsMap.keys()];
      const victims = [...victimsMap.values()];
      const infos = names.map((name, i) => {
        const c = byName.get(name);
        return c !== undefined && c.victims === victims[i] ? c.victimInfos : undefined;
      });
      const i = pickByDefaultCriteria(victims, infos, now);
      return { name: names[i] as string, victims: victims[i] as ExtenderVictims };
    }
    const node = pickOneNodeForPreemption(victimsMap, scoreFuncs, now);
    const victims = victimsMap.get(node);
    if (victims) return { name: node, victims };
    // Not reachable with in-tree plugins; do not break the flow.
    return candidates[0] as Candidate;
  }
}
