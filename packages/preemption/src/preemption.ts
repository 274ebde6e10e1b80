// upstream: pkg/scheduler/framework/preemption/preemption.go (Evaluator, Interface, Candidate,
// DryRunPreemption, callExtenders, SelectCandidate, pickOneNodeForPreemption,
// getLowerPriorityNominatedPods) and executor.go (prepareCandidate, PreemptPod). Reusable by any
// PostFilter plugin that implements PreemptionInterface, as upstream's Evaluator is.
import {
  type Pod,
  type PodCondition,
  type PodDisruptionBudget,
  podKey,
  podPriority,
  podUID,
  updatePodCondition,
} from "@kubesched/api";
import {
  asStatus,
  Code,
  type CycleState,
  Diagnosis,
  type ExtenderVictims,
  FitError,
  type Handle,
  type NodeInfo,
  NodeToStatus,
  NominatingMode,
  type PostFilterOutput,
  type PostFilterResult,
  Status,
} from "@kubesched/framework";
import { ErrReasonNoCandidate, ErrReasonPreemptionNotHelpful } from "./reasons";
import { earliestStartTimeOf } from "./util";

/** A node on which the preemptor fits once `victims` are gone (upstream preemption.Candidate). */
export interface Candidate {
  /** The node the preemptor would be nominated to. */
  readonly name: string;
  /** The pods to preempt (most important first) and how many of them violate a PDB. */
  readonly victims: ExtenderVictims;
}

/** What SelectVictimsOnNode returns. */
export interface SelectVictimsResult {
  victims: Pod[];
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

/** Makes the API calls that preempt one victim; returns the error that stops the preparation, or null. */
export type PreemptPodFunc = (candidate: Candidate, preemptor: Pod, victim: Pod) => Promise<Error | null>;

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
  let candidates = [...nodesToVictims.keys()];
  let funcs: readonly CandidateScoreFunc[];
  if (scoreFuncs && scoreFuncs.length > 0) {
    funcs = scoreFuncs;
  } else {
    // Each candidate's victims with their priorities, read once for every criterion below.
    const keyed = new Map<string, { victims: ExtenderVictims; prios: number[] }>();
    for (const [node, victims] of nodesToVictims) {
      const prios: number[] = new Array(victims.pods.length);
      for (let i = 0; i < victims.pods.length; i++) prios[i] = podPriority(victims.pods[i] as Pod);
      keyed.set(node, { victims, prios });
    }
    const keysOf = (node: string) => keyed.get(node) as { victims: ExtenderVictims; prios: number[] };
    funcs = [
      // A node with the fewest PDB violations.
      (node) => -keysOf(node).victims.numPDBViolations,
      // A node whose highest-priority victim has the lowest priority.
      (node) => {
        const { prios } = keysOf(node);
        return prios.length > 0 ? -(prios[0] as number) : 0;
      },
      // A node with the smallest sum of victim priorities.
      (node) => {
        let sum = 0;
        for (const p of keysOf(node).prios) sum += p + priorityShift;
        return -sum;
      },
      // A node with the fewest victims.
      (node) => -keysOf(node).prios.length,
      // A node whose highest-priority victims started latest.
      (node) => {
        const { victims, prios } = keysOf(node);
        return earliestStartTimeOf(victims.pods, prios, now) ?? Number.NEGATIVE_INFINITY;
      },
    ];
  }
  for (const f of funcs) {
    let selected: string[] = [];
    let maxScore = Number.NEGATIVE_INFINITY;
    for (const node of candidates) {
      const score = f(node);
      if (score > maxScore) {
        maxScore = score;
        selected = [];
      }
      if (score === maxScore) selected.push(node);
    }
    if (selected.length === 1) return selected[0] as string;
    // Keep the previous list when every score was -Infinity (e.g. no victims at all).
    if (selected.length > 0) candidates = selected;
  }
  return candidates[0] as string;
}

/**
 * Pods nominated to `nodeName` with a lower priority than `pod` (upstream
 * getLowerPriorityNominatedPods): they may no longer fit once the preemptor lands there.
 */
export function getLowerPriorityNominatedPods(handle: Handle, pod: Pod, nodeName: string): Pod[] {
  const nominated = handle.nominatedPodsForNode(nodeName);
  if (nominated.length === 0) return [];
  const prio = podPriority(pod);
  const out: Pod[] = [];
  for (const pi of nominated) if (podPriority(pi.pod) < prio) out.push(pi.pod);
  return out;
}

/** A NotFound API error (the victim is already gone): not a failure of the preemption. */
function isNotFound(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { reason?: unknown; code?: unknown; statusCode?: unknown };
  return e.reason === "NotFound" || e.code === 404 || e.statusCode === 404;
}

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
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
 * then the API calls that preempt the victims.
 *
 * The preparation is synchronous here (awaited inside PostFilter): the engine awaits PostFilter,
 * so the preemptor cannot re-enter the queue before its victims are deleted, which is what
 * upstream's SchedulerAsyncPreemption PreEnqueue gate protects against.
 */
export class Evaluator {
  /** Preempts one victim; replaceable in tests, as upstream's PreemptPod field. */
  preemptPod: PreemptPodFunc;

  constructor(
    readonly pluginName: string,
    readonly handle: Handle,
    readonly iface: PreemptionInterface,
  ) {
    this.preemptPod = (c, preemptor, victim) => this.defaultPreemptPod(c, preemptor, victim);
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
    this.handle.pluginMetrics().preemptionVictims(best.victims.pods.length);

    // 5) Preempt the victims, then nominate the node.
    const prepared = await this.prepareCandidate(best, live);
    if (prepared) return { result: null, status: prepared };
    return { result: postFilterResultWithNominatedNode(best.name), status: null };
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
      const { victims, numViolatingVictim, status } = this.iface.selectVictimsOnNode(
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
        return { candidates: [], status: asStatus(toError(err)) };
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
    const node = pickOneNodeForPreemption(victimsMap, scoreFuncs, this.handle.clock().now());
    const victims = victimsMap.get(node);
    if (victims) return { name: node, victims };
    // Not reachable with in-tree plugins; do not break the flow.
    return candidates[0] as Candidate;
  }

  /**
   * Preempts the victims (those not already being deleted), then clears the nomination of
   * lower-priority pods nominated to the node (upstream prepareCandidate). Returns the first
   * failure as an Error status.
   */
  async prepareCandidate(c: Candidate, preemptor: Pod): Promise<Status | null> {
    for (const victim of c.victims.pods) {
      // Graceful deletion has already started: another API call is unnecessary.
      if (victim.metadata?.deletionTimestamp != null) continue;
      const err = await this.preemptPod(c, preemptor, victim);
      if (err) return asStatus(err);
    }
    const client = this.handle.client();
    for (const p of getLowerPriorityNominatedPods(this.handle, preemptor, c.name)) {
      if (!p.status?.nominatedNodeName) continue;
      try {
        await client.patchPodStatus(p, { nominatedNodeName: null });
      } catch (err) {
        // Not critical: the pod keeps its nomination until it is scheduled again.
        this.handle.logger().error("Cannot clear 'NominatedNodeName' field of pod", {
          err,
          pod: podKey(p),
        });
      }
    }
    return null;
  }

  /**
   * upstream Executor.PreemptPod: a pod waiting at Permit is preempted there, a pod in PreBind has
   * its binding cycle cancelled (kubernetes#135502); otherwise the DisruptionTarget condition is
   * added and the pod deleted (NotFound tolerated). Then the `Preempted` event on the victim.
   */
  private async defaultPreemptPod(c: Candidate, preemptor: Pod, victim: Pod): Promise<Error | null> {
    const handle = this.handle;
    const uid = podUID(victim);
    const waiting = handle.getWaitingPod(uid);
    let inMemory = false;
    if (waiting) {
      inMemory = waiting.preempt(this.pluginName, "preempted");
    } else {
      inMemory = handle.getPodInPreBind(uid)?.cancelPod(`preempted by ${this.pluginName}`) ?? false;
    }
    let eventMessage = `Preempted by pod ${podUID(preemptor)} on node ${c.name}`;
    if (inMemory) {
      eventMessage += " (in kube-scheduler memory).";
    } else {
      const schedulerName = preemptor.spec?.schedulerName || handle.profileName();
      const condition: PodCondition = {
        type: "DisruptionTarget",
        status: "True",
        reason: "PreemptionByScheduler",
        message: `${schedulerName}: preempting to accommodate a higher priority pod`,
      };
      const newStatus = { ...victim.status, conditions: [...(victim.status?.conditions ?? [])] };
      if (updatePodCondition(newStatus, condition, new Date(handle.clock().now()))) {
        const updated = newStatus.conditions?.find((x) => x.type === "DisruptionTarget");
        try {
          await handle.client().patchPodStatus(victim, { conditions: updated ? [updated] : [condition] });
        } catch (err) {
          return isNotFound(err) ? null : toError(err);
        }
      }
      try {
        await handle.client().deletePod(victim);
      } catch (err) {
        return isNotFound(err) ? null : toError(err);
      }
    }
    handle.eventRecorder().eventf(victim, preemptor, "Normal", "Preempted", "Preempting", eventMessage);
    return null;
  }
}
