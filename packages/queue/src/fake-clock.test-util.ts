// A manual clock for tests: timers fire when step() moves time past them.
import type { Clock, Timer } from "@kubesched/framework";

export class FakeClock implements Clock {
  private timers: { at: number; fn: () => void; cancelled: boolean }[] = [];

  constructor(private t: number) {}

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): Timer {
    const timer = { at: this.t + ms, fn, cancelled: false };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Advances time by `ms`, firing due timers in order. */
  step(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => !x.cancelled && x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = due.at;
      due.fn();
    }
    this.t = end;
  }

  pendingTimers(): number {
    return this.timers.filter((x) => !x.cancelled).length;
  }
}
