// The per-phase breakdown of the measured phase: where each scheduled pod's time goes (pop,
// snapshot update, PreFilter, Filter, Score, select, assume, bind, events/status, metrics, ...),
// from the scheduler's PhaseRecorder. `pnpm bench` prints it after the table; `--json` carries it
// as each workload's `phases`.
import { type PhaseRecorder, type SchedulingPhase, schedulingPhases } from "@kubesched/scheduler";
import type { WorkloadResult } from "./result";

/** What the phases cost over the measured phase of one workload. */
export interface PhaseBreakdown {
  /** Milliseconds per phase (synchronous stretches of the cycles). */
  totalsMs: Record<SchedulingPhase, number>;
  /**
   * Wall time of the measured phase not in any phase: the event loop between awaits, promise
   * resolution, the benchmark's driver loop and throughput sampling.
   */
  outsideMs: number;
  /** The measured phase's wall time. */
  wallMs: number;
  /** Scheduling attempts in the measured phase (the per-attempt column divides by these). */
  attempts: number;
}

export function phaseBreakdown(rec: PhaseRecorder, wallMs: number, attempts: number): PhaseBreakdown {
  const totalsMs = rec.totals();
  let sum = 0;
  for (const name of schedulingPhases) sum += totalsMs[name];
  return { totalsMs, outsideMs: Math.max(0, wallMs - sum), wallMs, attempts };
}

const labels: Record<SchedulingPhase | "outside", string> = {
  pop: "pop",
  snapshot: "snapshot update",
  preFilter: "PreFilter",
  filter: "Filter",
  postFilter: "PostFilter",
  score: "PreScore + Score",
  select: "select",
  assume: "assume + Reserve + Permit",
  bind: "bind",
  events: "events / status",
  requeue: "requeue (failures)",
  metrics: "metrics",
  outside: "outside (event loop, driver)",
};

/** One table: a row per phase, a column per workload (µs per attempt and % of the wall time). */
export function formatPhases(results: readonly WorkloadResult[]): string {
  const withPhases = results.filter((r) => r.phases && r.phases.attempts > 0);
  if (withPhases.length === 0) return "";
  const rows: string[][] = [];
  const names = [...schedulingPhases, "outside"] as const;
  for (const name of names) {
    const row = [labels[name]];
    for (const r of withPhases) {
      const p = r.phases as PhaseBreakdown;
      const ms = name === "outside" ? p.outsideMs : p.totalsMs[name];
      row.push(
        `${((ms * 1000) / p.attempts).toFixed(1)} µs ${((100 * ms) / p.wallMs).toFixed(1).padStart(4)}%`,
      );
    }
    rows.push(row);
  }
  const total = ["total (wall / attempt)"];
  for (const r of withPhases) {
    const p = r.phases as PhaseBreakdown;
    total.push(`${((p.wallMs * 1000) / p.attempts).toFixed(1)} µs  100%`);
  }
  rows.push(total);
  const header = [
    "Phase (µs per attempt, % of wall)",
    ...withPhases.map((r) => r.name.split("/")[0] as string),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(" | ")} |`;
  const out = [
    "Where the time goes (measured phase; per scheduling attempt):",
    "",
    line(header),
    `| ${widths.map((w, i) => (i === 0 ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`,
    ...rows.map(line),
  ];
  return out.join("\n");
}
