// How `kubesched sweep` spreads its cells over processes: each cell's estimated cost, the order
// the cells are taken in, the claims through which every process takes its next cell itself,
// whether the default `--parallelism` runs worker processes at all, and the Node flags a worker
// process starts with. bench/README.md ("A sweep in worker
// processes") has the measurements these rules come from.
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
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

  /**
   * A new, empty folder of claims in the system's temporary folder, recording its owner (this
   * host and process). The folders of sweeps killed before they removed theirs (SIGKILL, a crash)
   * are removed first: `removeStaleCellClaims`.
   */
  static create(): CellClaims {
    const tmp = tmpdir();
    removeStaleCellClaims(tmp);
    const dir = mkdtempSync(join(tmp, claimsPrefix));
    writeFileSync(join(dir, ownerFile), `${hostname()}\n${process.pid}\n`);
    return new CellClaims(dir);
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

const claimsPrefix = "kubesched-sweep-claims-";
/** The file in a claims folder naming its owner: host name and process id, one a line (not a cell: cells are numbers). */
const ownerFile = "owner";

/**
 * Removes the claims folders in `tmp` whose owner is gone: a process of this host that no longer
 * runs. A folder without a readable owner (an older kubesched's, or one being created), of another
 * host (a shared temporary folder) or whose owner runs is left alone; so is one that cannot be
 * removed. Returns the folders removed. (A process id reused since keeps its folder until that
 * process ends too.)
 */
export function removeStaleCellClaims(tmp: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(tmp).filter((n) => n.startsWith(claimsPrefix));
  } catch {
    return removed;
  }
  for (const name of names) {
    const dir = join(tmp, name);
    let owner: string[];
    try {
      owner = readFileSync(join(dir, ownerFile), "utf8").split("\n");
    } catch {
      continue;
    }
    const pid = Number(owner[1]);
    if (owner[0] !== hostname() || !Number.isInteger(pid) || pid <= 0 || processRuns(pid)) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Another user's, say: not ours to remove.
    }
  }
  return removed;
}

/** Whether process `pid` runs (signal 0: checked, not sent; EPERM: it runs as another user). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
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
