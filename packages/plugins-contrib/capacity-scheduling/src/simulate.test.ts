// The plugin as users run it: registered beside the in-tree plugins (as `kubesched simulate
// --plugin` does), enabled by a KubeSchedulerConfiguration, through the simulate path.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadSnapshotTexts, type SimulationResult, simulate } from "@kubesched/cluster";
import { loadConfig } from "@kubesched/config";
import { customResourcesOf, registryEntry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import capacitySchedulingPlugin from "./index";

const examples = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../examples/elastic-quota",
);
const registry = new Map([
  ...inTreeRegistry,
  [capacitySchedulingPlugin.name, registryEntry(capacitySchedulingPlugin)],
]);
const exampleConfig = readFileSync(path.join(examples, "scheduler-config.yaml"), "utf8");
const exampleCluster = readFileSync(path.join(examples, "cluster.yaml"), "utf8");

async function run(clusterText: string, configText = exampleConfig): Promise<SimulationResult> {
  return simulate({
    config: loadConfig(configText, { registry }),
    registry,
    logger: recordingLogger(),
    objects: loadSnapshotTexts([{ name: "cluster.yaml", text: clusterText }], {
      customResources: customResourcesOf(registry),
    }).objects,
  });
}

describe("CapacityScheduling through simulate", () => {
  it("examples/elastic-quota: a team under its min preempts a team borrowing beyond its min", async () => {
    const r = await run(exampleCluster);
    expect(r.pods).toMatchObject([
      { namespace: "team-a", name: "service", outcome: "Scheduled", node: "node-1" },
    ]);
    expect(r.preemptions).toHaveLength(1);
    expect(r.preemptions[0]).toMatchObject({ preemptor: "team-a/service", node: "node-1" });
    expect(r.preemptions[0]?.victims).toHaveLength(2);
    expect(r.preemptions[0]?.victims.every((v) => v.startsWith("team-b/"))).toBe(true);
  });

  it("without CapacityScheduling, equal priorities preempt nothing", async () => {
    const r = await run(
      exampleCluster,
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
    );
    expect(r.pods[0]?.outcome).toBe("Unschedulable");
    expect(r.preemptions).toEqual([]);
  });

  it("a pod beyond its namespace's max is rejected in PreFilter", async () => {
    const r = await run(
      exampleCluster.replace('requests: { cpu: "2", memory: 2Gi }', 'requests: { cpu: "5", memory: 2Gi }'),
    );
    expect(r.pods[0]?.outcome).toBe("Unschedulable");
    expect(r.pods[0]?.message).toContain(
      "Pod team-a/service is rejected in PreFilter because ElasticQuota team-a is more than Max",
    );
  });
});
