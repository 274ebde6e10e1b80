import type { Clock, Timer } from "@kubesched/framework";

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * A clock that only moves when told to: the simulator jumps it to the next timer when the
 * scheduler is idle, so backoffs and timeouts cost no wall time. Timers due at the same
 * instant fire in the order they were set.
 */
export class SimulatedClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: PendingTimer[] = [];

  constructor(start = 0) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

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
    this.timers = this.timers.filter((t) => !t.cancelled);
    let min: number | null = null;
    for (const t of this.timers) if (min === null || t.at < min) min = t.at;
    return min;
  }

  /** Moves time forward (never back) and fires every timer due by then, in order. */
  advanceTo(t: number): void {
    if (t > this.t) this.t = t;
    for (;;) {
      const due = this.timers
        .filter((x) => !x.cancelled && x.at <= this.t)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      due.cancelled = true;
      due.fn();
    }
    this.timers = this.timers.filter((x) => !x.cancelled);
  }

  advance(ms: number): void {
    this.advanceTo(this.t + ms);
  }
}
