// `pnpm bench:sweep` and `pnpm bench`'s `cli/sweep` row: a 16-cell `kubesched sweep` (the newcomer
// cluster of lib/newcomer-cluster.ts × 2 configurations × 2 emulated versions × 2 node pools × 2
// workload scales) through the real CLI as a child process, serially (`--parallelism 1`, every
// cell in the CLI's process) and in parallel (`--parallelism N`, default 2: the CLI's process and
// N - 1 worker processes), each timed as a whole command (start, checks, cells, report) with its
// CPU time. The two alternate (`--repeat R` rounds, serial first in even rounds, parallel first in
// odd ones: a machine whose load drifts slows both alike); the speedup is the median of the
// rounds'. Checked: every run prints the same report byte for byte, with 16 cells. The load
// average is printed with the numbers: on a shared machine other processes take cores too.
//   pnpm bench:sweep [--nodes N] [--pods N] [--parallelism N] [--repeat R] [--keep DIR] [--json FILE]
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runMeasured } from "./lib/measured-child";
import { writeNewcomerCluster } from "./lib/newcomer-cluster";
import { kubeschedBin } from "./newcomer";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The speedup on 2 cores that issue 26 asks of a 16-cell sweep in parallel. */
export const sweepSpeedupTarget = 1.6;

export interface SweepRun {
  parallelism: number;
  /** The round (0-based) and the run's place in it. */
  round: number;
  wallSeconds: number;
  /** User + system CPU seconds of the command and its worker processes (null without /usr/bin/time). */
  cpuSeconds: number | null;
  peakRssMB: number;
  /** Load average (1, 5, 15 min) when the run started. */
  load: string;
  exitCode: number | null;
  /** The report (`-o json`). */
  output: string;
  stderr: string;
}

export interface SweepBench {
  nodes: number;
  pods: number;
  cells: number;
  parallelism: number;
  /** Serial and parallel runs, round by round. */
  runs: SweepRun[];
  /** Per round: serial wall time / parallel wall time. */
  speedups: number[];
  /** The median of `speedups`. */
  speedup: number;
  target: number;
  /** Every run printed the same report, with 16 cells. */
  identical: boolean;
  problems: string[];
}

async function runSweep(dir: string, parallelism: number, round: number): Promise<SweepRun> {
  const out = join(dir, `report-${round}-${parallelism}.json`);
  rmSync(out, { force: true });
  const r = await runMeasured(
    [kubeschedBin, "sweep", "sweep.yaml", "-o", "json", "--parallelism", String(parallelism), "--out", out],
    dir,
  );
  let output = "";
  try {
    output = readFileSync(out, "utf8");
  } catch {
    // no report: a problem below
  }
  return {
    parallelism,
    round,
    wallSeconds: r.wallSeconds,
    cpuSeconds: r.cpuSeconds,
    peakRssMB: r.peakRssMB,
    load: r.load,
    exitCode: r.exitCode,
    output,
    stderr: r.stderr,
  };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Writes the matrix and its inputs into `dir`. */
export function writeSweepBench(dir: string, o: { nodes: number; pods: number }): void {
  writeNewcomerCluster(join(dir, "cluster.yaml"), o);
  copyFileSync(join(root, "examples/config/bin-packing.yaml"), join(dir, "bin-packing.yaml"));
  writeFileSync(
    join(dir, "sweep.yaml"),
    `apiVersion: kubesched.io/v1alpha1
kind: SweepMatrix
seed: 1
snapshots: [cluster.yaml]
configs: [default, bin-packing.yaml]
emulatedVersions: ["1.35", "1.37"]
pools:
  - {name: none, count: 0}
  - name: large
    count: ${Math.max(1, Math.round(o.nodes / 10))}
    node:
      metadata:
        labels: {topology.kubernetes.io/zone: us-east-1a, topology.kubernetes.io/region: us-east-1, node.kubernetes.io/instance-type: m5.4xlarge}
      status:
        allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
        capacity: {cpu: "16", memory: 64Gi, pods: "110"}
scales: [1, 2]
`,
  );
}

export async function benchSweep(o: {
  nodes: number;
  pods: number;
  parallelism: number;
  dir: string;
  repeat?: number;
}): Promise<SweepBench> {
  writeSweepBench(o.dir, o);
  const runs: SweepRun[] = [];
  const speedups: number[] = [];
  for (let round = 0; round < (o.repeat ?? 1); round++) {
    const order = round % 2 === 0 ? [1, o.parallelism] : [o.parallelism, 1];
    const pair: SweepRun[] = [];
    for (const p of order) pair.push(await runSweep(o.dir, p, round));
    runs.push(...pair);
    const serial = pair.find((r) => r.parallelism === 1) as SweepRun;
    const parallel = pair.find((r) => r.parallelism !== 1) as SweepRun;
    speedups.push(serial.wallSeconds / parallel.wallSeconds);
  }
  const problems: string[] = [];
  for (const r of runs) {
    if (r.exitCode !== 0)
      problems.push(`--parallelism ${r.parallelism}: exit code ${r.exitCode}: ${r.stderr.slice(-500)}`);
  }
  const first = runs[0]?.output ?? "";
  let cells = 0;
  try {
    cells = (JSON.parse(first) as { status: { cells: unknown[] } }).status.cells.length;
  } catch {
    problems.push("the first run printed no report");
  }
  if (cells !== 16) problems.push(`${cells} cells, want 16`);
  const identical = runs.every((r) => r.output === first);
  if (!identical) problems.push("the serial and parallel reports differ");
  return {
    nodes: o.nodes,
    pods: o.pods,
    cells,
    parallelism: o.parallelism,
    runs,
    speedups,
    speedup: median(speedups),
    target: sweepSpeedupTarget,
    identical,
    problems,
  };
}

/** The runs as a Markdown table, then the speedup against the target. */
export function formatSweepBench(r: SweepBench): string {
  const lines = [
    `16-cell sweep, newcomer cluster ${r.nodes} nodes / ${r.pods} pods (\`kubesched sweep -o json\`, whole command)`,
    "",
    "| round | run | wall (s) | CPU (s) | peak RSS (MB) | load average at start (1, 5, 15 min) |",
    "| ---: | --- | ---: | ---: | ---: | --- |",
  ];
  for (const x of r.runs) {
    const run =
      x.parallelism === 1
        ? "serial (--parallelism 1)"
        : `--parallelism ${x.parallelism} (this process + ${x.parallelism - 1} worker${x.parallelism > 2 ? "s" : ""})`;
    const cpu = x.cpuSeconds === null ? "-" : x.cpuSeconds.toFixed(1);
    lines.push(
      `| ${x.round + 1} | ${run} | ${x.wallSeconds.toFixed(1)} | ${cpu} | ${x.peakRssMB.toFixed(0)} | ${x.load} |`,
    );
  }
  const met = r.speedup >= r.target ? "met" : "NOT met";
  lines.push(
    "",
    `speedup ${r.speedup.toFixed(2)}× (median of ${r.speedups.map((x) => `${x.toFixed(2)}×`).join(", ")}; target ≥ ${r.target}× on 2 cores: ${met}); reports identical: ${r.identical ? "yes" : "NO"}`,
  );
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      nodes: { type: "string", default: "300" },
      pods: { type: "string", default: "600" },
      parallelism: { type: "string", default: "2" },
      repeat: { type: "string", default: "3" },
      keep: { type: "string" },
      json: { type: "string" },
    },
  });
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), "kubesched-bench-sweep-"));
  mkdirSync(dir, { recursive: true });
  try {
    const r = await benchSweep({
      nodes: Number(values.nodes),
      pods: Number(values.pods),
      parallelism: Number(values.parallelism),
      repeat: Number(values.repeat),
      dir,
    });
    console.log(formatSweepBench(r));
    if (values.json) {
      const runs = r.runs.map(({ output: _, ...run }) => run);
      writeFileSync(values.json, `${JSON.stringify({ ...r, runs }, null, 2)}\n`);
    }
    for (const p of r.problems) console.error(`problem: ${p}`);
    if (r.problems.length > 0) process.exitCode = 1;
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
