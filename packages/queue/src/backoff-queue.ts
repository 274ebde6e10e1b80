// upstream: pkg/scheduler/backend/queue/backoff_queue.go
import { podKey } from "@kubesched/api";
import type { Clock, QueuedPodInfo } from "@kubesched/framework";
import { Heap } from "./heap";

/**
 * The backoffQ ordering window: with PopFromBackoffQ, expirations are truncated to whole seconds
 * and pods in one window are ordered like activeQ; flushes run at every window boundary.
 */
export const backoffQOrderingWindowMs = 1000;

/** "No backoff": before any time, including a simulated clock starting at 0. */
const noBackoff = Number.NEGATIVE_INFINITY;

export function queuedPodInfoKey(pInfo: QueuedPodInfo): string {
  return podKey(pInfo.podInfo.pod);
}

/**
 * Two heaps ordered by backoff expiration, used as one queue: pods rejected by plugins, and pods
 * that failed with an error (no rejecting plugin), which PopFromBackoffQ never pops early.
 */
export class BackoffQueue {
  readonly podBackoffQ: Heap<QueuedPodInfo>;
  readonly podErrorBackoffQ: Heap<QueuedPodInfo>;
  /** Cached backoff expirations, cleared when the pod comes back after an attempt. */
  private readonly expirations = new WeakMap<QueuedPodInfo, number>();

  constructor(
    private readonly clock: Clock,
    readonly podInitialBackoffMs: number,
    readonly podMaxBackoffMs: number,
    activeQLessFn: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean,
    private readonly popFromBackoffQ: boolean,
  ) {
    const lessBackoffCompleted = (a: QueuedPodInfo, b: QueuedPodInfo): boolean =>
      this.getBackoffTime(a) < this.getBackoffTime(b);
    // Within one window, order as activeQ does, so popping early takes the most important pod.
    const lessBackoffCompletedWithPriority = (a: QueuedPodInfo, b: QueuedPodInfo): boolean => {
      const bo1 = this.getBackoffTime(a);
      const bo2 = this.getBackoffTime(b);
      if (bo1 !== bo2) return bo1 < bo2;
      return activeQLessFn(a, b);
    };
    this.podBackoffQ = new Heap(
      queuedPodInfoKey,
      popFromBackoffQ ? lessBackoffCompletedWithPriority : lessBackoffCompleted,
    );
    this.podErrorBackoffQ = new Heap(queuedPodInfoKey, lessBackoffCompleted);
  }

  /** Truncates to the ordering window (only with PopFromBackoffQ). */
  alignToWindow(t: number): number {
    return this.popFromBackoffQ ? Math.floor(t / backoffQOrderingWindowMs) * backoffQOrderingWindowMs : t;
  }

  /** Whether the pod is still backing off; a pod whose expiration is in the current window still is. */
  isPodBackingoff(pInfo: QueuedPodInfo, now: number = this.clock.now()): boolean {
    return this.getBackoffTime(pInfo) >= this.alignToWindow(now);
  }

  /**
   * When the pod's backoff ends: timestamp + initial × 2^(count−1) capped at max, count being
   * consecutiveErrorsCount when the last attempt errored, else unschedulableCount. Cached.
   */
  getBackoffTime(pInfo: QueuedPodInfo): number {
    if (this.podMaxBackoffMs === 0) return noBackoff;
    const count = pInfo.consecutiveErrorsCount > 0 ? pInfo.consecutiveErrorsCount : pInfo.unschedulableCount;
    if (count === 0) return noBackoff;
    let exp = this.expirations.get(pInfo);
    if (exp === undefined) {
      exp = this.alignToWindow(pInfo.timestamp + this.calculateBackoffDuration(count));
      this.expirations.set(pInfo, exp);
    }
    return exp;
  }

  calculateBackoffDuration(count: number): number {
    if (count === 0) return 0;
    return Math.min(this.podInitialBackoffMs * 2 ** (count - 1), this.podMaxBackoffMs);
  }

  /** Forgets the cached expiration (the counters or the timestamp changed). */
  clearBackoffExpiration(pInfo: QueuedPodInfo): void {
    this.expirations.delete(pInfo);
  }

  private popAllBackoffCompletedWithQueue(q: Heap<QueuedPodInfo>, now: number, out: QueuedPodInfo[]): void {
    for (;;) {
      const pInfo = q.peek();
      if (!pInfo || this.isPodBackingoff(pInfo, now)) break;
      q.pop();
      out.push(pInfo);
    }
  }

  /** Pops every pod whose backoff completed, from both heaps. */
  popAllBackoffCompleted(): QueuedPodInfo[] {
    const now = this.clock.now();
    const out: QueuedPodInfo[] = [];
    this.popAllBackoffCompletedWithQueue(this.podBackoffQ, now, out);
    this.popAllBackoffCompletedWithQueue(this.podErrorBackoffQ, now, out);
    return out;
  }

  /** Adds the pod to the heap matching its last failure (rejection or error). */
  add(pInfo: QueuedPodInfo): void {
    if (pInfo.unschedulablePlugins.size === 0 && pInfo.pendingPlugins.size === 0) {
      this.podErrorBackoffQ.addOrUpdate(pInfo);
      this.podBackoffQ.delete(pInfo);
      return;
    }
    this.podBackoffQ.addOrUpdate(pInfo);
    this.podErrorBackoffQ.delete(pInfo);
  }

  /** Re-sorts the pod after an in-place change. */
  fix(pInfo: QueuedPodInfo): void {
    if (this.podBackoffQ.has(pInfo)) this.podBackoffQ.addOrUpdate(pInfo);
    else if (this.podErrorBackoffQ.has(pInfo)) this.podErrorBackoffQ.addOrUpdate(pInfo);
  }

  deleteKey(key: string): QueuedPodInfo | undefined {
    return this.podBackoffQ.deleteKey(key) ?? this.podErrorBackoffQ.deleteKey(key);
  }

  /** Pops the head of the plugin-rejection heap (never the error heap), for PopFromBackoffQ. */
  popBackoff(): QueuedPodInfo | undefined {
    return this.podBackoffQ.pop();
  }

  lenBackoff(): number {
    return this.podBackoffQ.len();
  }

  getByKey(key: string): QueuedPodInfo | undefined {
    return this.podBackoffQ.getByKey(key) ?? this.podErrorBackoffQ.getByKey(key);
  }

  has(pInfo: QueuedPodInfo): boolean {
    return this.podBackoffQ.has(pInfo) || this.podErrorBackoffQ.has(pInfo);
  }

  list(): QueuedPodInfo[] {
    return [...this.podBackoffQ.list(), ...this.podErrorBackoffQ.list()];
  }

  len(): number {
    return this.podBackoffQ.len() + this.podErrorBackoffQ.len();
  }
}
