// sweep-schedule.ts: the cells' estimated costs and order, the default parallelism's rule, the
// Node options a worker process starts with.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCliIn } from "./run-cli.test-util";
import { runClaimedCells, SweepCellError, type SweepCellResult } from "./sweep-cell";
import { type SweepMatrixFile, sweepCells } from "./sweep-matrix";
import {
  CellClaims,
  cellCosts,
  cellOrder,
  defaultParallelism,
  parallelWorkThreshold,
  removeStaleCellClaims,
  withoutDebuggerOptions,
  workerEnv,
} from "./sweep-schedule";

const dir = mkdtempSync(join(tmpdir(), "kubesched-sweep-schedule-"));
const appDir = fileURLToPath(new URL("../../", import.meta.url));
const root = fileURLToPath(new URL("../../../../", import.meta.url));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function matrixFile(capacity: boolean): SweepMatrixFile {
  writeFileSync(join(dir, "small.yaml"), "x".repeat(100));
  writeFileSync(join(dir, "large.yaml"), "x".repeat(1000));
  return {
    file: "sweep.yaml",
    dir,
    hash: "sha256:0",
    matrix: {
      apiVersion: "kubesched.io/v1alpha1",
      kind: "SweepMatrix",
      seed: 1,
      snapshots: ["small.yaml", "large.yaml", "missing.yaml"],
      configs: ["default"],
      emulatedVersions: ["1.37"],
      pools: [{ name: "none", count: 0 }],
      scales: [1, 3],
      ...(capacity ? { capacity: { pods: ["pod.yaml"] } } : {}),
    } as SweepMatrixFile["matrix"],
  };
}

describe("sweep schedule", () => {
  it("estimates a cell's cost as its snapshot's bytes × its scale (× 2 with capacity); a missing snapshot costs 0", () => {
    const m = matrixFile(false);
    const cells = sweepCells(m.matrix);
    expect([...cellCosts(m, cells)]).toEqual([
      [0, 100],
      [1, 300],
      [2, 1000],
      [3, 3000],
      [4, 0],
      [5, 0],
    ]);
    const withCapacity = matrixFile(true);
    expect([...cellCosts(withCapacity, sweepCells(withCapacity.matrix)).values()]).toEqual([
      200, 600, 2000, 6000, 0, 0,
    ]);
  });

  it("hands out the costliest cells first, equal costs by index", () => {
    const m = matrixFile(false);
    const cells = sweepCells(m.matrix);
    expect(cellOrder(cells, cellCosts(m, cells)).map((c) => c.index)).toEqual([3, 2, 1, 0, 4, 5]);
  });

  it("runs worker processes by default only for two cells or more whose estimated work reaches the threshold", () => {
    const costs = (...xs: number[]) => new Map(xs.map((x, i) => [i, x]));
    expect(parallelWorkThreshold).toBe(2 * 1024 * 1024);
    expect(defaultParallelism(4, costs(parallelWorkThreshold / 2, parallelWorkThreshold / 2))).toBe(4);
    expect(defaultParallelism(4, costs(parallelWorkThreshold / 2, parallelWorkThreshold / 2 - 1))).toBe(1);
    expect(defaultParallelism(4, costs(10 * parallelWorkThreshold))).toBe(1);
    expect(defaultParallelism(1, costs(parallelWorkThreshold, parallelWorkThreshold))).toBe(1);
  });

  it("starts workers without the debugger's options, from execArgv and NODE_OPTIONS", () => {
    expect(
      withoutDebuggerOptions([
        "--inspect",
        "--inspect=127.0.0.1:9229",
        "--inspect-brk=0",
        "--inspect-wait",
        "--inspect-port",
        "9230",
        "--inspect-port=9231",
        "--debug-port=1",
        "--inspect-publish-uid=stderr",
        "--import",
        "tsx",
        "--max-old-space-size=4096",
        "--cpu-prof",
      ]),
    ).toEqual(["--import", "tsx", "--max-old-space-size=4096", "--cpu-prof"]);
    expect(
      workerEnv({ A: "1", B: undefined, NODE_OPTIONS: "--inspect=0  --max-old-space-size=4096" }),
    ).toEqual({
      A: "1",
      NODE_OPTIONS: "--max-old-space-size=4096",
    });
    expect(workerEnv({ NODE_OPTIONS: "--inspect-brk" })).toEqual({});
    expect(workerEnv({ PATH: "/bin" })).toEqual({ PATH: "/bin" });
  });

  it("lets one process only claim a cell, through a folder the processes share", () => {
    const mine = CellClaims.create();
    const theirs = CellClaims.at(mine.dir);
    expect(mine.claim(3)).toBe(true);
    expect(theirs.claim(3)).toBe(false);
    expect(mine.claim(3)).toBe(false);
    expect(theirs.claim(4)).toBe(true);
    mine.remove();
    expect(existsSync(mine.dir)).toBe(false);
  });

  it("the next sweep removes the claims folder a killed sweep left in TMPDIR; folders with a live, foreign or unknown owner stay", async () => {
    const tmp = mkdtempSync(join(dir, "tmp-"));
    // What a sweep killed before its cleanup leaves: production's folder, its process gone.
    const leftover = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        'import("./src/commands/sweep-schedule.ts").then((m) => console.log(m.CellClaims.create().dir))',
      ],
      { cwd: appDir, env: { ...process.env, TMPDIR: tmp }, encoding: "utf8", timeout: 60_000 },
    );
    expect(leftover.status, leftover.stderr).toBe(0);
    const stale = leftover.stdout.trim();
    expect(stale.startsWith(join(tmp, "kubesched-sweep-claims-"))).toBe(true);
    writeFileSync(join(stale, "0"), "");
    const folder = (name: string, owner?: string) => {
      mkdirSync(join(tmp, name));
      if (owner !== undefined) writeFileSync(join(tmp, name, "owner"), owner);
      return join(tmp, name);
    };
    const live = folder("kubesched-sweep-claims-live", `${hostname()}\n${process.pid}\n`);
    const foreign = folder("kubesched-sweep-claims-foreign", `another-host\n${leftover.pid}\n`);
    const older = folder("kubesched-sweep-claims-older");

    writeFileSync(
      join(dir, "one-cell.yaml"),
      `apiVersion: kubesched.io/v1alpha1
kind: SweepMatrix
snapshots: [${JSON.stringify(join(root, "examples/cluster.yaml"))}]
configs: [default]
emulatedVersions: ["1.37"]
pools: [{name: none, count: 0}]
scales: [1]
`,
    );
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const r = await runCliIn(dir, ["sweep", "one-cell.yaml", "-o", "json"]);
      expect(r.code, r.stderr).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(existsSync(stale)).toBe(false);
    // The sweep's own folder is gone too; the others stay.
    expect(
      readdirSync(tmp)
        .filter((n) => n.startsWith("kubesched-sweep-claims-"))
        .sort(),
    ).toEqual(
      [
        "kubesched-sweep-claims-foreign",
        "kubesched-sweep-claims-live",
        "kubesched-sweep-claims-older",
      ].sort(),
    );
    expect([live, foreign, older].every((f) => existsSync(f))).toBe(true);
    expect(removeStaleCellClaims(tmp)).toEqual([]);
  }, 120_000);

  it("runs each cell once over processes that take the next unclaimed cell when free; failures are noted", async () => {
    const cells = cellOrder(sweepCells(matrixFile(false).matrix), new Map());
    const claims = CellClaims.create();
    const ran: [string, number][] = [];
    // One "process" is slow on its first cell: the other takes every cell meanwhile.
    let release = () => {};
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const run = (who: string, wait: boolean) => async (cell: (typeof cells)[number]) => {
      ran.push([who, cell.index]);
      if (wait && ran.filter(([w]) => w === who).length === 1) await slow;
      if (cell.index === 2) throw new SweepCellError(cell, ["no room"]);
      return { index: cell.index } as SweepCellResult;
    };
    const a = runClaimedCells(cells, (i) => claims.claim(i), run("a", true));
    const b = runClaimedCells(cells, (i) => claims.claim(i), run("b", false)).finally(release);
    const [ra, rb] = await Promise.all([a, b]);
    claims.remove();
    expect(ran.filter(([w]) => w === "a")).toEqual([["a", cells[0]?.index]]);
    expect(ran.filter(([w]) => w === "b").map(([, i]) => i)).toEqual(cells.slice(1).map((c) => c.index));
    expect([...ra.results, ...rb.results].map((r) => r.index).sort()).toEqual(
      cells
        .filter((c) => c.index !== 2)
        .map((c) => c.index)
        .sort(),
    );
    expect(rb.failures).toEqual([{ cell: cells.find((c) => c.index === 2), errors: ["no room"] }]);
  });
});
