// How `kubesched sweep` spreads its cells over processes: each cell's estimated cost, the order
// the cells are taken in, the claims through which every process takes its next cell itself,
// whether the default `--parallelism` runs worker processes at all, and the Node flags a worker
// process starts with. bench/README.md ("A sweep in worker
// processes") has the measurements these rules come from.
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { SweepCell, SweepMatrixFile } from "./sweep-matrix";

/**
 * A cell's estimated cost, in bytes of snapshot scheduled: the snapshot's size × the workload
 * scale, twice that when the matrix counts capacity too (a second run per cell). Only an order
 * and a threshold are drawn from it: on the measured machine a warm cell took about 2 s of CPU per
 * MiB of this estimate.
 */
export function cellCost(snapshotBytes: number, cell: Pick<SweepCell, "scale">, capacity: boolean): number {
  return snapshotBytes * cell.scale * (capacity ? 2 : 1);
}

/** The size of a snapshot input: a file's, or a folder's files' together; 0 when it is missing. */
function inputBytes(path: string): number {
  try {
    const s = statSync(path);
    if (!s.isDirectory()) return s.size;
    let total = 0;
    for (const f of readdirSync(path, { recursive: true, encoding: "utf8" })) {
      const fs = statSync(join(path, f));
      if (fs.isFile()) total += fs.size;
    }
    return total;
  } catch {
    return 0;
  }
}

/** Every cell's estimated cost (cellCost), by cell index. */
export function cellCosts(m: SweepMatrixFile, cells: readonly SweepCell[]): Map<number, number> {
  const bytes = new Map<string, number>();
  for (const s of m.matrix.snapshots) bytes.set(s, inputBytes(isAbsolute(s) ? s : resolve(m.dir, s)));
  const capacity = m.matrix.capacity !== undefined;
  return new Map(cells.map((c) => [c.index, cellCost(bytes.get(c.snapshot) ?? 0, c, capacity)]));
}

/**
 * The cells in the order processes take them: the costliest first (so that the last cells, which
 * decide when the slowest process ends, are the small ones), equal costs by index.
 */
export function cellOrder(cells: readonly SweepCell[], costs: ReadonlyMap<number, number>): SweepCell[] {
  const cost = (c: SweepCell) => costs.get(c.index) ?? 0;
  return [...cells].sort((a, b) => cost(b) - cost(a) || a.index - b.index);
}

/**
 * Which process runs which cell, decided by the processes themselves: each one, when it is free,
 * claims the next cell of the order that no process has claimed yet (a file per cell in a folder
 * they share, created with O_EXCL: one process's creation succeeds). No process waits for another
 * to hand it work — the CLI's process reads no message while a cell of its own runs, and a
 * worker's answer or next task sent through it waited for that cell to end — and no cell waits
 * in a busy process while another is idle.
 */
export class CellClaims {
  private constructor(readonly dir: string) {}

  /** A new, empty folder of claims (in the system's temporary folder). */
  static create(): CellClaims {
    return new CellClaims(mkdtempSync(join(tmpdir(), "kubesched-sweep-claims-")));
  }

  /** The claims another process created (`dir`: its `dir`). */
  static at(dir: string): CellClaims {
    return new CellClaims(dir);
  }

  /** True for the one process whose claim of cell `index` came first. */
  claim(index: number): boolean {
    try {
      closeSync(openSync(join(this.dir, String(index)), "wx"));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw e;
    }
  }

  /** Removes the folder. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The estimated work (Σ cellCost) from which the default `--parallelism` uses worker processes:
 * 2 MiB ≈ 4 s of cells on the measured machine. A worker process first spends 1–3 s of CPU of its
 * own (loading the CLI, warming up V8's compiler, parsing its snapshots) before its cells run as
 * fast as they do in the CLI's process; below this, the cells are done before a worker would pay.
 */
export const parallelWorkThreshold = 2 * 1024 * 1024;

/**
 * `--parallelism`'s default: the available cores when the matrix has two cells or more and their
 * estimated work reaches parallelWorkThreshold, else 1 (every cell in the CLI's process).
 */
export function defaultParallelism(cores: number, costs: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const c of costs.values()) total += c;
  return costs.size >= 2 && total >= parallelWorkThreshold ? Math.max(1, cores) : 1;
}

/** Node options that open a debugger or inspector: one process's, not its workers'. */
const debuggerOption = /^--(inspect|inspect-brk|inspect-wait|debug|debug-brk)(=.*)?$/;
/** The same options' companions, which take a value (`--inspect-port=9230` or `--inspect-port 9230`). */
const debuggerValueOption = /^--(inspect-port|debug-port|inspect-publish-uid)(=.*)?$/;

/**
 * `args` (a process's `execArgv`, or NODE_OPTIONS split into words) without the debugger's
 * options: `node --inspect kubesched sweep` would start every worker with an inspector on the
 * same port.
 */
export function withoutDebuggerOptions(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (debuggerOption.test(a)) continue;
    const value = debuggerValueOption.exec(a);
    if (value) {
      // `--inspect-port 9230`: the next word is its value.
      if (value[2] === undefined) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/**
 * The environment of a worker process: this one's, NODE_OPTIONS without the debugger's options
 * (see withoutDebuggerOptions; NODE_OPTIONS may hold `--inspect` too).
 */
export function workerEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const options = out.NODE_OPTIONS;
  if (options !== undefined) {
    const kept = withoutDebuggerOptions(options.split(/\s+/).filter((w) => w !== ""));
    if (kept.length > 0) out.NODE_OPTIONS = kept.join(" ");
    else delete out.NODE_OPTIONS;
  }
  return out;
}
