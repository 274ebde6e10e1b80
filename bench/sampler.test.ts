import { describe, expect, it } from "vitest";
import { percentile, summarize, ThroughputSampler } from "./lib/sampler";

describe("ThroughputSampler", () => {
  it("ignores ticks before the first scheduled pod and skips the first non-zero sample", () => {
    const s = new ThroughputSampler(0);
    s.tick(1000, 0);
    s.tick(2000, 0);
    s.tick(3000, 50); // first non-zero: skipped, starts the clock
    expect(s.samples).toEqual([]);
    s.tick(4000, 150);
    expect(s.samples).toEqual([100]);
  });

  it("uses the actual elapsed time, not the nominal interval", () => {
    const s = new ThroughputSampler(0);
    s.tick(1000, 10);
    s.tick(2500, 160);
    expect(s.samples).toEqual([100]);
  });

  it("merges empty intervals into the next non-empty one and records it skipped+1 times", () => {
    const s = new ThroughputSampler(0);
    s.tick(1000, 100);
    s.tick(2000, 100); // no progress
    s.tick(3000, 100); // no progress
    s.tick(4000, 400); // 300 pods over 3 s
    expect(s.samples).toEqual([100, 100, 100]);
    s.tick(5000, 600);
    expect(s.samples).toEqual([100, 100, 100, 200]);
    // The timeline (the throughput-over-time chart) places a merged interval's samples at its ticks.
    expect(s.timeline).toEqual([
      { t: 2, rate: 100 },
      { t: 3, rate: 100 },
      { t: 4, rate: 100 },
      { t: 5, rate: 200 },
    ]);
  });

  it("does not record the partial interval at the end", () => {
    const s = new ThroughputSampler(0);
    s.tick(1000, 100);
    s.tick(2000, 300);
    // the phase ends at 2400 ms with 400 scheduled: no tick, no sample
    expect(s.summary()?.samples).toBe(1);
  });

  it("poll ticks at the first poll after each boundary and drops missed ticks", () => {
    const s = new ThroughputSampler(0);
    s.poll(500, 10); // before the first boundary: nothing
    expect(s.dueAt()).toBe(1000);
    s.poll(1200, 20); // tick 1 (skipped as first sample)
    expect(s.dueAt()).toBe(2000);
    s.poll(3500, 370); // late: one tick for 2000 and 3000, next due 4000
    expect(s.samples).toHaveLength(1);
    expect(s.samples[0]).toBeCloseTo(350 / 2.3); // 350 pods over the actual 2.3 s
    expect(s.dueAt()).toBe(4000);
  });
});

describe("summarize", () => {
  it("reports Average and samples[ceil(n*p/100)-1] percentiles", () => {
    const samples = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    const sum = summarize(samples);
    expect(sum).toEqual({ samples: 10, average: 5.5, perc50: 5, perc90: 9, perc95: 10, perc99: 10 });
  });

  it("has no summary without samples", () => {
    expect(summarize([])).toBeNull();
  });

  it("picks the first element for small percentiles", () => {
    expect(percentile([1, 2, 3], 1)).toBe(1);
    expect(percentile([1, 2, 3], 34)).toBe(2);
  });
});
