import type { Clock, Timer } from "@kubesched/framework";

/** A Clock for tests: time moves only with advance(), which fires due timers in time order. */
export interface FakeClock extends Clock {
  /** Moves time forward by `ms`, firing every timer due by then (including ones they schedule). */
  advance(ms: number): void;
  /** Timers scheduled and not yet fired or cancelled. */
  pendingTimers(): number;
}

interface Entry {
  at: number;
  seq: number;
  fn: () => void;
  done: boolean;
}

/** A FakeClock starting at `start` milliseconds. */
export function fakeClock(start = 0): FakeClock {
  let t = start;
  let seq = 0;
  let timers: Entry[] = [];
  const next = (until: number): Entry | undefined => {
    let best: Entry | undefined;
    for (const e of timers) {
      if (e.done || e.at > until) continue;
      if (!best || e.at < best.at || (e.at === best.at && e.seq < best.seq)) best = e;
    }
    return best;
  };
  return {
    now: () => t,
    setTimeout(fn: () => void, ms: number): Timer {
      const e: Entry = { at: t + Math.max(0, ms), seq: seq++, fn, done: false };
      timers.push(e);
      return {
        cancel: () => {
          e.done = true;
        },
      };
    },
    advance(ms: number): void {
      const target = t + ms;
      for (let e = next(target); e; e = next(target)) {
        e.done = true;
        t = e.at;
        e.fn();
      }
      t = target;
      timers = timers.filter((e) => !e.done);
    },
    pendingTimers: () => timers.filter((e) => !e.done).length,
  };
}
