// The plugin as users run it: loaded beside the in-tree plugins (as `kubesched simulate --plugin`
// registers it), enabled by a KubeSchedulerConfiguration, through the simulate path.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadSnapshotTexts, type SimulationResult, simulate } from "@kubesched/cluster";
import { loadConfig } from "@kubesched/config";
import { customResourcesOf, registryEntry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import coschedulingPlugin from "./index";

const examples = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../examples/gang-scheduling",
);
const registry = new Map([...inTreeRegistry, [coschedulingPlugin.name, registryEntry(coschedulingPlugin)]]);

async function run(clusterText: string, configText: string): Promise<SimulationResult> {
  return simulate({
    config: loadConfig(configText, { registry }),
    registry,
    logger: recordingLogger(),
    objects: loadSnapshotTexts([{ name: "cluster.yaml", text: clusterText }], {
      customResources: customResourcesOf(registry),
    }).objects,
  });
}

const exampleConfig = readFileSync(path.join(examples, "scheduler-config.yaml"), "utf8");
const exampleCluster = readFileSync(path.join(examples, "cluster.yaml"), "utf8");
const outcomes = (r: SimulationResult) =>
  Object.fromEntries(r.pods.map((p) => [p.name, p.node ?? p.outcome]));

describe("Coscheduling through simulate", () => {
  it("examples/gang-scheduling: a gang that fits is all scheduled, one that cannot has none scheduled", async () => {
    const r = await run(exampleCluster, exampleConfig);
    const o = outcomes(r);
    for (const p of ["training-0", "training-1", "training-2"]) expect(o[p]).toMatch(/^node-/);
    expect(new Set(["training-0", "training-1", "training-2"].map((p) => o[p])).size).toBe(3);
    for (const p of ["inference-0", "inference-1", "inference-2", "inference-3"])
      expect(o[p]).toBe("Unschedulable");
    expect(r.summary).toMatchObject({ scheduled: 3, unschedulable: 4 });
    const messages = r.pods.filter((p) => p.name.startsWith("inference")).map((p) => p.message ?? "");
    expect(messages.some((m) => m.includes("PodGroup ml/inference gets rejected"))).toBe(true);
    expect(messages.some((m) => m.includes("failed recently") || m.includes("rejection"))).toBe(true);
    // Nothing of the rejected gang holds resources.
    expect(r.nodes.map((n) => n.requested.cpu)).toEqual(["2", "2", "2"]);
  });

  it("without Coscheduling, the same cluster schedules three of the four inference pods", async () => {
    const r = await run(
      exampleCluster,
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
    );
    expect(r.summary).toMatchObject({ scheduled: 6, unschedulable: 1 });
  });

  it("a gang whose members arrive in any order waits at Permit and is bound together", async () => {
    const r = await run(
      exampleCluster.replace("spec: { minMember: 4 }", "spec: { minMember: 3 }"),
      exampleConfig,
    );
    expect(r.summary).toMatchObject({ scheduled: 6, unschedulable: 1 });
  });
});
