// One cell of `kubesched sweep`: the snapshot with the cell's node pool and workload scale,
// scheduled by simulate (and counted by capacity when the matrix asks) through the functions the
// simulate and capacity commands call — the same flag readers, loaders and runs, with the
// matrix's values in place of flags. Cells run in the CLI's process or in a worker process
// (sweep-worker.ts); either way a cell's result depends on its values and the seed only.
// Another run per cell (`plan`, a later command) joins the same way: a matrix field asking for
// it, its call here, its answer as a field beside `capacity` in the cell's result.
import type { Node } from "@kubesched/api";
import {
  AdmissionError,
  capacity,
  daemonSetPodsOf,
  failSummaryOf,
  type LoadResult,
  type ParsedInputCache,
  poolDaemonSetConflicts,
  type SimulationSummary,
  simulate,
  summarizeSimulation,
} from "@kubesched/cluster";
import type { CommandContext } from "../cli";
import { loadConfigFlag, loadObjectsFlag, loadPodTemplates, printErrors } from "./inputs";
import { readEmulation, schedulerEmulation } from "./shared-flags";
import { poolInput, type SweepCell, type SweepMatrixFile, type SweepPool } from "./sweep-matrix";

/** What capacity found in a cell: replicas placed in all, and per template. */
export interface SweepCellCapacity {
  replicas: number;
  pods: { podName: string; replicas: number; failType: string; failMessage: string }[];
}

/** One cell's result in the SweepReport. */
export interface SweepCellResult extends SimulationSummary {
  index: number;
  snapshot: string;
  config: string;
  emulatedVersion: string;
  pool: string;
  poolNodes: number;
  scale: number;
  /** Nodes after the pool was added. */
  nodes: number;
  /** Pending pods (after the workload scale). */
  pods: number;
  /** Per reason of the FitErrors of the pods left unscheduled: how many pods gave it. */
  reasons: { reason: string; pods: number }[];
  capacity: SweepCellCapacity | null;
}

/** A cell that could not run: the messages its run printed. */
export class SweepCellError extends Error {
  constructor(
    readonly cell: SweepCell,
    readonly errors: readonly string[],
  ) {
    super(errors.join("\n"));
    this.name = "SweepCellError";
  }
}

/** The cell's values in words, for messages. */
export function describeCell(c: SweepCell): string {
  return `cell ${c.index} (snapshot ${c.snapshot}, config ${c.config}, version ${c.emulatedVersion}, pool ${c.pool.name}, scale ${c.scale})`;
}

/**
 * `ctx` with the matrix's folder as working directory (its paths are relative to it) and what
 * is written on stderr collected instead of printed.
 */
function cellContext(
  ctx: CommandContext<unknown>,
  matrix: SweepMatrixFile,
): {
  cctx: CommandContext<unknown>;
  stderr: string[];
} {
  const stderr: string[] = [];
  const io = { ...ctx.io, cwd: matrix.dir, stderr: (s: string) => void stderr.push(s) };
  return { cctx: { ...ctx, io }, stderr };
}

function errorLines(stderr: readonly string[]): string[] {
  return stderr
    .join("")
    .split("\n")
    .filter((l) => l.startsWith("error: "))
    .map((l) => l.slice("error: ".length));
}

/** The cell's snapshot with its pool's nodes and its workload scale, as simulate loads `--cluster`. */
export function loadCellSnapshot(
  cctx: CommandContext<unknown>,
  matrix: SweepMatrixFile,
  cell: Pick<SweepCell, "snapshot" | "pool" | "scale">,
  maxInputBytes: number,
  parsedInputs?: ParsedInputCache,
): LoadResult | null {
  const index = matrix.matrix.pools.findIndex((p) => p.name === cell.pool.name);
  const pool = poolInput(matrix.file, index, cell.pool);
  return loadObjectsFlag(cctx, [cell.snapshot], maxInputBytes, {
    ...(pool.length > 0 ? { additionalInputs: pool } : {}),
    replicaScale: cell.scale,
    ...(parsedInputs ? { parsedInputs } : {}),
  });
}

/**
 * Why a pool cannot host what the snapshot's DaemonSets put on each of its nodes: the requests of
 * the DaemonSet pods pinned to a pool node above the node's allocatable (a pool that conflicts
 * with itself). Empty when it can.
 */
export function poolConflicts(loaded: LoadResult, pool: SweepPool): string[] {
  if (pool.count === 0) return [];
  // Every node of the pool is the same: the first one's DaemonSet pods stand for all.
  const name = `${pool.name}-1`;
  const first = loaded.objects.find((o) => o.kind === "Node" && o.obj.metadata?.name === name)?.obj as
    | Node
    | undefined;
  if (first === undefined) return [];
  return poolDaemonSetConflicts({ node: first, daemonSetPods: daemonSetPodsOf(loaded.objects, name) });
}

/** The cells one process ran: their results, and the failed cells with their messages. */
export interface SweepCellRuns {
  results: SweepCellResult[];
  failures: { cell: SweepCell; errors: readonly string[] }[];
}

/**
 * Runs, one after the other, every cell of `ordered` that this process claims first (`claim`; see
 * CellClaims): the loop of the CLI's process and of each worker process. A cell that fails
 * (SweepCellError) is noted and the next one taken; other errors are thrown. `between` runs after
 * each cell; false from it stops the loop.
 */
export async function runClaimedCells(
  ordered: readonly SweepCell[],
  claim: (index: number) => boolean,
  run: (cell: SweepCell) => Promise<SweepCellResult>,
  between?: () => Promise<boolean>,
): Promise<SweepCellRuns> {
  const out: SweepCellRuns = { results: [], failures: [] };
  for (const cell of ordered) {
    if (!claim(cell.index)) continue;
    try {
      out.results.push(await run(cell));
    } catch (e) {
      if (!(e instanceof SweepCellError)) throw e;
      out.failures.push({ cell, errors: e.errors });
    }
    if (between !== undefined && !(await between())) break;
  }
  return out;
}

/**
 * Runs one cell; throws SweepCellError with what its run printed when it cannot run.
 * `parsedInputs`: the snapshots the cells before it parsed (each is parsed once per thread).
 */
export async function runCell(
  ctx: CommandContext<unknown>,
  matrix: SweepMatrixFile,
  cell: SweepCell,
  maxInputBytes: number,
  parsedInputs?: ParsedInputCache,
): Promise<SweepCellResult> {
  const { cctx, stderr } = cellContext(ctx, matrix);
  const failed = () => new SweepCellError(cell, errorLines(stderr));
  const emulation = readEmulation({ "emulated-version": [cell.emulatedVersion], "feature-gates": [] });
  const config = loadConfigFlag(cctx, cell.config === "default" ? null : cell.config, emulation);
  if (config === null) throw failed();
  const loaded = loadCellSnapshot(cctx, matrix, cell, maxInputBytes, parsedInputs);
  if (loaded === null) throw failed();
  const spec = matrix.matrix.capacity;
  const templates = spec ? loadPodTemplates(cctx, spec.pods, maxInputBytes) : [];
  if (templates === null) throw failed();
  const options = {
    config,
    registry: cctx.registry,
    objects: loaded.objects,
    logger: cctx.logger,
    ...schedulerEmulation(emulation),
    seed: matrix.matrix.seed,
  };
  try {
    const result = await simulate(options);
    const reasons = new Map<string, number>();
    for (const p of result.pods) {
      if (p.outcome !== "Unschedulable" && p.outcome !== "Error") continue;
      const summary = failSummaryOf(p.message ?? "");
      const found = summary.length > 0 ? summary.map((s) => s.reason) : [p.message ?? p.outcome];
      for (const r of found) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
    let counted: SweepCellCapacity | null = null;
    if (spec) {
      // A load of its own: the simulation above has bound the pods it was given.
      const again = loadCellSnapshot(cctx, matrix, cell, maxInputBytes, parsedInputs);
      if (again === null) throw failed();
      const report = await capacity({
        ...options,
        objects: again.objects,
        templates,
        ...(spec.max ? { maxReplicas: spec.max } : {}),
      });
      counted = {
        replicas: report.status.replicas,
        pods: report.status.pods.map((p) => ({
          podName: p.podName,
          replicas: p.replicas,
          failType: p.failReason.failType,
          failMessage: p.failReason.failMessage,
        })),
      };
    }
    return {
      index: cell.index,
      snapshot: cell.snapshot,
      config: cell.config,
      emulatedVersion: cell.emulatedVersion,
      pool: cell.pool.name,
      poolNodes: cell.pool.count,
      scale: cell.scale,
      nodes: result.nodes.length,
      pods: result.summary.pods,
      ...summarizeSimulation(result),
      reasons: [...reasons]
        .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
        .map(([reason, pods]) => ({ reason, pods })),
      capacity: counted,
    };
  } catch (e) {
    if (!(e instanceof AdmissionError)) throw e;
    printErrors(cctx, e.errors);
    throw failed();
  }
}
