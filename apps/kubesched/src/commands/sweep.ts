// kubesched sweep: a matrix of simulate (and capacity) runs — snapshots × configurations ×
// emulated versions × node pools × workload scales (sweep-matrix.ts) — compared in one report
// (sweep-report.ts). Locally the cells run in parallel in this process and worker processes
// (tinypool; sweep-schedule.ts: the order of the cells, the default parallelism); on a
// cluster, `--emit-job` writes an Indexed Job whose pods run one shard each (`--shard I/N`) and
// `sweep merge` combines their files into the same report.
//
// tinypool rather than piscina: both are maintained worker pools with the API a sweep needs (run
// a task, a thread count, destroy); tinypool (vitest's pool, a fork of piscina) has no
// dependencies, where piscina 5 brings an optional native module (@napi-rs/nice) for thread
// priorities that a sweep does not use.
import { mkdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import { ParsedInputCache } from "@kubesched/cluster";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { Tinypool } from "tinypool";
import { type CommandContext, defineCommand, type FlagValues } from "../cli";
import { boolFlag, integer, invalidValue, valueFlag } from "../flags";
import { loadConfigFlag, loadPodTemplates, printErrors, resolvePath } from "./inputs";
import { formatted, toYAML, writeOutput } from "./outputs";
import {
  maxInputSizeFlag,
  optionsFlag,
  outFlag,
  outputFlag,
  pluginFlag,
  readEmulation,
} from "./shared-flags";
import {
  describeCell,
  loadCellSnapshot,
  poolConflicts,
  runCell,
  runClaimedCells,
  type SweepCellRuns,
} from "./sweep-cell";
import { pathsOutsideMatrixDir, sweepJob } from "./sweep-job";
import {
  axesInWords,
  cellCount,
  defaultMaxCells,
  readSweepMatrix,
  type SweepCell,
  SweepMatrixError,
  type SweepMatrixFile,
  sweepCells,
  sweepMatrix,
} from "./sweep-matrix";
import {
  inShard,
  mergeShards,
  readShardFile,
  renderSweepTable,
  SweepMergeError,
  type SweepShard,
  shardFiles,
  sweepReport,
  sweepSpec,
} from "./sweep-report";
import { sweepReportSchema } from "./sweep-report-schema";
import {
  CellClaims,
  cellCosts,
  cellOrder,
  defaultParallelism,
  withoutDebuggerOptions,
  workerEnv,
} from "./sweep-schedule";
import type { SweepTask, SweepTaskResult } from "./sweep-worker";

const sweepFlags = [
  valueFlag({
    name: "parallelism",
    value: "N",
    description:
      "Run N cells at a time: in this process and N - 1 worker processes (1: one after the other in this process); default: the available cores when the cells' estimated work pays for starting worker processes, else 1 (see the README).",
    parse: integer(1, 1024, "must be an integer from 1 to 1024"),
  }),
  valueFlag({
    name: "max-cells",
    value: "N",
    default: String(defaultMaxCells),
    description: "Refuse a matrix of more than N cells (a guard against a matrix grown by mistake).",
    parse: integer(1, Number.MAX_SAFE_INTEGER, "must be a positive integer"),
  }),
  valueFlag({
    name: "shard",
    value: "I/N",
    description:
      "Run only shard I of N (the cells whose index is I modulo N) and write a SweepShard (JSON) for `sweep merge`.",
    parse: (raw, flag) => {
      const m = /^(\d+)\/(\d+)$/.exec(raw);
      const index = Number(m?.[1]);
      const count = Number(m?.[2]);
      if (!m || count < 1 || index >= count) throw invalidValue(raw, flag, "use I/N with 0 <= I < N");
      return { index, count };
    },
  }),
  boolFlag({
    name: "emit-job",
    description:
      "Print a Kubernetes Indexed Job that runs the matrix as --shards shards, inputs from a PersistentVolumeClaim (see the README), instead of running it.",
  }),
  valueFlag({
    name: "shards",
    value: "N",
    default: "4",
    description: "With --emit-job: the Job's completions, one shard each.",
    parse: integer(1, 100000, "must be an integer from 1 to 100000"),
  }),
  valueFlag({
    name: "image",
    value: "IMAGE",
    default: "kubesched:latest",
    description: "With --emit-job: the kubesched image.",
  }),
  valueFlag({
    name: "claim",
    value: "NAME",
    default: "kubesched-sweep",
    description: "With --emit-job: the PersistentVolumeClaim holding a copy of the matrix file's folder.",
  }),
  valueFlag({
    name: "job-name",
    value: "NAME",
    default: "kubesched-sweep",
    description: "With --emit-job: the Job's name.",
  }),
  maxInputSizeFlag,
  pluginFlag,
  optionsFlag,
  outputFlag,
  outFlag("the report"),
  boolFlag({ name: "schema", description: "Print the JSON Schema of the SweepReport output and exit." }),
  boolFlag({ name: "matrix-schema", description: "Print the JSON Schema of the SweepMatrix file and exit." }),
] as const;

type SweepContext = CommandContext<FlagValues<typeof sweepFlags>>;

/**
 * What must hold before any cell runs: every configuration loads at every emulated version, every
 * snapshot loads with every pool and each pool's nodes can hold their DaemonSet pods, the
 * capacity templates load. Prints what the checks printed (errors, warnings, hints; each line
 * once); false when there are errors.
 */
function checkInputs(ctx: SweepContext, m: SweepMatrixFile, parsedInputs: ParsedInputCache): boolean {
  const x = m.matrix;
  const errors: string[] = [];
  const collected = { ...ctx, io: { ...ctx.io, cwd: m.dir, stderr: (s: string) => void errors.push(s) } };
  for (const config of x.configs) {
    for (const version of x.emulatedVersions) {
      const emulation = readEmulation({ "emulated-version": [version], "feature-gates": [] });
      const before = errors.length;
      loadConfigFlag(collected, config === "default" ? null : config, emulation);
      // A configuration's errors are told once, at the first version that refuses it.
      if (errors.length > before) break;
    }
  }
  for (const snapshot of x.snapshots) {
    for (const [i, pool] of x.pools.entries()) {
      const loaded = loadCellSnapshot(
        collected,
        m,
        { snapshot, pool, scale: 1 },
        ctx.flags["max-input-size"],
        parsedInputs,
      );
      if (loaded === null) break;
      for (const c of poolConflicts(loaded, pool)) {
        errors.push(`error: ${m.file}: pools[${i}] (${pool.name}): ${c} (snapshot ${snapshot})\n`);
      }
    }
  }
  if (x.capacity) loadPodTemplates(collected, x.capacity.pods, ctx.flags["max-input-size"]);
  // Each snapshot was loaded once per pool: its warnings are printed once.
  const lines = [...new Set(errors.join("").split("\n"))].filter((l) => l !== "");
  for (const l of lines) ctx.io.stderr(`${l}\n`);
  return !lines.some((l) => l.startsWith("error: "));
}

/**
 * The worker file next to this module: dist/sweep-worker.js once built; in a checkout
 * sweep-worker.workspace.mjs, which loads sweep-worker.ts through tsx.
 */
function workerFile(): string {
  const here = import.meta.url;
  return new URL(here.endsWith(".ts") ? "./sweep-worker.workspace.mjs" : "./sweep-worker.js", here).href;
}

/**
 * Whether the registry is the in-tree plugins and the loaded packages' only: what a worker process
 * can load again. A runner's own plugins (createSchedulerCommand) exist only in this process.
 */
function workersCanLoad(ctx: SweepContext, inTree: ReadonlySet<string>): boolean {
  const fromPackages = new Set(ctx.pluginPackages.flatMap((p) => p.plugins.map((d) => d.name)));
  return [...ctx.registry.keys()].every((k) => inTree.has(k) || fromPackages.has(k));
}

/**
 * V8's flags for a worker process. A cell allocates much and briefly (objects per pod and node,
 * per cycle): with V8's defaults one process kept 1.2–1.3 cores busy (its garbage collector's
 * helper threads beside the JavaScript thread), so two cells on two cores got in each other's
 * way. A worker runs its collector on its own thread (`--single-threaded-gc`: one process, one
 * core). A larger young generation (`--max-semi-space-size`) cut scavenges but not CPU
 * (bench/README.md), so it is left at V8's default.
 */
export const workerV8Flags = ["--single-threaded-gc"] as const;

/**
 * Starts `count` worker processes; they load the CLI while this process checks the inputs.
 * Processes rather than worker threads: threads share one process's garbage collector and its
 * helper threads, and two threads were no faster than one (bench/README.md).
 */
function startWorkers(count: number): Tinypool {
  return new Tinypool({
    filename: workerFile(),
    runtime: "child_process",
    minThreads: count,
    maxThreads: count,
    // tinypool gives a process only the variables named here.
    env: workerEnv(process.env),
    execArgv: [...withoutDebuggerOptions(process.execArgv), ...workerV8Flags],
    // Tasks and results as structured clones, as between threads (not JSON).
    serialization: "advanced",
  });
}

/** Worker processes at work on a sweep: each one's answer, and the first crash. */
interface WorkersAtWork {
  answers: Promise<SweepTaskResult[]>;
  crashed: { error: unknown } | undefined;
}

/**
 * Gives each worker process the sweep: one task each, every cell in order (a worker runs the
 * cells it claims first; see CellClaims). Sent before the checks, so that a worker starts on its
 * first cell once it has loaded instead of when this process next reads its messages. Resolves
 * once the tasks are on their way to the workers: tinypool passes a task to a worker process
 * through a MessagePort of this process, which delivers it in the poll phase of a later turn of
 * the event loop — never while a cell of this process runs.
 */
async function sendWork(
  ctx: SweepContext,
  m: SweepMatrixFile,
  ordered: readonly SweepCell[],
  claims: CellClaims,
  workers: { pool: Tinypool; count: number },
): Promise<WorkersAtWork> {
  const plugins = ctx.pluginPackages.map((p) => ({ spec: p.dir, base: p.dir, from: p.from }));
  const task: SweepTask = {
    matrix: m,
    cells: [...ordered],
    claims: claims.dir,
    plugins,
    maxInputBytes: ctx.flags["max-input-size"],
  };
  const at: WorkersAtWork = { answers: Promise.resolve([]), crashed: undefined };
  const runs = Array.from({ length: workers.count }, () =>
    (workers.pool.run(task) as Promise<SweepTaskResult>).catch((error: unknown) => {
      at.crashed ??= { error };
      return { results: [], failures: [] };
    }),
  );
  at.answers = Promise.all(runs);
  // Two turns: the first may end in the turn this was called in, before its poll phase, where
  // the port's messages are delivered.
  for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
  return at;
}

/**
 * Runs the cells this process claims first, one after the other, while the worker processes (if
 * any) run theirs; results and failures of all in cell order.
 */
async function runCells(
  ctx: SweepContext,
  m: SweepMatrixFile,
  ordered: readonly SweepCell[],
  claims: CellClaims,
  parsedInputs: ParsedInputCache,
  workers: WorkersAtWork | null,
): Promise<SweepCellRuns> {
  const maxInputBytes = ctx.flags["max-input-size"];
  const own = await runClaimedCells(
    ordered,
    (i) => claims.claim(i),
    (cell) => runCell(ctx, m, cell, maxInputBytes, parsedInputs),
    // A turn of the event loop after each cell: a worker that crashed is noticed.
    workers === null
      ? undefined
      : () => new Promise((r) => setImmediate(() => r(workers.crashed === undefined))),
  );
  const answers = workers === null ? [] : await workers.answers;
  if (workers?.crashed !== undefined) throw workers.crashed.error;
  const results = [own, ...answers].flatMap((a) => a.results).sort((a, b) => a.index - b.index);
  const failures = [own, ...answers].flatMap((a) => a.failures).sort((a, b) => a.cell.index - b.cell.index);
  return { results, failures };
}

const mergeCommand = defineCommand({
  name: "merge",
  summary:
    "Combine the shard files of a sweep (--shard I/N runs, the Indexed Job's results) into its report.",
  args: [{ name: "DIR", required: true, variadic: true }],
  flags: [outputFlag, outFlag("the report")],
  run(ctx) {
    try {
      const files = shardFiles(ctx.args, (p) => resolvePath(ctx, p));
      const report = mergeShards(files, (f) => readShardFile(resolvePath(ctx, f)));
      const text = formatted(ctx.flags.output, report, () => renderSweepTable(report));
      return writeOutput(ctx, ctx.flags.out, text) ? 0 : 1;
    } catch (e) {
      if (!(e instanceof SweepMergeError)) throw e;
      printErrors(ctx, e.errors);
      ctx.io.stderr("error: no report written: the shards do not make up the whole sweep\n");
      return 1;
    }
  },
});

export const sweepCommand = defineCommand({
  name: "sweep",
  summary:
    "Run a matrix of simulations (snapshots × configs × versions × node pools × scales) and compare the cells.",
  args: [{ name: "FILE", required: false }],
  flags: sweepFlags,
  subcommands: [mergeCommand],
  async run(ctx) {
    if (ctx.flags.schema === true) {
      ctx.io.stdout(`${JSON.stringify(sweepReportSchema, null, 2)}\n`);
      return 0;
    }
    if (ctx.flags["matrix-schema"] === true) {
      ctx.io.stdout(`${JSON.stringify(sweepMatrix.jsonSchema(), null, 2)}\n`);
      return 0;
    }
    const file = ctx.args[0];
    if (file === undefined) {
      ctx.io.stderr("error: missing argument FILE (a SweepMatrix file)\n");
      return 2;
    }
    let m: SweepMatrixFile;
    try {
      m = readSweepMatrix(resolvePath(ctx, file), file);
    } catch (e) {
      if (!(e instanceof SweepMatrixError)) throw e;
      printErrors(ctx, e.errors);
      return 1;
    }
    const total = cellCount(m.matrix);
    const max = ctx.flags["max-cells"];
    if (total > max) {
      ctx.io.stderr(
        `error: ${file}: the matrix has ${total} cells (${axesInWords(m.matrix)}), more than --max-cells ${max}; give --max-cells ${total} to run it\n`,
      );
      return 1;
    }
    if (ctx.flags["emit-job"] === true) {
      const outside = pathsOutsideMatrixDir(m);
      if (outside.length > 0) {
        printErrors(ctx, outside);
        return 1;
      }
      const job = sweepJob(m, {
        name: ctx.flags["job-name"],
        image: ctx.flags.image,
        claim: ctx.flags.claim,
        shards: ctx.flags.shards,
      });
      return writeOutput(ctx, ctx.flags.out, toYAML(job)) ? 0 : 1;
    }
    const shard = ctx.flags.shard;
    const cells = sweepCells(m.matrix).filter((c) => !shard || inShard(c.index, shard.index, shard.count));
    const costs = cellCosts(m, cells);
    const parallelism = ctx.flags.parallelism ?? defaultParallelism(availableParallelism(), costs);
    // This process runs cells too: N at a time is this one and N - 1 workers.
    const count = Math.min(parallelism, cells.length) - 1;
    const workers =
      count > 0 && workersCanLoad(ctx, new Set(inTreeRegistry.keys()))
        ? { pool: startWorkers(count), count }
        : null;
    const ordered = cellOrder(cells, costs);
    const claims = CellClaims.create();
    let ran: SweepCellRuns;
    try {
      const atWork = workers === null ? null : await sendWork(ctx, m, ordered, claims, workers);
      // The snapshots checked here are parsed once for the cells that run in this process too.
      const parsedInputs = new ParsedInputCache();
      if (!checkInputs(ctx, m, parsedInputs)) return 1;
      ran = await runCells(ctx, m, ordered, claims, parsedInputs, atWork);
    } finally {
      await workers?.pool.destroy();
      claims.remove();
    }
    const { results, failures } = ran;
    if (failures.length > 0) {
      for (const f of failures)
        printErrors(
          ctx,
          f.errors.map((e) => `${describeCell(f.cell)}: ${e}`),
        );
      ctx.io.stderr(`error: ${failures.length} of ${cells.length} cell(s) failed; no report written\n`);
      return 1;
    }
    const spec = sweepSpec(m);
    if (shard) {
      const out: SweepShard = {
        apiVersion: "kubesched.io/v1alpha1",
        kind: "SweepShard",
        spec,
        shard,
        status: { cells: results },
      };
      if (ctx.flags.out !== undefined)
        mkdirSync(dirname(resolvePath(ctx, ctx.flags.out)), { recursive: true });
      return writeOutput(ctx, ctx.flags.out, `${JSON.stringify(out, null, 2)}\n`) ? 0 : 1;
    }
    const report = sweepReport(spec, results);
    const text = formatted(ctx.flags.output, report, () => renderSweepTable(report));
    return writeOutput(ctx, ctx.flags.out, text) ? 0 : 1;
  },
});
