// `pnpm bench:newcomer`: issue 25's newcomer cluster (bench/lib/newcomer-cluster.ts: 2000 nodes,
// Deployments with spread and anti-affinity, StatefulSets with claim templates, 5000 pods) through
// the real CLI as a user runs it — `kubesched simulate --cluster FILE --progress --timing -o json`,
// the checkout's bin (what `pnpm kubesched` runs), as a child process — with its wall time and
// peak RSS (`/usr/bin/time -v` when present, else /proc/PID/status VmHWM polled). Checked: every
// pod has an outcome, the counts add up, stderr carried the progress display.
//   pnpm bench:newcomer [--nodes N] [--pods N] [--keep DIR] [--json FILE]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runMeasured } from "./lib/measured-child";
import { newcomerDefaults, newcomerWorkloads, writeNewcomerCluster } from "./lib/newcomer-cluster";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The checkout's `kubesched`: what `pnpm kubesched` runs (apps/kubesched/bin, src through tsx). */
export const kubeschedBin = join(root, "apps/kubesched/bin/kubesched.js");

export interface SimulatedPod {
  namespace: string;
  name: string;
  outcome: string;
  node: string | null;
  explain?: { preFilter?: Record<string, { code: string }> };
}

export interface NewcomerRun {
  nodes: number;
  pods: number;
  deployments: number;
  statefulSets: number;
  clusterBytes: number;
  exitCode: number | null;
  /** Wall time of the whole command (start, load, expand, schedule, write), in seconds. */
  wallSeconds: number;
  /** The scheduling alone (summary.wallMs of --timing), in seconds. */
  simulateSeconds: number | null;
  peakRssMB: number;
  /** How peak RSS was measured. */
  rssFrom: "time -v" | "VmHWM";
  outcomes: Record<string, number>;
  podsInResult: number;
  /** Lines of the progress display seen on stderr. */
  progressLines: number;
  /** Load average (1, 5, 15 min) when the run started. */
  load: string;
  result: { pods: SimulatedPod[]; summary: Record<string, unknown> } | null;
  stderrTail: string;
  problems: string[];
}

/**
 * Generates the cluster into `dir`, runs the CLI on it and checks the result. `extra` flags go to
 * `simulate` (e.g. `--explain --pod NS/NAME`).
 */
export async function runNewcomer(
  dir: string,
  o: { nodes: number; pods: number; extra?: string[]; echo?: boolean },
): Promise<NewcomerRun> {
  const workloads = newcomerWorkloads(o);
  const file = join(dir, `newcomer-${o.nodes}-nodes-${o.pods}-pods.yaml`);
  const clusterBytes = writeNewcomerCluster(file, o);
  const out = join(dir, "result.json");
  const args = [
    kubeschedBin,
    "simulate",
    "--cluster",
    file,
    "--progress",
    "--timing",
    "-o",
    "json",
    "--out",
    out,
    ...(o.extra ?? []),
  ];
  let echoed = 0;
  const run = await runMeasured(args, root, (stderr) => {
    if (!o.echo) return;
    // The progress display as it comes, whole lines; not `time -v`'s report (lines after a tab).
    const end = stderr.lastIndexOf("\n") + 1;
    const lines = stderr.slice(echoed, end).replace(/^\t.*\n/gm, "");
    echoed = Math.max(echoed, end);
    process.stderr.write(lines);
  });
  const { exitCode, wallSeconds, stderr, load } = run;
  const peakKB = run.peakRssMB * 1024;
  const problems: string[] = [];
  let result: NewcomerRun["result"] = null;
  try {
    result = JSON.parse(readFileSync(out, "utf8")) as NewcomerRun["result"];
  } catch (e) {
    problems.push(`no result: ${(e as Error).message.split("\n")[0]}`);
  }
  const outcomes: Record<string, number> = {};
  for (const p of result?.pods ?? []) outcomes[p.outcome] = (outcomes[p.outcome] ?? 0) + 1;
  const podsInResult = result?.pods.length ?? 0;
  if (exitCode !== 0) problems.push(`kubesched exited with ${exitCode}`);
  if (result && podsInResult !== o.pods) problems.push(`${podsInResult} pods in the result, not ${o.pods}`);
  const withoutOutcome = (result?.pods ?? []).filter((p) => !p.outcome).length;
  if (withoutOutcome) problems.push(`${withoutOutcome} pods without an outcome`);
  if (result && result.summary.pods !== podsInResult)
    problems.push(`summary.pods ${String(result.summary.pods)} ≠ ${podsInResult} pods listed`);
  // cli-progress off a terminal: a line per update (the first at once with --progress, the last on stop).
  const progressLines = stderr
    .split("\n")
    .filter((l) => /^simulate \[.*\] \d+% \| \d+ scheduled/.test(l)).length;
  if (progressLines === 0) problems.push("no progress line on stderr");
  if (!peakKB) problems.push("peak RSS not measured");
  const wallMs = result?.summary.wallMs;
  return {
    nodes: o.nodes,
    pods: o.pods,
    deployments: workloads.filter((w) => w.kind === "Deployment").length,
    statefulSets: workloads.filter((w) => w.kind === "StatefulSet").length,
    clusterBytes,
    exitCode,
    wallSeconds,
    simulateSeconds: typeof wallMs === "number" ? wallMs / 1000 : null,
    peakRssMB: run.peakRssMB,
    rssFrom: run.rssFrom,
    outcomes,
    podsInResult,
    progressLines,
    load,
    result,
    stderrTail: stderr.slice(-2000),
    problems,
  };
}

/** The one-line summary. */
export function summaryLine(r: NewcomerRun): string {
  const counts = Object.entries(r.outcomes)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  return (
    `newcomer: ${r.nodes} nodes, ${r.pods} pods (${r.deployments} Deployments, ${r.statefulSets} StatefulSets; ` +
    `${(r.clusterBytes / 1e6).toFixed(1)} MB YAML): ${counts || "no result"} in ${r.wallSeconds.toFixed(1)} s ` +
    `(scheduling ${r.simulateSeconds === null ? "?" : r.simulateSeconds.toFixed(1)} s), ` +
    `peak RSS ${r.peakRssMB.toFixed(0)} MB (${r.rssFrom}), ${r.progressLines} progress lines, load ${r.load}` +
    (r.problems.length ? ` — FAILED: ${r.problems.join("; ")}` : "")
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      nodes: { type: "string" },
      pods: { type: "string" },
      keep: { type: "string" },
      json: { type: "string" },
    },
  });
  const nodes = values.nodes ? Number(values.nodes) : newcomerDefaults.nodes;
  const pods = values.pods ? Number(values.pods) : newcomerDefaults.pods;
  if (!Number.isInteger(nodes) || nodes < 1 || !Number.isInteger(pods) || pods < 1) {
    console.error("error: --nodes and --pods take positive integers");
    process.exitCode = 2;
    return;
  }
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), "kubesched-newcomer-"));
  mkdirSync(dir, { recursive: true });
  try {
    const r = await runNewcomer(dir, { nodes, pods, echo: true });
    if (values.json) {
      const { result: _result, ...rest } = r;
      writeFileSync(values.json, `${JSON.stringify(rest, null, 2)}\n`);
    }
    console.log(summaryLine(r));
    if (r.problems.length) {
      console.error(r.stderrTail);
      process.exitCode = 1;
    }
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
