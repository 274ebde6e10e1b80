// upstream: pkg/scheduler/backend/queue/scheduling_queue.go (PriorityQueue)
import { type Namespace, type Pod, podKey, podUID } from "@kubesched/api";
import {
  ActionType,
  type Clock,
  type ClusterEvent,
  type ClusterScopedLister,
  Code,
  clusterEventLabel,
  clusterEventMatch,
  EventResource,
  type Lister,
  type Logger,
  type NominatingInfo,
  type PodActivator,
  PodInfo,
  type PodNominator,
  type PreEnqueuePlugin,
  type QueuedPodInfo,
  QueueingHint,
  SpecialEvents,
  Status,
  type Timer,
} from "@kubesched/framework";
import { ActiveQueue } from "./active-queue";
import { BackoffQueue, backoffQOrderingWindowMs } from "./backoff-queue";
import {
  clusterEventIsWildCard,
  EventAssignedPodAdd,
  EventForceActivate,
  EventUnschedulableTimeout,
  EventUnscheduledPodAdd,
  podSchedulingPropertiesChange,
} from "./events";
import { Nominator, type PodRef } from "./nominator";
import type { QueueingHintMapPerProfile } from "./queueing-hints";
import { UnschedulablePods } from "./unschedulable-pods";

export const DefaultPodInitialBackoffMs = 1000;
export const DefaultPodMaxBackoffMs = 10_000;
export const DefaultPodMaxInUnschedulablePodsDurationMs = 5 * 60 * 1000;
/** How often pods that stayed too long in the unschedulable pool are flushed. */
export const UnschedulablePodsFlushIntervalMs = 30_000;

/** The queue names used in metrics labels (upstream's). */
export type QueueName = "active" | "backoff" | "unschedulable";

/** Optional callbacks for metrics; the engine wires them to prom-client. */
export interface QueueMetricsRecorder {
  /** scheduler_queue_incoming_pods_total{queue, event}. */
  incomingPod?(queue: QueueName, event: string): void;
  /** scheduler_pending_pods{queue}, called after every change. */
  pendingPods?(counts: QueueCounts): void;
}

export interface QueueCounts {
  active: number;
  backoff: number;
  unschedulable: number;
  gated: number;
}

export interface QueueOptions {
  clock: Clock;
  /** Where the queue reports inconsistencies it recovers from (upstream logs them). */
  logger: Logger;
  /** The profile's QueueSort less function. */
  lessFn: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulablePodsDurationMs?: number;
  /** Profile (schedulerName) → its PreEnqueue plugins, in order. */
  preEnqueuePluginMap?: Map<string, PreEnqueuePlugin[]>;
  /** Profile (schedulerName) → registered events and hint functions (buildQueueingHintMap). */
  queueingHintMap?: QueueingHintMapPerProfile;
  /** The informer cache, used by the nominator to skip pods that are gone or bound. */
  podLister?: Lister<Pod>;
  /** Namespace labels for required pod-affinity terms with namespaceSelector (assigned pod events). */
  namespaceLister?: ClusterScopedLister<Namespace>;
  /** SchedulerPopFromBackoffQ (beta, on by default). */
  popFromBackoffQ?: boolean;
  metrics?: QueueMetricsRecorder;
}

/** How a pod leaves the unschedulable pool after an event. */
export const QueueingStrategy = { queueSkip: 0, queueAfterBackoff: 1, queueImmediately: 2 } as const;
export type QueueingStrategy = (typeof QueueingStrategy)[keyof typeof QueueingStrategy];

const activeQName = "Active";
const backoffQName = "Backoff";
const unschedulableQName = "Unschedulable";
type InternalQueue = typeof activeQName | typeof backoffQName | typeof unschedulableQName;

const PodTopologySpreadName = "PodTopologySpread";

/** A lookup-only QueuedPodInfo for a pod (its key is all that matters). */
function lookupKey(pod: Pod): string {
  return podKey(pod);
}

/**
 * What the engine and its event handlers need of a scheduling queue (upstream
 * backend/queue.SchedulingQueue). It is also the nominator and activator of every profile.
 */
export interface SchedulingQueue extends PodNominator, PodActivator {
  add(pod: Pod): void;
  update(oldPod: Pod, newPod: Pod): void;
  delete(pod: Pod): void;
  /** The next pod to schedule, marked in flight; null when activeQ is empty (non-blocking). */
  pop(): QueuedPodInfo | null;
  /** Whether pop() would return a pod now. */
  hasActive(): boolean;
  /** Ends the in-flight tracking of a pod popped earlier. */
  done(uid: string): void;
  schedulingCycle(): number;
  /** Requeues a pod whose attempt failed, as the queueing hints of the events it missed decide. */
  addUnschedulableIfNotPresent(pInfo: QueuedPodInfo, podSchedulingCycle: number): void;
  moveAllToActiveOrBackoffQueue(
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
    preCheck?: (pod: Pod) => boolean,
  ): void;
  assignedPodAdded(pod: Pod): void;
  assignedPodUpdated(oldPod: Pod, newPod: Pod, event: ClusterEvent): void;
  /** The queued (not in-flight) info of a pod, by namespace and name. */
  getPod(pod: Pod): QueuedPodInfo | undefined;
  pendingPods(): { pods: Pod[]; summary: string };
  /** The pods in activeQ (upstream PodsInActiveQ). */
  podsInActiveQ(): Pod[];
  inFlightPods(): Pod[];
  counts(): QueueCounts;
  /** Starts the periodic flushes on the clock. */
  run(): void;
  close(): void;
}

/**
 * The scheduling queue: activeQ (a heap by the profile's QueueSort), backoffQ (two heaps by
 * backoff expiration) and the unschedulable pool (rejected pods waiting for an event, and pods
 * gated by PreEnqueue), with QueueingHints deciding which events move which pods, and the
 * nominator. Non-blocking: the engine calls pop() when it can schedule, and run() schedules the
 * periodic flushes on the Clock.
 */
/** Shared by every node without nominated pods (callers never mutate the list). */
const noPodInfos: PodInfo[] = [];

export class PriorityQueue implements SchedulingQueue {
  private readonly clock: Clock;
  private readonly lessFn: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  private readonly podMaxInUnschedulablePodsDurationMs: number;
  private readonly preEnqueuePluginMap: Map<string, PreEnqueuePlugin[]>;
  private readonly queueingHintMap: QueueingHintMapPerProfile;
  /** Plugin name → the events it registered (for gated pods). */
  private readonly pluginToEventsMap = new Map<string, ClusterEvent[]>();
  private readonly namespaceLister: ClusterScopedLister<Namespace> | undefined;
  private readonly logger: Logger;
  private readonly popFromBackoffQ: boolean;
  private readonly metrics: QueueMetricsRecorder;

  readonly activeQ: ActiveQueue;
  readonly backoffQ: BackoffQueue;
  readonly unschedulablePods = new UnschedulablePods();
  readonly nominator: Nominator;

  private backoffTimer: Timer | null = null;
  private leftoverTimer: Timer | null = null;
  private nextBackoffFlush: number | null = null;
  private nextLeftoverFlush: number | null = null;
  private closed = false;
  /**
   * When the leftover flush last moved the pod (upstream FlushTimestamp), cleared when it comes
   * back after an attempt: a pod that stays in the pool (gated) is flushed once per
   * podMaxInUnschedulablePodsDuration, not on every flush after its first.
   */
  private readonly flushTimestamps = new WeakMap<QueuedPodInfo, number>();

  constructor(opts: QueueOptions) {
    this.clock = opts.clock;
    this.logger = opts.logger;
    this.lessFn = opts.lessFn;
    this.podMaxInUnschedulablePodsDurationMs =
      opts.podMaxInUnschedulablePodsDurationMs ?? DefaultPodMaxInUnschedulablePodsDurationMs;
    this.preEnqueuePluginMap = opts.preEnqueuePluginMap ?? new Map();
    this.queueingHintMap = opts.queueingHintMap ?? new Map();
    for (const hintMap of this.queueingHintMap.values()) {
      for (const { event, hints } of hintMap) {
        for (const h of hints) {
          const events = this.pluginToEventsMap.get(h.pluginName) ?? [];
          events.push(event);
          this.pluginToEventsMap.set(h.pluginName, events);
        }
      }
    }
    this.namespaceLister = opts.namespaceLister;
    this.popFromBackoffQ = opts.popFromBackoffQ ?? true;
    this.metrics = opts.metrics ?? {};
    this.activeQ = new ActiveQueue(opts.lessFn);
    this.backoffQ = new BackoffQueue(
      opts.clock,
      opts.podInitialBackoffMs ?? DefaultPodInitialBackoffMs,
      opts.podMaxBackoffMs ?? DefaultPodMaxBackoffMs,
      opts.lessFn,
      this.popFromBackoffQ,
    );
    this.nominator = new Nominator(opts.podLister);
  }

  // --- periodic flushes ---

  /**
   * Starts the periodic flushes on the clock: completed backoffs every second, aligned to whole
   * seconds (the backoffQ ordering window), and unschedulable leftovers every 30 s.
   */
  run(): void {
    if (this.backoffTimer || this.closed) return;
    const now = this.clock.now();
    const first = this.backoffQ.alignToWindow(now + backoffQOrderingWindowMs);
    this.scheduleBackoffFlush(first, now);
    this.scheduleLeftoverFlush(now + UnschedulablePodsFlushIntervalMs, now);
  }

  private scheduleBackoffFlush(at: number, now: number): void {
    this.nextBackoffFlush = at;
    this.backoffTimer = this.clock.setTimeout(
      () => {
        this.flushBackoffQCompleted();
        if (!this.closed) this.scheduleBackoffFlush(at + backoffQOrderingWindowMs, this.clock.now());
      },
      Math.max(0, at - now),
    );
  }

  private scheduleLeftoverFlush(at: number, now: number): void {
    this.nextLeftoverFlush = at;
    this.leftoverTimer = this.clock.setTimeout(
      () => {
        this.flushUnschedulablePodsLeftover();
        if (!this.closed) this.scheduleLeftoverFlush(at + UnschedulablePodsFlushIntervalMs, this.clock.now());
      },
      Math.max(0, at - now),
    );
  }

  /** Stops the flushes and forgets the in-flight pods. */
  close(): void {
    this.closed = true;
    this.backoffTimer?.cancel();
    this.leftoverTimer?.cancel();
    this.backoffTimer = null;
    this.leftoverTimer = null;
    this.nextBackoffFlush = null;
    this.nextLeftoverFlush = null;
    this.activeQ.doneAll();
  }

  /**
   * The earliest time a pod will move on its own (a backoff completing at a flush, or a leftover
   * flush while pods wait in the unschedulable pool); null when nothing is waiting or run() was
   * not called. For the simulator, to know whether advancing the clock can change anything.
   */
  nextEventTime(): number | null {
    let t: number | null = null;
    if (this.nextBackoffFlush !== null) {
      for (const q of [this.backoffQ.podBackoffQ, this.backoffQ.podErrorBackoffQ]) {
        const head = q.peek();
        if (!head) continue;
        // The first flush tick at which the head no longer backs off.
        let tick = this.nextBackoffFlush;
        const exp = this.backoffQ.getBackoffTime(head);
        if (exp >= this.backoffQ.alignToWindow(tick)) {
          const k = Math.floor((exp - tick) / backoffQOrderingWindowMs) + 1;
          tick += k * backoffQOrderingWindowMs;
          while (exp >= this.backoffQ.alignToWindow(tick)) tick += backoffQOrderingWindowMs;
        }
        t = t === null ? tick : Math.min(t, tick);
      }
    }
    if (this.nextLeftoverFlush !== null && this.unschedulablePods.size > 0) {
      let oldest = Number.POSITIVE_INFINITY;
      for (const p of this.unschedulablePods.podInfoMap.values())
        oldest = Math.min(oldest, this.lastScheduleTime(p));
      let tick = this.nextLeftoverFlush;
      const due = oldest + this.podMaxInUnschedulablePodsDurationMs;
      if (tick <= due) {
        tick +=
          (Math.floor((due - tick) / UnschedulablePodsFlushIntervalMs) + 1) *
          UnschedulablePodsFlushIntervalMs;
      }
      t = t === null ? tick : Math.min(t, tick);
    }
    return t;
  }

  // --- hints ---

  /** Whether any profile registered an event matching `event` (the wildcard always is). */
  private isEventOfInterest(event: ClusterEvent): boolean {
    if (clusterEventIsWildCard(event)) return true;
    for (const hintMap of this.queueingHintMap.values()) {
      for (const { event: registered } of hintMap) if (clusterEventMatch(registered, event)) return true;
    }
    return false;
  }

  /**
   * Runs the hint functions of the plugins that rejected the pod (UnschedulablePlugins ∪
   * PendingPlugins) for the registered events matching `event`: a Queue from a Pending plugin →
   * queueImmediately, from an Unschedulable plugin → queueAfterBackoff, none → queueSkip.
   */
  isPodWorthRequeuing(
    pInfo: QueuedPodInfo,
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
  ): QueueingStrategy {
    const rejectors = new Set([...pInfo.unschedulablePlugins, ...pInfo.pendingPlugins]);
    if (rejectors.size === 0) return QueueingStrategy.queueAfterBackoff;

    if (clusterEventIsWildCard(event)) {
      // A wildcard event carrying a pod in newObj is meant for that pod only (ForceActivate).
      if (newObj != null) {
        const target = newObj as Pod;
        if (typeof newObj !== "object" || podUID(target) !== podUID(pInfo.podInfo.pod)) {
          return QueueingStrategy.queueSkip;
        }
      }
      return QueueingStrategy.queueAfterBackoff;
    }

    const pod = pInfo.podInfo.pod;
    const hintMap = this.queueingHintMap.get(pod.spec?.schedulerName ?? "");
    // No map for the profile: a bug upstream; requeue rather than strand the pod.
    if (!hintMap) return QueueingStrategy.queueAfterBackoff;

    let strategy: QueueingStrategy = QueueingStrategy.queueSkip;
    for (const { event: registered, hints } of hintMap) {
      if (!clusterEventMatch(registered, event)) continue;
      for (const h of hints) {
        if (!rejectors.has(h.pluginName)) continue;
        let hint: QueueingHint = QueueingHint.Queue;
        if (h.queueingHintFn) {
          try {
            hint = h.queueingHintFn(pod, oldObj, newObj);
          } catch (err) {
            // An error counts as Queue so the pod is not stuck in the pool.
            this.logger.error("QueueingHintFn returns error", {
              err,
              plugin: h.pluginName,
              pod: podKey(pod),
            });
            hint = QueueingHint.Queue;
          }
        }
        if (hint === QueueingHint.QueueSkip) continue;
        if (pInfo.pendingPlugins.has(h.pluginName)) return QueueingStrategy.queueImmediately;
        if (pInfo.pendingPlugins.size === 0) return QueueingStrategy.queueAfterBackoff;
        strategy = QueueingStrategy.queueAfterBackoff;
      }
    }
    return strategy;
  }

  // --- PreEnqueue ---

  /** Runs the profile's PreEnqueue plugins (the previous gating plugin first); sets gatingPlugin. */
  private runPreEnqueuePlugins(pInfo: QueuedPodInfo): void {
    const pod = pInfo.podInfo.pod;
    const plugins = this.preEnqueuePluginMap.get(pod.spec?.schedulerName ?? "") ?? [];
    const gatingPlugin = pInfo.gatingPlugin;
    if (gatingPlugin !== "") {
      const pl = plugins.find((p) => p.name() === gatingPlugin);
      if (pl && !this.runPreEnqueuePlugin(pl, pInfo)) return;
    }
    for (const pl of plugins) {
      if (gatingPlugin !== "" && pl.name() === gatingPlugin) continue;
      if (!this.runPreEnqueuePlugin(pl, pInfo)) return;
    }
    pInfo.gatingPlugin = "";
  }

  /** Runs one PreEnqueue plugin; false (and the pod gated by it) when it does not succeed. */
  private runPreEnqueuePlugin(pl: PreEnqueuePlugin, pInfo: QueuedPodInfo): boolean {
    let s: Status | null;
    try {
      s = pl.preEnqueue(pInfo.podInfo.pod);
    } catch (err) {
      s = new Status(Code.Error, `PreEnqueue plugin ${pl.name()} failed`);
      this.logger.error("Unexpected error running PreEnqueue plugin", {
        err,
        plugin: pl.name(),
        pod: podKey(pInfo.podInfo.pod),
      });
    }
    if (s === null || s.code === Code.Success) return true;
    pInfo.unschedulablePlugins.add(pl.name());
    pInfo.gatingPlugin = pl.name();
    return false;
  }

  // --- moves ---

  /**
   * Moves the pod to activeQ unless PreEnqueue gates it (then it goes to the unschedulable pool).
   * PreEnqueue is skipped for pods coming straight from backoffQ with PopFromBackoffQ (it ran when
   * they entered backoffQ).
   */
  private moveToActiveQ(pInfo: QueuedPodInfo, event: string, movesFromBackoffQ: boolean): boolean {
    if (!(this.popFromBackoffQ && movesFromBackoffQ)) this.runPreEnqueuePlugins(pInfo);
    if (pInfo.gatingPlugin !== "") {
      if (this.unschedulablePods.addOrUpdate(pInfo)) this.metrics.incomingPod?.("unschedulable", event);
      return false;
    }
    if (pInfo.initialAttemptTimestamp === null) pInfo.initialAttemptTimestamp = this.clock.now();
    this.unschedulablePods.delete(pInfo);
    this.activeQ.queue.addOrUpdate(pInfo);
    this.metrics.incomingPod?.("active", event);
    return true;
  }

  /** Moves the pod to backoffQ; with PopFromBackoffQ, PreEnqueue runs here and may gate it. */
  private moveToBackoffQ(pInfo: QueuedPodInfo, event: string): boolean {
    if (this.popFromBackoffQ) {
      this.runPreEnqueuePlugins(pInfo);
      if (pInfo.gatingPlugin !== "") {
        if (this.unschedulablePods.addOrUpdate(pInfo)) {
          this.metrics.incomingPod?.("unschedulable", event);
        }
        return false;
      }
    }
    this.unschedulablePods.delete(pInfo);
    this.backoffQ.add(pInfo);
    this.metrics.incomingPod?.("backoff", event);
    return true;
  }

  private addToUnschedulable(pInfo: QueuedPodInfo, event: string): void {
    if (this.unschedulablePods.addOrUpdate(pInfo)) {
      this.metrics.incomingPod?.("unschedulable", event);
    }
  }

  /** Requeues by strategy; returns where the pod went. */
  private requeuePodWithQueueingStrategy(
    pInfo: QueuedPodInfo,
    strategy: QueueingStrategy,
    event: string,
  ): InternalQueue {
    if (strategy === QueueingStrategy.queueSkip) {
      this.addToUnschedulable(pInfo, event);
      return unschedulableQName;
    }
    // The backoff may have completed while the pod waited in the pool.
    if (strategy === QueueingStrategy.queueAfterBackoff && this.backoffQ.isPodBackingoff(pInfo)) {
      return this.moveToBackoffQ(pInfo, event) ? backoffQName : unschedulableQName;
    }
    return this.moveToActiveQ(pInfo, event, false) ? activeQName : unschedulableQName;
  }

  private newQueuedPodInfo(pod: Pod): QueuedPodInfo {
    return {
      podInfo: new PodInfo(pod),
      timestamp: this.clock.now(),
      attempts: 0,
      unschedulableCount: 0,
      consecutiveErrorsCount: 0,
      initialAttemptTimestamp: null,
      unschedulablePlugins: new Set(),
      pendingPlugins: new Set(),
      gatingPlugin: "",
    };
  }

  // --- informer events for unscheduled pods ---

  /** A new unscheduled pod: to activeQ, or to the pool when PreEnqueue gates it. */
  add(pod: Pod): void {
    const pInfo = this.newQueuedPodInfo(pod);
    // Record the nomination even for gated pods, before the pod can be popped.
    this.nominator.addNominatedPod(pInfo.podInfo, null);
    this.moveToActiveQ(pInfo, clusterEventLabel(EventUnscheduledPodAdd), false);
    this.reportPending();
  }

  /**
   * An unscheduled pod changed: recorded for replay when in flight; updated in place in
   * activeQ/backoffQ; re-evaluated through the hints in the pool; added when unknown.
   */
  update(oldPod: Pod, newPod: Pod): void {
    // The pod itself is updated: the events are about the TargetPod.
    const events = podSchedulingPropertiesChange(newPod, oldPod, true);
    const key = lookupKey(oldPod);
    if (this.activeQ.addEventsIfPodInFlight(oldPod, newPod, events)) return;

    const inActive = this.activeQ.queue.getByKey(key);
    if (inActive) {
      inActive.podInfo = new PodInfo(newPod);
      this.activeQ.queue.addOrUpdate(inActive);
      this.nominator.updateNominatedPod(oldPod, inActive.podInfo);
      return;
    }
    const inBackoff = this.backoffQ.getByKey(key);
    if (inBackoff) {
      inBackoff.podInfo = new PodInfo(newPod);
      this.backoffQ.fix(inBackoff);
      this.nominator.updateNominatedPod(oldPod, inBackoff.podInfo);
      return;
    }
    const inPool = this.unschedulablePods.getByKey(key);
    if (inPool) {
      inPool.podInfo = new PodInfo(newPod);
      this.nominator.updateNominatedPod(oldPod, inPool.podInfo);
      for (const evt of events) {
        const hint = this.isPodWorthRequeuing(inPool, evt, oldPod, newPod);
        const queue = this.requeuePodWithQueueingStrategy(inPool, hint, clusterEventLabel(evt));
        if (queue === activeQName || (this.popFromBackoffQ && queue === backoffQName)) break;
      }
      this.reportPending();
      return;
    }
    this.add(newPod);
  }

  /** The pod was deleted (or bound by someone else): drop it everywhere. */
  delete(pod: Pod): void {
    this.nominator.delete(pod);
    const key = lookupKey(pod);
    if (!this.activeQ.queue.deleteKey(key) && !this.backoffQ.deleteKey(key)) {
      const p = this.unschedulablePods.getByKey(key);
      if (p) this.unschedulablePods.delete(p);
    }
    this.reportPending();
  }

  /**
   * Moves the pods (key → pod) from the pool or backoffQ to activeQ (ForceActivate). A pod in
   * flight gets a targeted ForceActivate event, replayed when it comes back.
   */
  activate(pods: Map<string, Pod>): void {
    for (const pod of pods.values()) {
      if (this.activateOne(pod)) continue;
      this.activeQ.addEventsIfPodInFlight(null, pod, [EventForceActivate]);
    }
    this.reportPending();
  }

  private activateOne(pod: Pod): boolean {
    const key = lookupKey(pod);
    let pInfo = this.unschedulablePods.getByKey(key);
    let movesFromBackoffQ = false;
    if (!pInfo) {
      // Delete from backoffQ first so a flush cannot move it meanwhile.
      pInfo = this.backoffQ.deleteKey(key);
      if (!pInfo) return false;
      movesFromBackoffQ = true;
    }
    return this.moveToActiveQ(pInfo, SpecialEvents.ForceActivate, movesFromBackoffQ);
  }

  // --- scheduling ---

  /**
   * Pops the next pod to schedule: the head of activeQ, or with PopFromBackoffQ the head of the
   * plugin-rejection backoff heap when activeQ is empty. Counts an attempt and a scheduling cycle,
   * marks the pod in flight and clears its rejector plugins. null when there is nothing to pop.
   */
  pop(): QueuedPodInfo | null {
    for (;;) {
      let pInfo = this.activeQ.queue.pop();
      if (!pInfo && this.popFromBackoffQ) {
        pInfo = this.backoffQ.popBackoff();
        if (pInfo) this.metrics.incomingPod?.("active", SpecialEvents.PopFromBackoffQ);
      }
      if (!pInfo) return null;
      if (!this.activeQ.moveToInFlight(pInfo)) {
        this.logger.error(
          "the same pod is tracked in multiple places in the scheduler, and just discard it",
          {
            pod: podKey(pInfo.podInfo.pod),
          },
        );
        continue;
      }
      pInfo.unschedulablePlugins.clear();
      pInfo.pendingPlugins.clear();
      this.reportPending();
      return pInfo;
    }
  }

  /** Whether pop() would return a pod now. */
  hasActive(): boolean {
    return this.activeQ.queue.len() > 0 || (this.popFromBackoffQ && this.backoffQ.lenBackoff() > 0);
  }

  schedulingCycle(): number {
    return this.activeQ.schedCycle;
  }

  /** The pod's attempt is over (bound, or handed back through addUnschedulableIfNotPresent). */
  done(uid: string): void {
    this.activeQ.done(uid);
  }

  /** The pods popped and not done yet. */
  inFlightPods(): Pod[] {
    return this.activeQ.listInFlightPods();
  }

  /** Replays the events received while the pod was in flight through the hints. */
  private determineSchedulingHintForInFlightPod(pInfo: QueuedPodInfo): QueueingStrategy {
    if (pInfo.unschedulablePlugins.size === 0 && pInfo.pendingPlugins.size === 0) {
      // An unusual failure (an API error...): retry, or it would wait for the next flush.
      return QueueingStrategy.queueAfterBackoff;
    }
    const events = this.activeQ.clusterEventsForPod(podUID(pInfo.podInfo.pod));
    if (events === undefined) return QueueingStrategy.queueAfterBackoff;
    let strategy: QueueingStrategy = QueueingStrategy.queueSkip;
    for (const e of events) {
      const s = this.isPodWorthRequeuing(pInfo, e.event, e.oldObj, e.newObj);
      if (s === QueueingStrategy.queueImmediately) return s;
      if (s === QueueingStrategy.queueAfterBackoff) {
        strategy = s;
        if (pInfo.pendingPlugins.size === 0) return s;
      }
    }
    return strategy;
  }

  /**
   * Hands back a pod whose attempt failed (after the engine set its unschedulable/pending
   * plugins): counts the failure, and requeues it by the events seen while it was in flight.
   * Always marks the pod done. Throws when the pod is already queued. The cycle number is only
   * logged upstream (it decided requeueing before QueueingHints went GA).
   */
  addUnschedulableIfNotPresent(pInfo: QueuedPodInfo, _podSchedulingCycle: number): void {
    const pod = pInfo.podInfo.pod;
    try {
      const ref = `${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`;
      if (this.unschedulablePods.get(pInfo)) {
        throw new Error(`Pod ${ref} is already present in unschedulable queue`);
      }
      if (this.activeQ.queue.has(pInfo)) throw new Error(`Pod ${ref} is already present in the active queue`);
      if (this.backoffQ.has(pInfo)) throw new Error(`Pod ${ref} is already present in the backoff queue`);

      if (pInfo.unschedulablePlugins.size === 0 && pInfo.pendingPlugins.size === 0) {
        // Came back because of an error (network, API...).
        pInfo.consecutiveErrorsCount++;
      } else {
        pInfo.unschedulableCount++;
        // The error is gone.
        pInfo.consecutiveErrorsCount = 0;
      }
      pInfo.timestamp = this.clock.now();
      this.backoffQ.clearBackoffExpiration(pInfo);
      this.flushTimestamps.delete(pInfo);

      const hint = this.determineSchedulingHintForInFlightPod(pInfo);
      this.requeuePodWithQueueingStrategy(pInfo, hint, SpecialEvents.ScheduleAttemptFailure);
    } finally {
      this.done(podUID(pod));
      this.reportPending();
    }
  }

  /** Moves every pod whose backoff completed to activeQ (BackoffComplete). */
  flushBackoffQCompleted(): void {
    for (const pInfo of this.backoffQ.popAllBackoffCompleted()) {
      this.moveToActiveQ(pInfo, SpecialEvents.BackoffComplete, true);
    }
    this.reportPending();
  }

  /** Moves pods that stayed longer than podMaxInUnschedulablePodsDuration in the pool (UnschedulableTimeout). */
  flushUnschedulablePodsLeftover(): void {
    const now = this.clock.now();
    const toMove: QueuedPodInfo[] = [];
    for (const pInfo of this.unschedulablePods.podInfoMap.values()) {
      if (now - this.lastScheduleTime(pInfo) > this.podMaxInUnschedulablePodsDurationMs) {
        this.flushTimestamps.set(pInfo, now);
        toMove.push(pInfo);
      }
    }
    if (toMove.length > 0) this.movePodsToActiveOrBackoffQueue(toMove, EventUnschedulableTimeout, null, null);
    this.reportPending();
  }

  /** The later of the pod's last (re)queue time and its last leftover flush. */
  private lastScheduleTime(pInfo: QueuedPodInfo): number {
    const flushed = this.flushTimestamps.get(pInfo);
    return flushed !== undefined && flushed > pInfo.timestamp ? flushed : pInfo.timestamp;
  }

  // --- cluster events ---

  /**
   * A cluster event happened: re-evaluates the pool's pods (those passing `preCheck`) through the
   * queueing hints. Events no profile registered for are dropped before looking at any pod.
   */
  moveAllToActiveOrBackoffQueue(
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
    preCheck?: (pod: Pod) => boolean,
  ): void {
    this.moveAllInternal(event, oldObj, newObj, preCheck);
    this.reportPending();
  }

  private moveAllInternal(
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
    preCheck?: (pod: Pod) => boolean,
  ): void {
    if (!this.isEventOfInterest(event)) return;
    const pods: QueuedPodInfo[] = [];
    // Gated pods the event cannot ungate are left where they are here already (a pool of many
    // gated pods is not handed on for every assigned pod); movePodsToActiveOrBackoffQueue would
    // skip them the same way. When no gating plugin registered the event, not even looked at.
    const gateMayOpen = this.gateMayOpen(event);
    const pool = this.unschedulablePods;
    let walk = pool.podInfoMap;
    if (pool.gatedCount > 0 && pool.ungatedInOrder && !this.anyGateMayOpen(gateMayOpen))
      walk = pool.ungatedMap;
    for (const pInfo of walk.values()) {
      if (pInfo.gatingPlugin !== "" && !gateMayOpen(pInfo.gatingPlugin)) continue;
      if (!preCheck || preCheck(pInfo.podInfo.pod)) pods.push(pInfo);
    }
    this.movePodsToActiveOrBackoffQueue(pods, event, oldObj, newObj);
  }

  /**
   * Whether `event` can concern a pod gated by a given PreEnqueue plugin: a wildcard (periodic
   * flushes), or an event the plugin registered. Decided once per plugin per call; gated pods
   * mostly share one gating plugin, so the last answer is at hand without a lookup.
   */
  private gateMayOpen(event: ClusterEvent): (gatingPlugin: string) => boolean {
    if (clusterEventIsWildCard(event)) return () => true;
    const decided = new Map<string, boolean>();
    let lastPlugin = "";
    let lastMay = false;
    return (gatingPlugin) => {
      if (gatingPlugin === lastPlugin) return lastMay;
      let may = decided.get(gatingPlugin);
      if (may === undefined) {
        const gatingEvents = this.pluginToEventsMap.get(gatingPlugin) ?? [];
        may = gatingEvents.some((registered) => clusterEventMatch(registered, event));
        decided.set(gatingPlugin, may);
      }
      lastPlugin = gatingPlugin;
      lastMay = may;
      return may;
    };
  }

  /** Whether `gateMayOpen` holds for some PreEnqueue plugin of some profile (the plugins that gate). */
  private anyGateMayOpen(gateMayOpen: (gatingPlugin: string) => boolean): boolean {
    for (const plugins of this.preEnqueuePluginMap.values()) {
      for (const pl of plugins) if (gateMayOpen(pl.name())) return true;
    }
    return false;
  }

  private movePodsToActiveOrBackoffQueue(
    pods: readonly QueuedPodInfo[],
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
  ): void {
    if (!this.isEventOfInterest(event)) return;
    const label = clusterEventLabel(event);
    const gateMayOpen = this.gateMayOpen(event);
    for (const pInfo of pods) {
      // A gated pod only cares about its gating plugin's events (and wildcards: periodic flushes).
      if (pInfo.gatingPlugin !== "" && !gateMayOpen(pInfo.gatingPlugin)) continue;
      const hint = this.isPodWorthRequeuing(pInfo, event, oldObj, newObj);
      if (hint === QueueingStrategy.queueSkip) continue;
      this.unschedulablePods.delete(pInfo);
      this.requeuePodWithQueueingStrategy(pInfo, hint, label);
    }
    // In-flight pods may come back through addUnschedulableIfNotPresent and need this event.
    this.activeQ.addEventIfAnyInFlight(oldObj, newObj, event);
  }

  /** An assigned pod appeared: may satisfy pending pods' affinity or topology spread. */
  assignedPodAdded(pod: Pod): void {
    this.movePodsToActiveOrBackoffQueue(
      this.getUnschedulablePodsWithCrossTopologyTerm(pod),
      EventAssignedPodAdd,
      null,
      pod,
    );
    this.reportPending();
  }

  /**
   * An assigned pod changed. A scale-down may free resources for any pod; other changes
   * (labels...) only matter to pods with cross-topology terms.
   */
  assignedPodUpdated(oldPod: Pod, newPod: Pod, event: ClusterEvent): void {
    if (
      clusterEventMatch(
        { resource: EventResource.AssignedPod, actionType: ActionType.UpdatePodScaleDown },
        event,
      )
    ) {
      this.moveAllInternal(event, oldPod, newPod);
    } else {
      this.movePodsToActiveOrBackoffQueue(
        this.getUnschedulablePodsWithCrossTopologyTerm(newPod),
        event,
        oldPod,
        newPod,
      );
    }
    this.reportPending();
  }

  /** Pool pods rejected by PodTopologySpread in the pod's namespace, or with a required affinity term matching it. */
  private getUnschedulablePodsWithCrossTopologyTerm(pod: Pod): QueuedPodInfo[] {
    const ns = pod.metadata?.namespace ?? "";
    const nsLabels = this.namespaceLister?.get(ns)?.metadata?.labels;
    const out: QueuedPodInfo[] = [];
    for (const pInfo of this.unschedulablePods.podInfoMap.values()) {
      if (
        pInfo.unschedulablePlugins.has(PodTopologySpreadName) &&
        ns === (pInfo.podInfo.pod.metadata?.namespace ?? "")
      ) {
        out.push(pInfo);
        continue;
      }
      if (pInfo.podInfo.requiredAffinityTerms.some((term) => term.matches(pod, nsLabels))) out.push(pInfo);
    }
    return out;
  }

  // --- introspection ---

  /** The queued pod wherever it is (activeQ, backoffQ, pool, in flight). */
  getPod(pod: Pod): QueuedPodInfo | undefined {
    return this.getQueued(lookupKey(pod)) ?? this.activeQ.getInFlight(podUID(pod));
  }

  private getQueued(key: string): QueuedPodInfo | undefined {
    return (
      this.activeQ.queue.getByKey(key) ?? this.backoffQ.getByKey(key) ?? this.unschedulablePods.getByKey(key)
    );
  }

  /** Every pending pod with a summary of the queue sizes (upstream PendingPods). */
  pendingPods(): { pods: Pod[]; summary: string } {
    const active = this.activeQ.queue.list().map((p) => p.podInfo.pod);
    const backoff = this.backoffQ.list().map((p) => p.podInfo.pod);
    const pool = [...this.unschedulablePods.podInfoMap.values()].map((p) => p.podInfo.pod);
    return {
      pods: [...active, ...backoff, ...pool],
      summary: `activeQ:${active.length}; backoffQ:${backoff.length}; unschedulableEntities:${pool.length}`,
    };
  }

  podsInActiveQ(): Pod[] {
    return this.activeQ.queue.list().map((p) => p.podInfo.pod);
  }

  counts(): QueueCounts {
    const gated = this.unschedulablePods.gatedCount;
    return {
      active: this.activeQ.queue.len(),
      backoff: this.backoffQ.len(),
      unschedulable: this.unschedulablePods.size - gated,
      gated,
    };
  }

  private reportPending(): void {
    this.metrics.pendingPods?.(this.counts());
  }

  // --- PodNominator ---

  addNominatedPod(pi: PodInfo, ni: NominatingInfo | null): void {
    this.nominator.addNominatedPod(pi, ni);
  }

  deleteNominatedPodIfExists(pod: Pod): void {
    this.nominator.delete(pod);
  }

  updateNominatedPod(oldPod: Pod, newPodInfo: PodInfo): void {
    this.nominator.updateNominatedPod(oldPod, newPodInfo);
  }

  /**
   * The pods nominated to the node, as their queued PodInfos (PodInfos are immutable, so they are
   * shared rather than deep-copied); a pod not in the queue is represented by its name and UID only.
   */
  /** False when no pod is nominated to any node (PodNominator.hasNominatedPods). */
  hasNominatedPods(): boolean {
    return this.nominator.nominatedPods.size > 0;
  }

  /** The nodes with nominated pods (PodNominator.nominatedNodeNames): a live view of the nominator's keys. */
  nominatedNodeNames(): Iterable<string> {
    return this.nominator.nominatedPods.keys();
  }

  nominatedPodsForNode(nodeName: string): PodInfo[] {
    const refs = this.nominator.nominatedPodsForNode(nodeName);
    if (refs.length === 0) return noPodInfos;
    return refs.map((ref) => this.nominatedPodToInfo(ref));
  }

  private nominatedPodToInfo(ref: PodRef): PodInfo {
    const queued = this.getQueued(`${ref.namespace}/${ref.name}`);
    if (queued) return queued.podInfo;
    return new PodInfo({ metadata: { name: ref.name, namespace: ref.namespace, uid: ref.uid } });
  }
}
