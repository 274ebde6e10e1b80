// upstream: pkg/scheduler/scheduler.go — building profiles, cache, queue and event handlers.
import type { Pod } from "@kubesched/api";
import { Cache, newSnapshot, type Snapshot } from "@kubesched/cache";
import type { KubeSchedulerConfiguration } from "@kubesched/config";
import {
  type Clock,
  defaultFeatures,
  type Extender,
  type Features,
  type Logger,
  type NominatingInfo,
  type QueuedPodInfo,
  type Random,
  type Registry,
  realClock,
  type Status,
  seededRandom,
} from "@kubesched/framework";
import { buildQueueingHintMap, PriorityQueue } from "@kubesched/queue";
import { type Framework, type FrameworkTracer, newProfileMap } from "@kubesched/runtime";
import type { ClusterSource } from "./cluster-source";
import { addAllEventHandlers } from "./event-handlers";
import type { ExplainRecorder } from "./explain";
import { type ExtenderConfig, HTTPExtender } from "./extender";
import { SchedulerMetrics } from "./metrics";
import { scheduleOne } from "./schedule-one";

/** What happened to a pod, for callers that report outcomes (the simulator). */
export interface SchedulingObserver {
  /** The pod was bound to `nodeName`. */
  onScheduled?(pod: Pod, nodeName: string, info: QueuedPodInfo): void;
  /** An attempt failed; `reason` is the PodScheduled condition reason. */
  onFailed?(
    pod: Pod,
    status: Status,
    reason: "Unschedulable" | "SchedulerError",
    message: string,
    nominatingInfo: NominatingInfo | null,
    info: QueuedPodInfo,
  ): void;
}

export interface SchedulerOptions {
  config: KubeSchedulerConfiguration;
  registry: Registry;
  source: ClusterSource;
  /** Where the engine and its plugins log (required: nothing is dropped silently). */
  logger: Logger;
  clock?: Clock;
  /** Seeded randomness for tie-breaking and preemption offsets. */
  rand?: Random;
  features?: Partial<Features>;
  /** Extenders; default: built from config.extenders (HTTP). */
  extenders?: Extender[];
  /** false disables metrics (default: a SchedulerMetrics instance). */
  metrics?: SchedulerMetrics | false;
  observer?: SchedulingObserver;
  /** Records what every plugin decided (simulate --explain); given at construction, it is traced from the first cycle. */
  explain?: ExplainRecorder;
  /** Whether the queue runs its periodic flushes on the clock (live mode). Default true. */
  queueTimers?: boolean;
}

const defaultSchedulerName = "default-scheduler";

export class Scheduler {
  profiles!: ReadonlyMap<string, Framework>;
  readonly cache: Cache;
  readonly snapshot: Snapshot;
  queue!: PriorityQueue;
  readonly clock: Clock;
  readonly rand: Random;
  readonly features: Features;
  readonly extenders: Extender[];
  readonly metrics: SchedulerMetrics | null;
  readonly observer: SchedulingObserver;
  readonly logger: Logger;
  readonly explain: ExplainRecorder | null;
  readonly percentageOfNodesToScore: number;
  nextStartNodeIndex = 0;
  /** Binding cycles in progress. */
  readonly inflightBindings = new Set<Promise<void>>();
  /** Counts cycles to sample plugin metrics on 10 % of them without touching the seeded stream. */
  cycleCounter = 0;

  private constructor(
    readonly config: KubeSchedulerConfiguration,
    readonly source: ClusterSource,
    opts: SchedulerOptions,
  ) {
    if (!opts.logger) throw new Error("Scheduler.create: a logger is required (SchedulerOptions.logger)");
    this.logger = opts.logger;
    this.clock = opts.clock ?? realClock;
    this.rand = opts.rand ?? seededRandom(Date.now() & 0xffffffff);
    this.features = { ...defaultFeatures, ...opts.features };
    this.metrics = opts.metrics === false ? null : (opts.metrics ?? new SchedulerMetrics());
    this.observer = opts.observer ?? {};
    this.explain = opts.explain ?? null;
    this.percentageOfNodesToScore = config.percentageOfNodesToScore;
    this.extenders = opts.extenders ?? config.extenders.map((e) => new HTTPExtender(toExtenderConfig(e)));
    this.cache = new Cache({ clock: this.clock });
    this.snapshot = newSnapshot([], []);
  }

  /** Builds every profile's framework, the queue, and subscribes to the cluster source. */
  static async create(opts: SchedulerOptions): Promise<Scheduler> {
    const s = new Scheduler(opts.config, opts.source, opts);
    await s.init(opts);
    return s;
  }

  private async init(opts: SchedulerOptions): Promise<void> {
    const explain = this.explain;
    const metrics = this.metrics;
    this.profiles = await newProfileMap(opts.registry, this.config.profiles, {
      snapshot: this.snapshot,
      logger: this.logger,
      listers: this.source.listers(),
      client: this.source.client(),
      eventRecorder: this.source.eventRecorder(),
      extenders: this.extenders,
      clock: this.clock,
      rand: this.rand,
      features: this.features,
      parallelism: this.config.parallelism,
      ...(explain ? { tracer: tracerFor(explain) } : {}),
      ...(metrics ? { hooksFor: (profile: string) => metricsHooks(metrics, profile) } : {}),
    });
    const first = this.profiles.values().next().value;
    if (!first) throw new Error("at least one profile is required");
    const preEnqueue = new Map<string, ReturnType<Framework["preEnqueuePlugins"]>>();
    const hints = new Map<string, ReturnType<typeof buildQueueingHintMap>>();
    for (const [name, fwk] of this.profiles) {
      preEnqueue.set(name, fwk.preEnqueuePlugins());
      // The runtime adds the "Extender" pseudo-plugin's events when extenders are configured.
      hints.set(name, buildQueueingHintMap(fwk.enqueueExtensions()));
    }
    this.queue = new PriorityQueue({
      clock: this.clock,
      logger: this.logger,
      lessFn: first.queueSortFunc(),
      podInitialBackoffMs: this.config.podInitialBackoffSeconds * 1000,
      podMaxBackoffMs: this.config.podMaxBackoffSeconds * 1000,
      preEnqueuePluginMap: preEnqueue,
      queueingHintMap: hints,
      podLister: this.source.listers().pods,
      namespaceLister: this.source.listers().namespaces,
      ...(metrics
        ? {
            metrics: {
              incomingPod: (queue: string, event: string) => metrics.queueIncomingPods.inc({ queue, event }),
            },
          }
        : {}),
    });
    for (const fwk of this.profiles.values()) {
      fwk.setNominator(this.queue);
      fwk.setActivator(this.queue);
    }
    addAllEventHandlers(this);
    if (opts.queueTimers !== false) this.queue.run();
  }

  frameworkForPod(pod: Pod): Framework | undefined {
    return this.profiles.get(pod.spec?.schedulerName || defaultSchedulerName);
  }

  /** Whether some profile handles the pod (upstream responsibleForPod). */
  responsibleForPod(pod: Pod): boolean {
    return this.profiles.has(pod.spec?.schedulerName || defaultSchedulerName);
  }

  /** Pops one pod and runs its scheduling cycle; the binding cycle continues asynchronously. */
  scheduleOne(): Promise<boolean> {
    return scheduleOne(this);
  }

  /** Waits until every binding cycle in progress has finished. */
  async waitForBindings(): Promise<void> {
    while (this.inflightBindings.size > 0) await Promise.all([...this.inflightBindings]);
  }

  /** Live mode: schedule until `signal` aborts, idling briefly when nothing is active. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (!(await this.scheduleOne())) await new Promise((r) => setTimeout(r, 10));
    }
    this.queue.close();
  }

  close(): void {
    this.queue.close();
  }

  /** Updates the cache-size gauge (upstream refreshes it every second). */
  updateCacheMetrics(): void {
    if (!this.metrics) return;
    this.metrics.cacheSize.set({ type: "nodes" }, this.cache.nodeCount());
    this.metrics.cacheSize.set({ type: "pods" }, this.cache.podCount());
    this.metrics.cacheSize.set({ type: "assumed_pods" }, this.cache.assumedPodCount());
    const c = this.queue.counts();
    this.metrics.pendingPods.set({ queue: "active" }, c.active);
    this.metrics.pendingPods.set({ queue: "backoff" }, c.backoff);
    this.metrics.pendingPods.set({ queue: "unschedulable" }, c.unschedulable);
    this.metrics.pendingPods.set({ queue: "gated" }, c.gated);
  }
}

/** Routes the runtime's tracer callbacks to the explain recorder. */
function tracerFor(e: ExplainRecorder): FrameworkTracer {
  return {
    preFilter: (p, st, r) => e.preFilter(p, st, r),
    filter: (p, n, st) => e.filter(p, n, st),
    postFilter: (p, st, r) => e.postFilter(p, st, r),
    preScore: (p, st) => e.preScore(p, st),
    score: (p, n, raw, norm, w) => e.score(p, n, raw, norm, w),
  };
}

function metricsHooks(m: SchedulerMetrics, profile: string) {
  return {
    onExtensionPoint: (point: string, status: Status | null, durationMs: number) =>
      m.observeExtensionPoint(profile, point, status, durationMs / 1000),
    onPlugin: (plugin: string, point: string, status: Status | null, durationMs: number) =>
      m.observePlugin(plugin, point, status, durationMs / 1000),
  };
}

function toExtenderConfig(e: KubeSchedulerConfiguration["extenders"][number]): ExtenderConfig {
  return {
    urlPrefix: e.urlPrefix,
    filterVerb: e.filterVerb,
    preemptVerb: e.preemptVerb,
    prioritizeVerb: e.prioritizeVerb,
    weight: e.weight,
    bindVerb: e.bindVerb,
    enableHTTPS: e.enableHTTPS,
    ...(e.tlsConfig ? { tlsConfig: e.tlsConfig } : {}),
    httpTimeoutMs: e.httpTimeout,
    nodeCacheCapable: e.nodeCacheCapable,
    managedResources: e.managedResources,
    ignorable: e.ignorable,
  };
}
