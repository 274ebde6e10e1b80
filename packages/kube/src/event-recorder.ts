// events.k8s.io/v1 Events, as client-go's event broadcaster records them for kube-scheduler
// (upstream tools/events event_broadcaster.go and event_recorder.go):
//
// - eventf() never blocks and never throws: the event is queued (at most 1000; more are dropped)
//   and written by 8 workers.
// - Isomorphic events (same type, action, reason, reporting controller and instance, regarding
//   and related object; the note may differ) form a series: the first is created (POST); the
//   second PATCHes that Event with `series: {count: 2, lastObservedTime}`; later ones only count,
//   in memory. A series quiet for 6 minutes gets its final count patched and is forgotten (checked
//   every 6 minutes); every 30 minutes the counts of live series are patched. A singleton is
//   forgotten 6 minutes after it happened.
// - A PATCH answered 404 (the Event expired) creates the Event again. Writes the server rejects
//   are dropped; writes that get no answer are retried up to 12 times, 10 s (jittered) apart.
// - shutdown() stops at once: queued events are dropped and writes in flight aborted, as the
//   broadcaster's Shutdown does; nothing waits for a server that does not answer.
import { formatMicroTime, type Pod } from "@kubesched/api";
import type { Clock, EventRecorder, EventType } from "@kubesched/framework";
import { isNotFound, KubeApiError } from "./api-error";
import { jitter } from "./backoff";
import type { RawClient } from "./raw-client";

/** upstream: the events API's note limit (1 kB). */
export const maxNoteLength = 1024;

/** upstream event_broadcaster.go constants. */
export const eventSeriesFinishMs = 6 * 60_000;
export const eventSeriesRefreshMs = 30 * 60_000;
export const maxQueuedEvents = 1000;
const maxTriesPerEvent = 12;
const recordWorkers = 8;
const defaultSleepMs = 10_000;

const defaultSchedulerName = "default-scheduler";

/** Real time whose timers never keep the process alive (the series ticks, retry sleeps). */
const backgroundClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return { cancel: () => clearTimeout(t) };
  },
};

export interface KubeEventRecorderOptions {
  /** The events client (kube-scheduler writes events through its own client and rate limiter). */
  client: RawClient;
  /** reportingInstance is `<reportingController>-<host>`, as upstream. */
  host: string;
  /** Current time in ms (default Date.now). */
  now?: () => number;
  /** Timers for retries and the series' refresh/finish ticks (default: real time). */
  clock?: Clock;
  /** Delay between retries of a write that got no answer (default 10 s, jittered by 25%). */
  retrySleepMs?: number;
  onError?: (err: Error) => void;
}

interface ObjectReference {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

/** events.k8s.io/v1 Event, as written. */
export interface EventV1 {
  apiVersion: "events.k8s.io/v1";
  kind: "Event";
  metadata: { name: string; namespace: string; resourceVersion?: string };
  eventTime: string;
  series?: { count: number; lastObservedTime: string };
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  note: string;
  type: EventType;
  regarding: ObjectReference;
  related?: ObjectReference;
}

interface Cached {
  event: EventV1;
  /** eventTime, or the series' lastObservedTime, in ms. */
  lastObserved: number;
}

function podRef(pod: Pod): ObjectReference {
  const m = pod.metadata;
  return {
    apiVersion: "v1",
    kind: "Pod",
    ...(m?.namespace ? { namespace: m.namespace } : {}),
    ...(m?.name ? { name: m.name } : {}),
    ...(m?.uid ? { uid: m.uid } : {}),
    ...(m?.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

function refKey(r: ObjectReference | undefined): string {
  return r ? [r.apiVersion, r.kind, r.namespace, r.name, r.uid, r.resourceVersion].join("\u0001") : "";
}

/** upstream getKey: everything but the note and the times. */
function eventKey(e: EventV1): string {
  return [
    e.type,
    e.action,
    e.reason,
    e.reportingController,
    e.reportingInstance,
    refKey(e.regarding),
    refKey(e.related),
  ].join("\u0000");
}

export function truncateNote(note: string): string {
  return note.length > maxNoteLength ? `${note.slice(0, maxNoteLength - 3)}...` : note;
}

export class KubeEventRecorder implements EventRecorder {
  private readonly cache = new Map<string, Cached>();
  private readonly queue: EventV1[] = [];
  private workers = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private seq = 0;
  private stopped = false;
  private readonly clock: Clock;
  private readonly now: () => number;
  private readonly ticks: { cancel(): void }[] = [];
  private readonly sleeping = new Set<() => void>();
  /** Events dropped because the queue was full. */
  dropped = 0;
  /** Writes made: creates (POST) and series patches (PATCH). */
  readonly writes = { create: 0, patch: 0 };

  constructor(private readonly opts: KubeEventRecorderOptions) {
    this.clock = opts.clock ?? backgroundClock;
    this.now = opts.now ?? (() => this.clock.now());
    this.schedule(() => this.finishSeries(), eventSeriesFinishMs);
    this.schedule(() => this.refreshSeries(), eventSeriesRefreshMs);
  }

  /** wait.Until(fn, period): runs fn every period until shutdown. */
  private schedule(fn: () => void, periodMs: number): void {
    const tick = () => {
      if (this.stopped) return;
      fn();
      this.ticks.push(this.clock.setTimeout(tick, periodMs));
      if (this.ticks.length > 4) this.ticks.splice(0, this.ticks.length - 4);
    };
    this.ticks.push(this.clock.setTimeout(tick, periodMs));
  }

  eventf(
    regarding: Pod,
    related: Pod | null,
    type: EventType,
    reason: string,
    action: string,
    note: string,
  ): void {
    if (this.stopped) return;
    // The profile that acted: the preemptor's for Preempted (regarding is the victim).
    const controller = (related ?? regarding).spec?.schedulerName || defaultSchedulerName;
    const nowMs = this.now();
    const namespace = regarding.metadata?.namespace || "default";
    // Nanoseconds, unique within this process even for events in the same millisecond.
    const nanos = BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
    const event: EventV1 = {
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: `${regarding.metadata?.name ?? "unknown"}.${nanos.toString(16)}`, namespace },
      eventTime: formatMicroTime(nowMs),
      reportingController: controller,
      reportingInstance: `${controller}-${this.opts.host}`,
      action,
      reason,
      note: truncateNote(note),
      type,
      regarding: podRef(regarding),
      ...(related ? { related: podRef(related) } : {}),
    };
    this.recordToSink(event, nowMs);
  }

  /** upstream recordToSink: a new event, the second of a series, or just one more of it. */
  private recordToSink(event: EventV1, nowMs: number): void {
    const key = eventKey(event);
    const iso = this.cache.get(key);
    let record: EventV1;
    if (iso) {
      iso.lastObserved = nowMs;
      if (iso.event.series) {
        iso.event.series.count++;
        iso.event.series.lastObservedTime = formatMicroTime(nowMs);
        return;
      }
      iso.event.series = { count: 2, lastObservedTime: formatMicroTime(nowMs) };
      record = structuredClone(iso.event);
    } else {
      this.cache.set(key, { event, lastObserved: nowMs });
      record = structuredClone(event);
    }
    if (this.queue.length >= maxQueuedEvents) {
      this.dropped++;
      this.opts.onError?.(
        new Error(`Unable to record event: too many queued events, dropped event ${record.metadata.name}`),
      );
      return;
    }
    this.queue.push(record);
    this.startWorkers();
  }

  private startWorkers(): void {
    while (this.workers < recordWorkers && this.queue.length > 0) {
      this.workers++;
      void this.worker();
    }
  }

  private async worker(): Promise<void> {
    try {
      for (let e = this.queue.shift(); e && !this.stopped; e = this.queue.shift()) {
        await this.attemptRecording(e);
      }
    } finally {
      this.workers--;
      if (this.workers === 0 && (this.queue.length === 0 || this.stopped)) {
        for (const w of this.idleWaiters.splice(0)) w();
      }
    }
  }

  private async attemptRecording(event: EventV1): Promise<void> {
    for (let tries = 1; ; tries++) {
      const { retry } = await this.recordEvent(event);
      if (!retry || this.stopped) return;
      if (tries >= maxTriesPerEvent) {
        this.opts.onError?.(
          new Error(`Unable to write event ${event.metadata.name} (retry limit exceeded!)`),
        );
        return;
      }
      await this.sleep(jitter(this.opts.retrySleepMs ?? defaultSleepMs, 0.25));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        t.cancel();
        this.sleeping.delete(done);
        resolve();
      };
      const t = this.clock.setTimeout(done, ms);
      this.sleeping.add(done);
    });
  }

  private path(e: EventV1): string {
    return `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(e.metadata.namespace)}/events`;
  }

  /** upstream recordEvent: PATCH a series (create when it is gone), else create. */
  private async recordEvent(event: EventV1): Promise<{ recorded: EventV1 | null; retry: boolean }> {
    const client = this.opts.client;
    const isSeries = event.series !== undefined;
    try {
      if (isSeries) {
        try {
          this.writes.patch++;
          const patched = await client.request<EventV1>(
            "PATCH",
            `${this.path(event)}/${encodeURIComponent(event.metadata.name)}`,
            { body: { series: event.series }, contentType: "application/strategic-merge-patch+json" },
          );
          return { recorded: patched, retry: false };
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
      const { resourceVersion: _rv, ...metadata } = event.metadata;
      this.writes.create++;
      const created = await client.request<EventV1>("POST", this.path(event), {
        body: { ...event, metadata },
      });
      return { recorded: created, retry: false };
    } catch (e) {
      if (this.stopped) return { recorded: null, retry: false };
      const err = e instanceof Error ? e : new Error(String(e));
      if (e instanceof KubeApiError && e.statusCode !== 0) {
        // The server rejected it: retrying would not change that (but an Event that now exists
        // while a series was being created can be patched).
        if (e.statusCode === 409 && isSeries) return { recorded: null, retry: true };
        this.opts.onError?.(new Error(`Server rejected event (will not retry!): ${err.message}`));
        return { recorded: null, retry: false };
      }
      this.opts.onError?.(new Error(`Unable to write event (may retry after sleeping): ${err.message}`));
      return { recorded: null, retry: true };
    }
  }

  /** upstream finishSeries: final counts of quiet series; forget old singletons. */
  private finishSeries(): void {
    const cutoff = this.now() - eventSeriesFinishMs;
    for (const [key, c] of [...this.cache]) {
      if (c.lastObserved >= cutoff) continue;
      const snapshot = structuredClone(c.event);
      if (!c.event.series) {
        this.cache.delete(key);
        continue;
      }
      void this.recordEvent(snapshot).then(({ retry }) => {
        if (retry) return;
        const cur = this.cache.get(key);
        // Observed again while the write was in flight: the series goes on.
        if (cur && cur.event.series?.count === snapshot.series?.count) this.cache.delete(key);
      });
    }
  }

  /** upstream refreshExistingEventSeries: write the counts of live series. */
  private refreshSeries(): void {
    for (const c of this.cache.values()) {
      if (c.event.series) void this.recordEvent(structuredClone(c.event));
    }
  }

  /** Runs the periodic series tasks now (tests; upstream runs them on their timers). */
  runSeriesTasks(): void {
    this.finishSeries();
    this.refreshSeries();
  }

  /** Series and singletons remembered (tests). */
  cachedEvents(): EventV1[] {
    return [...this.cache.values()].map((c) => c.event);
  }

  /** Waits for the events queued so far to be written (or given up). */
  flush(): Promise<void> {
    if (this.workers === 0 && (this.queue.length === 0 || this.stopped)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * The broadcaster's Shutdown: no more events, queued ones dropped, retries stopped, writes in
   * flight aborted. Resolves when the workers have ended.
   */
  async shutdown(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    for (const t of this.ticks) t.cancel();
    for (const wake of [...this.sleeping]) wake();
    this.opts.client.abortAll("the event recorder was shut down", true);
    await this.flush();
  }
}
