// `pnpm bench`: upstream's scheduler_perf workloads against the real engine, one fresh Node
// process per workload, side by side with a bare-loop ceiling; prints the table, the scaling
// curve (SchedulingBasic by node count) and writes the SVG charts.
//
//   pnpm bench [--filter RE] [--json FILE] [--cpu-prof] [--gc] [--max-old-space-size MB]
//              [--no-ceiling] [--no-metrics] [--scale F] [--timeout-scale F]
//              [--charts DIR | --no-charts] [--micro] [--no-columnar PLUGIN[,PLUGIN...]|all]
//
// --filter      run the workloads whose name matches (case-insensitive regex or substring)
// --json FILE   also write the results (workloads + ceilings + machine) as JSON
// --cpu-prof    write a V8 CPU profile of each measured phase to bench/profiles/ and print
//               the top self-time functions and packages
// --gc          run the workloads with --expose-gc (a full GC between init and measuring)
// --max-old-space-size MB   passed to each workload process
// --no-metrics  run the engine with metrics disabled (diagnostic; default is upstream's: on)
// --scale F     every count × F (a quick check; no floors, no charts unless --charts)
// --timeout-scale F   every workload's time limit × F (a loaded machine)
// --charts DIR  where the SVG charts go (default bench/results; --no-charts: none)
// --micro       run the per-plugin micro-benchmarks (bench/micro/*.bench.ts) instead
// --no-columnar hide these plugins' columnar methods (@kubesched/framework/columnar), or every
//               plugin's with `all`: they run per node, to measure what their columnar path gains
//
// After the workloads, the CLI rows (lib/cli-rows.ts: `cli/...`, selected by --filter and sized by
// --scale like the workloads): `kubesched simulate --explain` and `kubesched why` on the
// SchedulingBasic/5000Nodes_10000Pods cluster as child processes, wall time and peak RSS; and the
// sweep row (`cli/sweep`, sweep.ts): a 16-cell `kubesched sweep` on 600 nodes / 1200 pods (× --scale),
// serially and with --parallelism 2 (the CLI's process + 1 worker), alternately 3 times (once with --scale), the reports compared.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { CeilingResult } from "./ceiling";
import { writeCharts } from "./lib/chart-files";
import { type CliRowResult, cliRows, cliRowsCluster, formatCliRows, runCliRow } from "./lib/cli-rows";
import { formatPhases } from "./lib/phases";
import { formatProfileSummary, summarizeProfile } from "./lib/profile-summary";
import type { WorkloadResult } from "./lib/result";
import { writeSchedulingBasicSnapshot } from "./lib/scheduling-basic-snapshot";
import { ceilingWorkload, formatScalingTable, formatTable, type Machine } from "./lib/table";
import {
  findWorkload,
  initPodCount,
  measuredOp,
  nodeCount,
  scaleWorkload,
  selectByName,
  selectWorkloads,
} from "./lib/workloads";
import { benchSweep, formatSweepBench, type SweepBench } from "./sweep";

const here = dirname(fileURLToPath(import.meta.url));

const { values } = parseArgs({
  options: {
    filter: { type: "string" },
    json: { type: "string" },
    "cpu-prof": { type: "boolean" },
    gc: { type: "boolean" },
    "max-old-space-size": { type: "string" },
    "no-ceiling": { type: "boolean" },
    "no-metrics": { type: "boolean" },
    "timeout-scale": { type: "string" },
    micro: { type: "boolean" },
    scale: { type: "string" },
    charts: { type: "string" },
    "no-charts": { type: "boolean" },
    "no-columnar": { type: "string" },
  },
});

/** Loads the workspace's TypeScript as the packages ship it (lib/shipped-build.mjs: no keepNames). */
const shippedBuild = pathToFileURL(join(here, "lib/shipped-build.mjs")).href;

/**
 * Runs `script` under node + tsx (the code compiled as shipped); resolves with the exit code.
 * stderr/stdout are passed through.
 */
function runNode(script: string, args: string[], nodeFlags: string[] = [], timeoutMs = 0): Promise<number> {
  return new Promise((resolve) => {
    const flags = [...nodeFlags, "--import", "tsx", "--import", shippedBuild];
    const child = spawn(process.execPath, [...flags, join(here, script), ...args], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            console.error(`  ${script} ${args[0] ?? ""}: killed after ${Math.round(timeoutMs / 1000)} s`);
            child.kill("SIGKILL");
          }, timeoutMs)
        : null;
    child.on("exit", (code) => {
      if (timer) clearTimeout(timer);
      resolve(code ?? 1);
    });
  });
}

async function micro(): Promise<void> {
  const code = await runNode("micro/run.ts", []);
  process.exit(code);
}

function machine(): Machine {
  const c = cpus();
  return {
    cpus: c.length,
    cpuModel: c[0]?.model.trim() ?? "unknown",
    memoryGB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    loadAvgAtStart: loadavg()[0] ?? 0,
  };
}

async function main(): Promise<void> {
  if (values.micro) return micro();
  const selected = selectWorkloads(values.filter);
  const rows = selectByName(cliRows, values.filter);
  const sweepRow = selectByName([{ name: "cli/sweep" }], values.filter).length > 0;
  if (selected.length === 0 && rows.length === 0 && !sweepRow) {
    console.error(`no workload matches "${values.filter}"`);
    process.exit(2);
  }
  const scale = values.scale === undefined ? 1 : Number(values.scale);
  const mach = machine();
  const started = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), "kubesched-bench-"));
  const profDir = join(here, "profiles");
  if (values["cpu-prof"]) mkdirSync(profDir, { recursive: true });
  const nodeFlags: string[] = [];
  if (values.gc) nodeFlags.push("--expose-gc");
  if (values["max-old-space-size"]) nodeFlags.push(`--max-old-space-size=${values["max-old-space-size"]}`);
  console.log(
    `kubesched bench: ${selected.length} workload(s), ${rows.length + (sweepRow ? 1 : 0)} CLI row(s) on ${mach.cpus} x ${mach.cpuModel}, Node ${mach.node}, load ${mach.loadAvgAtStart.toFixed(1)}`,
  );

  // The bare loop at SchedulingBasic's size, and at each size of the scaling curve selected.
  const ceilings = new Map<string, CeilingResult>();
  if (!values["no-ceiling"] && selected.length > 0) {
    const sized = selected.filter((w) => w.scaling && w.name !== ceilingWorkload);
    const basic = findWorkload(ceilingWorkload);
    for (const w of basic ? [basic, ...sized] : sized) {
      const sw = scaleWorkload(w, scale);
      const out = join(tmp, `ceiling-${ceilings.size}.json`);
      const args = ["--out", out, "--nodes", String(nodeCount(sw)), "--init", String(initPodCount(sw))];
      args.push("--measured", String(measuredOp(sw).op.count));
      const code = await runNode("ceiling.ts", args, nodeFlags, 120_000);
      if (code !== 0) continue;
      const c = JSON.parse(readFileSync(out, "utf8")) as CeilingResult;
      ceilings.set(w.name, c);
      console.log(
        `  ceiling: ${Math.round(c.podsPerSecond)} pods/s (bare loop, ${c.nodes} nodes, ${c.measuredPods} pods)`,
      );
    }
  }

  const results: WorkloadResult[] = [];
  for (const w of selected) {
    const out = join(tmp, `${results.length}.json`);
    const args = [w.name, "--out", out];
    if (values["cpu-prof"]) args.push("--cpu-prof", profDir);
    if (values["no-metrics"]) args.push("--no-metrics");
    if (values.scale) args.push("--scale", values.scale);
    if (values["no-columnar"]) args.push("--no-columnar", values["no-columnar"]);
    const t = performance.now();
    const timeoutScale = Number(values["timeout-scale"] ?? 1);
    if (values["timeout-scale"]) args.push("--timeout-scale", values["timeout-scale"]);
    const code = await runNode("workload.ts", args, nodeFlags, w.timeoutMs * timeoutScale * 3 + 60_000);
    let r: WorkloadResult;
    try {
      r = JSON.parse(readFileSync(out, "utf8")) as WorkloadResult;
    } catch {
      r = failed(w.name, nodeCount(w), `workload process exited with code ${code}`);
    }
    results.push(r);
    const avg = r.throughput
      ? `${r.throughput.average.toFixed(0)} pods/s avg`
      : r.startup
        ? `no samples (first ${r.startup.firstTenthPods} pods ${r.startup.firstTenthMs.toFixed(0)} ms, then ${r.startup.laterRate.toFixed(0)} pods/s)`
        : "no samples";
    console.log(
      `  ${w.name}: ${r.status}, ${avg}, overall ${r.overall?.toFixed(0) ?? "-"} pods/s, ${r.peakRssMB} MB, ${((performance.now() - t) / 1000).toFixed(1)} s, decisions ${r.decisionsVerified === null ? "not verified" : r.decisionsVerified ? "verified" : "WRONG"}`,
    );
    for (const line of r.verification) if (!line.startsWith("ok")) console.log(`    ${line}`);
  }
  const rowResults: CliRowResult[] = [];
  if (rows.length > 0) {
    const o = cliRowsCluster(scale);
    const cluster = join(tmp, "scheduling-basic.json");
    writeSchedulingBasicSnapshot(cluster, o);
    for (const row of rows) {
      const r = await runCliRow(row, cluster, o, tmp, scale);
      rowResults.push(r);
      console.log(
        `  ${r.name}: ${r.wallSeconds.toFixed(1)} s, ${r.peakRssMB.toFixed(0)} MB, output ${r.outputBytes} bytes, ${r.verified ? "verified" : `NOT verified: ${r.problems.join("; ")}`}`,
      );
    }
  }
  let sweep: SweepBench | null = null;
  if (sweepRow) {
    const nodes = Math.max(10, Math.round(600 * scale));
    const dir = join(tmp, "sweep");
    mkdirSync(dir);
    sweep = await benchSweep({ nodes, pods: 2 * nodes, parallelism: 2, repeat: scale < 1 ? 1 : 3, dir });
    console.log(
      `  cli/sweep: speedup ${sweep.speedup.toFixed(2)}× (target ≥ ${sweep.target}×), ${sweep.problems.length === 0 ? "verified" : `NOT verified: ${sweep.problems.join("; ")}`}`,
    );
  }
  rmSync(tmp, { recursive: true, force: true });
  const totalS = (performance.now() - started) / 1000;

  if (results.length > 0) {
    console.log();
    console.log(formatTable(results, ceilings, mach, totalS));
  }
  if (rowResults.length > 0) {
    console.log();
    console.log(
      "CLI rows: the command as a child process on SchedulingBasic/5000Nodes_10000Pods' cluster (+ one 9-CPU pod); cli/plan on its own (lib/plan-cluster.ts)",
    );
    console.log();
    console.log(formatCliRows(rowResults));
  }
  if (sweep) {
    console.log();
    console.log(
      "Sweep row (`cli/sweep`): serial vs --parallelism 2 (the CLI's process + 1 worker), alternately",
    );
    console.log();
    console.log(formatSweepBench(sweep));
  }
  const scalingRows = results
    .filter((r) => findWorkload(r.name)?.scaling && r.status !== "skipped")
    .map((result) => ({ result, ceiling: ceilings.get(result.name) ?? null }));
  if (scalingRows.length >= 2) {
    console.log();
    console.log(
      "Scaling: SchedulingBasic by node count (overall rate: bound pods / wall time of the measured phase)",
    );
    console.log();
    console.log(formatScalingTable(scalingRows));
  }
  const phases = formatPhases(results);
  if (phases) console.log(`\n${phases}`);
  const chartsDir = values.charts ?? (values.scale || values["no-charts"] ? null : join(here, "results"));
  if (chartsDir && results.length > 0) {
    const files = writeCharts(chartsDir, results, scalingRows, mach);
    console.log();
    console.log(`charts: ${files.length} SVG files in ${relative(process.cwd(), chartsDir) || "."}`);
  }

  if (values["cpu-prof"]) {
    for (const r of results) {
      const f = join(profDir, `${r.name.replaceAll("/", "_")}.cpuprofile`);
      try {
        console.log();
        console.log(formatProfileSummary(r.name, summarizeProfile(f, 15)));
      } catch {
        // skipped workloads have no profile
      }
    }
  }
  const wrong = results.filter((r) => r.decisionsVerified === false);
  if (wrong.length > 0) {
    console.log();
    console.log(
      `decisions NOT verified for: ${wrong.map((r) => r.name).join(", ")} (their speed does not count)`,
    );
    process.exitCode = 1;
  }
  const unverifiedRows = rowResults.filter((r) => !r.verified);
  if (unverifiedRows.length > 0) {
    console.log();
    console.log(`CLI rows NOT verified: ${unverifiedRows.map((r) => r.name).join(", ")}`);
    process.exitCode = 1;
  }
  if (sweep && sweep.problems.length > 0) {
    console.log();
    console.log("cli/sweep NOT verified: the serial and parallel reports must be the same 16 cells");
    process.exitCode = 1;
  }
  if (values.json) {
    const sweepRun = sweep ? { ...sweep, runs: sweep.runs.map(({ output: _, ...run }) => run) } : null;
    writeFileSync(
      values.json,
      `${JSON.stringify({ machine: mach, totalSeconds: totalS, ceilings: Object.fromEntries(ceilings), workloads: results, cliRows: rowResults, sweep: sweepRun }, null, 2)}\n`,
    );
  }
}

function failed(name: string, nodes: number, why: string): WorkloadResult {
  return {
    name,
    status: "failed",
    nodes,
    initPods: 0,
    measuredPods: 0,
    upstreamMeasuredPods: 0,
    scheduled: 0,
    durationMs: 0,
    setupMs: 0,
    overall: null,
    throughput: null,
    attemptLatencyMs: null,
    attempts: 0,
    churnPods: 0,
    peakRssMB: 0,
    threshold: null,
    target: null,
    rssTargetMB: null,
    missingPlugins: [],
    decisionsVerified: null,
    verification: [],
    notes: [why],
  };
}

await main();
