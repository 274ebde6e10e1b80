// Runs ONE scheduler_perf workload in this process and writes its result as JSON.
//   node --import tsx bench/workload.ts <name> [--out FILE] [--cpu-prof DIR] [--measured N] [--scale F]
//     [--config KubeSchedulerConfiguration.yaml] [--no-metrics] [--timeout-scale F]
//     [--no-columnar PLUGIN[,PLUGIN...]|all]
// run.ts starts one fresh process per workload so RSS and GC state are per workload.
//
// The scheduler is created over an empty InMemoryCluster, then the workload's ops run in order
// as upstream's WorkloadExecutor runs them (test/integration/scheduler_perf/executor.go): nodes,
// namespaces, Services; createPods ops create their pods and wait until as many pods of their
// namespace are scheduled (unless skipWaitToCompletion); barriers wait for pods to be attempted;
// deletePods and churn ops run in the background on wall-clock tickers; the measured createPods
// op creates its pods, then the real engine schedules them in-process on the real clock while
// throughput is sampled every 1 s of wall time from bind events (a pod's spec.nodeName becoming
// set) in the measured namespace.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import type { Pod } from "@kubesched/api";
import {
  InMemoryCluster,
  type K8sObject,
  ResourceClaimController,
  type SupportedKind,
} from "@kubesched/cluster";
import { featuresAt } from "@kubesched/config";
import { defaultKubernetesVersion, type Registry, realClock, seededRandom } from "@kubesched/framework";
import { PriorityQueue } from "@kubesched/queue";
import {
  composeObservers,
  createLogger,
  PhaseRecorder,
  Scheduler,
  SchedulerMetrics,
} from "@kubesched/scheduler";
import { withoutColumnar } from "@kubesched/testing";
import { benchConfig } from "./lib/config";
import { writeCpuProfile } from "./lib/cpu-profile-file";
import { allocateClaims } from "./lib/dra-alloc";
import {
  type ExtendedResourcePodTemplate,
  isExtendedResourceClassTemplate,
  isExtendedResourcePodTemplate,
  makeExtendedResourceClass,
  makeExtendedResourcePod,
} from "./lib/dra-extendedresource";
import { makeListAttributesClaimTemplate, makeListAttributesSlice } from "./lib/dra-listattributes";
import {
  type DRAPodTemplateName,
  globMatch,
  makeDRANode,
  makeDRAPod,
  makeDriverSlice,
  makeTestClaim,
  makeTestClaimTemplate,
  makeTestDeviceClass,
} from "./lib/dra-templates";
import { phaseBreakdown } from "./lib/phases";
import { latencySummary, type WorkloadResult } from "./lib/result";
import { ThroughputSampler } from "./lib/sampler";
import {
  makeNamespace,
  makeNode,
  makePod,
  makePodWithPersistentVolume,
  makeService,
  type PodTemplateName,
} from "./lib/templates";
import { type RunObservations, verify } from "./lib/verify";
import {
  type ChurnTemplate,
  type CreatePodsOp,
  findWorkload,
  initPodCount,
  measuredOp,
  nodeCount,
  type Op,
  podsNamespace,
  scaleWorkload,
  type Workload,
  withMeasured,
} from "./lib/workloads";

/** Plugins a workload cannot do without (it is skipped, with a note, while they are missing). */
const requiredPlugins: Record<string, string[]> = {
  "PreemptionBasic/1000Nodes": ["DefaultPreemption"],
  "PreemptionAsync/5000Nodes": ["DefaultPreemption"],
};
/**
 * Give up when no pod was bound or deleted for this long (wall time). Deletions count: preemption
 * evicts victims for a while before its preemptors, requeued behind the pods not yet tried, bind.
 */
const stallMs = 30_000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string" },
    "cpu-prof": { type: "string" },
    measured: { type: "string" },
    scale: { type: "string" },
    config: { type: "string" },
    "no-metrics": { type: "boolean" },
    "timeout-scale": { type: "string" },
    "no-columnar": { type: "string" },
  },
});
const name = positionals[0] ?? "";
const found = findWorkload(name);
if (!found) {
  console.error(`unknown workload "${name}"`);
  process.exit(2);
}
const scale = values.scale === undefined ? 1 : Number(values.scale);
if (!(scale > 0 && scale <= 1)) {
  console.error(`--scale must be in (0, 1], got ${values.scale}`);
  process.exit(2);
}
const workload: Workload = scaleWorkload(
  values.measured ? withMeasured(found, Number(values.measured)) : found,
  scale,
);
const measured = measuredOp(workload);
/** The workload's time limits × this (a loaded machine needs longer to show its decisions). */
const timeoutScale = Number(values["timeout-scale"] ?? 1);
const timeoutMs = workload.timeoutMs * timeoutScale;

let peakRss = process.memoryUsage.rss();
let lastRssAt = 0;
function sampleRss(now: number): void {
  if (now - lastRssAt < 100) return;
  lastRssAt = now;
  const r = process.memoryUsage.rss();
  if (r > peakRss) peakRss = r;
}

const yieldToEventLoop = (): Promise<void> => new Promise((r) => setImmediate(r));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A wall-clock ticker polled by the scheduling loop; a late tick drops the missed ones, like
 * time.Ticker. The first tick is due one interval after `start`.
 */
class Ticker {
  private next: number;
  constructor(
    private readonly intervalMs: number,
    start: number,
  ) {
    this.next = start + intervalMs;
  }
  /** Whether a tick is due at `now` (at most one per call). */
  due(now: number): boolean {
    if (now < this.next) return false;
    this.next += this.intervalMs * Math.max(1, Math.floor((now - this.next) / this.intervalMs) + 1);
    return true;
  }
}

/**
 * `--no-columnar`: the registry with the columnar methods of the named plugins (or of `all`)
 * hidden, so they run per node: a workload run with and without measures what a plugin's columnar
 * path gains.
 */
function hideColumnar(registry: Registry, names: string | undefined): Registry {
  if (names === undefined) return registry;
  if (names === "all") return withoutColumnar(registry);
  const hidden = new Set(names.split(",").map((n) => n.trim()));
  const unknown = [...hidden].filter((n) => !registry.has(n));
  if (unknown.length > 0) {
    console.error(`--no-columnar: no plugin named ${unknown.join(", ")} in the registry`);
    process.exit(2);
  }
  const out = new Map(registry);
  for (const [n, d] of withoutColumnar(new Map([...registry].filter(([n]) => hidden.has(n))))) out.set(n, d);
  return out;
}

async function main(): Promise<WorkloadResult> {
  const bench = benchConfig(values.config, undefined, workload.profile);
  const { config, missingPlugins } = bench;
  const registry = hideColumnar(bench.registry, values["no-columnar"]);
  const base = {
    name: workload.name,
    nodes: nodeCount(workload),
    initPods: initPodCount(workload),
    measuredPods: measured.op.count,
    upstreamMeasuredPods: workload.upstreamMeasured ?? measured.op.count,
    threshold: workload.threshold,
    target: workload.target,
    rssTargetMB: workload.rssTargetMB,
    missingPlugins,
    decisionsVerified: null,
    verification: [] as string[],
    notes: [
      ...(workload.notes ? [workload.notes] : []),
      ...(values["no-columnar"] ? [`columnar methods hidden: ${values["no-columnar"]}`] : []),
    ],
  };
  const missingRequired = (requiredPlugins[workload.name] ?? []).filter((p) => missingPlugins.includes(p));
  if (missingRequired.length > 0) {
    return {
      ...base,
      status: "skipped",
      notes: [...base.notes, `skipped: ${missingRequired.join(", ")} not in the in-tree registry yet`],
      scheduled: 0,
      durationMs: 0,
      setupMs: 0,
      overall: null,
      throughput: null,
      attemptLatencyMs: null,
      attempts: 0,
      churnPods: 0,
      peakRssMB: Math.round(peakRss / 2 ** 20),
    };
  }

  const setupStart = performance.now();
  const cluster = new InMemoryCluster(realClock);
  // kube-controller-manager's resourceclaim controller as the simulator runs it: a pod's claims
  // from templates are created with it, a deleted pod's claims go with it.
  const claimController = new ResourceClaimController(
    cluster,
    createLogger({ write: (line) => process.stderr.write(line) }),
  );

  // Attempt latency: pop → bound or failed, per attempt, wall time.
  const poppedAt = new Map<string, number>();
  let measuring = false;
  const latencies: number[] = [];
  const finish = (pod: Pod): void => {
    const uid = pod.metadata?.uid ?? "";
    const t = poppedAt.get(uid);
    if (t === undefined) return;
    poppedAt.delete(uid);
    if (measuring) latencies.push(performance.now() - t);
  };
  const metrics = values["no-metrics"] ? null : new SchedulerMetrics();
  const phases = new PhaseRecorder();
  let batchHintsUsed = 0;
  // upstream's workload featureGates, over the release's defaults.
  const features = featuresAt(defaultKubernetesVersion, new Map(Object.entries(workload.featureGates ?? {})));
  const sched = await Scheduler.create({
    config,
    registry,
    source: cluster,
    logger: createLogger({ write: (line) => process.stderr.write(line) }),
    clock: realClock,
    rand: seededRandom(1),
    metrics: metrics ?? false,
    features,
    observer: composeObservers(phases, {
      onScheduled: (pod) => finish(pod),
      onFailed: (pod) => finish(pod),
      onBatchAttempt: (_profile, result) => {
        if (measuring && result === "hint_used") batchHintsUsed++;
      },
    }),
  });
  const queue = sched.queue;
  const pop = queue.pop.bind(queue);
  let gatedPodsPopped = 0;
  queue.pop = () => {
    const qpi = pop();
    if (qpi) {
      const pod = qpi.podInfo.pod;
      poppedAt.set(pod.metadata?.uid ?? "", performance.now());
      if (pod.spec?.schedulingGates?.length) gatedPodsPopped++;
    }
    return qpi;
  };

  // What the throughput collector's informer sees: bind events per namespace, and the pods
  // currently scheduled per namespace (what upstream's waits count).
  const binds = new Map<string, number>();
  const scheduled = new Map<string, number>();
  let totalBinds = 0;
  let podDeleteEvents = 0;
  const bump = (m: Map<string, number>, ns: string, by: number) => m.set(ns, (m.get(ns) ?? 0) + by);
  cluster.subscribe({
    onNodeAdd() {},
    onNodeUpdate() {},
    onNodeDelete() {},
    onPodAdd(pod) {
      if (pod.spec?.nodeName) bump(scheduled, pod.metadata?.namespace ?? "", 1);
    },
    onPodDelete(pod) {
      podDeleteEvents++;
      if (pod.spec?.nodeName) bump(scheduled, pod.metadata?.namespace ?? "", -1);
    },
    onOtherEvent() {},
    onPodUpdate(oldPod, newPod) {
      if (!oldPod.spec?.nodeName && newPod.spec?.nodeName) {
        const ns = newPod.metadata?.namespace ?? "";
        bump(binds, ns, 1);
        bump(scheduled, ns, 1);
        totalBinds++;
      }
    },
  });
  const bindsIn = (ns: string): number => binds.get(ns) ?? 0;
  const scheduledIn = (ns: string): number => scheduled.get(ns) ?? 0;

  // Background ops (deletePods, churn), ticked by the scheduling loop.
  const background: ((now: number) => void)[] = [];
  const churnCreated: Record<string, number> = {};
  const churnDeleted: Record<string, number> = {};
  let deletion: RunObservations["deletion"] = null;
  let deletionStart = 0;

  /** Schedules until `done()`; `onTick` runs after every attempt and while idle. */
  const drive = async (done: () => boolean, onTick: (now: number) => void, deadline: number) => {
    let lastYield = performance.now();
    let lastProgress = lastYield;
    let lastMoves = -1;
    for (;;) {
      const did = await sched.scheduleOne();
      const now = performance.now();
      onTick(now);
      sampleRss(now);
      for (const task of background) task(now);
      if (done()) {
        await sched.waitForBindings();
        if (done()) return "complete" as const;
      }
      if (totalBinds + podDeleteEvents !== lastMoves) {
        lastMoves = totalBinds + podDeleteEvents;
        lastProgress = now;
      }
      if (now > deadline) return "timeout" as const;
      if (now - lastProgress > stallMs) return "stalled" as const;
      if (!did) {
        // Nothing active: let bindings finish and the queue's timers (backoff flushes) fire.
        await sched.waitForBindings();
        if (!sched.queue.hasActive()) await sleep(1);
        lastYield = performance.now();
      } else if (now - lastYield > 50) {
        await yieldToEventLoop();
        lastYield = performance.now();
      }
    }
  };

  // upstream numPodsScheduledPerNamespace: namespaces created so far, with the pods a barrier waits for.
  const expected = new Map<string, number>();
  const ensureNamespace = (ns: string) => {
    if (expected.has(ns)) return;
    expected.set(ns, 0);
    if (!cluster.namespaces.get(ns)) cluster.apply("Namespace", makeNamespace(ns));
  };
  // signatureBatchSize N: runs of N pods share a signature, the next run has another (a label of
  // its own, which InterPodAffinity signs).
  const createPods = (
    template: PodTemplateName | DRAPodTemplateName | ExtendedResourcePodTemplate,
    count: number,
    ns: string,
    pvs: boolean,
    batchSize = 0,
  ) => {
    for (let i = 0; i < count; i++) {
      if (template === "pod-with-claim-template" || template === "pod-with-claim-ref") {
        cluster.apply("Pod", claimController.podCreated(makeDRAPod(template, ns, i)));
      } else if (isExtendedResourcePodTemplate(template)) {
        cluster.apply("Pod", makeExtendedResourcePod(template, ns, i));
      } else if (pvs) {
        const { pv, pvc, pod } = makePodWithPersistentVolume(template, ns, i);
        cluster.apply("PersistentVolumeClaim", pvc);
        cluster.apply("PersistentVolume", pv);
        cluster.apply("Pod", pod);
      } else {
        const labels = batchSize > 0 ? { "signature-batch": String(Math.floor(i / batchSize)) } : undefined;
        cluster.apply("Pod", makePod(template, ns, labels));
      }
    }
  };
  const hardDeadline = performance.now() + timeoutMs * 2;
  /** Runs a createPods op that does not collect metrics. */
  const initPods = async (
    op: Pick<
      CreatePodsOp,
      "template" | "count" | "skipWaitToCompletion" | "persistentVolumes" | "signatureBatchSize"
    >,
    ns: string,
  ) => {
    ensureNamespace(ns);
    createPods(op.template, op.count, ns, !!op.persistentVolumes, op.signatureBatchSize);
    if (op.skipWaitToCompletion) {
      expected.set(ns, (expected.get(ns) ?? 0) + op.count);
      return;
    }
    // upstream waitUntilPodsScheduledInNamespace: as many pods of the namespace scheduled as the op created.
    const st = await drive(
      () => scheduledIn(ns) >= op.count,
      () => {},
      hardDeadline,
    );
    if (st !== "complete") throw new Error(`pods in ${ns} did not all schedule (${st})`);
  };
  const attempted = (p: Pod): boolean => {
    if (p.spec?.nodeName) return true;
    if (p.status?.conditions?.some((c) => c.type === "PodScheduled")) return true;
    const qpi = sched.queue.getPod(p);
    return !!qpi && (qpi.attempts > 0 || qpi.gatingPlugin !== "");
  };
  const startChurn = (op: Extract<Op, { opcode: "churn" }>, ns: string) => {
    ensureNamespace(ns);
    // Upstream's first churn tick comes one interval in, while the measured pods are still being
    // created through the API server (seconds for thousands of pods); ours are created at once,
    // so the first tick is at the op's start (as the Unschedulable churn always was here).
    const ticker = new Ticker(op.intervalMilliseconds, performance.now() - op.intervalMilliseconds);
    const slots: ({ kind: SupportedKind; obj: K8sObject } | null)[][] = op.templates.map(() =>
      new Array(op.number ?? 1).fill(null),
    );
    let count = 0;
    const create = (t: ChurnTemplate) => {
      const obj =
        t.kind === "Pod"
          ? makePod(t.template, ns)
          : t.kind === "Node"
            ? makeNode(undefined, t.template)
            : makeService(ns, t.template);
      cluster.apply(t.kind, obj);
      churnCreated[t.kind] = (churnCreated[t.kind] ?? 0) + 1;
      return { kind: t.kind as SupportedKind, obj };
    };
    background.push((now) => {
      if (!ticker.due(now)) return;
      op.templates.forEach((t, i) => {
        if (op.mode === "create") {
          if (op.number === undefined || count < op.number) create(t);
          return;
        }
        const row = slots[i]!;
        const slot = count % row.length;
        const live = row[slot];
        if (live) {
          if (cluster.requestDeletion(live.kind, live.obj) !== "NotFound")
            churnDeleted[t.kind] = (churnDeleted[t.kind] ?? 0) + 1;
          row[slot] = null;
        } else row[slot] = create(t);
      });
      count++;
    });
  };

  let sampler: ThroughputSampler | null = null;
  let status: "complete" | "timeout" | "stalled" = "complete";
  let t0 = 0;
  let t1 = 0;
  let createMs = 0;
  let cpu = { user: 0, system: 0 };
  let load = 0;
  let setupMs = 0;
  let session: Session | null = null;
  let measuredInitialBinds = 0;
  /** When the first tenth of the measured pods was bound (a run without steady state). */
  let tenthAt: number | undefined;
  let tenth = 0;
  let steadyState: RunObservations["steadyState"] = null;
  const notes0: string[] = [];

  for (const [opIndex, op] of workload.ops.entries()) {
    switch (op.opcode) {
      case "createNodes": {
        const labels = op.labelNodePrepareStrategy;
        for (let i = 0; i < op.count; i++) {
          if (op.template === "node-with-dra-test-driver") {
            cluster.apply("Node", makeDRANode(i));
            continue;
          }
          const extra = labels
            ? { [labels.key]: labels.values[i % labels.values.length] as string }
            : undefined;
          cluster.apply("Node", makeNode(extra, op.template));
        }
        break;
      }
      case "createNamespaces":
        for (let i = 0; i < op.count; i++) {
          const ns = `${op.prefix}-${i}`;
          cluster.apply("Namespace", makeNamespace(ns, op.template));
          if (!expected.has(ns)) expected.set(ns, 0);
        }
        break;
      case "createAny":
        if ("make" in op) {
          // A dra/ subtopic's template: its objects for each index.
          const ns = op.namespace ?? "default";
          if (op.namespace) ensureNamespace(ns);
          for (let i = 0; i < (op.count ?? 1); i++)
            for (const o of op.make(i, ns)) cluster.apply(o.kind, o.object);
        } else if (op.template === "service") {
          ensureNamespace(op.namespace);
          cluster.apply("Service", makeService(op.namespace, op.template));
        } else if (op.template === "deviceclass") cluster.apply("DeviceClass", makeTestDeviceClass());
        else if (op.template === "resourceslice-list-attributes-devices") {
          for (let i = 0; i < (op.count ?? 1); i++)
            cluster.apply("ResourceSlice", makeListAttributesSlice(i));
        } else if (op.template === "resourceclaimtemplate-list-attributes") {
          const ns = op.namespace ?? "default";
          ensureNamespace(ns);
          cluster.apply("ResourceClaimTemplate", makeListAttributesClaimTemplate(ns));
        } else if (isExtendedResourceClassTemplate(op.template)) {
          for (let i = 0; i < (op.count ?? 1); i++)
            cluster.apply("DeviceClass", makeExtendedResourceClass(op.template, i));
        } else {
          const ns = op.namespace ?? "default";
          ensureNamespace(ns);
          if (op.template === "resourceclaimtemplate")
            cluster.apply("ResourceClaimTemplate", makeTestClaimTemplate(ns));
          else for (let i = 0; i < (op.count ?? 1); i++) cluster.apply("ResourceClaim", makeTestClaim(ns, i));
        }
        break;
      case "createResourceDriver":
        for (const node of cluster.nodes.list()) {
          const nodeName = node.metadata?.name ?? "";
          if (globMatch(op.nodes, nodeName))
            cluster.apply("ResourceSlice", makeDriverSlice(op.driverName, nodeName, op.maxClaimsPerNode));
        }
        break;
      case "allocResourceClaims":
        allocateClaims(cluster, op.namespace);
        break;
      case "createPodSets":
        for (let i = 0; i < op.count; i++) await initPods(op.createPodsOp, `${op.namespacePrefix}-${i}`);
        break;
      case "barrier": {
        const namespaces = [...expected.keys()];
        const done =
          op.stageRequirement === "Attempted"
            ? () =>
                namespaces.every(
                  (ns) => cluster.pods.list(ns).filter(attempted).length >= (expected.get(ns) ?? 0),
                )
            : () => namespaces.every((ns) => scheduledIn(ns) >= (expected.get(ns) ?? 0));
        const st = await drive(done, () => {}, hardDeadline);
        if (st !== "complete") throw new Error(`barrier (${op.stageRequirement}) not reached (${st})`);
        if (op.stageRequirement === "Scheduled") expected.clear();
        break;
      }
      case "deletePods": {
        const victims = [...cluster.pods.list(op.namespace)];
        const ticker = new Ticker(1000 / op.deletePodsPerSecond, performance.now());
        let i = 0;
        deletionStart = performance.now();
        deletion = { namespace: op.namespace, requested: 0, elapsedMs: 0, perSecond: op.deletePodsPerSecond };
        const d = deletion;
        const task = (now: number) => {
          if (i >= victims.length || !ticker.due(now)) return;
          cluster.requestDeletion("Pod", victims[i++]!);
          d.requested++;
        };
        if (op.skipWaitToCompletion) background.push(task);
        else {
          const st = await drive(() => i >= victims.length, task, hardDeadline);
          if (st !== "complete") throw new Error(`deletePods in ${op.namespace} did not finish (${st})`);
        }
        break;
      }
      case "churn":
        startChurn(op, `namespace-${opIndex}`);
        break;
      case "createPods": {
        const ns = podsNamespace(op, opIndex);
        if (!op.collectMetrics) {
          await initPods(op, ns);
          break;
        }
        // The measured op.
        setupMs = performance.now() - setupStart;
        const gc = (globalThis as { gc?: () => void }).gc;
        if (gc) gc();
        if (values["cpu-prof"]) {
          session = new Session();
          session.connect();
          await session.post("Profiler.enable");
          await session.post("Profiler.setSamplingInterval", { interval: 200 });
          await session.post("Profiler.start");
        }
        ensureNamespace(ns);
        const createStart = performance.now();
        createPods(op.template, op.count, ns, !!op.persistentVolumes, op.signatureBatchSize);
        createMs = performance.now() - createStart;
        const initialBinds = bindsIn(ns);
        measuredInitialBinds = initialBinds;
        const target = initialBinds + op.count;
        measuring = true;
        phases.reset();
        t0 = performance.now();
        const cpu0 = process.cpuUsage();
        const load0 = loadavg()[0] ?? 0;
        const s = new ThroughputSampler(t0, 0);
        sampler = s;
        if (op.steadyStateMs !== undefined) {
          // upstream createPodsSteadily: each time the whole batch is scheduled, the namespace's
          // pods are deleted (their generated claims go with them) and a new batch is created,
          // until the duration is over.
          const st = { created: op.count, bound: 0, batches: 1, batchSize: op.count, initialBinds };
          steadyState = st;
          const end = t0 + op.steadyStateMs;
          status = await drive(
            () => performance.now() >= end,
            (now) => {
              st.bound = bindsIn(ns) - initialBinds;
              s.poll(now, st.bound);
              if (st.bound < st.batches * op.count || now >= end) return;
              for (const p of [...cluster.pods.list(ns)]) cluster.requestDeletion("Pod", p);
              createPods(op.template, op.count, ns, false);
              st.created += op.count;
              st.batches++;
            },
            t0 + Math.max(timeoutMs, op.steadyStateMs + stallMs),
          );
          st.bound = bindsIn(ns) - initialBinds;
          if (st.bound === 0) status = "stalled";
        } else {
          tenth = Math.ceil(op.count / 10);
          status = await drive(
            () => bindsIn(ns) >= target,
            (now) => {
              const bound = bindsIn(ns) - initialBinds;
              s.poll(now, bound);
              if (tenthAt === undefined && bound >= tenth) tenthAt = now;
            },
            t0 + timeoutMs,
          );
        }
        t1 = performance.now();
        cpu = process.cpuUsage(cpu0);
        load = Math.max(load0, loadavg()[0] ?? 0);
        measuring = false;
        if (steadyState) {
          // Not measured: the last batch is scheduled too, so that its claims' allocations are
          // verified with the rest (upstream stops with it pending).
          const st: NonNullable<RunObservations["steadyState"]> = steadyState;
          const last = await drive(
            () => bindsIn(ns) - initialBinds >= st.created,
            () => {},
            performance.now() + stallMs,
          );
          if (last !== "complete") notes0.push(`the last steady-state batch did not finish (${last})`);
        }
        break;
      }
    }
  }
  if (deletion) (deletion as { elapsedMs: number }).elapsedMs = t1 - deletionStart;

  // What verification needs from the scheduler, taken before it stops.
  const rules = new Set(workload.verify.map((r) => r.kind));
  let cachePodsPerNode: Map<string, number> | null = null;
  if (rules.has("deletingPodsHeld")) {
    cachePodsPerNode = new Map();
    for (const [node, ni] of sched.cache.dump().nodes) cachePodsPerNode.set(node, ni.pods.length);
  }
  const q: unknown = sched.queue;
  const inFlightEvents =
    rules.has("noInFlightEvents") && q instanceof PriorityQueue
      ? q.activeQ.listInFlightEvents().length
      : null;
  sched.close();

  if (session && values["cpu-prof"]) {
    const { profile } = await session.post("Profiler.stop");
    writeCpuProfile(values["cpu-prof"], workload.name, profile);
    session.disconnect();
  }
  sampleRss(Number.POSITIVE_INFINITY);

  const boundMeasured = bindsIn(measured.namespace) - measuredInitialBinds;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const listers = cluster.listers();
  const verification = verify({
    workload,
    nodes: listers.nodes.list(),
    pods: listers.pods.list(),
    namespaces: listers.namespaces.list(),
    persistentVolumes: listers.persistentVolumes.list(),
    persistentVolumeClaims: listers.persistentVolumeClaims.list(),
    metricsText: metrics ? await metrics.text() : null,
    dra: {
      resourceClaims: cluster.resourceClaims.list(),
      resourceSlices: cluster.resourceSlices.list(),
      deviceClasses: cluster.deviceClasses.list(),
      // The rules count only with the gate on, as the plugin applies them.
      deviceTaintRules: features.enableDRADeviceTaintRules ? cluster.deviceTaintRules.list() : [],
    },
    observed: {
      bindsByNamespace: binds,
      churnCreated,
      churnDeleted,
      gatedPodsPopped,
      deletion,
      podDeleteEvents,
      preemptionVictims: cluster.events.filter((e) => e.reason === "Preempted").length,
      batchHintsUsed,
      deletingPodsSkipped: cluster.events.filter((e) => e.note.startsWith("skip schedule deleting pod"))
        .length,
      cachePodsPerNode,
      inFlightEvents,
      steadyState,
    },
  });
  const notes = [...base.notes, ...notes0];
  if (steadyState) {
    const st: NonNullable<RunObservations["steadyState"]> = steadyState;
    notes.push(`steady state: ${st.bound} pods bound in ${st.batches} batches of ${st.batchSize}`);
  }
  if (status !== "complete") {
    notes.push(
      `${status} after ${Math.round((t1 - t0) / 1000)} s: ${boundMeasured}/${measured.op.count} measured pods bound`,
    );
  }
  const summary = sampler?.summary() ?? null;
  // Too short for a sample after upstream's skipped first tick: how much of it was start-up.
  const startup =
    summary === null && status === "complete" && tenthAt !== undefined && t1 > tenthAt
      ? {
          firstTenthPods: tenth,
          firstTenthMs: tenthAt - t0,
          laterRate: (boundMeasured - tenth) / ((t1 - tenthAt) / 1000),
        }
      : undefined;
  if (startup) {
    notes.push(
      `no 1-s sample after the skipped first tick; the first ${startup.firstTenthPods} pods took ${Math.round(startup.firstTenthMs)} ms (start-up), the other ${boundMeasured - startup.firstTenthPods} ran at ${Math.round(startup.laterRate)} pods/s`,
    );
  }
  return {
    ...base,
    status,
    notes,
    scheduled: boundMeasured,
    durationMs: t1 - t0,
    setupMs,
    createMs,
    overall: boundMeasured / ((t1 - t0) / 1000),
    cpuMs,
    perCpuSecond: boundMeasured / (cpuMs / 1000),
    loadAvg: load,
    throughput: summary,
    ...(startup ? { startup } : {}),
    timeline: sampler?.timeline ?? [],
    attemptLatencyMs: latencySummary(latencies),
    attempts: latencies.length,
    churnPods: churnCreated.Pod ?? 0,
    peakRssMB: Math.round(peakRss / 2 ** 20),
    decisionsVerified: verification.ok,
    verification: verification.checks,
    phases: phaseBreakdown(phases, t1 - t0, latencies.length),
  };
}

const result = await main();
const json = JSON.stringify(result, null, 2);
if (values.out) writeFileSync(values.out, json);
else console.log(json);
// Timers (queue flushes) may still be armed: leave now.
process.exit(0);
