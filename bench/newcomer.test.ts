// The newcomer cluster (bench/lib/newcomer-cluster.ts) at a small scale through the real CLI, as
// `pnpm bench:newcomer` runs it: every pod Scheduled, the progress display on stderr, a
// StatefulSet's claim template exercised (VolumeBinding and NodeVolumeLimits run for its pod).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newcomerCluster, newcomerWorkloads, storageClassName } from "./lib/newcomer-cluster";
import { runNewcomer } from "./newcomer";

const dir = mkdtempSync(join(tmpdir(), "kubesched-newcomer-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the newcomer cluster", () => {
  it("has the done-when's shape at full size: 2000 nodes, 5000 pods of Deployments and StatefulSets", () => {
    const workloads = newcomerWorkloads({ nodes: 2000, pods: 5000 });
    expect(workloads.reduce((n, w) => n + w.replicas, 0)).toBe(5000);
    expect(workloads.filter((w) => w.kind === "StatefulSet").length).toBeGreaterThan(0);
    const objects = newcomerCluster({ nodes: 2000, pods: 5000 });
    const kinds = (k: string) => objects.filter((o) => o.kind === k);
    expect(kinds("Node")).toHaveLength(2000);
    expect(kinds("CSINode")).toHaveLength(2000);
    expect(kinds("StorageClass")).toEqual([
      expect.objectContaining({
        metadata: { name: storageClassName },
        volumeBindingMode: "WaitForFirstConsumer",
      }),
    ]);
    // Deterministic: the same counts give the same objects.
    expect(JSON.stringify(newcomerCluster({ nodes: 50, pods: 100 }))).toBe(
      JSON.stringify(newcomerCluster({ nodes: 50, pods: 100 })),
    );
  });

  it("50 nodes / 100 pods: the CLI schedules every pod, shows progress, binds the StatefulSet's claims", async () => {
    const [db] = newcomerWorkloads({ nodes: 50, pods: 100 }).filter((w) => w.kind === "StatefulSet");
    if (!db) throw new Error("no StatefulSet");
    const pod = `${db.namespace}/${db.name}-3`;
    const r = await runNewcomer(dir, { nodes: 50, pods: 100, extra: ["--explain", "--pod", pod] });
    expect(r.problems).toEqual([]);
    expect(r.outcomes).toEqual({ Scheduled: 100 });
    expect(r.progressLines).toBeGreaterThan(0);
    expect(r.peakRssMB).toBeGreaterThan(0);
    const explained = r.result?.pods.find((p) => `${p.namespace}/${p.name}` === pod);
    expect(explained?.explain?.preFilter?.VolumeBinding?.code).toBe("Success");
    expect(explained?.explain?.preFilter?.NodeVolumeLimits?.code).toBe("Success");
  }, 120_000);
});
