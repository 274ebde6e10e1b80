// The results table (Markdown, so it pastes into bench/README.md as is).
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

const ceilingWorkload = "SchedulingBasic/5000Nodes_10000Pods";

function n(v: number | null | undefined, digits = 0): string {
  if (v === null || v === undefined || Number.isNaN(v)) return "-";
  return v.toFixed(digits);
}

function verdict(r: WorkloadResult): string {
  const parts: string[] = [];
  if (r.target !== null) {
    const avg = r.throughput?.average ?? null;
    parts.push(avg !== null && avg >= r.target && r.status === "complete" ? "met" : "MISSED");
  }
  if (r.rssTargetMB !== null) parts.push(r.peakRssMB <= r.rssTargetMB ? "rss ok" : "RSS OVER");
  return parts.join(", ") || "-";
}

export function formatTable(
  results: readonly WorkloadResult[],
  ceiling: CeilingResult | null,
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
    "Upstream thr.",
    "Ratio",
    "Target",
    "Target met",
    "Decisions",
  ];
  const rows = results.map((r) => {
    const t = r.throughput;
    const measured =
      r.measuredPods !== r.upstreamMeasuredPods
        ? `${r.measuredPods} (of ${r.upstreamMeasuredPods})`
        : `${r.measuredPods}`;
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
      t && r.threshold ? `${(t.average / r.threshold).toFixed(2)}x` : "-",
      [r.target === null ? "" : `≥${r.target}`, r.rssTargetMB === null ? "" : `≤${r.rssTargetMB} MB`]
        .filter(Boolean)
        .join(", ") || "-",
      verdict(r),
      r.decisionsVerified === null ? "-" : r.decisionsVerified ? "verified" : "WRONG",
    ];
  });
  const lines = [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
  const notes: string[] = [];
  if (ceiling) {
    const basic = results.find((r) => r.name === ceilingWorkload);
    const ours = basic?.throughput?.average;
    notes.push(
      `Ceiling (bench/ceiling.ts, bare loop: fit + LeastAllocated over the same 5000 nodes, ${ceiling.measuredPods} pods): ${Math.round(ceiling.podsPerSecond)} pods/s` +
        (ours
          ? `; ${ceilingWorkload} reaches ${((ours / ceiling.podsPerSecond) * 100).toFixed(1)}% of it (ceiling / ours = ${(ceiling.podsPerSecond / ours).toFixed(1)}x)`
          : ""),
    );
  }
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
    if (!r.throughput && r.status !== "skipped")
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
