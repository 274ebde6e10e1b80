// Rendering a SimulationResult: table (for people), json and yaml (for tools).
import type { SimulationResult } from "@kubesched/cluster";
import { stringify } from "yaml";

export type OutputFormat = "table" | "json" | "yaml";

function pad(cells: string[][]): string {
  const widths: number[] = [];
  for (const row of cells) {
    row.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  }
  return cells
    .map((row) =>
      row
        .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function percent(req: string, alloc: string | undefined, parse: (s: string) => number): string {
  if (!alloc) return "";
  const a = parse(alloc);
  if (!a) return "";
  return ` (${Math.round((parse(req) / a) * 100)}%)`;
}

export function renderTable(
  r: SimulationResult,
  parseCpu: (s: string) => number,
  parseBytes: (s: string) => number,
): string {
  const pods = [["POD", "OUTCOME", "NODE", "ATTEMPTS", "MESSAGE"]];
  for (const p of r.pods) {
    const node = p.node ?? (p.nominatedNode ? `(nominated ${p.nominatedNode})` : "-");
    pods.push([`${p.namespace}/${p.name}`, p.outcome, node, String(p.attempts), p.message ?? ""]);
  }
  const nodes = [["NODE", "CPU REQUESTED", "MEMORY REQUESTED", "PODS"]];
  for (const n of r.nodes) {
    nodes.push([
      n.name,
      `${n.requested.cpu ?? "0"}/${n.allocatable.cpu ?? "?"}${percent(n.requested.cpu ?? "0", n.allocatable.cpu, parseCpu)}`,
      `${n.requested.memory ?? "0"}/${n.allocatable.memory ?? "?"}${percent(n.requested.memory ?? "0", n.allocatable.memory, parseBytes)}`,
      `${n.pods}/${n.allocatable.pods ?? "?"}`,
    ]);
  }
  const s = r.summary;
  const lines = [
    pad(pods),
    "",
    pad(nodes),
    "",
    `${s.pods} pending pods: ${s.scheduled} scheduled, ${s.unschedulable} unschedulable, ${s.error} error, ${s.gated} gated, ${s.skipped} skipped`,
  ];
  if (r.preemptions.length) {
    lines.push("", "PREEMPTIONS");
    for (const p of r.preemptions) lines.push(`${p.preemptor} on ${p.node}: evicted ${p.victims.join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}

export function renderResult(
  r: SimulationResult,
  format: OutputFormat,
  parseCpu: (s: string) => number,
  parseBytes: (s: string) => number,
): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(r, null, 2)}\n`;
    case "yaml":
      return stringify(r, { lineWidth: 0 });
    default:
      return renderTable(r, parseCpu, parseBytes);
  }
}
