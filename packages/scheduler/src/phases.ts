// Where a scheduling attempt's time goes: a per-phase breakdown of the scheduling and binding
// cycles, for benchmarks and profiling (`pnpm bench` prints it). A PhaseRecorder is an observer
// (onPhase) given to Scheduler.create: the cycle's phase functions are then timed; without it they
// are not.
import { monotonicNow } from "@kubesched/framework";
import {
  observerMethods,
  type SchedulingObserver,
  type SchedulingPhase,
  schedulingPhases,
} from "@kubesched/runtime";

const phaseIndex = Object.fromEntries(schedulingPhases.map((name, i) => [name, i])) as Record<
  SchedulingPhase,
  number
>;

/**
 * Accumulates wall time per phase. Only synchronous stretches are timed (a binding cycle is the
 * sum of its stretches between awaits), so the sum of the phases is the scheduler's own time;
 * what the caller measures beyond it is the event loop, promise resolution and the caller's code.
 * Time in the "metrics" phase recorded within another phase's stretch is taken out of that phase.
 */
export class PhaseRecorder implements SchedulingObserver {
  /** Milliseconds per phase, indexed like schedulingPhases. */
  readonly totalsMs = new Float64Array(schedulingPhases.length);
  // Metrics stretches not yet taken out of the phase they ran in (that phase reports at its end):
  // their starts and durations in [0, metricsN), in buffers reused for the whole run.
  private metricsStart = new Float64Array(16);
  private metricsMs = new Float64Array(16);
  private metricsN = 0;

  onPhase(phase: SchedulingPhase, startMs: number, endMs: number): void {
    let ms = endMs - startMs;
    if (phase === "metrics") {
      if (this.metricsN === this.metricsStart.length) this.grow();
      this.metricsStart[this.metricsN] = startMs;
      this.metricsMs[this.metricsN] = ms;
      this.metricsN++;
    } else {
      for (let k = 0; k < this.metricsN; k++) {
        if ((this.metricsStart[k] as number) >= startMs) ms -= this.metricsMs[k] as number;
      }
      this.metricsN = 0;
    }
    const i = phaseIndex[phase];
    this.totalsMs[i] = (this.totalsMs[i] as number) + ms;
  }

  private grow(): void {
    const start = new Float64Array(this.metricsStart.length * 2);
    const ms = new Float64Array(start.length);
    start.set(this.metricsStart);
    ms.set(this.metricsMs);
    this.metricsStart = start;
    this.metricsMs = ms;
  }

  reset(): void {
    this.totalsMs.fill(0);
    this.metricsN = 0;
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

type AnyMethod = (...args: unknown[]) => void;

/**
 * `observer` with the time each of its events takes reported to `phases` as the "metrics" phase:
 * how the scheduler's metrics are told apart from the phase they are recorded in.
 */
export function timedAsMetrics(observer: SchedulingObserver, phases: SchedulingObserver): SchedulingObserver {
  const onPhase = phases.onPhase;
  if (onPhase === undefined) return observer;
  const out: Partial<Record<keyof SchedulingObserver, AnyMethod>> = {};
  for (const m of observerMethods) {
    const f = observer[m] as AnyMethod | undefined;
    if (typeof f !== "function") continue;
    out[m] = (...args) => {
      const start = monotonicNow();
      f.apply(observer, args);
      onPhase.call(phases, "metrics", start, monotonicNow());
    };
  }
  return out as SchedulingObserver;
}
