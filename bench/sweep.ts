// `pnpm bench:sweep`: a 16-cell `kubesched sweep` (the newcomer cluster of lib/newcomer-cluster.ts
// × 2 configurations × 2 emulated versions × 2 node pools × 2 workload scales) through the real
// CLI as a child process, serially (`--parallelism 1`, every cell in the CLI's thread) and on
// worker threads (`--parallelism N`, default 2), each timed as a whole command (start, checks,
// cells, report). Checked: both print the same report byte for byte, with 16 cells. The load
// average is printed with the numbers: on a shared machine other processes take cores too.
//   pnpm bench:sweep [--nodes N] [--pods N] [--parallelism N] [--keep DIR] [--json FILE]
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writeNewcomerCluster } from "./lib/newcomer-cluster";
import { kubeschedBin } from "./newcomer";

const root = fileURLToPath(new URL("..", import.meta.url));

export interface SweepRun {
  parallelism: number;
  wallSeconds: number;
  /** Load average (1, 5, 15 min) when the run started. */
  load: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface SweepBench {
  nodes: number;
  pods: number;
  cells: number;
  serial: SweepRun;
  parallel: SweepRun;
  speedup: number;
  identical: boolean;
  problems: string[];
}

function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}

function runSweep(dir: string, parallelism: number): Promise<SweepRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const at = load();
    const child = spawn(
      process.execPath,
      [kubeschedBin, "sweep", "sweep.yaml", "-o", "json", "--parallelism", String(parallelism)],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (exitCode) =>
      resolve({
        parallelism,
        wallSeconds: (performance.now() - started) / 1000,
        load: at,
        exitCode,
        stdout,
        stderr,
      }),
    );
  });
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
}): Promise<SweepBench> {
  writeSweepBench(o.dir, o);
  const serial = await runSweep(o.dir, 1);
  const parallel = await runSweep(o.dir, o.parallelism);
  const problems: string[] = [];
  for (const r of [serial, parallel]) {
    if (r.exitCode !== 0)
      problems.push(`--parallelism ${r.parallelism}: exit code ${r.exitCode}: ${r.stderr.slice(-500)}`);
  }
  let cells = 0;
  try {
    cells = (JSON.parse(serial.stdout) as { status: { cells: unknown[] } }).status.cells.length;
  } catch {
    problems.push("the serial run printed no report");
  }
  if (cells !== 16) problems.push(`${cells} cells, want 16`);
  const identical = serial.stdout === parallel.stdout;
  if (!identical) problems.push("the serial and parallel reports differ");
  return {
    nodes: o.nodes,
    pods: o.pods,
    cells,
    serial,
    parallel,
    speedup: serial.wallSeconds / parallel.wallSeconds,
    identical,
    problems,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      nodes: { type: "string", default: "300" },
      pods: { type: "string", default: "600" },
      parallelism: { type: "string", default: "2" },
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
      dir,
    });
    const row = (x: SweepRun) =>
      `| ${x.parallelism === 1 ? "serial (--parallelism 1)" : `${x.parallelism} worker threads`} | ${x.wallSeconds.toFixed(1)} s | ${x.load} |`;
    console.log(
      `16-cell sweep, newcomer cluster ${r.nodes} nodes / ${r.pods} pods (\`kubesched sweep -o json\`, whole command)\n`,
    );
    console.log("| run | wall | load average at start (1, 5, 15 min) |\n| --- | ---: | --- |");
    console.log(row(r.serial));
    console.log(row(r.parallel));
    console.log(`\nspeedup ${r.speedup.toFixed(2)}× (reports identical: ${r.identical})`);
    if (values.json) {
      const { stdout: _s, ...serial } = r.serial;
      const { stdout: _p, ...parallel } = r.parallel;
      writeFileSync(values.json, `${JSON.stringify({ ...r, serial, parallel }, null, 2)}\n`);
    }
    for (const p of r.problems) console.error(`problem: ${p}`);
    if (r.problems.length > 0) process.exitCode = 1;
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
