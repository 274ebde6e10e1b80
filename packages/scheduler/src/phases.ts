// Where a scheduling attempt's time goes: a per-phase breakdown of the scheduling and binding
// cycles, for benchmarks and profiling (`pnpm bench` prints it). Off unless a PhaseRecorder is
// given to Scheduler.create: the cycles then read one field per phase boundary and do nothing else.

/** The phases an attempt's time is split into, in cycle order. */
export const schedulingPhases = [
  /** queue.pop and the checks before a cycle (profile lookup, skipped pods). */
  "pop",
  /** cache.updateSnapshot: the NodeInfos (and columns) changed since the last cycle. */
  "snapshot",
  "preFilter",
  /** Filter over the nodes (with nominated pods), and filter extenders. */
  "filter",
  /** PostFilter (preemption) after a FitError. */
  "postFilter",
  /** PreScore, Score, NormalizeScore, weights, and prioritize extenders. */
  "score",
  /** selectHost and the result. */
  "select",
  /** The assumed pod: cache.assumePod, Reserve, Permit. */
  "assume",
  /** The binding cycle: PreBind, Bind (the API call and what the cluster source does with it), PostBind. */
  "bind",
  /** Events and pod status patches. */
  "events",
  /** A failed attempt back to the queue (handleSchedulingFailure without events and metrics). */
  "requeue",
  /** Scheduler metrics: attempt and extension point durations, plugin durations on sampled cycles. */
  "metrics",
] as const;

export type SchedulingPhase = (typeof schedulingPhases)[number];

/** Phase ids (indexes into schedulingPhases), for the hot paths. */
export const Phase = {
  Pop: 0,
  Snapshot: 1,
  PreFilter: 2,
  Filter: 3,
  PostFilter: 4,
  Score: 5,
  Select: 6,
  Assume: 7,
  Bind: 8,
  Events: 9,
  Requeue: 10,
  Metrics: 11,
} as const satisfies Record<string, number>;

/**
 * Accumulates wall time per phase. Only synchronous stretches are timed (a binding cycle is the
 * sum of its stretches between awaits), so the sum of the phases is the scheduler's own time;
 * what the caller measures beyond it is the event loop, promise resolution and the caller's code.
 */
export class PhaseRecorder {
  /** Milliseconds per phase, indexed like schedulingPhases. */
  readonly totalsMs = new Float64Array(schedulingPhases.length);
  /** Time recorded with `nested` since the last `lap`/`add`, taken out of the enclosing phase. */
  private carry = 0;

  /** Adds `now - since` to the phase (less nested time recorded meanwhile); returns now. */
  lap(phase: number, since: number): number {
    const t = performance.now();
    this.add(phase, t - since);
    return t;
  }

  /** Adds `ms` to the phase, less what `nested` recorded meanwhile. */
  add(phase: number, ms: number): void {
    (this.totalsMs as Float64Array)[phase] = (this.totalsMs[phase] as number) + ms - this.carry;
    this.carry = 0;
  }

  /** Time spent inside another phase's stretch (metrics observed in Filter): counted here, not there. */
  nested(phase: number, ms: number): void {
    (this.totalsMs as Float64Array)[phase] = (this.totalsMs[phase] as number) + ms;
    this.carry += ms;
  }

  reset(): void {
    this.totalsMs.fill(0);
    this.carry = 0;
  }

  /** Milliseconds per phase name. */
  totals(): Record<SchedulingPhase, number> {
    const out = {} as Record<SchedulingPhase, number>;
    schedulingPhases.forEach((name, i) => {
      out[name] = this.totalsMs[i] as number;
    });
    return out;
  }
}
