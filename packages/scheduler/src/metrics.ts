// upstream: pkg/scheduler/metrics/metrics.go — names, labels and buckets as upstream; recorded by
// an observer (MetricsObserver), where upstream's schedule_one.go and frameworkImpl record inline.
import type { Pod } from "@kubesched/api";
import {
  type Clock,
  codeName,
  type NominatingInfo,
  type QueuedPodInfo,
  type Status,
} from "@kubesched/framework";
import type { BatchAttempt, BatchFlushReason, SchedulingObserver } from "@kubesched/runtime";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { FastHistogramVec, type HistogramSeries } from "./fast-histogram";

function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  let v = start;
  for (let i = 0; i < count; i++) {
    out.push(v);
    v *= factor;
  }
  return out;
}

/** first label → second label → status code → series. */
type SeriesCache = Map<string, Map<string, HistogramSeries[]>>;

/** The cached series for (a, b, status code), or undefined the first time. */
function cachedSeries(cache: SeriesCache, a: string, b: string, code: number): HistogramSeries | undefined {
  return cache.get(a)?.get(b)?.[code];
}

function storeSeries(cache: SeriesCache, a: string, b: string, code: number, series: HistogramSeries): void {
  let byB = cache.get(a);
  if (!byB) {
    byB = new Map();
    cache.set(a, byB);
  }
  let byCode = byB.get(b);
  if (!byCode) {
    byCode = [];
    byB.set(b, byCode);
  }
  byCode[code] = series;
}

/** The scheduler's Prometheus metrics, in their own registry (one per scheduler instance). */
export class SchedulerMetrics {
  readonly registry = new Registry();
  readonly scheduleAttempts = new Counter({
    name: "scheduler_schedule_attempts_total",
    help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
    labelNames: ["result", "profile"],
    registers: [this.registry],
  });
  readonly schedulingAttemptDuration = new FastHistogramVec(
    "scheduler_scheduling_attempt_duration_seconds",
    "Scheduling attempt latency in seconds (scheduling algorithm + binding)",
    ["result", "profile"],
    exponentialBuckets(0.001, 2, 15),
    this.registry,
  );
  readonly schedulingAlgorithmDuration = new Histogram({
    name: "scheduler_scheduling_algorithm_duration_seconds",
    help: "Scheduling algorithm latency in seconds",
    buckets: exponentialBuckets(0.001, 2, 15),
    registers: [this.registry],
  });
  readonly pendingPods = new Gauge({
    name: "scheduler_pending_pods",
    help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
    labelNames: ["queue"],
    registers: [this.registry],
  });
  readonly queueIncomingPods = new Counter({
    name: "scheduler_queue_incoming_pods_total",
    help: "Number of pods added to scheduling queues by event and queue type.",
    labelNames: ["queue", "event"],
    registers: [this.registry],
  });
  readonly frameworkExtensionPointDuration = new FastHistogramVec(
    "scheduler_framework_extension_point_duration_seconds",
    "Latency for running all plugins of a specific extension point.",
    ["extension_point", "status", "profile"],
    exponentialBuckets(0.0001, 2, 12),
    this.registry,
  );
  readonly pluginExecutionDuration = new FastHistogramVec(
    "scheduler_plugin_execution_duration_seconds",
    "Duration for running a plugin at a specific extension point.",
    ["plugin", "extension_point", "status"],
    exponentialBuckets(0.00001, 1.5, 20),
    this.registry,
  );
  readonly preemptionAttempts = new Counter({
    name: "scheduler_preemption_attempts_total",
    help: "Total preemption attempts in the cluster till now",
    registers: [this.registry],
  });
  readonly batchAttempts = new Counter({
    name: "scheduler_batch_attempts_total",
    help: "Counts of results when we attempt to use batching, by scheduler profile. 'no_hint' covers every pod that asked for a hint and got none, including pods that later fail to schedule. 'hint_used' and 'hint_not_used' are recorded only when a node is selected, and say whether it was the hinted one.",
    labelNames: ["profile", "result"],
    registers: [this.registry],
  });
  readonly batchCacheFlushed = new Counter({
    name: "scheduler_batch_cache_flushed_total",
    help: "Counts of batch cache flushes by reason and scheduler profile. A flush discards a usable batch state. 'pod_skipped' means the previous pod was handled by another profile or failed to schedule, 'node_missing' means a node needed to reuse the state is no longer in the snapshot, and the 'filter_error', 'prescore_error', 'rescore_error' and 'normalize_error' reasons mean that phase failed while rescoring.",
    labelNames: ["profile", "reason"],
    registers: [this.registry],
  });
  readonly preemptionVictims = new Histogram({
    name: "scheduler_preemption_victims",
    help: "Number of selected preemption victims",
    buckets: exponentialBuckets(1, 2, 7),
    registers: [this.registry],
  });
  readonly podSchedulingAttempts = new Histogram({
    name: "scheduler_pod_scheduling_attempts",
    help: "Number of attempts to successfully schedule a pod.",
    buckets: exponentialBuckets(1, 2, 5),
    registers: [this.registry],
  });
  readonly podSchedulingSLIDuration = new Histogram({
    name: "scheduler_pod_scheduling_sli_duration_seconds",
    help: "E2e latency for a pod being scheduled, from the time the pod enters the scheduling queue and might involve multiple scheduling attempts.",
    labelNames: ["attempts"],
    buckets: exponentialBuckets(0.01, 2, 20),
    registers: [this.registry],
  });
  readonly unschedulablePods = new Gauge({
    name: "scheduler_unschedulable_pods",
    help: "The number of unschedulable pods broken down by plugin name. A pod will increment the gauge for all plugins that caused it to not schedule and so this metric have meaning only when broken down by plugin.",
    labelNames: ["plugin", "profile"],
    registers: [this.registry],
  });
  readonly cacheSize = new Gauge({
    name: "scheduler_scheduler_cache_size",
    help: "Number of nodes, pods, and assumed (bound) pods in the scheduler cache.",
    labelNames: ["type"],
    registers: [this.registry],
  });
  readonly goroutines = new Gauge({
    name: "scheduler_goroutines",
    help: "Number of running goroutines split by the work they do such as binding.",
    labelNames: ["operation"],
    registers: [this.registry],
  });

  // Series looked up once per (labels) and kept: these are observed per plugin per node.
  private readonly pluginSeries: SeriesCache = new Map();
  private readonly pointSeries: SeriesCache = new Map();
  private readonly attemptSeries = new Map<string, HistogramSeries>();

  /** scheduler_plugin_execution_duration_seconds{plugin, extension_point, status}. */
  observePlugin(plugin: string, point: string, status: Status | null, seconds: number): void {
    this.pluginSeriesFor(plugin, point, status).observe(seconds);
  }

  /** `count` observations of `seconds` each in scheduler_plugin_execution_duration_seconds. */
  observePluginN(plugin: string, point: string, status: Status | null, seconds: number, count: number): void {
    this.pluginSeriesFor(plugin, point, status).observeN(seconds, count);
  }

  private pluginSeriesFor(plugin: string, point: string, status: Status | null): HistogramSeries {
    const code = status ? status.code : 0;
    let series = cachedSeries(this.pluginSeries, plugin, point, code);
    if (series === undefined) {
      series = this.pluginExecutionDuration.child(plugin, point, codeName(code));
      storeSeries(this.pluginSeries, plugin, point, code, series);
    }
    return series;
  }

  /** scheduler_framework_extension_point_duration_seconds{extension_point, status, profile}. */
  observeExtensionPoint(profile: string, point: string, status: Status | null, seconds: number): void {
    const code = status ? status.code : 0;
    let series = cachedSeries(this.pointSeries, profile, point, code);
    if (series === undefined) {
      series = this.frameworkExtensionPointDuration.child(point, codeName(code), profile);
      storeSeries(this.pointSeries, profile, point, code, series);
    }
    series.observe(seconds);
  }

  /** scheduler_scheduling_attempt_duration_seconds{result, profile}. */
  observeAttempt(result: "scheduled" | "unschedulable" | "error", profile: string, seconds: number): void {
    const key = `${result}\u0000${profile}`;
    let series = this.attemptSeries.get(key);
    if (!series) {
      series = this.schedulingAttemptDuration.child(result, profile);
      this.attemptSeries.set(key, series);
    }
    series.observe(seconds);
  }

  /** Prometheus text exposition. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * The scheduler's metrics as an observer: what upstream records from schedule_one.go (attempts,
 * algorithm and attempt durations, pod_scheduling_attempts, the SLI duration, binding
 * goroutines), from the framework (extension point and sampled plugin durations) and from
 * DefaultPreemption (attempts, victims). Scheduler.create builds one for its `metrics`.
 */
export class MetricsObserver implements SchedulingObserver {
  /** The binding-goroutines gauge as last set (a labelled prom-client set hashes its labels). */
  private bindings = -1;

  constructor(
    private readonly metrics: SchedulerMetrics,
    /** The scheduler's clock (the SLI duration counts from the pod's first attempt on it). */
    private readonly clock: Clock,
  ) {}

  onAlgorithmDone(_pod: Pod, durationMs: number): void {
    this.metrics.schedulingAlgorithmDuration.observe(durationMs / 1000);
  }

  onBindingStart(inFlight: number): void {
    if (inFlight === this.bindings) return;
    this.bindings = inFlight;
    this.metrics.goroutines.set({ operation: "binding" }, inFlight);
  }

  onScheduled(_pod: Pod, _nodeName: string, info: QueuedPodInfo, profile: string, attemptMs: number): void {
    const m = this.metrics;
    m.scheduleAttempts.inc({ result: "scheduled", profile });
    m.observeAttempt("scheduled", profile, attemptMs / 1000);
    m.podSchedulingAttempts.observe(info.attempts);
    if (info.initialAttemptTimestamp !== null) {
      const attempts = info.attempts >= 15 ? "15+" : String(info.attempts);
      m.podSchedulingSLIDuration.observe(
        { attempts },
        (this.clock.now() - info.initialAttemptTimestamp) / 1000,
      );
    }
  }

  onFailed(
    _pod: Pod,
    _status: Status,
    reason: "Unschedulable" | "SchedulerError",
    _message: string,
    _nominatingInfo: NominatingInfo | null,
    _info: QueuedPodInfo,
    profile: string,
    attemptMs: number,
  ): void {
    const result = reason === "Unschedulable" ? "unschedulable" : "error";
    this.metrics.scheduleAttempts.inc({ result, profile });
    this.metrics.observeAttempt(result, profile, attemptMs / 1000);
  }

  onExtensionPoint(profile: string, point: string, status: Status | null, durationMs: number): void {
    this.metrics.observeExtensionPoint(profile, point, status, durationMs / 1000);
  }

  onPluginDuration(
    plugin: string,
    point: string,
    status: Status | null,
    durationMs: number,
    runs: number,
  ): void {
    if (runs === 1) this.metrics.observePlugin(plugin, point, status, durationMs / 1000);
    else this.metrics.observePluginN(plugin, point, status, durationMs / 1000, runs);
  }

  onPreemptionAttempt(): void {
    this.metrics.preemptionAttempts.inc();
  }

  onPreemptionVictims(count: number): void {
    this.metrics.preemptionVictims.observe(count);
  }

  onBatchAttempt(profile: string, result: BatchAttempt): void {
    this.metrics.batchAttempts.inc({ profile, result });
  }

  onBatchCacheFlushed(profile: string, reason: BatchFlushReason): void {
    this.metrics.batchCacheFlushed.inc({ profile, reason });
  }
}
