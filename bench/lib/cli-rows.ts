// The CLI rows of `pnpm bench`: a user's command on SchedulingBasic/5000Nodes_10000Pods' cluster
// (bench/lib/scheduling-basic-snapshot.ts, plus one pod too big for any node) run as a child
// process through the checkout's bin, with its wall time and peak RSS (issue 24's "explain that
// scales"). Each row states its targets and checks its output before its numbers count.
import { closeSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runMeasured } from "./measured-child";
import { planClusterAt, writePlanCluster } from "./plan-cluster";
import { type SchedulingBasicSnapshotOptions, schedulingBasic5000 } from "./scheduling-basic-snapshot";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** The checkout's `kubesched`: what `pnpm kubesched` runs. */
const kubeschedBin = join(root, "apps/kubesched/bin/kubesched.js");

/** The pod `why` and `--pod` are asked about: 9 CPU, more than any node's 4. */
export const tooBigPod = "namespace-2/too-big";

export interface CliRow {
  name: string;
  /** The command's arguments after `kubesched`, for a cluster file and an output file. */
  args(cluster: string, out: string): string[];
  /** Upper bounds: wall seconds, peak RSS (MB). */
  maxSeconds: number | null;
  maxRssMB: number | null;
  /** Problems with the output (empty: verified). */
  verify(out: string, cluster: SchedulingBasicSnapshotOptions): string[];
  /**
   * A row on a cluster of its own rather than SchedulingBasic's: writes it into `dir` at `scale`
   * and returns the path `args` receives and its size.
   */
  ownCluster?(dir: string, scale: number): { cluster: string; nodes: number; pendingPods: number };
}

export interface CliRowResult {
  name: string;
  command: string;
  nodes: number;
  pendingPods: number;
  exitCode: number | null;
  wallSeconds: number;
  /** User + system CPU seconds (null without /usr/bin/time). */
  cpuSeconds: number | null;
  peakRssMB: number;
  rssFrom: string;
  load: string;
  maxSeconds: number | null;
  maxRssMB: number | null;
  outputBytes: number;
  verified: boolean;
  problems: string[];
}

/**
 * Counts the occurrences of `needle` in a file, a megabyte at a time (the explain output is
 * gigabytes), and returns them with the file's last `tailBytes` bytes.
 */
function scanFile(file: string, needle: string, tailBytes: number): { count: number; tail: string } {
  const pattern = Buffer.from(needle);
  const fd = openSync(file, "r");
  const chunk = Buffer.allocUnsafe(1 << 20);
  let carry = Buffer.alloc(0);
  let count = 0;
  let tail = Buffer.alloc(0);
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const buf = Buffer.concat([carry, chunk.subarray(0, n)]);
      let at = buf.indexOf(pattern);
      while (at !== -1) {
        count++;
        at = buf.indexOf(pattern, at + pattern.length);
      }
      // Keep what could begin a match split across two reads (a match never fits in it whole).
      carry = Buffer.from(buf.subarray(Math.max(0, buf.length - pattern.length + 1)));
      tail = Buffer.from(Buffer.concat([tail, chunk.subarray(0, n)]).subarray(-tailBytes));
    }
  } finally {
    closeSync(fd);
  }
  return { count, tail: tail.toString("utf8") };
}

interface Summary {
  pods: number;
  scheduled: number;
  unschedulable: number;
}

function checkSummary(s: Summary | undefined, o: SchedulingBasicSnapshotOptions): string[] {
  if (!s) return ["no summary"];
  const pods = o.pendingPods + (o.tooBig ? 1 : 0);
  const problems: string[] = [];
  if (s.pods !== pods) problems.push(`summary.pods ${s.pods}, not ${pods}`);
  if (s.scheduled !== o.pendingPods) problems.push(`${s.scheduled} scheduled, not ${o.pendingPods}`);
  if (s.unschedulable !== (o.tooBig ? 1 : 0)) problems.push(`${s.unschedulable} unschedulable`);
  return problems;
}

export const cliRows: CliRow[] = [
  {
    name: "cli/simulate --explain",
    args: (cluster, out) => ["simulate", "--cluster", cluster, "--explain", "-o", "json", "--out", out],
    maxSeconds: null,
    maxRssMB: 1024,
    verify(out, o) {
      // Every pod explained (one `explain` key per pod at the pods' depth) and the summary at the end.
      const { count, tail } = scanFile(out, '\n      "explain": {\n', 400);
      const problems: string[] = [];
      const pods = o.pendingPods + (o.tooBig ? 1 : 0);
      if (count !== pods) problems.push(`${count} pods explained, not ${pods}`);
      const at = tail.lastIndexOf('\n  "summary": ');
      try {
        const s = JSON.parse(`{${tail.slice(at + 1)}`) as { summary: Summary };
        problems.push(...checkSummary(s.summary, o));
      } catch {
        problems.push("the output does not end with the summary");
      }
      return problems;
    },
  },
  {
    name: "cli/simulate --explain --pod",
    args: (cluster, out) => [
      "simulate",
      "--cluster",
      cluster,
      "--pod",
      tooBigPod,
      "-o",
      "json",
      "--out",
      out,
    ],
    maxSeconds: null,
    maxRssMB: 1024,
    verify(out, o) {
      const r = JSON.parse(readFileSync(out, "utf8")) as {
        pods: { namespace: string; name: string; explain?: { filter: Record<string, unknown> } }[];
        summary: Summary;
      };
      const problems = checkSummary(r.summary, o);
      const explained = r.pods.filter((p) => p.explain);
      if (explained.length !== 1 || `${explained[0]?.namespace}/${explained[0]?.name}` !== tooBigPod)
        problems.push(`explained: ${explained.map((p) => `${p.namespace}/${p.name}`).join(", ") || "none"}`);
      const filtered = Object.keys(explained[0]?.explain?.filter ?? {}).length;
      if (filtered !== o.nodes)
        problems.push(`${tooBigPod}'s filter lists ${filtered} nodes, not ${o.nodes}`);
      return problems;
    },
  },
  {
    // Every reason on every node: the diagnosis and the preemption dry run, without the fix search.
    name: "cli/why --no-fixes",
    args: (cluster, out) => [
      "why",
      tooBigPod,
      "--cluster",
      cluster,
      "--no-fixes",
      "-o",
      "json",
      "--out",
      out,
    ],
    maxSeconds: 10,
    maxRssMB: null,
    verify: (out, o) => whyProblems(readWhy(out), o),
  },
  {
    // The same with verified fixes, as `why` runs by default: each candidate is a simulate of the
    // changed cluster with every pending pod, within the default 60 s wall-clock budget.
    name: "cli/why",
    args: (cluster, out) => ["why", tooBigPod, "--cluster", cluster, "-o", "json", "--out", out],
    maxSeconds: 90,
    maxRssMB: null,
    verify(out, o) {
      const r = readWhy(out);
      const problems = whyProblems(r, o);
      if (!r.fixSearch) problems.push("no fixSearch: the fix search did not run");
      else if ((r.fixes ?? []).length === 0 && !r.fixSearch.exhausted)
        problems.push("no fix found although the search was not cut short");
      return problems;
    },
  },
  {
    // Issue 26's scale case: the smallest addition from 3 pools for 2000 pending pods on 1000 nodes
    // (lib/plan-cluster.ts) by the default exact search; the follow-up simulate must place them all.
    name: "cli/plan",
    args: (cluster, out) => [
      "plan",
      "--cluster",
      cluster,
      "--pools",
      join(dirname(cluster), "plan-pools.json"),
      "-o",
      "json",
      "--out",
      out,
    ],
    maxSeconds: null,
    maxRssMB: null,
    ownCluster(dir, scale) {
      const o = planClusterAt(scale);
      const cluster = join(dir, "plan-cluster.json");
      writePlanCluster(cluster, join(dir, "plan-pools.json"), o);
      return { cluster, nodes: o.nodes, pendingPods: o.pendingPods };
    },
    verify(out) {
      const r = JSON.parse(readFileSync(out, "utf8")) as {
        spec: { pendingPods: number };
        status: {
          found: boolean;
          minimal: boolean;
          excluded: unknown[];
          pods: { pod: string; outcome: string; node: string | null }[];
        };
      };
      const problems: string[] = [];
      if (!r.status.found) problems.push("no addition found");
      else if (!r.status.minimal) problems.push("the addition is not proven minimal");
      if (r.status.excluded.length > 0) problems.push(`${r.status.excluded.length} pods excluded`);
      if (r.status.pods.length !== r.spec.pendingPods)
        problems.push(`the proof lists ${r.status.pods.length} pods, not ${r.spec.pendingPods}`);
      const left = r.status.pods.filter((p) => p.outcome !== "Scheduled" || p.node === null);
      if (left.length > 0)
        problems.push(`${left.length} pods not scheduled by the proof, e.g. ${left[0]?.pod}`);
      return problems;
    },
  },
];

interface WhyRowReport {
  summary: { nodes: number; feasible: number };
  groups: { count: number; reason: string }[];
  nodes: { rejections: { reasons: string[] }[] }[];
  preemption: { eligible: boolean; notHelpful: unknown[] };
  fixes?: { node: string }[];
  fixSearch?: { exhausted: boolean; tried: number };
}

function readWhy(out: string): WhyRowReport {
  return JSON.parse(readFileSync(out, "utf8")) as WhyRowReport;
}

/** What every why row checks: every node rejects the too-big pod for cpu, grouped, preemption on each. */
function whyProblems(r: WhyRowReport, o: SchedulingBasicSnapshotOptions): string[] {
  const problems: string[] = [];
  if (r.summary.nodes !== o.nodes) problems.push(`summary.nodes ${r.summary.nodes}, not ${o.nodes}`);
  if (r.summary.feasible !== 0) problems.push(`${r.summary.feasible} nodes feasible, not 0`);
  const withReason = r.nodes.filter((n) => n.rejections.some((j) => j.reasons.includes("Insufficient cpu")));
  if (withReason.length !== o.nodes)
    problems.push(`${withReason.length} nodes give Insufficient cpu, not ${o.nodes}`);
  const grouped = r.groups.reduce((a, g) => a + g.count, 0);
  if (grouped < o.nodes) problems.push(`the groups hold ${grouped} nodes, not ${o.nodes}`);
  if (r.preemption.notHelpful.length !== o.nodes)
    problems.push(`preemption: ${r.preemption.notHelpful.length} nodes not helpful, not ${o.nodes}`);
  return problems;
}

/** The cluster at `scale` (1: the workload's size), with the too-big pod. */
export function cliRowsCluster(scale: number): SchedulingBasicSnapshotOptions {
  return {
    nodes: Math.max(1, Math.round(schedulingBasic5000.nodes * scale)),
    initPods: Math.round(schedulingBasic5000.initPods * scale),
    pendingPods: Math.max(1, Math.round(schedulingBasic5000.pendingPods * scale)),
    tooBig: true,
  };
}

/** Runs one row on `cluster` (written with `o`), its output in `dir` (removed once checked: gigabytes). */
export async function runCliRow(
  row: CliRow,
  basicCluster: string,
  o: SchedulingBasicSnapshotOptions,
  dir: string,
  /** The scale of a row with a cluster of its own (`pnpm bench --scale`). */
  scale = 1,
): Promise<CliRowResult> {
  const own = row.ownCluster?.(dir, scale);
  const cluster = own?.cluster ?? basicCluster;
  const out = join(dir, `${row.name.replaceAll(/[^a-z]+/g, "-")}.out`);
  const args = row.args(cluster, out);
  const run = await runMeasured([kubeschedBin, ...args], root);
  const problems: string[] = [];
  if (run.exitCode !== 0) problems.push(`exit code ${run.exitCode}: ${run.stderr.split("\n")[0] ?? ""}`);
  let outputBytes = 0;
  try {
    outputBytes = statSync(out).size;
    problems.push(...row.verify(out, o));
  } catch (e) {
    problems.push(`output: ${(e as Error).message.split("\n")[0]}`);
  } finally {
    rmSync(out, { force: true });
  }
  if (!run.peakRssMB) problems.push("peak RSS not measured");
  return {
    name: row.name,
    command: `kubesched ${args.join(" ").replace(cluster, "CLUSTER").replace(out, "OUT")}`,
    nodes: own?.nodes ?? o.nodes,
    pendingPods: own?.pendingPods ?? o.pendingPods + (o.tooBig ? 1 : 0),
    exitCode: run.exitCode,
    wallSeconds: run.wallSeconds,
    cpuSeconds: run.cpuSeconds,
    peakRssMB: run.peakRssMB,
    rssFrom: run.rssFrom,
    load: run.load,
    maxSeconds: row.maxSeconds,
    maxRssMB: row.maxRssMB,
    outputBytes,
    verified: problems.length === 0,
    problems,
  };
}

function verdict(r: CliRowResult): string {
  const parts: string[] = [];
  // CPU time when measured: on a shared machine wall time is mostly the others' load (the
  // command is one thread of work; on a quiet machine the two are within a few percent).
  if (r.maxSeconds !== null)
    parts.push((r.cpuSeconds ?? r.wallSeconds) <= r.maxSeconds ? "time ok" : "TIME OVER");
  if (r.maxRssMB !== null) parts.push(r.peakRssMB <= r.maxRssMB ? "rss ok" : "RSS OVER");
  return parts.join(", ");
}

/** The rows as a Markdown table. */
export function formatCliRows(results: readonly CliRowResult[]): string {
  const lines = [
    "| Row | Nodes | Pending pods | Wall (s) | CPU (s) | Peak RSS (MB) | Output | Target | Verdict | Output checked | Load |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |",
  ];
  for (const r of results) {
    const target = [
      r.maxSeconds === null ? "" : `≤ ${r.maxSeconds} s`,
      r.maxRssMB === null ? "" : `≤ ${r.maxRssMB} MB`,
    ]
      .filter(Boolean)
      .join(", ");
    const size =
      r.outputBytes >= 1e9
        ? `${(r.outputBytes / 1e9).toFixed(2)} GB`
        : `${(r.outputBytes / 1e6).toFixed(1)} MB`;
    lines.push(
      `| \`${r.name}\` | ${r.nodes} | ${r.pendingPods} | ${r.wallSeconds.toFixed(1)} | ${r.cpuSeconds === null ? "-" : r.cpuSeconds.toFixed(1)} | ${r.peakRssMB.toFixed(0)} | ${size} | ${target} | ${verdict(r)} | ${r.verified ? "yes" : `NO: ${r.problems.join("; ")}`} | ${r.load.split(" ")[0]} |`,
    );
  }
  return lines.join("\n");
}
