// A Clock that moves only when told to: the simulator's clock and every test's (upstream tests use
// k8s.io/utils/clock/testing.FakeClock the same way).
import type { Clock, Timer } from "./clock";

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * A Clock that moves only when told to: the simulator jumps it to the next timer when the
 * scheduler is idle (backoffs and timeouts cost no wall time), and tests step it by hand. While
 * advancing, timers fire in time order, then in the order they were set; a timer's callback sees
 * the clock at the timer's due time, and timers it sets fire in the same advance when due.
 * Plugin tests get one from `@kubesched/testing`'s `fakeClock()`.
 * @internal
 */
export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: PendingTimer[] = [];

  /** A clock at `start` milliseconds, with no timers. */
  constructor(start = 0) {
    this.t = start;
  }

  /** The current (manual) time in milliseconds. */
  now(): number {
    return this.t;
  }

  /** Calls `fn` when the clock is advanced to `now() + ms` or beyond. */
  setTimeout(fn: () => void, ms: number): Timer {
    const timer: PendingTimer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** When the next live timer is due, or null. */
  nextTimerAt(): number | null {
    let min: number | null = null;
    for (const t of this.timers) if (!t.cancelled && (min === null || t.at < min)) min = t.at;
    return min;
  }

  /** Timers set and not yet fired or cancelled. */
  pendingTimers(): number {
    let n = 0;
    for (const t of this.timers) if (!t.cancelled) n++;
    return n;
  }

  /** Moves time forward to `t` (never back), firing every timer due by then. */
  advanceTo(t: number): void {
    for (let due = this.nextDue(t); due; due = this.nextDue(t)) {
      due.cancelled = true;
      if (due.at > this.t) this.t = due.at;
      due.fn();
    }
    if (t > this.t) this.t = t;
    this.timers = this.timers.filter((x) => !x.cancelled);
  }

  /** Moves time forward by `ms`, firing every timer due by then. */
  advance(ms: number): void {
    this.advanceTo(this.t + ms);
  }

  private nextDue(until: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const e of this.timers) {
      if (e.cancelled || e.at > until) continue;
      if (!best || e.at < best.at || (e.at === best.at && e.seq < best.seq)) best = e;
    }
    return best;
  }
}
