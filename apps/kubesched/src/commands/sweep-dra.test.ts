// kubesched sweep with a pool that carries ResourceSlices (the NodePools file's `resourceSlices`,
// one decoder for both files): each of the pool's nodes publishes its copy of the slices, so the
// GPU pods of examples/plan-gpu schedule on the pool's nodes as `simulate` schedules them on the
// same nodes and slices written out; bad slice templates are refused with their field path.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SimulationResult } from "@kubesched/cluster";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYAML, stringify } from "yaml";
import { runCliIn } from "./run-cli.test-util";
import type { SweepReport } from "./sweep-report";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "kubesched-sweep-dra-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
copyFileSync(join(root, "examples/plan-gpu/cluster.yaml"), join(dir, "cluster.yaml"));

const gpuPool = (
  parseYAML(readFileSync(join(root, "examples/plan-gpu/pools.yaml"), "utf8")) as {
    pools: { name: string; node: unknown; resourceSlices?: unknown[] }[];
  }
).pools.find((p) => p.name === "gpu") as { node: unknown; resourceSlices: unknown[] };

const run = (...argv: string[]) => runCliIn(dir, argv);

function matrix(name: string, pools: unknown[]): string {
  writeFileSync(
    join(dir, name),
    stringify({
      apiVersion: "kubesched.io/v1alpha1",
      kind: "SweepMatrix",
      snapshots: ["cluster.yaml"],
      pools,
    }),
  );
  return name;
}

describe("kubesched sweep: a pool with ResourceSlices", () => {
  it("publishes the slices for each of the pool's nodes: the cell schedules what simulate schedules with them written out", async () => {
    const f = matrix("gpu.yaml", [
      { name: "none", count: 0 },
      { name: "gpu", count: 2, node: gpuPool.node, resourceSlices: gpuPool.resourceSlices },
    ]);
    const r = await run("sweep", f, "-o", "json", "--parallelism", "1");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const cells = (JSON.parse(r.stdout) as SweepReport).status.cells;
    // Without the pool: gpu-node-1's 4 GPUs hold 2 training pods, cpu-node-1 2 ETL pods.
    expect(cells.map((c) => [c.pool, c.poolNodes, c.scheduled, c.unschedulable])).toEqual([
      ["none", 0, 4, 8],
      ["gpu", 2, 10, 2],
    ]);
    // The same nodes and slices written out, named as the pool names them.
    const slice = gpuPool.resourceSlices[0] as { spec: Record<string, unknown> };
    const written = [1, 2].flatMap((i) => [
      {
        apiVersion: "v1",
        kind: "Node",
        ...(gpuPool.node as object),
        metadata: {
          name: `gpu-${i}`,
          labels: { "node.kubernetes.io/instance-type": "gpu-8x", "kubernetes.io/hostname": `gpu-${i}` },
        },
      },
      {
        ...slice,
        metadata: { name: `gpu-${i}-gpu.example.com-0` },
        spec: {
          ...slice.spec,
          nodeName: `gpu-${i}`,
          pool: { name: `gpu-${i}`, generation: 0, resourceSliceCount: 1 },
        },
      },
    ]);
    writeFileSync(join(dir, "gpu-pool.yaml"), written.map((o) => stringify(o)).join("---\n"));
    const sim = await run(
      "simulate",
      "--cluster",
      "cluster.yaml",
      "--cluster",
      "gpu-pool.yaml",
      "-o",
      "json",
    );
    expect(sim.stderr).toBe("");
    const result = JSON.parse(sim.stdout) as SimulationResult;
    expect([result.summary.scheduled, result.summary.unschedulable]).toEqual([10, 2]);
    expect(cells[1]?.scheduled).toBe(result.summary.scheduled);
  }, 60_000);

  it("refuses a bad slice template with the matrix file's field path, before any cell runs", async () => {
    const f = matrix("bad.yaml", [
      {
        name: "gpu",
        count: 1,
        node: gpuPool.node,
        resourceSlices: [
          {
            apiVersion: "resource.k8s.io/v1",
            kind: "ResourceSlice",
            spec: { driver: "gpu.example.com", allNodes: true, devices: [{ name: "a" }, { name: "a" }] },
          },
        ],
      },
    ]);
    const r = await run("sweep", f);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        "error: bad.yaml: pools[0].resourceSlices[0].spec.allNodes: Forbidden: a pool's slices publish the devices of each of its nodes (spec.nodeName is set to the node's name); a slice for several nodes belongs in the snapshot",
        'error: bad.yaml: pools[0].resourceSlices[0].spec.devices[1].name: Duplicate value: "a": the device is also pools[0].resourceSlices[0].spec.devices[0]: device names are unique in a pool',
        "",
      ].join("\n"),
    );
  });
});
