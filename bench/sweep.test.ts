// The sweep row of `pnpm bench` (`cli/sweep`, sweep.ts) at a tiny size (2 nodes, 4 pods; `pnpm
// bench --filter cli/sweep --scale 0.01` runs 10 / 20): serial and parallel runs of the real CLI,
// the same 16-cell report from each, the speedup against issue 26's target. Most of its CPU time
// is the three processes' start (the CLI twice, one worker), not the cells: ~4.7 s of CPU at this
// size, 5.6 s at 10 nodes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { benchSweep, formatSweepBench } from "./sweep";

const dir = mkdtempSync(join(tmpdir(), "kubesched-sweep-bench-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the sweep row", () => {
  it("runs the 16 cells serially and with --parallelism 2, and both print the same report", async () => {
    const r = await benchSweep({ nodes: 2, pods: 4, parallelism: 2, repeat: 1, dir });
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ cells: 16, identical: true, target: 1.6 });
    expect(r.runs.map((x) => x.parallelism)).toEqual([1, 2]);
    expect(r.speedups).toHaveLength(1);
    expect(r.speedup).toBeGreaterThan(0);
    const table = formatSweepBench(r);
    expect(table).toContain("| 1 | serial (--parallelism 1) |");
    expect(table).toContain("| 1 | --parallelism 2 (this process + 1 worker) |");
    expect(table).toMatch(/target ≥ 1\.6× on 2 cores: (met|NOT met)\); reports identical: yes$/);
  }, 180_000);
});
