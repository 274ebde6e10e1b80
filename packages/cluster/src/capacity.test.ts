// capacity() end to end: counts computed by hand (resources only) and checked against simulate().
import type { Pod } from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { capacity, failSummaryOf } from "./capacity";
import { loadSnapshotTexts } from "./load";
import { simulate } from "./simulate";

const config = defaultConfig({ registry: inTreeRegistry });

function node(name: string, cpu: string, memory = "16Gi"): string {
  return `---
apiVersion: v1
kind: Node
metadata: {name: ${name}, labels: {kubernetes.io/hostname: ${name}}}
status: {allocatable: {cpu: "${cpu}", memory: ${memory}, pods: "110"}}
`;
}
function pod(name: string, cpu: string, memory = "1Gi", nodeName = ""): string {
  return `---
apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec:
  ${nodeName ? `nodeName: ${nodeName}` : ""}
  containers: [{name: c, image: x, resources: {requests: {cpu: "${cpu}", memory: ${memory}}}}]
`;
}
const objects = (yaml: string) => loadSnapshotTexts([{ name: "c.yaml", text: yaml }]).objects;
const template = (yaml: string) => objects(yaml)[0]?.obj as Pod;

// n1: 4 cpu free → 4 replicas of 1 cpu; n2: 2 cpu, 1500m used by a running pod → 0;
// n3: 3 cpu but 2Gi memory with 1Gi replicas → 2 (memory binds first). Total 6.
const cluster =
  node("n1", "4") + node("n2", "2") + pod("running", "1500m", "1Gi", "n2") + node("n3", "3", "2Gi");

describe("capacity", () => {
  it("counts the replicas that fit, as computed by hand (resources only)", async () => {
    const r = await capacity({
      config,
      registry: inTreeRegistry,
      objects: objects(cluster),
      templates: [template(pod("web", "1"))],
      logger: recordingLogger(),
    });
    expect(r.apiVersion).toBe("kubesched.io/v1alpha1");
    expect(r.kind).toBe("CapacityReport");
    expect(r.status.replicas).toBe(6);
    expect(r.status.pods[0]?.replicasOnNodes).toEqual([
      { nodeName: "n1", replicas: 4 },
      { nodeName: "n3", replicas: 2 },
    ]);
    expect(r.status.failReason.failType).toBe("Unschedulable");
    expect(r.status.failReason.failMessage).toMatch(
      /^0\/3 nodes are available: 1 Insufficient memory, 2 Insufficient cpu\./,
    );
    expect(r.status.pods[0]?.failSummary).toEqual([
      { reason: "Insufficient memory", count: 1 },
      { reason: "Insufficient cpu", count: 2 },
    ]);
  });

  it("agrees with simulate: N replicas all schedule, the N+1th fails with the same message", async () => {
    const r = await capacity({
      config,
      registry: inTreeRegistry,
      objects: objects(cluster),
      templates: [template(pod("web", "1"))],
      logger: recordingLogger(),
    });
    const n = r.status.replicas;
    let pods = "";
    for (let i = 0; i <= n; i++) pods += pod(`web-${i}`, "1");
    const sim = await simulate({
      config,
      registry: inTreeRegistry,
      objects: objects(cluster + pods),
      logger: recordingLogger(),
    });
    expect(sim.pods.slice(0, n).every((p) => p.outcome === "Scheduled")).toBe(true);
    expect(sim.pods[n]?.outcome).toBe("Unschedulable");
    expect(sim.pods[n]?.message).toBe(r.status.failReason.failMessage);
    const perNode = new Map<string, number>();
    for (const p of sim.pods.slice(0, n)) perNode.set(p.node ?? "", (perNode.get(p.node ?? "") ?? 0) + 1);
    expect(Object.fromEntries(perNode)).toEqual(
      Object.fromEntries(r.status.pods[0]?.replicasOnNodes.map((x) => [x.nodeName, x.replicas]) ?? []),
    );
  });

  it("stops at --max with LimitReached", async () => {
    const r = await capacity({
      config,
      registry: inTreeRegistry,
      objects: objects(cluster),
      templates: [template(pod("web", "1"))],
      maxReplicas: 3,
      logger: recordingLogger(),
    });
    expect(r.status.replicas).toBe(3);
    expect(r.status.failReason).toEqual({
      failType: "LimitReached",
      failMessage: "Maximum number of pods simulated: 3",
    });
    expect(r.status.pods[0]?.failSummary).toEqual([]);
  });

  it("fills the space left by one template with the next (a workload mix, in order)", async () => {
    const r = await capacity({
      config,
      registry: inTreeRegistry,
      objects: objects(cluster),
      templates: [template(pod("big", "2", "1Gi")), template(pod("small", "500m", "512Mi"))],
      logger: recordingLogger(),
    });
    // big: n1 takes 2, n3 takes 1 (3 cpu, 2Gi) → 3. Left: n1 0, n2 500m, n3 1 cpu/1Gi.
    // small (500m, 512Mi): n2 1, n3 2 → 3.
    expect(r.status.pods.map((p) => p.replicas)).toEqual([3, 3]);
    expect(r.status.replicas).toBe(6);
  });
});

describe("failSummaryOf", () => {
  it("splits a FitError message into reasons and counts", () => {
    expect(
      failSummaryOf(
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
      ),
    ).toEqual([
      { reason: "Insufficient cpu", count: 1 },
      { reason: "node(s) had untolerated taint {dedicated: gpu}", count: 2 },
    ]);
  });
});
