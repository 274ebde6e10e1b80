// The plugin as users run it: registered beside the in-tree plugins (as `kubesched simulate
// --plugin` does), enabled by a KubeSchedulerConfiguration, through the simulate path.
import { loadSnapshotTexts, simulate } from "@kubesched/cluster";
import { loadConfig } from "@kubesched/config";
import { registryEntry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import nodeResourcesAllocatablePlugin from "./index";

const registry = new Map([
  ...inTreeRegistry,
  [nodeResourcesAllocatablePlugin.name, registryEntry(nodeResourcesAllocatablePlugin)],
]);

const cluster = `apiVersion: v1
kind: Node
metadata: { name: big }
status: { capacity: { cpu: "16", memory: 64Gi, pods: "110" } }
---
apiVersion: v1
kind: Node
metadata: { name: small }
status: { capacity: { cpu: "4", memory: 16Gi, pods: "110" } }
---
apiVersion: v1
kind: Pod
metadata: { name: web }
spec: { containers: [{ name: c, image: i, resources: { requests: { cpu: "1", memory: 1Gi } } }] }
`;

function config(mode: string): string {
  return `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    plugins:
      score:
        enabled:
          - name: NodeResourcesAllocatable
            weight: 10
    pluginConfig:
      - name: NodeResourcesAllocatable
        args:
          mode: ${mode}
`;
}

async function placement(mode: string): Promise<string | null> {
  const r = await simulate({
    config: loadConfig(config(mode), { registry }),
    registry,
    logger: recordingLogger(),
    objects: loadSnapshotTexts([{ name: "cluster.yaml", text: cluster }]).objects,
  });
  return r.pods[0]?.node ?? null;
}

describe("NodeResourcesAllocatable through simulate", () => {
  it("Least mode places the pod on the smaller node, Most mode on the bigger one", async () => {
    expect(await placement("Least")).toBe("small");
    expect(await placement("Most")).toBe("big");
  });

  it("a bad mode in pluginConfig is a config error naming the field", () => {
    expect(() => loadConfig(config("Biggest"), { registry })).toThrow(
      'profiles[0].pluginConfig[0].args.mode: Invalid value: "Biggest": invalid support ModeType',
    );
  });
});
