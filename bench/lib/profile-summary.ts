// Summarises a V8 .cpuprofile: self time per function and per package, so a profile can be read
// without DevTools (`pnpm bench --cpu-prof` prints this for every workload).
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTimeRow {
  name: string;
  /** Where: package-relative file:line. */
  where: string;
  selfMs: number;
  selfPct: number;
}

export interface ProfileSummary {
  totalMs: number;
  functions: SelfTimeRow[];
  /** Self time by package (packages/<name>, node_modules/<pkg>, node internals, GC...). */
  packages: { name: string; selfMs: number; selfPct: number }[];
}

/** packages/plugins/inter-pod-affinity/src/filtering.ts → plugins/inter-pod-affinity/filtering.ts */
function shortPath(url: string): string {
  const u = url.replace(/^file:\/\//, "");
  const m = /\/(packages|apps|bench)\/(.*)$/.exec(u);
  if (m) return (m[1] === "packages" ? "" : `${m[1]}/`) + (m[2] ?? "").replace("/src/", "/");
  const nm = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(u);
  if (nm) return `${nm[1]}:${nm[2]}`;
  return u || "(native)";
}

function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const u = url.replace(/^file:\/\//, "");
  const p = /\/packages\/(plugins\/[^/]+|[^/]+)\//.exec(u);
  if (p) return p[1] ?? "?";
  if (u.includes("/bench/")) return "bench";
  const nm = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(u);
  if (nm) return nm[1] ?? "?";
  if (u.startsWith("node:")) return "node internals";
  return "other";
}

export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const prof = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  for (const n of prof.nodes) byId.set(n.id, n);
  const selfUs = new Map<number, number>();
  for (let i = 0; i < prof.samples.length; i++) {
    const id = prof.samples[i] as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0));
  }
  let total = 0;
  const fns = new Map<string, SelfTimeRow>();
  const pkgs = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n) continue;
    total += us;
    const cf = n.callFrame;
    const name = cf.functionName || "(anonymous)";
    const where = cf.url ? `${shortPath(cf.url)}:${cf.lineNumber + 1}` : "";
    const key = `${name}@${where}`;
    const row = fns.get(key) ?? { name, where, selfMs: 0, selfPct: 0 };
    row.selfMs += us / 1000;
    fns.set(key, row);
    const pkg = packageOf(cf.url, name);
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us / 1000);
  }
  const totalMs = total / 1000;
  const functions = [...fns.values()]
    .map((r) => ({ ...r, selfPct: (r.selfMs / totalMs) * 100 }))
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, top);
  const packages = [...pkgs.entries()]
    .map(([name, selfMs]) => ({ name, selfMs, selfPct: (selfMs / totalMs) * 100 }))
    .sort((a, b) => b.selfMs - a.selfMs);
  return { totalMs, functions, packages };
}

export function formatProfileSummary(title: string, s: ProfileSummary, topPackages = 12): string {
  const lines = [`${title}: ${(s.totalMs / 1000).toFixed(1)} s sampled`];
  lines.push("  self time by package:");
  for (const p of s.packages.slice(0, topPackages)) {
    lines.push(`    ${p.selfPct.toFixed(1).padStart(5)}%  ${p.name}`);
  }
  lines.push("  top functions (self):");
  for (const f of s.functions) {
    lines.push(`    ${f.selfPct.toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const f of process.argv.slice(2)) console.log(formatProfileSummary(f, summarizeProfile(f)));
}
