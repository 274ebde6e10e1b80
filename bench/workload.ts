// Runs ONE scheduler_perf workload in this process and writes its result as JSON.
//   node --import tsx bench/workload.ts <name> [--out FILE] [--cpu-prof DIR] [--measured N] [--scale F]
//     [--config KubeSchedulerConfiguration.yaml] [--no-metrics]
// run.ts starts one fresh process per workload so RSS and GC state are per workload.
//
// Phases, as scheduler_perf: nodes (+ namespaces, Service) are created; each init createPods op
// creates its pods and waits until they are all bound; then (churn started first, if any) the
// measured pods are created and the real engine schedules them in-process against the
// InMemoryCluster on the real clock. Throughput is sampled every 1 s of wall time from bind
// events (a pod's spec.nodeName becoming set) in the measured namespace.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import type { Pod } from "@kubesched/api";
import { InMemoryCluster } from "@kubesched/cluster";
import { realClock, seededRandom } from "@kubesched/framework";
import { createLogger, PhaseRecorder, Scheduler, SchedulerMetrics } from "@kubesched/scheduler";
import { benchConfig } from "./lib/config";
import { phaseBreakdown } from "./lib/phases";
import { latencySummary, type WorkloadResult } from "./lib/result";
import { ThroughputSampler } from "./lib/sampler";
import { makeNode, makePod, makeService } from "./lib/templates";
import { verify } from "./lib/verify";
import { findWorkload, type Workload } from "./lib/workloads";

/** Plugins a workload cannot do without (it is skipped, with a note, while they are missing). */
const requiredPlugins: Record<string, string[]> = {
  "PreemptionBasic/1000Nodes": ["DefaultPreemption"],
};
/** Give up when no measured pod was bound for this long (wall time). */
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
  },
});
const name = positionals[0] ?? "";
const found = findWorkload(name);
if (!found) {
  console.error(`unknown workload "${name}"`);
  process.exit(2);
}
const workload: Workload = scaled(
  values.measured
    ? {
        ...found,
        upstreamMeasured: found.upstreamMeasured ?? found.measured.count,
        measured: { ...found.measured, count: Number(values.measured) },
      }
    : found,
  values.scale === undefined ? 1 : Number(values.scale),
);

/** The workload with nodes and pod counts scaled by `f` (quick runs and tests; no CI threshold applies). */
function scaled(w: Workload, f: number): Workload {
  if (f === 1) return w;
  if (!(f > 0 && f <= 1)) {
    console.error(`--scale must be in (0, 1], got ${f}`);
    process.exit(2);
  }
  const n = (x: number) => Math.max(1, Math.round(x * f));
  return {
    ...w,
    nodes: n(w.nodes),
    init: w.init.map((op) => ({ ...op, count: n(op.count) })),
    measured: { ...w.measured, count: n(w.measured.count) },
    upstreamMeasured: w.upstreamMeasured ?? w.measured.count,
    threshold: null,
    target: null,
    rssTargetMB: null,
    notes: `scaled ×${f}${w.notes ? `; ${w.notes}` : ""}`,
  };
}

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

async function main(): Promise<WorkloadResult> {
  const { config, registry, missingPlugins } = benchConfig(values.config);
  const base = {
    name: workload.name,
    nodes: workload.nodes,
    initPods: workload.init.reduce((n, op) => n + op.count, 0),
    measuredPods: workload.measured.count,
    upstreamMeasuredPods: workload.upstreamMeasured ?? workload.measured.count,
    threshold: workload.threshold,
    target: workload.target,
    rssTargetMB: workload.rssTargetMB,
    missingPlugins,
    decisionsVerified: null,
    verification: [] as string[],
    notes: workload.notes ? [workload.notes] : [],
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
  for (const ns of workload.namespaces) {
    cluster.apply("Namespace", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns, uid: ns } });
  }
  const labels = workload.nodeLabels;
  for (let i = 0; i < workload.nodes; i++) {
    cluster.apply(
      "Node",
      makeNode(labels ? { [labels.key]: labels.values[i % labels.values.length] as string } : undefined),
    );
  }
  if (workload.serviceNamespace) cluster.apply("Service", makeService(workload.serviceNamespace));

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
  const sched = await Scheduler.create({
    config,
    registry,
    source: cluster,
    logger: createLogger({ write: (line) => process.stderr.write(line) }),
    clock: realClock,
    rand: seededRandom(1),
    metrics: metrics ?? false,
    observer: { onScheduled: (pod) => finish(pod), onFailed: (pod) => finish(pod) },
    phases,
  });
  const queue = sched.queue;
  const pop = queue.pop.bind(queue);
  queue.pop = () => {
    const qpi = pop();
    if (qpi) poppedAt.set(qpi.podInfo.pod.metadata?.uid ?? "", performance.now());
    return qpi;
  };

  // Bind events per namespace, as the throughput collector's informer sees them.
  const bound = new Map<string, number>();
  let deletedPods = 0;
  cluster.subscribe({
    onNodeAdd() {},
    onNodeUpdate() {},
    onNodeDelete() {},
    onPodAdd() {},
    onPodDelete() {
      deletedPods++;
    },
    onOtherEvent() {},
    onPodUpdate(oldPod, newPod) {
      if (!oldPod.spec?.nodeName && newPod.spec?.nodeName) {
        const ns = newPod.metadata?.namespace ?? "";
        bound.set(ns, (bound.get(ns) ?? 0) + 1);
      }
    },
  });
  const boundIn = (ns: string): number => bound.get(ns) ?? 0;

  let churnPods = 0;
  let nextChurnAt = Number.POSITIVE_INFINITY;
  const churn = workload.churn;
  const runChurn = (now: number): void => {
    if (!churn) return;
    while (now >= nextChurnAt) {
      cluster.apply("Pod", makePod(churn.template, churn.namespace));
      churnPods++;
      nextChurnAt += churn.intervalMs;
    }
  };

  /** Schedules until `done()`; `onTick` runs after every attempt and while idle. */
  const drive = async (done: () => boolean, onTick: (now: number) => void, deadline: number) => {
    let lastYield = performance.now();
    let lastProgress = lastYield;
    let lastBound = -1;
    for (;;) {
      const did = await sched.scheduleOne();
      const now = performance.now();
      onTick(now);
      sampleRss(now);
      runChurn(now);
      if (done()) {
        await sched.waitForBindings();
        if (done()) return "complete" as const;
      }
      const total = [...bound.values()].reduce((a, b) => a + b, 0);
      if (total !== lastBound) {
        lastBound = total;
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

  const hardDeadline = performance.now() + workload.timeoutMs * 2;
  for (const op of workload.init) {
    const target = boundIn(op.namespace) + op.count;
    for (let i = 0; i < op.count; i++) cluster.apply("Pod", makePod(op.template, op.namespace));
    const st = await drive(
      () => boundIn(op.namespace) >= target,
      () => {},
      hardDeadline,
    );
    if (st !== "complete") throw new Error(`init pods in ${op.namespace} did not all schedule (${st})`);
  }
  const setupMs = performance.now() - setupStart;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();

  let session: Session | null = null;
  if (values["cpu-prof"]) {
    session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
  }

  // Measured phase.
  const m = workload.measured;
  if (churn) nextChurnAt = performance.now();
  runChurn(performance.now());
  const createStart = performance.now();
  for (let i = 0; i < m.count; i++) cluster.apply("Pod", makePod(m.template, m.namespace));
  const createMs = performance.now() - createStart;
  const initialBound = boundIn(m.namespace);
  const target = initialBound + m.count;
  measuring = true;
  phases.reset();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const load0 = loadavg()[0] ?? 0;
  const sampler = new ThroughputSampler(t0, 0);
  const status = await drive(
    () => boundIn(m.namespace) >= target,
    (now) => sampler.poll(now, boundIn(m.namespace) - initialBound),
    t0 + workload.timeoutMs,
  );
  const t1 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const load1 = loadavg()[0] ?? 0;
  measuring = false;
  sched.close();

  if (session && values["cpu-prof"]) {
    const { profile } = await session.post("Profiler.stop");
    const file = `${values["cpu-prof"]}/${workload.name.replaceAll("/", "_")}.cpuprofile`;
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
  sampleRss(Number.POSITIVE_INFINITY);

  const scheduled = boundIn(m.namespace) - initialBound;
  const verification = verify({
    workload,
    nodes: cluster.listers().nodes.list(),
    pods: cluster.listers().pods.list(),
    metricsText: metrics ? await metrics.text() : null,
    deletedPods,
    churnPods,
  });
  const notes = [...base.notes];
  if (status !== "complete") {
    notes.push(
      `${status} after ${Math.round((t1 - t0) / 1000)} s: ${scheduled}/${m.count} measured pods bound`,
    );
  }
  return {
    ...base,
    status,
    notes,
    scheduled,
    durationMs: t1 - t0,
    setupMs,
    createMs,
    overall: scheduled / ((t1 - t0) / 1000),
    cpuMs,
    perCpuSecond: scheduled / (cpuMs / 1000),
    loadAvg: Math.max(load0, load1),
    throughput: sampler.summary(),
    attemptLatencyMs: latencySummary(latencies),
    attempts: latencies.length,
    churnPods,
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
