// scheduler_perf's throughputCollector (test/integration/scheduler_perf/util.go), driven by
// polling instead of a goroutine ticker: the scheduling loop calls poll() often, and a tick
// happens at the first poll at or after each 1 s boundary (a late tick drops the missed ones,
// like time.Ticker). Per tick:
//   - no pod scheduled yet: ignored;
//   - the first tick with scheduled pods is skipped (start-up outlier) and starts the clock;
//   - no progress since the last sample: the interval is merged into the next one (`skipped`);
//   - otherwise rate = newly scheduled / actual elapsed seconds, recorded skipped+1 times.
// The partial interval at the end is not recorded (upstream stops the collector there).

export interface ThroughputSummary {
  /** Number of samples (1-s intervals). */
  samples: number;
  average: number;
  perc50: number;
  perc90: number;
  perc95: number;
  perc99: number;
}

/** One recorded sample and when its interval ended (seconds since collection started). */
export interface TimedSample {
  t: number;
  rate: number;
}

export class ThroughputSampler {
  readonly samples: number[] = [];
  /** The samples in the order recorded, each at the end of its 1-s interval (a merged interval's at each of its ticks). */
  readonly timeline: TimedSample[] = [];
  private nextTickAt: number;
  private lastCount: number;
  private lastSampleAt: number;
  private started = false;
  private skipped = 0;

  /**
   * @param start wall-clock ms when collection starts (the ticker is created)
   * @param initialCount pods already scheduled in the measured namespaces at start
   */
  constructor(
    readonly start: number,
    initialCount = 0,
    readonly intervalMs = 1000,
  ) {
    this.nextTickAt = start + intervalMs;
    this.lastCount = initialCount;
    this.lastSampleAt = start;
  }

  /** When the next tick is due. */
  dueAt(): number {
    return this.nextTickAt;
  }

  /** Call often with the current time and the scheduled count; ticks when a boundary passed. */
  poll(now: number, scheduled: number): void {
    if (now < this.nextTickAt) return;
    this.nextTickAt = this.start + (Math.floor((now - this.start) / this.intervalMs) + 1) * this.intervalMs;
    this.tick(now, scheduled);
  }

  /** One ticker tick (exposed for tests). */
  tick(now: number, scheduled: number): void {
    if (scheduled === 0) return;
    if (!this.started) {
      this.started = true;
      this.lastCount = scheduled;
      this.lastSampleAt = now;
      return;
    }
    const newly = scheduled - this.lastCount;
    if (newly === 0) {
      this.skipped++;
      return;
    }
    const seconds = (now - this.lastSampleAt) / 1000;
    const rate = newly / seconds;
    for (let i = 0; i <= this.skipped; i++) {
      this.samples.push(rate);
      const t = (now - this.start - (this.skipped - i) * this.intervalMs) / 1000;
      this.timeline.push({ t: Math.round(t * 1000) / 1000, rate });
    }
    this.lastCount = scheduled;
    this.skipped = 0;
    this.lastSampleAt = now;
  }

  summary(): ThroughputSummary | null {
    return summarize(this.samples);
  }
}

/** samples[ceil(n*p/100)-1] of the sorted samples (upstream's percentile pick). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.max(0, Math.ceil((sorted.length * p) / 100) - 1);
  return sorted[Math.min(i, sorted.length - 1)] as number;
}

/** Average and percentiles as scheduler_perf reports SchedulingThroughput; null without samples. */
export function summarize(samples: readonly number[]): ThroughputSummary | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  let sum = 0;
  for (const s of sorted) sum += s;
  return {
    samples: sorted.length,
    average: sum / sorted.length,
    perc50: percentile(sorted, 50),
    perc90: percentile(sorted, 90),
    perc95: percentile(sorted, 95),
    perc99: percentile(sorted, 99),
  };
}
