// Time as the scheduler reads it (upstream: k8s.io/utils/clock, which kube-scheduler is handed as
// a clock.WithTicker). Milliseconds throughout; the simulator substitutes a ManualClock.

/**
 * A timer set with {@link Clock.setTimeout}.
 * @public
 */
export interface Timer {
  /** Stops the timer; its callback does not run. Calling it after the timer fired does nothing. */
  cancel(): void;
}

/**
 * The time source the scheduler and plugins read (`handle.clock()`): the real clock in a live
 * scheduler, a {@link ManualClock} in the simulator, which jumps to the next timer when idle.
 * Plugins that wait (Permit timeouts, backoffs of their own) use it instead of `Date.now()` and
 * `setTimeout`, so that a simulation stays deterministic.
 * @public
 */
export interface Clock {
  /** The current time in milliseconds since the epoch (or since the simulation's start). */
  now(): number;
  /** Calls `fn` once, `ms` milliseconds from now (as this clock counts them). */
  setTimeout(fn: () => void, ms: number): Timer;
}

/**
 * The wall clock (`Date.now()` and the host's timers): what the scheduler runs on outside the
 * simulator.
 * @internal
 */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(t) };
  },
};

/** The host's `performance`, read once: the global is a getter on every read in Node.js. */
const perf = globalThis.performance;

/**
 * Monotonic milliseconds (`performance.now()`) for measuring durations: instrumentation and
 * the filter timeout (wall time even in the simulator, where {@link Clock} is simulated).
 * @internal
 */
export function monotonicNow(): number {
  return perf.now();
}
