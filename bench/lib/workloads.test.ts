// The workloads as data: the shapes upstream's executor relies on hold for every one of them.
import { describe, expect, it } from "vitest";
import {
  churnNamespace,
  findWorkload,
  initPodCount,
  measuredOp,
  nodeCount,
  podsNamespace,
  scaleWorkload,
  withMeasured,
  workloads,
} from "./workloads";

/** The namespaces createPods / createPodSets ops put pods in, before op `upTo`. */
function populated(name: string, upTo: number): Set<string> {
  const w = findWorkload(name)!;
  const out = new Set<string>();
  w.ops.slice(0, upTo).forEach((op, i) => {
    if (op.opcode === "createPods") out.add(podsNamespace(op, i));
    if (op.opcode === "createPodSets")
      for (let k = 0; k < op.count; k++) out.add(`${op.namespacePrefix}-${k}`);
  });
  return out;
}

describe("workloads", () => {
  it("have unique names and exactly one measured createPods op", () => {
    expect(new Set(workloads.map((w) => w.name)).size).toBe(workloads.length);
    for (const w of workloads) {
      const measured = w.ops.filter((o) => o.opcode === "createPods" && o.collectMetrics);
      expect(measured, w.name).toHaveLength(1);
      // A steady-state op deletes its bound pods: its rule is steadyStateBound.
      const steady = measured.some((o) => o.opcode === "createPods" && o.steadyStateMs !== undefined);
      expect(
        w.verify.map((r) => r.kind),
        w.name,
      ).toContain(steady ? "steadyStateBound" : "allMeasuredBound");
    }
  });

  it("delete pods from a namespace an earlier op populated (upstream's namespace-<opIndex>)", () => {
    for (const w of workloads) {
      w.ops.forEach((op, i) => {
        if (op.opcode === "deletePods") expect(populated(w.name, i), w.name).toContain(op.namespace);
      });
    }
  });

  it("name namespaces as upstream's executor does", () => {
    expect(measuredOp(findWorkload("SchedulingWhileGated/1Node_10000GatedPods")!).namespace).toBe(
      "namespace-5",
    );
    expect(measuredOp(findWorkload("MixedSchedulingBasePod/5000Nodes_5000Pods")!).namespace).toBe(
      "namespace-7",
    );
    expect(
      measuredOp(findWorkload("SchedulingRequiredPodAntiAffinityWithNSSelector/5000Nodes_2000Pods")!)
        .namespace,
    ).toBe("measure-ns-0");
    expect(churnNamespace(findWorkload("SchedulingWithMixedChurn/5000Nodes_10000Pods")!)).toBe("namespace-1");
    expect(churnNamespace(findWorkload("Unschedulable/5kNodes/100Init/10kPods")!)).toBe("namespace-2");
  });

  it("count nodes and init pods over every op (createPodSets included)", () => {
    const ns = findWorkload("SchedulingRequiredPodAntiAffinityWithNSSelector/5000Nodes_2000Pods")!;
    expect([nodeCount(ns), initPodCount(ns), measuredOp(ns).op.count]).toEqual([6000, 4000, 2000]);
    const ds = findWorkload("SchedulingDaemonset/15000Nodes")!;
    expect([nodeCount(ds), initPodCount(ds), measuredOp(ds).op.count]).toEqual([15001, 0, 30000]);
  });

  it("scale nodes, pods and pod-set namespaces, not fixed namespaces; drop floors", () => {
    const aff = scaleWorkload(findWorkload("SchedulingPodAntiAffinity/5000Nodes_2000Pods")!, 0.02);
    expect(aff.ops).toContainEqual({ opcode: "createNamespaces", prefix: "sched", count: 2 });
    expect([nodeCount(aff), initPodCount(aff), measuredOp(aff).op.count]).toEqual([100, 20, 40]);
    expect([aff.threshold, aff.target, aff.upstreamMeasured]).toEqual([null, null, 2000]);
    const ns = scaleWorkload(
      findWorkload("SchedulingPreferredAffinityWithNSSelector/5000Nodes_5000Pods")!,
      0.02,
    );
    expect(ns.ops).toContainEqual({
      opcode: "createNamespaces",
      prefix: "init-ns",
      count: 2,
      template: "namespace-with-labels",
    });
    expect(ns.ops).toContainEqual({
      opcode: "createNamespaces",
      prefix: "measure-ns",
      count: 1,
      template: "namespace-with-labels",
    });
    expect(initPodCount(ns)).toBe(100);
  });

  it("withMeasured changes the measured count and remembers upstream's", () => {
    const w = withMeasured(findWorkload("SchedulingBasic/5000Nodes_10000Pods")!, 500);
    expect([measuredOp(w).op.count, w.upstreamMeasured]).toEqual([500, 10000]);
  });

  it("scale the DRA workloads keeping claims' share of the devices and a full cluster's one free batch", () => {
    const claims = (name: string, f: number) =>
      scaleWorkload(findWorkload(name)!, f)
        .ops.map((o) => (o.opcode === "createAny" && o.template === "resourceclaim" ? o.count : null))
        .filter((c) => c !== null);
    // 500 nodes × 10 devices: half the devices stay half, a full cluster keeps exactly 10 free.
    expect(claims("SteadyStateClusterResourceClaimTemplate/half_500nodes", 0.02)).toEqual([50]);
    expect(claims("SteadyStateClusterResourceClaimTemplate/full_500nodes", 0.02)).toEqual([90]);
    expect(claims("SteadyStateClusterResourceClaimTemplate/full_500nodes", 1)).toEqual([4990]);
    expect(claims("SchedulingWithResourceClaim/5000pods_500nodes", 0.02)).toEqual([10, 10]);
    const steady = scaleWorkload(
      findWorkload("SteadyStateClusterResourceClaimTemplate/empty_500nodes")!,
      0.02,
    );
    // The batch of 10 is no size; the 10 s duration is scaled, to at least 1 s.
    expect(measuredOp(steady).op).toMatchObject({ count: 10, steadyStateMs: 1000 });
    expect(nodeCount(steady)).toBe(10);
  });
});
