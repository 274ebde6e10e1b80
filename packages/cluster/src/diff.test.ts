// diff() end to end: two configurations over the same snapshot and seed.
import { defaultConfig, loadConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { diff } from "./diff";
import { loadSnapshotTexts } from "./load";

const spread = defaultConfig({ registry: inTreeRegistry });
const pack = loadConfig(
  `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]}
`,
  { registry: inTreeRegistry },
);

const node = (name: string) => `---
apiVersion: v1
kind: Node
metadata: {name: ${name}, labels: {kubernetes.io/hostname: ${name}}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
`;
const pod = (name: string, cpu: string, nodeName = "") => `---
apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec:
  ${nodeName ? `nodeName: ${nodeName}` : ""}
  containers: [{name: c, image: x, resources: {requests: {cpu: "${cpu}", memory: 1Gi}}}]
`;

describe("diff", () => {
  it("names the plugin whose score moved the placement, and summarizes both sides", async () => {
    const objects = loadSnapshotTexts([
      {
        name: "c.yaml",
        text: node("n1") + node("n2") + pod("running", "2", "n1") + pod("p", "1") + pod("q", "1"),
      },
    ]).objects;
    const d = await diff({
      configs: [spread, pack],
      labels: ["spread.yaml", "pack.yaml"],
      registry: inTreeRegistry,
      objects,
      logger: recordingLogger(),
    });
    expect(d.kind).toBe("SimulationDiff");
    const p = d.pods[0];
    expect(p?.a.node).toBe("n2");
    expect(p?.b.node).toBe("n1");
    expect(p?.decidingScore?.plugin).toBe("NodeResourcesFit");
    expect(p?.decidingScore?.marginA).toBeGreaterThan(0);
    expect(p?.decidingScore?.marginB).toBeLessThan(0);
    expect(p?.why).toMatch(
      /^spread.yaml scored n2 \d+ vs n1 \d+; pack.yaml scored n2 \d+ vs n1 \d+; NodeResourcesFit moved most/,
    );
    expect(d.changed).toBeGreaterThanOrEqual(1);
    expect(d.summary.a.nodesUsed).toBe(2);
    expect(d.summary.b.nodesUsed).toBe(1);
    expect(d.summary.b.maxNodeCpuPercent).toBe(100);
    expect(d.results.a.pods[0]?.explain).toBeUndefined();
  });

  it("agrees with itself: the same configuration twice changes nothing", async () => {
    const objects = loadSnapshotTexts([
      { name: "c.yaml", text: node("n1") + node("n2") + pod("p", "1") },
    ]).objects;
    const d = await diff({
      configs: [spread, spread],
      labels: ["a", "b"],
      registry: inTreeRegistry,
      objects,
      logger: recordingLogger(),
    });
    expect(d.changed).toBe(0);
    expect(d.pods[0]?.why).toBeNull();
  });
});
