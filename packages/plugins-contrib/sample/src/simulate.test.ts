// The plugin as users run it: registered beside the in-tree plugins (as `kubesched simulate
// --plugin` does), enabled with its pluginConfig, through the simulate path.
import { loadSnapshotTexts, simulate } from "@kubesched/cluster";
import { loadConfig } from "@kubesched/config";
import { registryEntry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import samplePlugin from "./index";

const registry = new Map([...inTreeRegistry, [samplePlugin.name, registryEntry(samplePlugin)]]);

const config = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    plugins:
      multiPoint:
        enabled:
          - name: sample-plugin
    pluginConfig:
      - name: sample-plugin
        args:
          favorite_color: "#326CE5"
          favorite_number: 7
          thanks_to: thockin
`;

const cluster = `apiVersion: v1
kind: Node
metadata: { name: node-a }
status: { capacity: { cpu: "4", memory: 8Gi, pods: "110" } }
---
apiVersion: v1
kind: Pod
metadata: { name: web }
spec: { containers: [{ name: c, image: i, resources: { requests: { cpu: "1" } } }] }
`;

describe("sample-plugin through simulate", () => {
  it("runs at PreFilter and Filter (and PreBind) of the profile that enables it", async () => {
    const logger = recordingLogger();
    const r = await simulate({
      config: loadConfig(config, { registry }),
      registry,
      logger,
      objects: loadSnapshotTexts([{ name: "cluster.yaml", text: cluster }]).objects,
      explain: true,
    });
    expect(r.pods[0]).toMatchObject({ name: "web", outcome: "Scheduled", node: "node-a" });
    expect(r.pods[0]?.explain?.preFilter).toHaveProperty("sample-plugin");
    expect(Object.keys(r.pods[0]?.explain?.filter?.["node-a"] ?? {})).toContain("sample-plugin");
    // The classic logs at V(3) what each extension point saw.
    const sampleMessages = ["get plugin config args", "prefilter pod", "filter pod", "prebind node info"];
    expect(
      logger.entries.filter((e) => e.v === 3 && sampleMessages.includes(e.msg)).map((e) => e.msg),
    ).toEqual(sampleMessages);
    expect(logger.entries.find((e) => e.msg === "get plugin config args")?.fields.args).toEqual({
      favoriteColor: "#326CE5",
      favoriteNumber: 7,
      thanksTo: "thockin",
    });
  });

  it("a wrong args type is a config error with the field path", () => {
    expect(() =>
      loadConfig(config.replace("favorite_number: 7", "favorite_number: seven"), { registry }),
    ).toThrow(
      'profiles[0].pluginConfig[0].args.favorite_number: Invalid value: "seven": must be an integer, got string',
    );
  });
});
