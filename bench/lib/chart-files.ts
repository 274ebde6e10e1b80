// Writes a run's charts: bench/results/<workload>.svg (throughput over time, one per workload
// run) and bench/results/scaling.svg (SchedulingBasic by node count).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ChartLine, scalingChart, throughputChart } from "./charts";
import type { WorkloadResult } from "./result";
import { type Machine, type ScalingRow, throughputTarget } from "./table";

/** The file name of a workload's chart: its name with `/` as `_`. */
export function chartFileName(workload: string): string {
  return `${workload.replaceAll("/", "_")}.svg`;
}

function machineLine(machine: Machine): string {
  const day = new Date().toISOString().slice(0, 10);
  return `${day}, ${machine.cpus} vCPU ${machine.cpuModel}, Node ${machine.node}`;
}

/** Writes the charts into `dir`; returns the files written. */
export function writeCharts(
  dir: string,
  results: readonly WorkloadResult[],
  scaling: readonly ScalingRow[],
  machine: Machine,
): string[] {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const r of results) {
    if (r.status === "skipped" || r.status === "failed") continue;
    const lines: ChartLine[] = [];
    if (r.throughput)
      lines.push({
        value: r.throughput.average,
        label: `average ${Math.round(r.throughput.average)}`,
        color: "#1e3a8a",
      });
    const target = throughputTarget(r);
    if (target !== null) lines.push({ value: target, label: `target ${target}`, color: "#15803d" });
    if (r.threshold !== null)
      lines.push({ value: r.threshold, label: `upstream CI floor ${r.threshold}`, color: "#6b7280" });
    const decisions =
      r.decisionsVerified === null
        ? "decisions not verified"
        : r.decisionsVerified
          ? "decisions verified"
          : "decisions WRONG";
    const load = r.loadAvg === undefined ? "" : `, load ${r.loadAvg.toFixed(1)}`;
    const svg = throughputChart({
      title: `${r.name}: pods/s over time`,
      subtitle: `${r.nodes} node${r.nodes === 1 ? "" : "s"}, ${r.measuredPods} measured pods, ${decisions}; ${machineLine(machine)}${load}`,
      samples: r.timeline ?? [],
      durationS: r.durationMs / 1000,
      lines,
      emptyNote: `no 1-s samples (measured phase ${(r.durationMs / 1000).toFixed(1)} s); overall ${Math.round(r.overall ?? 0)} pods/s`,
    });
    const file = join(dir, chartFileName(r.name));
    writeFileSync(file, svg);
    files.push(file);
  }
  if (scaling.length >= 2) {
    const svg = scalingChart(
      "SchedulingBasic: throughput and cost per pod by cluster size",
      `overall pods/s (bound pods / measured wall time), % of the bare loop at that size; ${machineLine(machine)}`,
      scaling
        .filter(({ result }) => result.overall)
        .map(({ result, ceiling }) => ({
          nodes: result.nodes,
          podsPerSecond: result.overall as number,
          msPerPod: 1000 / (result.overall as number),
          ceiling: ceiling?.podsPerSecond ?? null,
        })),
    );
    const file = join(dir, "scaling.svg");
    writeFileSync(file, svg);
    files.push(file);
  }
  return files;
}
