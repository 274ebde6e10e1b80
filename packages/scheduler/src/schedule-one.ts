// upstream: pkg/scheduler/schedule_one.go — one scheduling attempt: the scheduling cycle
// (synchronous here, but for extenders and PostFilter) and the binding cycle (asynchronous), as
// phase functions (CyclePhases) that carry no instrumentation: an observer's metrics, explain and
// phase timings come from decorating them (observed-cycle.ts).
import { type Pod, podKey, podUID, updatePodCondition } from "@kubesched/api";
import {
  asStatus,
  Code,
  CycleState,
  Diagnosis,
  extractPodNodeAllocatableResourceClaimStatus,
  FitError,
  isSuccess,
  MaxExtenderPriority,
  MaxNodeScore,
  type NodeInfo,
  type NodePluginScores,
  type NominatingInfo,
  NominatingMode,
  PodInfo,
  PodsToActivate,
  type PostFilterOutput,
  podsToActivateKey,
  type QueuedPodInfo,
  type Random,
  Status,
} from "@kubesched/framework";
import { EventAssignedPodDelete } from "@kubesched/queue";
import {
  ExtenderName,
  type Framework,
  type NodeScoresOutput,
  type PreFilterOutput,
  SortedScoredNodes,
} from "@kubesched/runtime";
import type { SchedulerState } from "./scheduler-state";

/** Minimum number of nodes scored per cycle (upstream minFeasibleNodesToFind). */
export const minFeasibleNodesToFind = 100;
/** Minimum percentage of nodes scored (upstream minFeasibleNodesPercentageToFind). */
export const minFeasibleNodesPercentageToFind = 5;
/** Kubernetes event note length limit. */
const noteLengthLimit = 1024;

export const errNoNodesAvailable = new Error("no nodes available to schedule pods");

const clearNominatedNode: NominatingInfo = { nominatingMode: NominatingMode.Override, nominatedNodeName: "" };

export interface ScheduleResult {
  suggestedHost: string;
  evaluatedNodes: number;
  feasibleNodes: number;
  nominatingInfo: NominatingInfo | null;
}

const emptyResult = (nominatingInfo: NominatingInfo | null): ScheduleResult => ({
  suggestedHost: "",
  evaluatedNodes: 0,
  feasibleNodes: 0,
  nominatingInfo,
});

/** Upstream numFeasibleNodesToFind: how many feasible nodes end the search. */
export function numFeasibleNodesToFind(
  profilePercentage: number | null | undefined,
  globalPercentage: number,
  numAllNodes: number,
): number {
  if (numAllNodes < minFeasibleNodesToFind) return numAllNodes;
  let percentage = profilePercentage ?? globalPercentage;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < minFeasibleNodesPercentageToFind) percentage = minFeasibleNodesPercentageToFind;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return Math.max(numNodes, minFeasibleNodesToFind);
}

/** One pod's scheduling attempt: what its phase functions share. */
export interface Attempt {
  /** The pod as popped from the queue. */
  readonly qpi: QueuedPodInfo;
  readonly pod: Pod;
  readonly fwk: Framework;
  readonly state: CycleState;
  readonly podsToActivate: PodsToActivate;
  /** When the attempt and its scheduling algorithm started (performance.now(); set by an observed
   * cycle, which reports durations from them; 0 otherwise). */
  startedMs: number;
  algorithmStartMs: number;
  /** The attempt's part in opportunistic batching (set when the gate is on). */
  batch: BatchAttempt | null;
}

/** The nodes a Filter pass found, or the error that stopped it. */
interface FilterResult {
  feasible: NodeInfo[];
  error: Error | null;
}

/**
 * The scores a host is selected from: upstream's per-node list, or (without extenders to add
 * theirs) just the total of each feasible node, in their order.
 */
export type Priorities =
  | { list: NodePluginScores[]; totals: null }
  | { list: null; totals: Float64Array; scores?: NodeScoresOutput };

/**
 * The phase functions of an attempt, in cycle order. scheduleOne and its helpers call them
 * through `sched.cycle`: these functions as they are (`plainCycle`), or decorated for an observer
 * (observed-cycle.ts). Each is synchronous or returns the promise of the work it started, so a
 * decorator adds no turn of the event loop.
 */
export interface CyclePhases {
  /** Pops the next pod: its attempt; true when the pod needs no cycle, false when nothing was active. */
  pop(sched: SchedulerState): Attempt | boolean;
  /** The scheduling cycle: schedulePod, PostFilter on a FitError, assume, Reserve, Permit. */
  schedulingCycle(sched: SchedulerState, a: Attempt): Promise<CycleOutcome>;
  /** The scheduling algorithm (upstream schedulePod): snapshot, Filter, Score, select. */
  schedulePod(sched: SchedulerState, a: Attempt): Promise<ScheduleResult>;
  /** schedulePod has settled (with a result or an error): a point for observers, no work. */
  algorithmDone(sched: SchedulerState, a: Attempt): void;
  /** The scheduling cycle has settled with `outcome`: a point for observers, no work. */
  schedulingCycleDone(sched: SchedulerState, a: Attempt, outcome: CycleOutcome): void;
  updateSnapshot(sched: SchedulerState, a: Attempt): void;
  preFilter(sched: SchedulerState, a: Attempt): PreFilterOutput;
  filter(sched: SchedulerState, a: Attempt, diagnosis: Diagnosis, nodes: readonly NodeInfo[]): FilterResult;
  /** PreScore, Score and extenders' Prioritize of the feasible nodes (two or more). */
  score(sched: SchedulerState, a: Attempt, feasible: NodeInfo[]): Promise<Priorities>;
  /** The host: the only feasible node (priorities null), else selectHost. */
  select(
    sched: SchedulerState,
    a: Attempt,
    feasible: readonly NodeInfo[],
    priorities: Priorities | null,
  ): string;
  postFilter(sched: SchedulerState, a: Attempt, err: FitError): Promise<PostFilterOutput>;
  /** Assume the pod on the host, Reserve, Permit. */
  assume(sched: SchedulerState, a: Attempt, result: ScheduleResult): CycleOutcome;
  /** Starts the binding cycle of an assumed pod (asynchronous, tracked in inflightBindings). */
  startBindingCycle(sched: SchedulerState, a: Attempt, outcome: CycleOutcome): void;
  // The binding cycle's phase functions take the assumed pod (with its node).
  preBindPreFlight(sched: SchedulerState, a: Attempt, pod: Pod, host: string): Status | null;
  waitOnPermit(sched: SchedulerState, a: Attempt, pod: Pod): Promise<Status | null>;
  /** After Permit: the pod leaves the queue, or the rejection as a FitError. */
  permitted(sched: SchedulerState, a: Attempt, pod: Pod, host: string, ws: Status | null): Status | null;
  preBind(sched: SchedulerState, a: Attempt, pod: Pod, host: string): Promise<Status | null>;
  bindPlugins(sched: SchedulerState, a: Attempt, pod: Pod, host: string): Promise<Status | null>;
  finishBinding(sched: SchedulerState, a: Attempt, pod: Pod): void;
  scheduledEvent(sched: SchedulerState, a: Attempt, pod: Pod, host: string): void;
  /** The pod is bound: PostBind, pods to activate. */
  bound(sched: SchedulerState, a: Attempt, assumed: QueuedPodInfo, result: ScheduleResult): void;
  /** A failed attempt (scheduling or binding cycle): back to the queue, event, condition. */
  handleSchedulingFailure(
    sched: SchedulerState,
    a: Attempt,
    qpi: QueuedPodInfo,
    status: Status,
    nominatingInfo: NominatingInfo | null,
  ): void;
  /** The failure logged, the pod back to the queue; returns the pod as the cluster has it now. */
  requeue(
    sched: SchedulerState,
    a: Attempt,
    qpi: QueuedPodInfo,
    status: Status,
    nominatingInfo: NominatingInfo | null,
  ): Pod | undefined;
  /** `pod` as it failed, `current` as the cluster has it now (the condition is patched on it). */
  failureEvents(
    sched: SchedulerState,
    a: Attempt,
    pod: Pod,
    current: Pod,
    status: Status,
    nominatingInfo: NominatingInfo | null,
  ): void;
}

/** ScheduleOne: pops a pod and runs its scheduling cycle. False when nothing was active. */
export async function scheduleOne(sched: SchedulerState): Promise<boolean> {
  const cycle = sched.cycle;
  const a = cycle.pop(sched);
  if (typeof a === "boolean") return a;
  const outcome = await cycle.schedulingCycle(sched, a);
  cycle.schedulingCycleDone(sched, a, outcome);
  if (!isSuccess(outcome.status)) {
    cycle.handleSchedulingFailure(
      sched,
      a,
      outcome.assumed,
      outcome.status as Status,
      outcome.result.nominatingInfo,
    );
    return true;
  }
  cycle.startBindingCycle(sched, a, outcome);
  return true;
}

function pop(sched: SchedulerState): Attempt | boolean {
  const qpi = sched.queue.pop();
  if (!qpi) return false;
  const pod = qpi.podInfo.pod;
  const fwk = sched.frameworkForPod(pod);
  if (!fwk || skipPodSchedule(sched, fwk, pod)) {
    sched.queue.done(podUID(pod));
    return true;
  }
  if (sched.logger.v(3)) sched.logger.debug(3, "Attempting to schedule pod", { pod: podKey(pod) });
  const state = new CycleState();
  state.signal = sched.runSignal;
  const podsToActivate = new PodsToActivate();
  state.write(podsToActivateKey, podsToActivate);
  return { qpi, pod, fwk, state, podsToActivate, startedMs: 0, algorithmStartMs: 0, batch: null };
}

function startBindingCycle(sched: SchedulerState, a: Attempt, outcome: CycleOutcome): void {
  const { result, assumed } = outcome;
  const p: Promise<void> = bindingCycle(sched, a, result, assumed).then(
    (st) => {
      if (!isSuccess(st)) handleBindingCycleError(sched, a, assumed, result, st as Status);
    },
    (err: unknown) => handleBindingCycleError(sched, a, assumed, result, asStatus(err)),
  );
  const tracked = p.finally(() => sched.inflightBindings.delete(tracked));
  sched.inflightBindings.add(tracked);
}

function skipPodSchedule(sched: SchedulerState, fwk: Framework, pod: Pod): boolean {
  if (pod.metadata?.deletionTimestamp) {
    fwk
      .eventRecorder()
      .eventf(
        pod,
        null,
        "Warning",
        "FailedScheduling",
        "Scheduling",
        `skip schedule deleting pod: ${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`,
      );
    return true;
  }
  return sched.cache.isAssumedPod(pod);
}

export interface CycleOutcome {
  result: ScheduleResult;
  assumed: QueuedPodInfo;
  status: Status | null;
}

async function schedulingCycle(sched: SchedulerState, a: Attempt): Promise<CycleOutcome> {
  const { qpi, fwk } = a;
  const cycle = sched.cycle;
  let result: ScheduleResult;
  try {
    result = await cycle.schedulePod(sched, a);
  } catch (err) {
    cycle.algorithmDone(sched, a);
    if (err === errNoNodesAvailable) {
      return {
        result: emptyResult(clearNominatedNode),
        assumed: qpi,
        status: new Status(Code.UnschedulableAndUnresolvable).withError(errNoNodesAvailable),
      };
    }
    if (!(err instanceof FitError)) {
      return { result: emptyResult(clearNominatedNode), assumed: qpi, status: asStatus(err) };
    }
    if (!fwk.hasPostFilterPlugins()) {
      return {
        result: emptyResult(clearNominatedNode),
        assumed: qpi,
        status: new Status(Code.Unschedulable).withError(err),
      };
    }
    const pf = await cycle.postFilter(sched, a, err);
    err.diagnosis.postFilterMsg = pf.status ? pf.status.message() : "";
    return {
      result: emptyResult(pf.result?.nominatingInfo ?? null),
      assumed: qpi,
      status: new Status(Code.Unschedulable).withError(err),
    };
  }
  cycle.algorithmDone(sched, a);
  return cycle.assume(sched, a, result);
}

function postFilter(_sched: SchedulerState, a: Attempt, err: FitError): Promise<PostFilterOutput> {
  return a.fwk.runPostFilterPlugins(a.state, a.pod, err.diagnosis.nodeToStatus);
}

/**
 * upstream assume with DRANodeAllocatableResources: the node allocatable resources DynamicResources
 * found for the host go onto the assumed pod's status (replacing any of an earlier attempt), so
 * that the cache accounts for them at once.
 */
function withNodeAllocatableClaimStatuses(pod: Pod, state: CycleState, host: string): Pod["status"] {
  const { nodeAllocatableResourceClaimStatuses: _earlier, ...status } = pod.status ?? {};
  const statuses = extractPodNodeAllocatableResourceClaimStatus(state, host);
  return statuses ? { ...status, nodeAllocatableResourceClaimStatuses: statuses } : status;
}

/** Assume: the cache accounts the pod on the host before binding completes; Reserve, Permit. */
function assume(sched: SchedulerState, a: Attempt, result: ScheduleResult): CycleOutcome {
  const { qpi, pod, fwk, state, podsToActivate } = a;
  const assumedPod: Pod = {
    ...pod,
    spec: { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: result.suggestedHost },
    ...(fwk.features().enableDRANodeAllocatableResources
      ? { status: withNodeAllocatableClaimStatuses(pod, state, result.suggestedHost) }
      : {}),
  };
  const assumed: QueuedPodInfo = { ...qpi, podInfo: new PodInfo(assumedPod) };
  try {
    sched.cache.assumePod(assumedPod);
  } catch (e) {
    return { result: emptyResult(clearNominatedNode), assumed, status: asStatus(e) };
  }
  sched.queue.deleteNominatedPodIfExists(assumedPod);

  const host = result.suggestedHost;
  const rs = fwk.runReservePluginsReserve(state, assumedPod, host);
  if (!isSuccess(rs)) {
    fwk.runReservePluginsUnreserve(state, assumedPod, host);
    forget(sched, assumedPod);
    return {
      result: emptyResult(clearNominatedNode),
      assumed,
      status: rejectionOnNode(pod, host, rs as Status),
    };
  }
  const ps = fwk.runPermitPlugins(state, assumedPod, host);
  if (ps && !ps.isWait() && !ps.isSuccess()) {
    fwk.runReservePluginsUnreserve(state, assumedPod, host);
    forget(sched, assumedPod);
    return { result: emptyResult(clearNominatedNode), assumed, status: rejectionOnNode(pod, host, ps) };
  }
  if (podsToActivate.map.size > 0) {
    sched.queue.activate(podsToActivate.map);
    podsToActivate.map = new Map();
  }
  return { result, assumed, status: null };
}

/** A Reserve/Permit rejection becomes a FitError over the one chosen node (upstream). */
function rejectionOnNode(pod: Pod, host: string, s: Status): Status {
  if (!s.isRejected()) return s;
  const d = new Diagnosis();
  d.nodeToStatus.set(host, s);
  d.addPluginStatus(s);
  return new Status(s.code).withError(new FitError(pod, 1, d));
}

function forget(sched: SchedulerState, pod: Pod): void {
  try {
    sched.cache.forgetPod(pod);
  } catch (err) {
    sched.logger.error("Scheduler cache ForgetPod failed", { err, pod: podKey(pod) });
  }
}

/** schedulePod: snapshot, filter, score, select. Throws FitError when no node fits. */
async function schedulePod(sched: SchedulerState, a: Attempt): Promise<ScheduleResult> {
  const cycle = sched.cycle;
  cycle.updateSnapshot(sched, a);
  const numNodes = sched.snapshot.numNodes();
  if (numNodes === 0) throw errNoNodesAvailable;

  const { feasible, diagnosis } = await findNodesThatFitPod(sched, a);
  const batch = a.batch;
  if (feasible.length === 0) throw new FitError(a.pod, numNodes, diagnosis);
  if (feasible.length === 1) {
    const host = cycle.select(sched, a, feasible, null);
    batch?.store(host, null);
    return {
      suggestedHost: host,
      evaluatedNodes: 1 + diagnosis.nodeToStatus.size,
      feasibleNodes: 1,
      nominatingInfo: null,
    };
  }
  const priorities = await cycle.score(sched, a, feasible);
  const host = cycle.select(sched, a, feasible, priorities);
  batch?.store(host, batch.signature === null ? null : otherNodes(priorities, host));
  return {
    suggestedHost: host,
    evaluatedNodes: feasible.length + diagnosis.nodeToStatus.size,
    feasibleNodes: feasible.length,
    nominatingInfo: null,
  };
}

/**
 * The feasible nodes but the chosen one, best first, for the batch (upstream stores what is left
 * of newSortedNodeScores after popping the host). Equal totals keep the feasible order, where
 * upstream orders them by a random number drawn per node; the host is selectHost's either way.
 */
function otherNodes(priorities: Priorities, host: string): SortedScoredNodes | null {
  if (priorities.list === null) return priorities.scores?.sortedOtherNodes(host) ?? null;
  const none = new Float64Array(0);
  return new SortedScoredNodes(
    [],
    priorities.list
      .filter((n) => n.name !== host)
      .map((n) => ({ name: n.name, raw: none, total: n.totalScore })),
  );
}

function updateSnapshot(sched: SchedulerState): void {
  sched.cache.updateSnapshot(sched.snapshot);
}

function preFilter(_sched: SchedulerState, a: Attempt): PreFilterOutput {
  return a.fwk.runPreFilterPlugins(a.state, a.pod);
}

function select(
  sched: SchedulerState,
  _a: Attempt,
  feasible: readonly NodeInfo[],
  priorities: Priorities | null,
): string {
  if (priorities === null) return (feasible[0] as NodeInfo).nodeName;
  return priorities.list !== null
    ? selectHost(sched.rand, priorities.list)
    : selectHostByTotals(sched.rand, feasible, priorities.totals);
}

/** An attempt's part in opportunistic batching: its signature, the hint it got, and where to store its result. */
interface BatchAttempt {
  readonly signature: string | null;
  /** Records the chosen node and the other feasible nodes, best first (null: none or unsigned). */
  store(host: string, otherNodes: SortedScoredNodes | null): void;
}

async function findNodesThatFitPod(
  sched: SchedulerState,
  a: Attempt,
): Promise<{ feasible: NodeInfo[]; diagnosis: Diagnosis }> {
  const { pod, fwk } = a;
  const cycle = sched.cycle;
  const diagnosis = new Diagnosis();
  const lister = sched.snapshot.nodeInfos();
  const allNodes = lister.list();
  const pre = cycle.preFilter(sched, a);
  diagnosis.unschedulablePlugins = pre.unschedulablePlugins;
  if (pre.status && !pre.status.isSuccess()) {
    if (!pre.status.isRejected()) throw pre.status.asError();
    diagnosis.nodeToStatus.absentNodesStatus = pre.status;
    diagnosis.preFilterMsg = pre.status.message();
    diagnosis.addPluginStatus(pre.status);
    return { feasible: [], diagnosis };
  }

  // OpportunisticBatching (KEP-5598): a hint from the previous cycle, checked like a nominated node.
  let nodeHint = "";
  if (fwk.features().enableOpportunisticBatching) {
    const signature = fwk.signPod(pod);
    const cycleCount = sched.queue.schedulingCycle();
    nodeHint = fwk.getNodeHint(pod, signature, a.state, cycleCount);
    const hint = nodeHint;
    a.batch = {
      signature,
      store: (host, others) => fwk.storeScheduleResults(signature, hint, host, others, cycleCount),
    };
  }

  // A nominated node (set by an earlier preemption) is likely the only fit: try it first; so is
  // the batch's hint.
  const nominated = pod.status?.nominatedNodeName || nodeHint;
  if (nominated) {
    const ni = lister.get(nominated);
    if (ni) {
      try {
        const passed = cycle.filter(sched, a, diagnosis, [ni]);
        if (passed.error) throw passed.error;
        const feasible = await findNodesThatPassExtenders(sched, pod, passed.feasible, diagnosis);
        if (feasible.length) return { feasible, diagnosis };
      } catch (err) {
        // upstream: log and evaluate every node.
        sched.logger.error("Evaluation failed on nominated node", { err, pod: podKey(pod), node: nominated });
      }
    }
  }

  let nodes: readonly NodeInfo[] = allNodes;
  if (pre.result?.nodeNames) {
    const narrowed: NodeInfo[] = [];
    for (const name of pre.result.nodeNames) {
      const ni = lister.get(name);
      if (ni) narrowed.push(ni);
    }
    nodes = narrowed;
    const plugins = [...pre.unschedulablePlugins].sort().join(" ");
    diagnosis.nodeToStatus.absentNodesStatus = new Status(
      Code.UnschedulableAndUnresolvable,
      `node(s) didn't satisfy plugin(s) [${plugins}]`,
    );
  }
  const passed = cycle.filter(sched, a, diagnosis, nodes);
  // Always move the start index, even on error, so every node gets its turn (upstream).
  const processed = passed.feasible.length + diagnosis.nodeToStatus.size;
  sched.nextStartNodeIndex = (sched.nextStartNodeIndex + processed) % allNodes.length;
  if (passed.error) throw passed.error;
  const feasible = passed.feasible;
  const afterExtenders = await findNodesThatPassExtenders(sched, pod, feasible, diagnosis);
  if (afterExtenders.length !== feasible.length) diagnosis.unschedulablePlugins.add(ExtenderName);
  return { feasible: afterExtenders, diagnosis };
}

function hasScoring(sched: SchedulerState, fwk: Framework): boolean {
  return fwk.hasScorePlugins() || sched.extenders.some((e) => e.isPrioritizer());
}

function hasExtenderFilters(sched: SchedulerState): boolean {
  return sched.extenders.some((e) => e.isFilter());
}

/**
 * Runs Filter plugins (with nominated pods) from nextStartNodeIndex, wrapping, until enough
 * feasible nodes are found. In node order (the runtime batches plugins over windows of nodes but
 * reports what this order gives): JavaScript has one thread, and the result is deterministic.
 */
function findNodesThatPassFilters(
  sched: SchedulerState,
  a: Attempt,
  diagnosis: Diagnosis,
  nodes: readonly NodeInfo[],
): FilterResult {
  const { fwk } = a;
  const numAll = nodes.length;
  let numToFind = numFeasibleNodesToFind(
    fwk.percentageOfNodesToScore(),
    sched.percentageOfNodesToScore,
    numAll,
  );
  if (!hasExtenderFilters(sched) && !hasScoring(sched, fwk)) numToFind = 1;
  const feasible: NodeInfo[] = [];
  if (numAll === 0) return { feasible, error: null };
  const startIndex = sched.nextStartNodeIndex;
  if (!fwk.hasFilterPlugins()) {
    for (let i = 0; i < numToFind; i++) feasible.push(nodes[(startIndex + i) % numAll]!);
    return { feasible, error: null };
  }
  return fwk.runFilterPluginsOnNodes(a.state, a.pod, nodes, startIndex, numToFind, diagnosis);
}

async function findNodesThatPassExtenders(
  sched: SchedulerState,
  pod: Pod,
  feasible: NodeInfo[],
  diagnosis: Diagnosis,
): Promise<NodeInfo[]> {
  for (const ext of sched.extenders) {
    if (feasible.length === 0) break;
    if (!ext.isInterested(pod)) continue;
    let res: Awaited<ReturnType<typeof ext.filter>>;
    try {
      res = await ext.filter(pod, feasible);
    } catch (err) {
      if (ext.isIgnorable()) continue;
      throw err;
    }
    for (const [node, msg] of res.failedAndUnresolvableNodes) {
      diagnosis.nodeToStatus.set(node, new Status(Code.UnschedulableAndUnresolvable, msg));
    }
    for (const [node, msg] of res.failedNodes) {
      if (res.failedAndUnresolvableNodes.has(node)) continue;
      diagnosis.nodeToStatus.set(node, new Status(Code.Unschedulable, msg));
    }
    feasible = res.nodes;
  }
  return feasible;
}

/** Runs PreScore, Score (+ NormalizeScore, weights) and extenders' Prioritize. */
async function prioritizeNodes(sched: SchedulerState, a: Attempt, nodes: NodeInfo[]): Promise<Priorities> {
  const { fwk, state, pod } = a;
  if (sched.extenders.length === 0 && !fwk.hasScorePlugins()) {
    return { list: nodes.map((n) => ({ name: n.nodeName, scores: [], totalScore: 1 })), totals: null };
  }
  const interested = sched.extenders.filter((e) => e.isPrioritizer() && e.isInterested(pod));
  const ps = fwk.runPreScorePlugins(state, pod, nodes);
  if (ps && !ps.isSuccess()) throw ps.asError();
  const signed = a.batch !== null && a.batch.signature !== null;
  const out = fwk.runScorePluginsOnNodes(state, pod, nodes, signed);
  if (out.status && !out.status.isSuccess()) throw out.status.asError();
  if (interested.length === 0)
    return signed ? { list: null, totals: out.totals, scores: out } : { list: null, totals: out.totals };
  const scores = out.list();

  const results = await Promise.all(
    interested.map((e) =>
      e.prioritize(pod, nodes).then(
        (r) => ({ ext: e, r }),
        (err: unknown) => {
          // Prioritization errors are ignored: other scores decide (upstream).
          if (sched.logger.v(5)) {
            sched.logger.debug(
              5,
              "Failed to run extender's priority function. No score given by this extender.",
              {
                err,
                pod: podKey(pod),
                extender: e.name(),
              },
            );
          }
          return null;
        },
      ),
    ),
  );
  const byNode = new Map(scores.map((s) => [s.name, s] as const));
  for (const res of results) {
    if (!res) continue;
    for (const [node, score] of res.r.scores) {
      const entry = byNode.get(node);
      if (!entry) continue;
      const finalScore = score * res.r.weight * (MaxNodeScore / MaxExtenderPriority);
      entry.scores.push({ name: res.ext.name(), score: finalScore });
      entry.totalScore += finalScore;
    }
  }
  return { list: scores, totals: null };
}

/**
 * The highest total score wins; ties are broken uniformly at random from the seeded stream
 * (reservoir sampling over the feasible order), as upstream's selectHost did and as PR
 * #141024 restores for all nodes.
 */
export function selectHost(rand: Random, list: readonly NodePluginScores[]): string {
  let best = -Infinity;
  let selected = "";
  let count = 0;
  for (const ns of list) {
    if (ns.totalScore > best) {
      best = ns.totalScore;
      selected = ns.name;
      count = 1;
    } else if (ns.totalScore === best) {
      count++;
      if (rand.intn(count) === 0) selected = ns.name;
    }
  }
  return selected;
}

/** selectHost over the total score of each node (`totals[n]` of `nodes[n]`). */
function selectHostByTotals(rand: Random, nodes: readonly NodeInfo[], totals: Float64Array): string {
  let best = -Infinity;
  let selected = -1;
  let count = 0;
  for (let n = 0; n < nodes.length; n++) {
    const total = totals[n] as number;
    if (total > best) {
      best = total;
      selected = n;
      count = 1;
    } else if (total === best) {
      count++;
      if (rand.intn(count) === 0) selected = n;
    }
  }
  return selected < 0 ? "" : (nodes[selected] as NodeInfo).nodeName;
}

async function bindingCycle(
  sched: SchedulerState,
  a: Attempt,
  result: ScheduleResult,
  assumed: QueuedPodInfo,
): Promise<Status | null> {
  const cycle = sched.cycle;
  const pod = assumed.podInfo.pod;
  const host = result.suggestedHost;

  // NominatedNodeNameForExpectation (beta, on): tell other components where the pod is going
  // when PreBind or Permit will make it wait.
  const preFlight = cycle.preBindPreFlight(sched, a, pod, host);
  if (preFlight && (preFlight.code === Code.Error || preFlight.isRejected())) return preFlight;
  if ((preFlight === null || preFlight.isSuccess()) && a.fwk.willWaitOnPermit(pod)) {
    try {
      await patchPod(sched, pod, null, { nominatedNodeName: host, nominatingMode: NominatingMode.Override });
    } catch (err) {
      // Not critical: the binding goes on (upstream logs and continues).
      sched.logger.error("Failed to update the nominated node name in the binding cycle", {
        err,
        pod: podKey(pod),
        nominatedNodeName: host,
      });
    }
  }

  const ws = await cycle.waitOnPermit(sched, a, pod);
  const rejected = cycle.permitted(sched, a, pod, host, ws);
  if (rejected) return rejected;

  const pb = await cycle.preBind(sched, a, pod, host);
  if (pb && !pb.isSuccess()) return pb;

  const bs = await bind(sched, a, pod, host);
  if (bs && !bs.isSuccess()) return bs;

  cycle.bound(sched, a, assumed, result);
  return null;
}

function preBindPreFlight(_sched: SchedulerState, a: Attempt, pod: Pod, host: string): Status | null {
  return a.fwk.runPreBindPreFlights(a.state, pod, host);
}

function waitOnPermit(_sched: SchedulerState, a: Attempt, pod: Pod): Promise<Status | null> {
  return a.fwk.waitOnPermit(pod);
}

function permitted(
  sched: SchedulerState,
  _a: Attempt,
  pod: Pod,
  host: string,
  ws: Status | null,
): Status | null {
  if (ws && !ws.isSuccess()) {
    if (ws.isRejected()) {
      const d = new Diagnosis();
      d.nodeToStatus.set(host, ws);
      if (ws.plugin) d.unschedulablePlugins.add(ws.plugin);
      return new Status(ws.code).withError(new FitError(pod, 1, d));
    }
    return ws;
  }
  // From here on failures are retried through backoff, never "unschedulable".
  sched.queue.done(podUID(pod));
  return null;
}

function preBind(_sched: SchedulerState, a: Attempt, pod: Pod, host: string): Promise<Status | null> {
  return a.fwk.runPreBindPlugins(a.state, pod, host);
}

/** Extenders that bind go first; then Bind plugins. */
async function bind(sched: SchedulerState, a: Attempt, pod: Pod, host: string): Promise<Status | null> {
  const cycle = sched.cycle;
  let status: Status | null = null;
  let bound = false;
  for (const ext of sched.extenders) {
    if (!ext.isBinder() || !ext.isInterested(pod)) continue;
    try {
      await ext.bind(pod, host);
    } catch (err) {
      if (ext.isIgnorable()) {
        sched.logger.info("Skipping extender in bind as it returned error and has ignorable flag set", {
          extender: ext.name(),
        });
        continue;
      }
      status = asStatus(err);
    }
    bound = true;
    break;
  }
  if (!bound) status = await cycle.bindPlugins(sched, a, pod, host);
  cycle.finishBinding(sched, a, pod);
  if (status === null || status.isSuccess()) cycle.scheduledEvent(sched, a, pod, host);
  else if (sched.logger.v(1)) sched.logger.debug(1, "Failed to bind pod", { pod: podKey(pod) });
  return status;
}

function bindPlugins(_sched: SchedulerState, a: Attempt, pod: Pod, host: string): Promise<Status | null> {
  return a.fwk.runBindPlugins(a.state, pod, host);
}

function finishBinding(sched: SchedulerState, _a: Attempt, pod: Pod): void {
  try {
    sched.cache.finishBinding(pod);
  } catch (err) {
    sched.logger.error("Scheduler cache FinishBinding failed", { err, pod: podKey(pod) });
  }
}

function scheduledEvent(_sched: SchedulerState, a: Attempt, pod: Pod, host: string): void {
  a.fwk
    .eventRecorder()
    .eventf(
      pod,
      null,
      "Normal",
      "Scheduled",
      "Binding",
      `Successfully assigned ${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""} to ${host}`,
    );
}

function bound(sched: SchedulerState, a: Attempt, assumed: QueuedPodInfo, result: ScheduleResult): void {
  const pod = assumed.podInfo.pod;
  const host = result.suggestedHost;
  a.fwk.runPostBindPlugins(a.state, pod, host);
  if (a.podsToActivate.map.size > 0) sched.queue.activate(a.podsToActivate.map);
  if (sched.logger.v(2)) {
    sched.logger.debug(2, "Successfully bound pod to node", {
      pod: podKey(pod),
      node: host,
      evaluatedNodes: result.evaluatedNodes,
      feasibleNodes: result.feasibleNodes,
    });
  }
}

function handleBindingCycleError(
  sched: SchedulerState,
  a: Attempt,
  assumed: QueuedPodInfo,
  result: ScheduleResult,
  status: Status,
): void {
  const pod = assumed.podInfo.pod;
  a.fwk.runReservePluginsUnreserve(a.state, pod, result.suggestedHost);
  let forgotten = true;
  try {
    sched.cache.forgetPod(pod);
  } catch (err) {
    sched.logger.error("scheduler cache ForgetPod failed", { err, pod: podKey(pod) });
    forgotten = false;
  }
  if (forgotten && !status.isRejected()) {
    sched.queue.moveAllToActiveOrBackoffQueue(EventAssignedPodDelete, pod, undefined);
  }
  sched.cycle.handleSchedulingFailure(sched, a, assumed, status, clearNominatedNode);
  if (forgotten && status.isRejected()) {
    const uid = podUID(pod);
    sched.queue.moveAllToActiveOrBackoffQueue(
      EventAssignedPodDelete,
      pod,
      undefined,
      (p) => podUID(p) !== uid,
    );
  }
}

function truncateMessage(message: string): string {
  if (message.length <= noteLengthLimit) return message;
  const suffix = " ...";
  return message.slice(0, noteLengthLimit - suffix.length) + suffix;
}

/** The PodScheduled condition reason of a failed attempt. */
export function failureReason(status: Status): "Unschedulable" | "SchedulerError" {
  return status.isRejected() ? "Unschedulable" : "SchedulerError";
}

/** handleSchedulingFailure: requeue, nominate, event, PodScheduled=False condition. */
export function handleSchedulingFailure(
  sched: SchedulerState,
  a: Attempt,
  qpi: QueuedPodInfo,
  status: Status,
  nominatingInfo: NominatingInfo | null,
): void {
  const pod = qpi.podInfo.pod;
  const cached = sched.cycle.requeue(sched, a, qpi, status, nominatingInfo);
  if (status.asError() !== null)
    sched.cycle.failureEvents(sched, a, pod, cached ?? pod, status, nominatingInfo);
}

function requeue(
  sched: SchedulerState,
  _a: Attempt,
  qpi: QueuedPodInfo,
  status: Status,
  nominatingInfo: NominatingInfo | null,
): Pod | undefined {
  const pod = qpi.podInfo.pod;
  const err = status.asError();
  if (failureReason(status) === "Unschedulable") {
    if (sched.logger.v(2)) {
      sched.logger.debug(2, "Unable to schedule pod; waiting", { pod: podKey(pod), err: status.message() });
    }
  } else {
    sched.logger.error("Error scheduling pod; retrying", { err: err ?? status.message(), pod: podKey(pod) });
  }
  if (err instanceof FitError) {
    qpi.unschedulablePlugins = err.diagnosis.unschedulablePlugins;
    qpi.pendingPlugins = err.diagnosis.pendingPlugins;
  }

  let calledDone = false;
  const ns = pod.metadata?.namespace ?? "";
  const name = pod.metadata?.name ?? "";
  const cached = sched.source.listers().pods.get(ns, name);
  if (!cached) {
    sched.logger.info("Pod doesn't exist in informer cache", { pod: podKey(pod) });
  } else if (cached.spec?.nodeName) {
    // A binding applied by the server whose answer was lost: the informer has the pod bound.
    sched.logger.info("Pod has been assigned to node. Abort adding it back to queue.", {
      pod: podKey(pod),
      node: cached.spec.nodeName,
    });
  } else {
    qpi.podInfo = new PodInfo(cached);
    try {
      sched.queue.addUnschedulableIfNotPresent(qpi, sched.queue.schedulingCycle());
    } catch (e) {
      sched.logger.error("Error occurred", { err: e, pod: podKey(pod) }); // upstream utilruntime.HandleError
    }
    calledDone = true;
  }
  if (!calledDone) sched.queue.done(podUID(pod));
  sched.queue.addNominatedPod(qpi.podInfo, nominatingInfo);
  return cached;
}

/** The FailedScheduling event and the PodScheduled=False condition (with the nomination). */
function failureEvents(
  sched: SchedulerState,
  a: Attempt,
  pod: Pod,
  current: Pod,
  status: Status,
  nominatingInfo: NominatingInfo | null,
): void {
  const errMsg = status.message();
  a.fwk
    .eventRecorder()
    .eventf(pod, null, "Warning", "FailedScheduling", "Scheduling", truncateMessage(errMsg));
  void patchPod(
    sched,
    current,
    {
      type: "PodScheduled",
      status: "False",
      reason: failureReason(status),
      message: errMsg,
      ...(current.metadata?.generation !== undefined
        ? { observedGeneration: current.metadata.generation }
        : {}),
    },
    nominatingInfo,
  ).catch((err: unknown) => {
    sched.logger.error("Error updating pod", { err, pod: podKey(pod) });
  });
}

function nothing(): void {}

/** scheduleOne's phase functions as they are: no observer, nothing but the work. */
export const plainCycle: CyclePhases = {
  pop,
  schedulingCycle,
  schedulePod,
  algorithmDone: nothing,
  schedulingCycleDone: nothing,
  updateSnapshot,
  preFilter,
  filter: findNodesThatPassFilters,
  score: prioritizeNodes,
  select,
  postFilter,
  assume,
  startBindingCycle,
  preBindPreFlight,
  waitOnPermit,
  permitted,
  preBind,
  bindPlugins,
  finishBinding,
  scheduledEvent,
  bound,
  handleSchedulingFailure,
  requeue,
  failureEvents,
};

type PodConditionPatch = Parameters<typeof updatePodCondition>[1];

/** Sends the status patch only when the condition or the nomination changes (upstream updatePod). */
async function patchPod(
  sched: SchedulerState,
  pod: Pod,
  condition: PodConditionPatch | null,
  nominatingInfo: NominatingInfo | null,
): Promise<void> {
  const nnnNeedsUpdate =
    nominatingInfo?.nominatingMode === NominatingMode.Override &&
    (pod.status?.nominatedNodeName ?? "") !== nominatingInfo.nominatedNodeName;
  let conditionNeedsUpdate = false;
  if (condition) {
    const copy = { ...pod.status, conditions: [...(pod.status?.conditions ?? [])] };
    conditionNeedsUpdate = updatePodCondition(copy, {
      ...condition,
      lastProbeTime: undefined,
    } as PodConditionPatch);
  }
  if (!conditionNeedsUpdate && !nnnNeedsUpdate) return;
  await sched.source.client().patchPodStatus(pod, {
    ...(conditionNeedsUpdate && condition ? { conditions: [condition] } : {}),
    ...(nnnNeedsUpdate ? { nominatedNodeName: nominatingInfo!.nominatedNodeName || null } : {}),
  });
}
