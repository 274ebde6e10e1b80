// upstream: pkg/scheduler/schedule_one.go — one scheduling attempt: the scheduling cycle
// (synchronous here, but for extenders and PostFilter) and the binding cycle (asynchronous).
import { type Pod, podKey, podUID, updatePodCondition } from "@kubesched/api";
import {
  Code,
  CycleState,
  Diagnosis,
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
  podsToActivateKey,
  type QueuedPodInfo,
  type Random,
  Status,
} from "@kubesched/framework";
import { EventAssignedPodDelete } from "@kubesched/queue";
import { ExtenderName, type Framework } from "@kubesched/runtime";
import { Phase } from "./phases";
import type { SchedulerState } from "./scheduler-state";

const pluginMetricsSamplePercent = 10;
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

/** The status the Filter duration is labelled with when a filter errored. */
const filterError = new Status(Code.Error);

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

function now(): number {
  return performance.now();
}

/** ScheduleOne: pops a pod and runs its scheduling cycle. False when nothing was active. */
export async function scheduleOne(sched: SchedulerState): Promise<boolean> {
  const ph = sched.phases;
  const t0 = ph ? now() : 0;
  const qpi = sched.queue.pop();
  if (!qpi) {
    if (ph) ph.lap(Phase.Pop, t0);
    return false;
  }
  const pod = qpi.podInfo.pod;
  const fwk = sched.frameworkForPod(pod);
  if (!fwk) {
    sched.queue.done(podUID(pod));
    if (ph) ph.lap(Phase.Pop, t0);
    return true;
  }
  if (skipPodSchedule(sched, fwk, pod)) {
    sched.queue.done(podUID(pod));
    if (ph) ph.lap(Phase.Pop, t0);
    return true;
  }
  if (sched.logger.v(3)) sched.logger.debug(3, "Attempting to schedule pod", { pod: podKey(pod) });
  const start = now();
  const state = new CycleState();
  sched.cycleCounter++;
  state.recordPluginMetrics = sched.cycleCounter % (100 / pluginMetricsSamplePercent) === 0;
  const podsToActivate = new PodsToActivate();
  state.write(podsToActivateKey, podsToActivate);
  if (ph) ph.lap(Phase.Pop, t0);

  sched.explain?.begin();
  const { result, assumed, status } = await schedulingCycle(sched, state, fwk, qpi, start, podsToActivate);
  if (!isSuccess(status)) {
    sched.explain?.end(podKey(pod));
    handleSchedulingFailure(sched, fwk, assumed, status as Status, result.nominatingInfo, start);
    return true;
  }
  sched.explain?.end(podKey(pod));
  const p: Promise<void> = bindingCycle(sched, state, fwk, result, assumed, start, podsToActivate).then(
    (st) => {
      if (!isSuccess(st)) handleBindingCycleError(sched, state, fwk, assumed, start, result, st as Status);
    },
    (err: unknown) => handleBindingCycleError(sched, state, fwk, assumed, start, result, asErrorStatus(err)),
  );
  const tracked = p.finally(() => sched.inflightBindings.delete(tracked));
  sched.inflightBindings.add(tracked);
  // The gauge is set when its value changes (a labelled prom-client set hashes its labels).
  if (sched.metrics && sched.inflightBindings.size !== reportedBindings.get(sched)) {
    const t = ph ? now() : 0;
    reportedBindings.set(sched, sched.inflightBindings.size);
    sched.metrics.goroutines.set({ operation: "binding" }, sched.inflightBindings.size);
    if (ph) ph.lap(Phase.Metrics, t);
  }
  return true;
}

/** The binding-goroutines gauge's value as last set, per scheduler. */
const reportedBindings = new WeakMap<SchedulerState, number>();

function asErrorStatus(err: unknown): Status {
  return new Status(Code.Error).withError(err instanceof Error ? err : new Error(String(err)));
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

interface CycleOutcome {
  result: ScheduleResult;
  assumed: QueuedPodInfo;
  status: Status | null;
}

async function schedulingCycle(
  sched: SchedulerState,
  state: CycleState,
  fwk: Framework,
  qpi: QueuedPodInfo,
  start: number,
  podsToActivate: PodsToActivate,
): Promise<CycleOutcome> {
  const pod = qpi.podInfo.pod;
  const ph = sched.phases;
  let result: ScheduleResult;
  try {
    result = await schedulePod(sched, fwk, state, pod);
  } catch (err) {
    observeAlgorithmDuration(sched, start);
    if (err === errNoNodesAvailable) {
      return {
        result: emptyResult(clearNominatedNode),
        assumed: qpi,
        status: new Status(Code.UnschedulableAndUnresolvable).withError(errNoNodesAvailable),
      };
    }
    if (!(err instanceof FitError)) {
      return { result: emptyResult(clearNominatedNode), assumed: qpi, status: asErrorStatus(err) };
    }
    if (!fwk.hasPostFilterPlugins()) {
      return {
        result: emptyResult(clearNominatedNode),
        assumed: qpi,
        status: new Status(Code.Unschedulable).withError(err),
      };
    }
    let t = ph ? now() : 0;
    const pending = fwk.runPostFilterPlugins(state, pod, err.diagnosis.nodeToStatus);
    if (ph) ph.lap(Phase.PostFilter, t);
    const pf = await pending;
    if (ph) t = now();
    err.diagnosis.postFilterMsg = pf.status ? pf.status.message() : "";
    if (ph) ph.lap(Phase.PostFilter, t);
    return {
      result: emptyResult(pf.result?.nominatingInfo ?? null),
      assumed: qpi,
      status: new Status(Code.Unschedulable).withError(err),
    };
  }
  observeAlgorithmDuration(sched, start);

  // Assume: the cache accounts the pod on the host before binding completes.
  const t = ph ? now() : 0;
  const assumedPod: Pod = {
    ...pod,
    spec: { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: result.suggestedHost },
  };
  const assumed: QueuedPodInfo = { ...qpi, podInfo: new PodInfo(assumedPod) };
  try {
    sched.cache.assumePod(assumedPod);
  } catch (e) {
    if (ph) ph.lap(Phase.Assume, t);
    return { result: emptyResult(clearNominatedNode), assumed, status: asErrorStatus(e) };
  }
  sched.queue.deleteNominatedPodIfExists(assumedPod);

  const host = result.suggestedHost;
  const rs = fwk.runReservePluginsReserve(state, assumedPod, host);
  if (!isSuccess(rs)) {
    fwk.runReservePluginsUnreserve(state, assumedPod, host);
    forget(sched, assumedPod);
    if (ph) ph.lap(Phase.Assume, t);
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
    if (ph) ph.lap(Phase.Assume, t);
    return { result: emptyResult(clearNominatedNode), assumed, status: rejectionOnNode(pod, host, ps) };
  }
  if (podsToActivate.map.size > 0) {
    sched.queue.activate(podsToActivate.map);
    podsToActivate.map = new Map();
  }
  if (ph) ph.lap(Phase.Assume, t);
  return { result, assumed, status: null };
}

function observeAlgorithmDuration(sched: SchedulerState, start: number): void {
  const m = sched.metrics;
  if (!m) return;
  const ph = sched.phases;
  const t = ph ? now() : 0;
  m.schedulingAlgorithmDuration.observe((now() - start) / 1000);
  if (ph) ph.lap(Phase.Metrics, t);
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
async function schedulePod(
  sched: SchedulerState,
  fwk: Framework,
  state: CycleState,
  pod: Pod,
): Promise<ScheduleResult> {
  const ph = sched.phases;
  let t = ph ? now() : 0;
  try {
    sched.cache.updateSnapshot(sched.snapshot);
  } finally {
    if (ph) ph.lap(Phase.Snapshot, t);
  }
  const numNodes = sched.snapshot.numNodes();
  if (numNodes === 0) throw errNoNodesAvailable;

  const { feasible, diagnosis } = await findNodesThatFitPod(sched, fwk, state, pod);
  if (feasible.length === 0) throw new FitError(pod, numNodes, diagnosis);
  if (feasible.length === 1) {
    const host = feasible[0]!.nodeName;
    sched.explain?.selected(host);
    return {
      suggestedHost: host,
      evaluatedNodes: 1 + diagnosis.nodeToStatus.size,
      feasibleNodes: 1,
      nominatingInfo: null,
    };
  }
  const priorities = await prioritizeNodes(sched, fwk, state, pod, feasible);
  if (ph) t = now();
  let host: string;
  if (priorities.list !== null) {
    sched.explain?.finalScores(priorities.list);
    host = selectHost(sched.rand, priorities.list);
  } else {
    host = selectHostByTotals(sched.rand, feasible, priorities.totals);
  }
  sched.explain?.selected(host);
  if (ph) ph.lap(Phase.Select, t);
  return {
    suggestedHost: host,
    evaluatedNodes: feasible.length + diagnosis.nodeToStatus.size,
    feasibleNodes: feasible.length,
    nominatingInfo: null,
  };
}

async function findNodesThatFitPod(
  sched: SchedulerState,
  fwk: Framework,
  state: CycleState,
  pod: Pod,
): Promise<{ feasible: NodeInfo[]; diagnosis: Diagnosis }> {
  const ph = sched.phases;
  let t = ph ? now() : 0;
  const diagnosis = new Diagnosis();
  const lister = sched.snapshot.nodeInfos();
  const allNodes = lister.list();
  const pre = fwk.runPreFilterPlugins(state, pod);
  if (ph) t = ph.lap(Phase.PreFilter, t);
  diagnosis.unschedulablePlugins = pre.unschedulablePlugins;
  if (pre.status && !pre.status.isSuccess()) {
    if (!pre.status.isRejected()) throw pre.status.asError();
    diagnosis.nodeToStatus.absentNodesStatus = pre.status;
    diagnosis.preFilterMsg = pre.status.message();
    diagnosis.addPluginStatus(pre.status);
    return { feasible: [], diagnosis };
  }

  // A nominated node (set by an earlier preemption) is likely the only fit: try it first.
  const nominated = pod.status?.nominatedNodeName;
  if (nominated) {
    const ni = lister.get(nominated);
    if (ni) {
      try {
        const passed = findNodesThatPassFilters(sched, fwk, state, pod, diagnosis, [ni]);
        if (ph) t = ph.lap(Phase.Filter, t);
        if (passed.error) throw passed.error;
        const feasible = await findNodesThatPassExtenders(sched, pod, passed.feasible, diagnosis);
        if (ph) t = now();
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
  const passed = findNodesThatPassFilters(sched, fwk, state, pod, diagnosis, nodes);
  // Always move the start index, even on error, so every node gets its turn (upstream).
  const processed = passed.feasible.length + diagnosis.nodeToStatus.size;
  sched.nextStartNodeIndex = (sched.nextStartNodeIndex + processed) % allNodes.length;
  if (ph) ph.lap(Phase.Filter, t);
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
  fwk: Framework,
  state: CycleState,
  pod: Pod,
  diagnosis: Diagnosis,
  nodes: readonly NodeInfo[],
): { feasible: NodeInfo[]; error: Error | null } {
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
  const began = now();
  const { feasible: passed, error } = fwk.runFilterPluginsOnNodes(
    state,
    pod,
    nodes,
    startIndex,
    numToFind,
    diagnosis,
  );
  const m = sched.metrics;
  if (m) {
    const t = now();
    m.observeExtensionPoint(fwk.profileName(), "Filter", error ? filterError : null, (t - began) / 1000);
    sched.phases?.nested(Phase.Metrics, now() - t);
  }
  return { feasible: passed, error };
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
/**
 * The scores a host is selected from: upstream's per-node list, or (without extenders to add
 * theirs, and without explain) just the total of each feasible node, in their order.
 */
type Priorities = { list: NodePluginScores[]; totals: null } | { list: null; totals: Float64Array };

async function prioritizeNodes(
  sched: SchedulerState,
  fwk: Framework,
  state: CycleState,
  pod: Pod,
  nodes: NodeInfo[],
): Promise<Priorities> {
  const ph = sched.phases;
  const t = ph ? now() : 0;
  if (sched.extenders.length === 0 && !fwk.hasScorePlugins()) {
    return { list: nodes.map((n) => ({ name: n.nodeName, scores: [], totalScore: 1 })), totals: null };
  }
  const interested = sched.extenders.filter((e) => e.isPrioritizer() && e.isInterested(pod));
  let scores: NodePluginScores[];
  try {
    const ps = fwk.runPreScorePlugins(state, pod, nodes);
    if (ps && !ps.isSuccess()) throw ps.asError();
    const out = fwk.runScorePluginsOnNodes(state, pod, nodes);
    if (out.status && !out.status.isSuccess()) throw out.status.asError();
    if (interested.length === 0 && sched.explain === null) return { list: null, totals: out.totals };
    scores = out.list();
  } finally {
    if (ph) ph.lap(Phase.Score, t);
  }

  if (interested.length > 0) {
    const results = await Promise.all(
      interested.map((e) =>
        e.prioritize(pod, nodes).then(
          (r) => ({ ext: e, r }),
          () => null, // prioritization errors are ignored (upstream)
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
  state: CycleState,
  fwk: Framework,
  result: ScheduleResult,
  assumed: QueuedPodInfo,
  start: number,
  podsToActivate: PodsToActivate,
): Promise<Status | null> {
  const pod = assumed.podInfo.pod;
  const host = result.suggestedHost;
  const ph = sched.phases;
  let t = ph ? now() : 0;

  // NominatedNodeNameForExpectation (beta, on): tell other components where the pod is going
  // when PreBind or Permit will make it wait.
  const preFlight = fwk.runPreBindPreFlights(state, pod, host);
  if (preFlight && (preFlight.code === Code.Error || preFlight.isRejected())) {
    if (ph) ph.lap(Phase.Bind, t);
    return preFlight;
  }
  if ((preFlight === null || preFlight.isSuccess()) && fwk.willWaitOnPermit(pod)) {
    if (ph) ph.lap(Phase.Bind, t);
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
    if (ph) t = now();
  }

  let pending: Promise<Status | null> = fwk.waitOnPermit(pod);
  if (ph) ph.lap(Phase.Bind, t);
  const ws = await pending;
  if (ph) t = now();
  if (ws && !ws.isSuccess()) {
    if (ph) ph.lap(Phase.Bind, t);
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

  pending = fwk.runPreBindPlugins(state, pod, host);
  if (ph) ph.lap(Phase.Bind, t);
  const pb = await pending;
  if (pb && !pb.isSuccess()) return pb;

  const bs = await bind(sched, fwk, state, pod, host);
  if (bs && !bs.isSuccess()) return bs;

  if (ph) t = now();
  const m = sched.metrics;
  if (m) {
    const profile = fwk.profileName();
    m.scheduleAttempts.inc({ result: "scheduled", profile });
    m.observeAttempt("scheduled", profile, (now() - start) / 1000);
    m.podSchedulingAttempts.observe(assumed.attempts);
    if (assumed.initialAttemptTimestamp !== null) {
      const attempts = assumed.attempts >= 15 ? "15+" : String(assumed.attempts);
      m.podSchedulingSLIDuration.observe(
        { attempts },
        (sched.clock.now() - assumed.initialAttemptTimestamp) / 1000,
      );
    }
    if (ph) t = ph.lap(Phase.Metrics, t);
  }
  fwk.runPostBindPlugins(state, pod, host);
  if (podsToActivate.map.size > 0) sched.queue.activate(podsToActivate.map);
  if (sched.logger.v(2)) {
    sched.logger.debug(2, "Successfully bound pod to node", {
      pod: podKey(pod),
      node: host,
      evaluatedNodes: result.evaluatedNodes,
      feasibleNodes: result.feasibleNodes,
    });
  }
  if (ph) ph.lap(Phase.Bind, t);
  sched.observer.onScheduled?.(pod, host, assumed);
  return null;
}

/** Extenders that bind go first; then Bind plugins. */
async function bind(
  sched: SchedulerState,
  fwk: Framework,
  state: CycleState,
  pod: Pod,
  host: string,
): Promise<Status | null> {
  const ph = sched.phases;
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
      status = asErrorStatus(err);
    }
    bound = true;
    break;
  }
  if (!bound) {
    const t = ph ? now() : 0;
    const pending = fwk.runBindPlugins(state, pod, host);
    if (ph) ph.lap(Phase.Bind, t);
    status = await pending;
  }
  let t = ph ? now() : 0;
  try {
    sched.cache.finishBinding(pod);
  } catch (err) {
    sched.logger.error("Scheduler cache FinishBinding failed", { err, pod: podKey(pod) });
  }
  if (ph) t = ph.lap(Phase.Bind, t);
  if (status === null || status.isSuccess()) {
    fwk
      .eventRecorder()
      .eventf(
        pod,
        null,
        "Normal",
        "Scheduled",
        "Binding",
        `Successfully assigned ${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""} to ${host}`,
      );
    if (ph) ph.lap(Phase.Events, t);
  }
  return status;
}

function handleBindingCycleError(
  sched: SchedulerState,
  state: CycleState,
  fwk: Framework,
  assumed: QueuedPodInfo,
  start: number,
  result: ScheduleResult,
  status: Status,
): void {
  const pod = assumed.podInfo.pod;
  fwk.runReservePluginsUnreserve(state, pod, result.suggestedHost);
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
  handleSchedulingFailure(sched, fwk, assumed, status, clearNominatedNode, start);
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

/** handleSchedulingFailure: requeue, nominate, event, PodScheduled=False condition. */
export function handleSchedulingFailure(
  sched: SchedulerState,
  fwk: Framework,
  qpi: QueuedPodInfo,
  status: Status,
  nominatingInfo: NominatingInfo | null,
  start: number,
): void {
  const pod = qpi.podInfo.pod;
  const ph = sched.phases;
  let t = ph ? now() : 0;
  const reason = status.isRejected() ? "Unschedulable" : "SchedulerError";
  const profile = fwk.profileName();
  const m = sched.metrics;
  if (m) {
    const result = reason === "Unschedulable" ? "unschedulable" : "error";
    m.scheduleAttempts.inc({ result, profile });
    m.observeAttempt(result, profile, (now() - start) / 1000);
    if (ph) t = ph.lap(Phase.Metrics, t);
  }
  const err = status.asError();
  const errMsg = status.message();
  if (reason === "Unschedulable") {
    if (sched.logger.v(2))
      sched.logger.debug(2, "Unable to schedule pod; waiting", { pod: podKey(pod), err: errMsg });
  } else {
    sched.logger.error("Error scheduling pod; retrying", { err: err ?? errMsg, pod: podKey(pod) });
  }
  if (err instanceof FitError) {
    qpi.unschedulablePlugins = err.diagnosis.unschedulablePlugins;
    qpi.pendingPlugins = err.diagnosis.pendingPlugins;
  }

  let calledDone = false;
  const ns = pod.metadata?.namespace ?? "";
  const name = pod.metadata?.name ?? "";
  const cached = sched.source.listers().pods.get(ns, name);
  if (cached && !cached.spec?.nodeName) {
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
  if (ph) t = ph.lap(Phase.Requeue, t);

  if (err !== null) {
    fwk
      .eventRecorder()
      .eventf(pod, null, "Warning", "FailedScheduling", "Scheduling", truncateMessage(errMsg));
    const current = cached ?? pod;
    void patchPod(
      sched,
      current,
      {
        type: "PodScheduled",
        status: "False",
        reason,
        message: errMsg,
        ...(current.metadata?.generation !== undefined
          ? { observedGeneration: current.metadata.generation }
          : {}),
      },
      nominatingInfo,
    ).catch((err: unknown) => {
      sched.logger.error("Error updating pod", { err, pod: podKey(pod) });
    });
    if (ph) ph.lap(Phase.Events, t);
  }
  sched.observer.onFailed?.(pod, status, reason, errMsg, nominatingInfo, qpi);
}

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
