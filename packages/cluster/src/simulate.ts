// `kubesched simulate`: schedule every pending pod of a snapshot with the real loop (queue,
// cache, framework, binding, preemption, backoff) on a simulated clock, and report where each
// pod went and why. Same seed and input: same result.
import {
  formatResourceAmount,
  type Node,
  type NodeAllocatableResourceClaimStatus,
  type Pod,
  podKey,
  ResourceCPU,
  ResourceMemory,
} from "@kubesched/api";
import { featuresOf, type KubeSchedulerConfiguration } from "@kubesched/config";
import {
  Code,
  customResourcesOf,
  type Features,
  type Logger,
  ManualClock,
  type NodeInfo,
  type Registry,
  Status,
  seededRandom,
} from "@kubesched/framework";
import {
  type AttemptExplanation,
  composeObservers,
  ExplainRecorder,
  type ExplanationStore,
  httpExtenders,
  Scheduler,
  type SchedulingObserver,
} from "@kubesched/scheduler";
import { admit } from "./admission";
import {
  allocatedDeviceKeys,
  type DeviceClassResult,
  deviceClassResults,
  type NodeDeviceResult,
  nodeDeviceResults,
  type PodClaimResult,
  podClaimResults,
} from "./device-usage";
import { InMemoryCluster } from "./in-memory-cluster";
import { isClusterObject, type RefusedPod, type SourcedObject } from "./load";
import { RepeatCappedLogger } from "./repeat-capped-logger";
import { podCreated, ResourceClaimController } from "./resourceclaim-controller";
import { ExtenderRetries, simulatedExtender } from "./simulated-extenders";

/**
 * What became of a pod. `Refused`: a workload's pod that admission (LimitRanger, ResourceQuota)
 * refused, so it was never created (the API server's Forbidden; {@link RefusedPod}).
 */
export type PodOutcome = "Scheduled" | "Unschedulable" | "Error" | "Gated" | "Skipped" | "Refused";

export interface PodResult {
  namespace: string;
  name: string;
  outcome: PodOutcome;
  node: string | null;
  nominatedNode: string | null;
  attempts: number;
  message: string | null;
  /**
   * The pod's `spec.resourceClaims`, each with its ResourceClaim and the devices allocated to it
   * when the simulation ended. Absent for a pod without claims.
   */
  resourceClaims?: PodClaimResult[];
  /**
   * DRANodeAllocatableResources: the pod's `status.nodeAllocatableResourceClaimStatuses` when the
   * simulation ended (the node allocatable resources its claims' devices map to or cost). Absent
   * when there are none.
   */
  nodeAllocatableResourceClaimStatuses?: NodeAllocatableResourceClaimStatus[];
  explain?: AttemptExplanation;
}

export interface PreemptionRecord {
  preemptor: string;
  node: string;
  victims: string[];
}

export interface NodeResult {
  name: string;
  allocatable: Record<string, string>;
  requested: Record<string, string>;
  pods: number;
  /** What the node held before the simulation (the snapshot's running pods): cpu and memory requested, pod count. */
  before: { requested: Record<string, string>; pods: number };
  /**
   * Scalar resources (upstream's ScalarResources: extended resources such as nvidia.com/gpu,
   * hugepages) the node offers or its pods request, with what was requested before and after.
   * Absent when there are none.
   */
  scalarResources?: Record<string, { allocatable: string; requested: string; requestedBefore: string }>;
  /**
   * The devices the node's ResourceSlices publish, per driver and pool, and how many of them
   * claims hold after and before the simulation. Absent when no slice names the node.
   */
  devices?: NodeDeviceResult[];
}

export interface SimulationResult {
  kind: "SimulationResult";
  pods: PodResult[];
  preemptions: PreemptionRecord[];
  nodes: NodeResult[];
  /**
   * Per DeviceClass, the devices its selectors match and how many of them claims hold, after
   * and before. Absent when the cluster has no DeviceClass.
   */
  deviceClasses?: DeviceClassResult[];
  summary: {
    pods: number;
    scheduled: number;
    unschedulable: number;
    error: number;
    gated: number;
    skipped: number;
    /** Workloads' pods admission refused (outcome Refused, not among `pods`); absent when none. */
    refused?: number;
    /** Wall time of the scheduling loop; null unless timing was requested (it is not reproducible). */
    wallMs: number | null;
    podsPerSecond: number | null;
  };
}

export interface SimulateOptions {
  config: KubeSchedulerConfiguration;
  registry: Registry;
  objects: readonly SourcedObject[];
  /** Where the scheduler logs (the CLI's stderr logger; a recording logger in tests). */
  logger: Logger;
  /** Feature gates over the release's defaults (kube-scheduler's --feature-gates). */
  features?: Partial<Features>;
  /**
   * The Kubernetes release the scheduler behaves as (kube-scheduler's --emulated-version): its
   * feature-gate defaults apply under `features`, as the CLI derives them (`featuresOf`). For a
   * snapshot's recorded /version: `emulatedReleaseOf(load.serverVersion.info)`, as the CLI does
   * without --emulated-version. Load `config` at the same release (`loadConfig`'s `kubernetesVersion`).
   */
  kubernetesVersion?: string;
  seed?: number;
  explain?: boolean;
  /** With `explain`: only these pods (`namespace/name`) carry an explanation; all when absent. */
  explainPods?: readonly string[];
  /**
   * With `explain`: where the explanations go as each attempt ends (`SpillExplanationStore`: a
   * temporary file). Given, a PodResult's `explain` is a getter that reads it from the store on
   * each access: the result holds no explanation, and a caller that writes the result out pod by
   * pod holds one at a time. Absent: kept in memory and set on the PodResults.
   */
  explainStore?: ExplanationStore;
  /**
   * Watches the run as the scheduler's observer (the scheduler instruments only what it
   * implements); the result does not depend on it.
   */
  observer?: SchedulingObserver;
  /**
   * Report wall time (default false). Off, the result is byte-for-byte reproducible for a
   * seed; on, summary.wallMs and summary.podsPerSecond carry measurements.
   */
  timing?: boolean;
  /** Stop when simulated time passes this many ms without a pod being bound (default 1 h). */
  idleHorizonMs?: number;
  /**
   * The simulated API latency of a pod DELETE (preemption's victims), in ms of simulated time
   * (default {@link defaultDeleteLatencyMs}). With async preemption (SchedulerAsyncPreemption)
   * the preemptor waits at DefaultPreemption's PreEnqueue meanwhile.
   */
  deleteLatencyMs?: number;
  /**
   * The workloads' pods admission refused when the snapshot was loaded (LoadResult.refusedPods):
   * listed after the pending pods with outcome Refused and the API server's message.
   */
  refusedPods?: readonly RefusedPod[];
}

/** The default simulated latency of a pod DELETE: an API server round trip. */
export const defaultDeleteLatencyMs = 0;

/** The simulated epoch: 2026-01-01T00:00:00Z. */
export const simulationEpoch = Date.UTC(2026, 0, 1);

function scalarResources(
  ni: NodeInfo | undefined,
  before: NodeInfo | undefined,
): NodeResult["scalarResources"] | undefined {
  const names = new Set([
    ...(ni?.allocatable.scalarResources?.keys() ?? []),
    ...(ni?.requested.scalarResources?.keys() ?? []),
    ...(before?.requested.scalarResources?.keys() ?? []),
  ]);
  if (names.size === 0) return undefined;
  const out: NonNullable<NodeResult["scalarResources"]> = {};
  for (const name of [...names].sort()) {
    out[name] = {
      allocatable: formatResourceAmount(name, ni?.allocatable.scalarResources?.get(name) ?? 0),
      requested: formatResourceAmount(name, ni?.requested.scalarResources?.get(name) ?? 0),
      requestedBefore: formatResourceAmount(name, before?.requested.scalarResources?.get(name) ?? 0),
    };
  }
  return out;
}

/** A running simulation: the in-memory cluster and the scheduler wired to it. */
export interface SimulationSession {
  cluster: InMemoryCluster;
  clock: ManualClock;
  sched: Scheduler;
  explain: ExplainRecorder | undefined;
  /** The last failure of each pod (reason and FitError message), by pod key. */
  lastFailure: Map<string, { reason: string; message: string }>;
  attempts: Map<string, number>;
  profiles: Set<string>;
  /**
   * Adds a pending pod to the cluster (its queue order is its order of entry), after the
   * resourceclaim controller created the claims its templates generate.
   */
  addPending(pod: Pod): void;
  /** Runs the loop until nothing can move any more. */
  drain(): Promise<void>;
  /**
   * What the resourceclaim controller does when `pod` is created: the claims its templates
   * generate are created, the pod is returned with their names in its status (`addPending` does
   * this itself; for a pod examined without being added, as `why` does).
   */
  createClaims(pod: Pod): Pod;
  /** The message of the PreEnqueue plugin that holds a pod back (a scheduling gate, a missing claim), if one does. */
  gatedBy(pod: Pod): string | null;
  /**
   * Lets work started off the scheduling cycle (async preemption's API calls) run as far as it
   * can without simulated time passing: a macrotask runs after every pending promise job.
   */
  settle(): Promise<void>;
}

/**
 * Builds the simulation both `simulate` and `capacity` run: the objects admitted, everything
 * but pending pods applied, and the scheduler created over the in-memory cluster.
 */
export async function openSimulation(
  opts: Omit<SimulateOptions, "objects" | "timing">,
  objects: readonly SourcedObject[],
): Promise<{ session: SimulationSession; pending: Pod[] }> {
  const clock = new ManualClock(simulationEpoch);
  const cluster = new InMemoryCluster(clock, {
    customResources: customResourcesOf(opts.registry),
    deleteLatencyMs: opts.deleteLatencyMs ?? defaultDeleteLatencyMs,
  });
  const profiles = new Set(opts.config.profiles.map((p) => p.schedulerName));

  // Errors repeat with every retry of a pod: each line is written once, then how often it repeated.
  const logger = new RepeatCappedLogger(opts.logger);

  // Everything but pods first, so pods see their namespaces, classes and nodes.
  const pods: Pod[] = [];
  for (const o of objects) {
    if (o.resource) cluster.applyCustom(o.resource, o.obj);
    else if (!isClusterObject(o))
      continue; // LimitRange, ResourceQuota: admission reads them.
    else if (o.kind === "Pod") pods.push(o.obj as Pod);
    else cluster.apply(o.kind, o.obj);
  }
  const pending = pods.filter((p) => !p.spec?.nodeName);
  for (const p of pods) if (p.spec?.nodeName) cluster.apply("Pod", podCreated(cluster, logger, p));

  const lastFailure = new Map<string, { reason: string; message: string }>();
  const attempts = new Map<string, number>();
  const explain = opts.explain ? new ExplainRecorder(opts.explainPods, opts.explainStore) : undefined;
  const extenderRetries = new ExtenderRetries(clock);
  let lastProgress = clock.now();
  const sched: Scheduler = await Scheduler.create({
    config: opts.config,
    registry: opts.registry,
    source: cluster,
    logger,
    ...(opts.features ? { features: opts.features } : {}),
    ...(opts.kubernetesVersion ? { kubernetesVersion: opts.kubernetesVersion } : {}),
    clock,
    rand: seededRandom(opts.seed ?? 0),
    metrics: false,
    extenders: httpExtenders(opts.config).map((e) => simulatedExtender(e, clock, cluster.client())),
    observer: composeObservers(explain, opts.observer, {
      onScheduled(pod, _node, info) {
        attempts.set(podKey(pod), info.attempts);
        lastFailure.delete(podKey(pod));
        extenderRetries.scheduled(pod);
        lastProgress = clock.now();
      },
      onFailed(pod, status, reason, message, _ni, info) {
        attempts.set(podKey(pod), info.attempts);
        const stopped = extenderRetries.failed(pod, status.asError(), info.attempts);
        lastFailure.set(podKey(pod), { reason, message: stopped ? message + stopped : message });
        // The pod was requeued for its backoff: take it out of the queue.
        if (stopped) sched.queue.delete(pod);
      },
    }),
  });
  // After the scheduler: it sees a pod's deletion before the claims the controller releases.
  const claimController = new ResourceClaimController(cluster, logger);
  const horizon = opts.idleHorizonMs ?? 60 * 60 * 1000;
  const session: SimulationSession = {
    cluster,
    clock,
    sched,
    explain,
    lastFailure,
    attempts,
    profiles,
    addPending(p) {
      // A microsecond apart so that equal priorities keep their order (the queue sorts by
      // priority, then by time of entry).
      clock.advance(0.001);
      cluster.apply("Pod", claimController.podCreated(p));
    },
    settle: () => new Promise<void>((resolve) => setImmediate(resolve)),
    createClaims: (pod) => claimController.podCreated(pod),
    gatedBy(pod) {
      const plugin = sched.queue.getPod(pod)?.gatingPlugin;
      return plugin ? gatingMessage(sched, pod, plugin) : null;
    },
    async drain() {
      try {
        await drainUntilIdle();
      } finally {
        logger.flush();
      }
    },
  };
  // Without HTTP extenders every step of a binding cycle is in memory or on the simulated clock.
  const bindingsOnClock = httpExtenders(opts.config).length === 0;
  /**
   * Waits for the binding cycles in flight. One that waits on the simulated clock
   * (DynamicResources' PreBind polling a device's binding conditions) moves only when time
   * passes: once the bindings stop moving on their own, time passes to the next timer, within
   * the idle horizon (false: past it, the bindings still waiting). With HTTP extenders a binding
   * may wait for a response instead, and time stands still until every binding finished.
   */
  async function waitForBindings(start: number): Promise<boolean> {
    if (!bindingsOnClock) {
      await sched.waitForBindings();
      return true;
    }
    while (sched.inflightBindings() > 0) {
      // In-memory work finishes within a few turns of the event loop.
      for (let turn = 0; turn < 3 && sched.inflightBindings() > 0; turn++) await session.settle();
      if (sched.inflightBindings() === 0) break;
      const next = clock.nextTimerAt();
      if (next === null) {
        await sched.waitForBindings();
        break;
      }
      if (next - Math.max(lastProgress, start) > horizon) return false;
      clock.advanceTo(next);
    }
    return true;
  }
  async function drainUntilIdle(): Promise<void> {
    // The idle horizon counts from the last binding or from this call, whichever is later: a
    // session drained again after a cluster change gets a full horizon for it.
    const start = clock.now();
    for (;;) {
      while (await sched.scheduleOne()) {
        // keep scheduling while something is active
      }
      if (!(await waitForBindings(start))) return;
      if (sched.queue.hasActive()) continue;
      // Work started off the scheduling cycle (async preemption) goes as far as it can first.
      await session.settle();
      if (sched.queue.hasActive()) continue;
      // Idle. Unschedulable pods wait for cluster events, and none will come from outside.
      // Only pods in backoff (after errors), waiting at Permit, or waiting for API calls to
      // return (preemption's deletions) can still move: let simulated time pass to the next
      // timer (the queue's flushes, Permit timeouts, API latency). So can a pod gated at
      // PreEnqueue whose gate has opened since without an event its gating plugin registered
      // (DefaultPreemption's gate once the asynchronous preemption is over): upstream's periodic
      // flush of the unschedulable pool re-evaluates it, the executor does not activate it.
      if (
        sched.queue.counts().backoff === 0 &&
        waitingPods(sched) === 0 &&
        cluster.pendingCalls() === 0 &&
        !anyGateOpened(sched)
      )
        return;
      const next = clock.nextTimerAt();
      if (next === null || next - Math.max(lastProgress, start) > horizon) return;
      clock.advanceTo(next);
    }
  }
  return { session, pending };
}

export async function simulate(opts: SimulateOptions): Promise<SimulationResult> {
  const { session, pending } = await openSimulation(opts, admit(opts.objects));
  const { cluster, sched, explain, lastFailure, attempts, profiles } = session;

  // The nodes as the snapshot left them, for the before/after utilisation in the result.
  const nodesBefore = sched.cache.dump().nodes;
  const devicesBefore = allocatedDeviceKeys(cluster);
  const started = performance.now();
  // Pending pods enter the queue in file order.
  for (const p of pending) session.addPending(p);
  await session.drain();
  const wallMs = performance.now() - started;
  sched.close();

  // Outcomes, in file order.
  const results: PodResult[] = [];
  let scheduled = 0;
  let unschedulable = 0;
  let errors = 0;
  let gated = 0;
  let skipped = 0;
  for (const p of pending) {
    const key = podKey(p);
    const ns = p.metadata?.namespace ?? "default";
    const name = p.metadata?.name ?? "";
    const cur = cluster.pods.get(ns, name);
    const r: PodResult = {
      namespace: ns,
      name,
      outcome: "Unschedulable",
      node: null,
      nominatedNode: cur?.status?.nominatedNodeName ?? null,
      attempts: attempts.get(key) ?? 0,
      message: null,
    };
    const fail = lastFailure.get(key);
    if (!profiles.has(p.spec?.schedulerName || "default-scheduler")) {
      r.outcome = "Skipped";
      r.message = `no profile for schedulerName "${p.spec?.schedulerName ?? ""}"`;
      skipped++;
    } else if (cur?.metadata?.deletionTimestamp && !cur.spec?.nodeName) {
      // upstream skipPodSchedule: a pod being deleted is not scheduled.
      r.outcome = "Skipped";
      r.message = "the pod is being deleted (metadata.deletionTimestamp is set); it is not scheduled";
      skipped++;
    } else if (cur?.spec?.nodeName) {
      r.outcome = "Scheduled";
      r.node = cur.spec.nodeName;
      scheduled++;
    } else if (fail) {
      r.outcome = fail.reason === "SchedulerError" ? "Error" : "Unschedulable";
      r.message = fail.message;
      if (r.outcome === "Error") errors++;
      else unschedulable++;
    } else if (!cur) {
      r.outcome = "Unschedulable";
      r.message = "the pod was deleted";
      unschedulable++;
    } else {
      r.outcome = "Gated";
      r.message = session.gatedBy(cur) ?? "the pod was never attempted";
      gated++;
    }
    const claims = podClaimResults(cluster, cur ?? p);
    if (claims) r.resourceClaims = claims;
    const nodeAllocatable = cur?.status?.nodeAllocatableResourceClaimStatuses;
    if (nodeAllocatable && nodeAllocatable.length > 0)
      r.nodeAllocatableResourceClaimStatuses = nodeAllocatable;
    if (explain?.has(key) && r.outcome !== "Skipped" && r.outcome !== "Gated" && wantExplain(opts, r)) {
      if (opts.explainStore) {
        const recorder = explain;
        Object.defineProperty(r, "explain", { enumerable: true, get: () => recorder.get(key) });
      } else {
        r.explain = explain.get(key);
      }
    }
    results.push(r);
  }
  const refused = opts.refusedPods ?? [];
  for (const p of refused) {
    results.push({
      namespace: p.namespace,
      name: p.name,
      outcome: "Refused",
      node: null,
      nominatedNode: null,
      attempts: 0,
      message: p.message,
    });
  }

  const preemptions: PreemptionRecord[] = [];
  const byPreemptor = new Map<string, PreemptionRecord>();
  for (const ev of cluster.events) {
    if (ev.reason !== "Preempted" || !ev.related) continue;
    const node = /on node (\S+)/.exec(ev.note)?.[1] ?? "";
    const k = `${ev.related}@${node}`;
    let rec = byPreemptor.get(k);
    if (!rec) {
      rec = { preemptor: ev.related, node, victims: [] };
      byPreemptor.set(k, rec);
      preemptions.push(rec);
    }
    rec.victims.push(ev.regarding);
  }

  const nodeInfos = sched.cache.dump().nodes;
  const devicesAfter = allocatedDeviceKeys(cluster);
  // The release's gates under the explicit ones, as the scheduler was built with.
  const releaseFeatures = featuresOf(opts.kubernetesVersion, opts.features);
  const nodeDevices = nodeDeviceResults(cluster.resourceSlices.list(), devicesAfter, devicesBefore, {
    features: releaseFeatures,
    rules: cluster.deviceTaintRules.list(),
  });
  const nodes: NodeResult[] = cluster.nodes.list().map((n: Node) => {
    const ni = nodeInfos.get(n.metadata?.name ?? "");
    const before = nodesBefore.get(n.metadata?.name ?? "");
    const alloc = n.status?.allocatable ?? {};
    const allocatable: Record<string, string> = {};
    for (const k of ["cpu", "memory", "pods"]) if (alloc[k] !== undefined) allocatable[k] = String(alloc[k]);
    const result: NodeResult = {
      name: n.metadata?.name ?? "",
      allocatable,
      requested: {
        cpu: formatResourceAmount(ResourceCPU, ni?.requested.milliCPU ?? 0),
        memory: formatResourceAmount(ResourceMemory, ni?.requested.memory ?? 0),
      },
      pods: ni?.pods.length ?? 0,
      before: {
        requested: {
          cpu: formatResourceAmount(ResourceCPU, before?.requested.milliCPU ?? 0),
          memory: formatResourceAmount(ResourceMemory, before?.requested.memory ?? 0),
        },
        pods: before?.pods.length ?? 0,
      },
    };
    const scalar = scalarResources(ni, before);
    if (scalar) result.scalarResources = scalar;
    const devices = nodeDevices.get(result.name);
    if (devices) result.devices = devices;
    return result;
  });

  const timing = opts.timing === true;
  const classes = cluster.deviceClasses.list();
  return {
    kind: "SimulationResult",
    pods: results,
    preemptions,
    nodes,
    ...(classes.length > 0
      ? {
          deviceClasses: deviceClassResults(
            classes,
            cluster.resourceSlices.list(),
            devicesAfter,
            devicesBefore,
            releaseFeatures,
          ),
        }
      : {}),
    summary: {
      pods: pending.length,
      scheduled,
      unschedulable,
      error: errors,
      gated,
      skipped,
      ...(refused.length > 0 ? { refused: refused.length } : {}),
      wallMs: timing ? Math.round(wallMs * 100) / 100 : null,
      podsPerSecond: timing ? (wallMs > 0 ? Math.round((scheduled / wallMs) * 1000) : 0) : null,
    },
  };
}

function wantExplain(opts: SimulateOptions, r: PodResult): boolean {
  return !opts.explainPods || opts.explainPods.includes(`${r.namespace}/${r.name}`);
}

function waitingPods(sched: Scheduler): number {
  let n = 0;
  for (const fwk of sched.profiles.values()) fwk.iterateOverWaitingPods(() => n++);
  return n;
}

/** The gating plugin's PreEnqueue status for the pod now (null: it admits the pod). */
function gateStatus(sched: Scheduler, pod: Pod, plugin: string): Status | null {
  const fwk = sched.frameworkForPod(pod);
  const pl = fwk?.preEnqueuePlugins().find((p) => p.name() === plugin);
  const st = pl ? pl.preEnqueue(pod) : new Status(Code.UnschedulableAndUnresolvable, `gated by ${plugin}`);
  return st && !st.isSuccess() ? st : null;
}

function gatingMessage(sched: Scheduler, pod: Pod, plugin: string): string {
  return gateStatus(sched, pod, plugin)?.message() ?? `gated by ${plugin}`;
}

/** Whether some pod gated at PreEnqueue would pass its gating plugin now. */
function anyGateOpened(sched: Scheduler): boolean {
  if (sched.queue.counts().gated === 0) return false;
  for (const pod of sched.queue.pendingPods().pods) {
    const plugin = sched.queue.getPod(pod)?.gatingPlugin;
    if (plugin && gateStatus(sched, pod, plugin) === null) return true;
  }
  return false;
}
