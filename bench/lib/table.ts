// The results tables (Markdown, so they paste into bench/README.md as is): every workload with
// its floor, target, ratio to the bare-loop ceiling, verified decisions and RSS; then the
// scaling curve.
import type { CeilingResult } from "../ceiling";
import type { WorkloadResult } from "./result";

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGB: number;
  node: string;
  platform: string;
  loadAvgAtStart: number;
}

/** The workload the README's ceiling ratio is about. */
export const ceilingWorkload = "SchedulingBasic/5000Nodes_10000Pods";

/** Every workload must reach this multiple of its upstream CI floor (the rule). */
export const floorMultiple = 5;

function n(v: number | null | undefined, digits = 0): string {
  if (v === null || v === undefined || Number.isNaN(v)) return "-";
  return v.toFixed(digits);
}

/** The pods/s a workload must reach: the issue's own target, or 5× the upstream floor, whichever is higher. */
export function throughputTarget(r: Pick<WorkloadResult, "target" | "threshold">): number | null {
  const fromFloor = r.threshold === null ? null : r.threshold * floorMultiple;
  if (r.target === null) return fromFloor;
  return Math.max(r.target, fromFloor ?? 0);
}

/** The rate compared with targets and ceilings: the Average of the 1-s samples, else the overall rate. */
export function headlineRate(r: WorkloadResult): number | null {
  return r.throughput?.average ?? r.overall;
}

function verdict(r: WorkloadResult): string {
  const parts: string[] = [];
  const target = throughputTarget(r);
  if (target !== null) {
    const rate = headlineRate(r);
    parts.push(rate !== null && rate >= target && r.status === "complete" ? "met" : "MISSED");
  }
  if (r.rssTargetMB !== null) parts.push(r.peakRssMB <= r.rssTargetMB ? "rss ok" : "RSS OVER");
  return parts.join(", ") || "-";
}

function targetCell(r: WorkloadResult): string {
  const target = throughputTarget(r);
  const parts: string[] = [];
  if (target !== null) parts.push(`≥${target}${r.target === null || r.target < target ? " (5×)" : ""}`);
  if (r.rssTargetMB !== null) parts.push(`≤${r.rssTargetMB} MB`);
  return parts.join(", ") || "-";
}

export function formatTable(
  results: readonly WorkloadResult[],
  ceilings: ReadonlyMap<string, CeilingResult>,
  machine: Machine,
  totalSeconds: number,
): string {
  const header = [
    "Workload",
    "Nodes",
    "Init pods",
    "Measured pods",
    "Avg pods/s",
    "p50",
    "p99",
    "Overall pods/s",
    "Pods/CPU-s",
    "Attempt p99 ms",
    "Peak RSS MB",
    "Upstream floor",
    "× floor",
    "Target",
    "Target met",
    "% of ceiling",
    "Decisions",
  ];
  const rows = results.map((r) => {
    const t = r.throughput;
    const measured =
      r.measuredPods !== r.upstreamMeasuredPods
        ? `${r.measuredPods} (of ${r.upstreamMeasuredPods})`
        : `${r.measuredPods}`;
    const ceiling = ceilings.get(r.name);
    const rate = headlineRate(r);
    return [
      r.status === "complete" ? r.name : `${r.name} (${r.status})`,
      String(r.nodes),
      String(r.initPods),
      measured,
      n(t?.average),
      n(t?.perc50),
      n(t?.perc99),
      n(r.overall),
      n(r.perCpuSecond),
      n(r.attemptLatencyMs?.perc99, 1),
      r.status === "skipped" ? "-" : String(r.peakRssMB),
      r.threshold === null ? "-" : String(r.threshold),
      rate && r.threshold ? `${(rate / r.threshold).toFixed(2)}x` : "-",
      targetCell(r),
      verdict(r),
      ceiling && rate ? `${((rate / ceiling.podsPerSecond) * 100).toFixed(1)}%` : "-",
      r.decisionsVerified === null ? "-" : r.decisionsVerified ? "verified" : "WRONG",
    ];
  });
  const lines = [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
  const notes: string[] = [];
  const basic = results.find((r) => r.name === ceilingWorkload);
  const basicCeiling = ceilings.get(ceilingWorkload);
  if (basicCeiling) {
    const ours = basic?.throughput?.average;
    notes.push(
      `Ceiling (bench/ceiling.ts, bare loop: fit + LeastAllocated over the same ${basicCeiling.nodes} nodes, ${basicCeiling.measuredPods} pods): ${Math.round(basicCeiling.podsPerSecond)} pods/s` +
        (ours
          ? `; ${ceilingWorkload} reaches ${((ours / basicCeiling.podsPerSecond) * 100).toFixed(1)}% of it (ceiling / ours = ${(basicCeiling.podsPerSecond / ours).toFixed(1)}x)`
          : ""),
    );
  }
  notes.push(
    `Target: the issue's own where it names one, else ${floorMultiple}× the upstream floor (marked 5×); target, × floor and "% of ceiling" compare the Average (Overall without samples); "% of ceiling" is over the bare loop at the same size, for the SchedulingBasic rows`,
  );
  const missing = results.find((r) => r.missingPlugins.length > 0)?.missingPlugins;
  if (missing?.length) {
    notes.push(
      `Default plugins not in the in-tree registry yet, disabled in multiPoint: ${missing.join(", ")}`,
    );
  }
  for (const r of results) {
    const extra = [...r.notes];
    if (r.churnPods > 0) extra.push(`${r.churnPods} churn pods created`);
    if (r.loadAvg !== undefined && r.loadAvg > machine.cpus)
      extra.push(`load average ${r.loadAvg.toFixed(1)} during the run`);
    // A complete run without samples says how much of it was start-up (its own note).
    if (!r.throughput && !r.startup && r.status !== "skipped")
      extra.push(
        "no throughput samples (binds fell in fewer than two 1-s ticks: phase under ~2 s, or one burst)",
      );
    if (extra.length) notes.push(`${r.name}: ${extra.join("; ")}`);
  }
  notes.push(
    `Machine: ${machine.cpus} vCPU ${machine.cpuModel}, ${machine.memoryGB} GB, Node ${machine.node} (${machine.platform}); total ${totalSeconds.toFixed(0)} s`,
  );
  return [...lines, "", ...notes.map((s) => `- ${s}`)].join("\n");
}

/** One point of the scaling curve. */
export interface ScalingRow {
  result: WorkloadResult;
  ceiling: CeilingResult | null;
}

/**
 * SchedulingBasic at each node count: the overall rate (bound pods / wall time of the measured
 * phase, the only rate every size has: the small ones end before two 1-s samples), ms per pod,
 * pods per CPU-second and the bare loop's rate at the same size.
 */
export function formatScalingTable(rows: readonly ScalingRow[]): string {
  const header = [
    "Nodes",
    "Workload",
    "Init pods",
    "Measured pods",
    "Avg pods/s",
    "Overall pods/s",
    "ms per pod",
    "Pods/CPU-s",
    "Ceiling pods/s",
    "% of ceiling",
    "Peak RSS MB",
    "Decisions",
  ];
  const sorted = [...rows].sort((a, b) => a.result.nodes - b.result.nodes);
  const lines = [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 1 ? "---" : "---:")).join("|")}|`,
    ...sorted
      .map(({ result: r, ceiling }) => [
        String(r.nodes),
        r.name,
        String(r.initPods),
        String(r.measuredPods),
        n(r.throughput?.average),
        n(r.overall),
        r.overall ? (1000 / r.overall).toFixed(2) : "-",
        n(r.perCpuSecond),
        ceiling ? String(Math.round(ceiling.podsPerSecond)) : "-",
        ceiling && r.overall ? `${((r.overall / ceiling.podsPerSecond) * 100).toFixed(1)}%` : "-",
        String(r.peakRssMB),
        r.decisionsVerified === null ? "-" : r.decisionsVerified ? "verified" : "WRONG",
      ])
      .map((c) => `| ${c.join(" | ")} |`),
  ];
  return lines.join("\n");
}
