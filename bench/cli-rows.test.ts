// The CLI rows of `pnpm bench` (lib/cli-rows.ts) at a small scale, as `pnpm bench --filter cli/
// --scale 0.01` runs them: each command exits 0 and its output verifies; a wrong output does not.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliRows, cliRowsCluster, runCliRow } from "./lib/cli-rows";
import { writeSchedulingBasicSnapshot } from "./lib/scheduling-basic-snapshot";

const dir = mkdtempSync(join(tmpdir(), "kubesched-cli-rows-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const o = cliRowsCluster(0.01);
const cluster = join(dir, "cluster.json");
writeSchedulingBasicSnapshot(cluster, o);

describe("the CLI rows", () => {
  it("the cluster at scale 0.01: 50 nodes, 10 running and 100 pending pods and the 9-CPU pod", () => {
    expect(o).toEqual({ nodes: 50, initPods: 10, pendingPods: 100, tooBig: true });
  });

  it.each(cliRows.map((r) => [r.name, r] as const))(
    "%s: exits 0, output verified, RSS measured",
    async (_, row) => {
      const r = await runCliRow(row, cluster, o, dir, 0.01);
      expect(r.problems).toEqual([]);
      // cli/plan runs on a cluster of its own (lib/plan-cluster.ts): 10 nodes, 20 pending pods at 0.01.
      const size = row.ownCluster ? { nodes: 10, pendingPods: 20 } : { nodes: 50, pendingPods: 101 };
      expect(r).toMatchObject({ exitCode: 0, verified: true, ...size });
      expect(r.peakRssMB).toBeGreaterThan(0);
      expect(r.outputBytes).toBeGreaterThan(0);
    },
    120_000,
  );

  it("an output of another cluster does not verify", async () => {
    const row = cliRows.find((r) => r.name === "cli/why");
    if (!row) throw new Error("no cli/why row");
    const r = await runCliRow(row, cluster, { ...o, nodes: 60 }, dir);
    expect(r.verified).toBe(false);
    expect(r.problems).toContain("summary.nodes 50, not 60");
  }, 120_000);
});
