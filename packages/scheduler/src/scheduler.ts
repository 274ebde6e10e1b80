// upstream: pkg/scheduler/scheduler.go — building profiles, cache, queue and event handlers.
import type { Pod } from "@kubesched/api";
import { type Cache, newCache, newSnapshot } from "@kubesched/cache";
import { featuresOf, type KubeSchedulerConfiguration } from "@kubesched/config";
import {
  type Clock,
  type Extender,
  type Features,
  type Logger,
  type Random,
  type Registry,
  realClock,
  seededRandom,
} from "@kubesched/framework";
import {
  buildQueueingHintMap,
  PriorityQueue,
  type QueueOptions,
  type SchedulingQueue,
} from "@kubesched/queue";
import {
  composeObservers,
  diagnoseFilters,
  type FilterDiagnosis,
  type Framework,
  newProfileMap,
  type SchedulingObserver,
} from "@kubesched/runtime";
import type { ClusterSource } from "./cluster-source";
import { addAllEventHandlers } from "./event-handlers";
import { httpExtenders } from "./extender";
import { MetricsObserver, SchedulerMetrics } from "./metrics";
import { observedCycle, observesAttempts } from "./observed-cycle";
import { timedAsMetrics } from "./phases";
import { plainCycle, scheduleOne } from "./schedule-one";
import type { SchedulerState } from "./scheduler-state";

export interface SchedulerOptions {
  config: KubeSchedulerConfiguration;
  registry: Registry;
  source: ClusterSource;
  /** Where the engine and its plugins log (required: nothing is dropped silently). */
  logger: Logger;
  clock?: Clock;
  /** Seeded randomness for tie-breaking and preemption offsets. */
  rand?: Random;
  /** Feature gates over the defaults of `kubernetesVersion` (kube-scheduler's --feature-gates). */
  features?: Partial<Features>;
  /**
   * The Kubernetes release plugins behave as (`handle.kubernetesVersion()`; kube-scheduler's
   * --emulated-version), its feature-gate defaults under `features` (`featuresOf`); default the newest.
   */
  kubernetesVersion?: string;
  /** Extenders; default: built from config.extenders (HTTP). */
  extenders?: Extender[];
  /** false disables metrics (default: a SchedulerMetrics instance, recorded by a MetricsObserver). */
  metrics?: SchedulerMetrics | false;
  /**
   * Watches scheduling from the first cycle: outcomes (onScheduled, onFailed), what every plugin
   * decided (an ExplainRecorder: simulate --explain), phase timings (a PhaseRecorder: `pnpm
   * bench`'s breakdown, which then also times the metrics). Several: composeObservers. Only
   * what it implements is instrumented.
   */
  observer?: SchedulingObserver;
  /** Whether the queue runs its periodic flushes on the clock (live mode). Default true. */
  queueTimers?: boolean;
  /**
   * The scheduler cache (nodes, pods, assumed pods) the engine feeds and snapshots. Default: the
   * real one, `newCache({ clock })`.
   */
  cache?: Cache;
  /**
   * Builds the scheduling queue from what the engine derives from the profiles (the first
   * profile's QueueSort less function, every profile's PreEnqueue plugins and queueing hints, the
   * backoff durations of the configuration, listers, metrics). Default: the real PriorityQueue,
   * `(opts) => new PriorityQueue(opts)`.
   */
  queue?: (opts: QueueOptions) => SchedulingQueue;
}

const defaultSchedulerName = "default-scheduler";

const states = new WeakMap<Scheduler, SchedulerState>();

/** @internal The state of a scheduler, for this package's tests (not exported by the package). */
export function schedulerState(s: Scheduler): SchedulerState {
  const state = states.get(s);
  if (!state) throw new Error("not a Scheduler built by Scheduler.create");
  return state;
}

/**
 * The scheduler (upstream scheduler.Scheduler): one framework per profile, the cache, the
 * scheduling queue and the event handlers that feed them from a ClusterSource. Its state is
 * private; the scheduling and binding cycles (schedule-one.ts) and the event handlers work on it
 * through `SchedulerState`.
 */
export class Scheduler {
  private readonly state: SchedulerState;

  private constructor(state: SchedulerState) {
    this.state = state;
    states.set(this, state);
  }

  /** Builds every profile's framework, the queue, and subscribes to the cluster source. */
  static async create(opts: SchedulerOptions): Promise<Scheduler> {
    if (!opts.logger) throw new Error("Scheduler.create: a logger is required (SchedulerOptions.logger)");
    const { config, source, logger } = opts;
    const clock = opts.clock ?? realClock;
    const rand = opts.rand ?? seededRandom(Date.now() & 0xffffffff);
    // The release's defaults under the given features, as the CLI's flags derive them.
    const features = featuresOf(opts.kubernetesVersion, opts.features);
    const metrics = opts.metrics === false ? null : (opts.metrics ?? new SchedulerMetrics());
    const observer = observerOf(metrics, clock, opts.observer);
    const extenders = opts.extenders ?? httpExtenders(config);
    const snapshot = newSnapshot([], []);
    const profiles = await newProfileMap(opts.registry, config.profiles, {
      snapshot,
      logger,
      listers: source.listers(),
      client: source.client(),
      eventRecorder: source.eventRecorder(),
      extenders,
      clock,
      rand,
      features,
      ...(opts.kubernetesVersion ? { kubernetesVersion: opts.kubernetesVersion } : {}),
      parallelism: config.parallelism,
      observer,
    });
    const first = profiles.values().next().value;
    if (!first) throw new Error("at least one profile is required");
    const preEnqueue = new Map<string, ReturnType<Framework["preEnqueuePlugins"]>>();
    const hints = new Map<string, ReturnType<typeof buildQueueingHintMap>>();
    for (const [name, fwk] of profiles) {
      preEnqueue.set(name, fwk.preEnqueuePlugins());
      // The runtime adds the "Extender" pseudo-plugin's events when extenders are configured.
      hints.set(name, buildQueueingHintMap(fwk.enqueueExtensions()));
    }
    const newQueue = opts.queue ?? ((o: QueueOptions) => new PriorityQueue(o));
    const queue: SchedulingQueue = newQueue({
      clock,
      logger,
      lessFn: first.queueSortFunc(),
      podInitialBackoffMs: config.podInitialBackoffSeconds * 1000,
      podMaxBackoffMs: config.podMaxBackoffSeconds * 1000,
      preEnqueuePluginMap: preEnqueue,
      queueingHintMap: hints,
      podLister: source.listers().pods,
      namespaceLister: source.listers().namespaces,
      ...(metrics
        ? {
            metrics: {
              incomingPod: (queue: string, event: string) => metrics.queueIncomingPods.inc({ queue, event }),
            },
          }
        : {}),
    });
    for (const fwk of profiles.values()) {
      fwk.setNominator(queue);
      fwk.setActivator(queue);
    }
    const frameworkForPod = (pod: Pod) => profiles.get(pod.spec?.schedulerName || defaultSchedulerName);
    const state: SchedulerState = {
      profiles,
      queue,
      cache: opts.cache ?? newCache({ clock }),
      snapshot,
      source,
      extenders,
      metrics,
      cycle: observesAttempts(observer) ? observedCycle(plainCycle, observer) : plainCycle,
      logger,
      clock,
      rand,
      percentageOfNodesToScore: config.percentageOfNodesToScore,
      queueingHints: features.enableSchedulingQueueHint,
      draNodeAllocatableResources: features.enableDRANodeAllocatableResources,
      frameworkForPod,
      responsibleForPod: (pod) => frameworkForPod(pod) !== undefined,
      nextStartNodeIndex: 0,
      runSignal: undefined,
      inflightBindings: new Set(),
    };
    addAllEventHandlers(state);
    if (opts.queueTimers !== false) queue.run();
    return new Scheduler(state);
  }

  /** The profiles' frameworks by schedulerName. */
  get profiles(): ReadonlyMap<string, Framework> {
    return this.state.profiles;
  }

  /** The scheduler cache (nodes, pods, assumed pods). */
  get cache(): Cache {
    return this.state.cache;
  }

  /** The scheduling queue (its counts tell a simulation when nothing is left to do). */
  get queue(): SchedulingQueue {
    return this.state.queue;
  }

  frameworkForPod(pod: Pod): Framework | undefined {
    return this.state.frameworkForPod(pod);
  }

  /**
   * Every reason the pod does not fit, on every node: the runtime's all-filters diagnostic pass
   * (diagnoseFilters) with the profile the pod's schedulerName picks, on a snapshot of the cache
   * taken now. It explains and changes nothing (no cycle, no queue, no metrics); undefined when
   * no profile handles the pod.
   */
  diagnoseFilters(pod: Pod): FilterDiagnosis | undefined {
    const fwk = this.state.frameworkForPod(pod);
    if (fwk === undefined) return undefined;
    this.state.cache.updateSnapshot(this.state.snapshot);
    return diagnoseFilters(fwk, pod);
  }

  /** Whether some profile handles the pod (upstream responsibleForPod). */
  responsibleForPod(pod: Pod): boolean {
    return this.state.responsibleForPod(pod);
  }

  /** Pops one pod and runs its scheduling cycle; the binding cycle continues asynchronously. */
  scheduleOne(): Promise<boolean> {
    return scheduleOne(this.state);
  }

  /**
   * Waits until every binding cycle in progress has finished; true then. With `signal`, gives up
   * when it aborts and resolves false if bindings are still in flight (a bounded shutdown).
   */
  async waitForBindings(signal?: AbortSignal): Promise<boolean> {
    const inflight = this.state.inflightBindings;
    while (inflight.size > 0 && !signal?.aborted) {
      const all = Promise.all([...inflight]);
      await (signal ? settledOrAborted(all, signal) : all);
    }
    return inflight.size === 0;
  }

  /** Binding cycles in progress. */
  inflightBindings(): number {
    return this.state.inflightBindings.size;
  }

  /**
   * Live mode: schedule until `signal` aborts, idling briefly when nothing is active. At most
   * `maxInFlightBindings` binding cycles run at once: the loop waits for one to finish before it
   * pops the next pod (the API client's rate limit would otherwise queue them without bound).
   */
  async run(signal: AbortSignal, opts: { maxInFlightBindings?: number } = {}): Promise<void> {
    const max = opts.maxInFlightBindings ?? Number.POSITIVE_INFINITY;
    const inflight = this.state.inflightBindings;
    this.state.runSignal = signal;
    try {
      while (!signal.aborted) {
        if (inflight.size >= max) {
          await settledOrAborted(Promise.race([...inflight]), signal);
          continue;
        }
        if (!(await this.scheduleOne())) {
          await settledOrAborted(new Promise((r) => setTimeout(r, 10)), signal);
        } else {
          // A cycle is synchronous work: give the event loop a turn after each, or the watches,
          // the lease renewals and the events' writes would wait for the queue to empty.
          await new Promise((r) => setImmediate(r));
        }
      }
    } finally {
      this.state.runSignal = undefined;
    }
    this.state.queue.close();
  }

  close(): void {
    this.state.queue.close();
  }

  /** Updates the cache-size gauge (upstream refreshes it every second). */
  updateCacheMetrics(): void {
    const { metrics, cache, queue } = this.state;
    if (!metrics) return;
    metrics.cacheSize.set({ type: "nodes" }, cache.nodeCount());
    metrics.cacheSize.set({ type: "pods" }, cache.podCount());
    metrics.cacheSize.set({ type: "assumed_pods" }, cache.assumedPodCount());
    const c = queue.counts();
    metrics.pendingPods.set({ queue: "active" }, c.active);
    metrics.pendingPods.set({ queue: "backoff" }, c.backoff);
    metrics.pendingPods.set({ queue: "unschedulable" }, c.unschedulable);
    metrics.pendingPods.set({ queue: "gated" }, c.gated);
  }
}

/** Resolves when `p` settles or `signal` aborts, whichever comes first (never rejects). */
function settledOrAborted(p: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    p.then(done, done);
  });
}

/**
 * The one observer of a scheduler: its metrics (timed as the "metrics" phase when the caller's
 * observer records phases) and the caller's.
 */
function observerOf(
  metrics: SchedulerMetrics | null,
  clock: Clock,
  observer: SchedulingObserver | undefined,
): SchedulingObserver {
  if (metrics === null) return observer ?? {};
  const recorder = new MetricsObserver(metrics, clock);
  return composeObservers(observer ? timedAsMetrics(recorder, observer) : recorder, observer);
}
