// `pnpm bench`: upstream's scheduler_perf workloads against the real engine, one fresh Node
// process per workload, side by side with a bare-loop ceiling; prints a table.
//
//   pnpm bench [--filter RE] [--json FILE] [--cpu-prof] [--gc] [--max-old-space-size MB]
//              [--no-ceiling] [--no-metrics] [--micro]
//
// --filter      run the workloads whose name matches (case-insensitive regex or substring)
// --json FILE   also write the results (workloads + ceiling + machine) as JSON
// --cpu-prof    write a V8 CPU profile of each measured phase to bench/profiles/ and print
//               the top self-time functions and packages
// --gc          run the workloads with --expose-gc (a full GC between init and measuring)
// --max-old-space-size MB   passed to each workload process
// --no-metrics  run the engine with metrics disabled (diagnostic; default is upstream's: on)
// --micro       run the per-plugin micro-benchmarks (bench/micro/*.bench.ts) instead
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { CeilingResult } from "./ceiling";
import { formatPhases } from "./lib/phases";
import { formatProfileSummary, summarizeProfile } from "./lib/profile-summary";
import type { WorkloadResult } from "./lib/result";
import { formatTable, type Machine } from "./lib/table";
import { selectWorkloads } from "./lib/workloads";

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
    micro: { type: "boolean" },
    scale: { type: "string" },
  },
});

/** Runs `script` under node + tsx; resolves with the exit code. stderr/stdout are passed through. */
function runNode(script: string, args: string[], nodeFlags: string[] = [], timeoutMs = 0): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", join(here, script), ...args], {
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
  if (selected.length === 0) {
    console.error(`no workload matches "${values.filter}"`);
    process.exit(2);
  }
  const mach = machine();
  const started = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), "kubesched-bench-"));
  const profDir = join(here, "profiles");
  if (values["cpu-prof"]) mkdirSync(profDir, { recursive: true });
  const nodeFlags: string[] = [];
  if (values.gc) nodeFlags.push("--expose-gc");
  if (values["max-old-space-size"]) nodeFlags.push(`--max-old-space-size=${values["max-old-space-size"]}`);
  console.log(
    `kubesched bench: ${selected.length} workload(s) on ${mach.cpus} x ${mach.cpuModel}, Node ${mach.node}, load ${mach.loadAvgAtStart.toFixed(1)}`,
  );

  let ceiling: CeilingResult | null = null;
  if (!values["no-ceiling"]) {
    const out = join(tmp, "ceiling.json");
    const code = await runNode("ceiling.ts", ["--out", out], nodeFlags, 60_000);
    if (code === 0) {
      ceiling = JSON.parse(readFileSync(out, "utf8")) as CeilingResult;
      console.log(
        `  ceiling: ${Math.round(ceiling.podsPerSecond)} pods/s (bare loop, SchedulingBasic 5000 nodes)`,
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
    const t = performance.now();
    const code = await runNode("workload.ts", args, nodeFlags, w.timeoutMs * 3 + 60_000);
    let r: WorkloadResult;
    try {
      r = JSON.parse(readFileSync(out, "utf8")) as WorkloadResult;
    } catch {
      r = failed(w.name, w.nodes, `workload process exited with code ${code}`);
    }
    results.push(r);
    const avg = r.throughput ? `${r.throughput.average.toFixed(0)} pods/s avg` : "no samples";
    console.log(
      `  ${w.name}: ${r.status}, ${avg}, overall ${r.overall?.toFixed(0) ?? "-"} pods/s, ${r.peakRssMB} MB, ${((performance.now() - t) / 1000).toFixed(1)} s, decisions ${r.decisionsVerified === null ? "not verified" : r.decisionsVerified ? "verified" : "WRONG"}`,
    );
    for (const line of r.verification) if (!line.startsWith("ok")) console.log(`    ${line}`);
  }
  rmSync(tmp, { recursive: true, force: true });
  const totalS = (performance.now() - started) / 1000;

  console.log();
  console.log(formatTable(results, ceiling, mach, totalS));
  const phases = formatPhases(results);
  if (phases) console.log(`\n${phases}`);

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
  if (values.json) {
    writeFileSync(
      values.json,
      `${JSON.stringify({ machine: mach, totalSeconds: totalS, ceiling, workloads: results }, null, 2)}\n`,
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
