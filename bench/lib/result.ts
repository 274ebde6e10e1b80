// What one workload run reports (bench/workload.ts writes it, bench/run.ts tabulates it).
import type { PhaseBreakdown } from "./phases";
import { percentile, type ThroughputSummary, type TimedSample } from "./sampler";

export interface LatencySummary {
  count: number;
  average: number;
  perc50: number;
  perc90: number;
  perc99: number;
  max: number;
}

export interface WorkloadResult {
  name: string;
  status: "complete" | "timeout" | "stalled" | "skipped" | "failed";
  nodes: number;
  initPods: number;
  measuredPods: number;
  /** Upstream's measured count (differs when we reduced it). */
  upstreamMeasuredPods: number;
  /** Measured pods bound. */
  scheduled: number;
  /** Wall time of the measured phase (first scheduling attempt to last bind). */
  durationMs: number;
  /** Nodes, init pods and their scheduling. */
  setupMs: number;
  /** Creating the measured pods in the in-memory cluster (before the clock starts). */
  createMs?: number;
  /** scheduled / duration (upstream's SchedulingDuration view); null when skipped. */
  overall: number | null;
  /** CPU time (user + system) this process used during the measured phase. */
  cpuMs?: number;
  /** scheduled / CPU seconds: throughput with other processes' contention factored out. */
  perCpuSecond?: number;
  /** 1-minute load average (max of start and end of the measured phase), to flag contention. */
  loadAvg?: number;
  /** SchedulingThroughput as scheduler_perf computes it; null without samples. */
  throughput: ThroughputSummary | null;
  /**
   * A run too short for a throughput sample (upstream skips the first 1-s tick as a start-up
   * outlier and does not record the partial interval at the end): how long the first tenth of
   * the measured pods took, and the rate of the other nine tenths.
   */
  startup?: { firstTenthPods: number; firstTenthMs: number; laterRate: number };
  /** The throughput samples over time (the throughput-over-time chart); absent when skipped. */
  timeline?: TimedSample[];
  /** Scheduling attempt latency (pop → bound / failed), every attempt in the measured phase. */
  attemptLatencyMs: LatencySummary | null;
  attempts: number;
  churnPods: number;
  peakRssMB: number;
  threshold: number | null;
  target: number | null;
  rssTargetMB: number | null;
  missingPlugins: string[];
  /** Whether the run's decisions passed the workload's checks (null: not run). */
  decisionsVerified: boolean | null;
  /** One line per check (bench/lib/verify.ts). */
  verification: string[];
  notes: string[];
  /** Where the measured phase's time went, per phase of the cycles (bench/lib/phases.ts). */
  phases?: PhaseBreakdown;
}

export function latencySummary(values: readonly number[]): LatencySummary | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const arr = Array.from(sorted);
  return {
    count: arr.length,
    average: sum / arr.length,
    perc50: percentile(arr, 50),
    perc90: percentile(arr, 90),
    perc99: percentile(arr, 99),
    max: arr[arr.length - 1] as number,
  };
}
