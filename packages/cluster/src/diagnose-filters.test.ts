// The all-filters diagnostic pass through the assembled scheduler (Scheduler.diagnoseFilters over
// the in-memory cluster, built by openSimulation as simulate and capacity build it): every reason
// on every node with the plugins' numbers, past a node's first failure, PreFilter narrowing and
// percentageOfNodesToScore, and the grouping for people.
import type { Pod } from "@kubesched/api";
import {
  formatReasonGroup,
  groupFilterDiagnosis,
  type NodeFilterDiagnosis,
  nodeFits,
} from "@kubesched/runtime";
import { makeLabelSelector, makeNode, makePod, NodeSelectorTypeMatchFields } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { configOf, type IntegrationCluster, openSession } from "./integration/integration-cluster.test-util";

async function diagnose(cluster: IntegrationCluster, pod: Pod, config = "") {
  const session = await openSession(configOf(config), cluster);
  const d = session.sched.diagnoseFilters(pod);
  if (d === undefined) throw new Error("no profile for the pod");
  return d;
}

function node(d: { nodes: NodeFilterDiagnosis[] }, name: string): NodeFilterDiagnosis {
  const n = d.nodes.find((x) => x.nodeName === name);
  if (!n) throw new Error(`no node ${name}`);
  return n;
}

/** plugin: reasons, per rejection of the node. */
function reasons(n: NodeFilterDiagnosis): string[] {
  return n.rejections.map((r) => `${r.plugin}: ${r.status.getReasons().join(", ")}`);
}

const big = makePod().name("big").namespace("default").req({ cpu: "3", memory: "2Gi" }).hostPort(80);

describe("diagnoseFilters", { timeout: 60_000 }, () => {
  it("lists every Filter plugin that rejects a node, in the profile's order, with their numbers", async () => {
    const nodes = [
      makeNode().name("small").capacity({ cpu: "2", memory: "1Gi", pods: "10" }).obj(),
      makeNode()
        .name("gpu")
        .capacity({ cpu: "8", memory: "16Gi", pods: "10" })
        .taints([{ key: "dedicated", value: "gpu", effect: "NoSchedule" }])
        .unschedulable()
        .obj(),
      makeNode().name("busy").capacity({ cpu: "4", memory: "16Gi", pods: "10" }).obj(),
      makeNode().name("free").capacity({ cpu: "8", memory: "16Gi", pods: "10" }).obj(),
    ];
    const running = makePod()
      .name("web")
      .namespace("default")
      .node("busy")
      .req({ cpu: "1500m" })
      .hostPort(80)
      .obj();
    const d = await diagnose({ nodes, pods: [running] }, big.obj());

    expect(reasons(node(d, "small"))).toEqual(["NodeResourcesFit: Insufficient cpu, Insufficient memory"]);
    expect(node(d, "small").rejections[0]?.details).toEqual([
      {
        kind: "InsufficientResource",
        resource: "cpu",
        requested: 3000,
        used: 0,
        capacity: 2000,
        short: 1000,
      },
      {
        kind: "InsufficientResource",
        resource: "memory",
        requested: 2 * 1024 ** 3,
        used: 0,
        capacity: 1024 ** 3,
        short: 1024 ** 3,
      },
    ]);
    // The cycle stops at NodeUnschedulable on this node; the pass goes on to TaintToleration.
    const gpu = node(d, "gpu");
    expect(gpu.rejections.map((r) => r.plugin)).toEqual(["NodeUnschedulable", "TaintToleration"]);
    expect(gpu.rejections.flatMap((r) => r.details)).toEqual([
      { kind: "Cordoned" },
      { kind: "UntoleratedTaint", taint: { key: "dedicated", value: "gpu", effect: "NoSchedule" } },
    ]);
    const busy = node(d, "busy");
    expect(busy.rejections.map((r) => r.plugin)).toEqual(["NodePorts", "NodeResourcesFit"]);
    expect(busy.rejections.flatMap((r) => r.details)).toEqual([
      { kind: "HostPortConflict", protocol: "TCP", hostIP: "0.0.0.0", hostPort: 80 },
      {
        kind: "InsufficientResource",
        resource: "cpu",
        requested: 3000,
        used: 1500,
        capacity: 4000,
        short: 500,
      },
    ]);
    expect(node(d, "free").rejections).toEqual([]);

    expect(groupFilterDiagnosis(d).map(formatReasonGroup)).toEqual([
      "2 nodes: Insufficient cpu (short 500m–1)",
      "1 node: Insufficient memory (short 1Gi)",
      "1 node: fits",
      "1 node: node(s) didn't have free ports for the requested pod ports (TCP 0.0.0.0:80 in use)",
      "1 node: node(s) had untolerated taint(s) (dedicated=gpu:NoSchedule)",
      "1 node: node(s) were unschedulable (cordoned)",
    ]);
  });

  it("filters the nodes a PreFilter result leaves out, and reports PreFilter rejections as such", async () => {
    const nodes = ["a", "b", "c"].map((n) =>
      makeNode()
        .name(n)
        .label("zone", n === "c" ? "z2" : "z1")
        .capacity({ cpu: "1", pods: "10" })
        .obj(),
    );
    const pinned = makePod()
      .name("pinned")
      .namespace("default")
      .req({ cpu: "2" })
      .nodeAffinityIn("metadata.name", ["a"], NodeSelectorTypeMatchFields)
      .obj();
    const d = await diagnose({ nodes }, pinned);
    expect(d.preFilter.find((p) => p.plugin === "NodeAffinity")?.nodeNames).toEqual(new Set(["a"]));
    expect(node(d, "b").excludedBy).toEqual(["NodeAffinity"]);
    // Outside the PreFilter result, yet filtered: both of b's reasons are there.
    expect(reasons(node(d, "b"))).toEqual([
      "NodeAffinity: node(s) didn't match Pod's node affinity/selector",
      "NodeResourcesFit: Insufficient cpu",
    ]);
    expect(node(d, "b").rejections[0]?.details).toEqual([
      {
        kind: "NodeLabelMismatch",
        source:
          "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]",
        requirement: "metadata.name in (a)",
        key: "metadata.name",
        nodeValue: "b",
      },
    ]);

    // A PreFilter rejection (matchFields naming no node at all) is reported as the
    // plugin's PreFilter status; its Filter does not run, the others' do.
    const nowhere = makePod()
      .name("nowhere")
      .namespace("default")
      .nodeSelector({ zone: "z2" })
      .nodeAffinityIn("metadata.name", [], NodeSelectorTypeMatchFields)
      .obj();
    const d2 = await diagnose({ nodes }, nowhere);
    const pre = d2.preFilter.find((p) => p.plugin === "NodeAffinity");
    expect(pre?.status?.code).toBe(3);
    expect(d2.nodes.every((n) => n.rejections.every((r) => r.plugin !== "NodeAffinity"))).toBe(true);
    // The cycle stops at the rejection and evaluates no node: every node is left out by it.
    expect(d2.nodes.map((n) => [n.nodeName, n.excludedBy, nodeFits(n)])).toEqual([
      ["a", ["NodeAffinity"], false],
      ["b", ["NodeAffinity"], false],
      ["c", ["NodeAffinity"], false],
    ]);
  });

  it("covers every node whatever percentageOfNodesToScore", async () => {
    const nodes = Array.from({ length: 150 }, (_, i) =>
      makeNode().name(`n-${i}`).capacity({ cpu: "4", pods: "10" }).obj(),
    );
    const d = await diagnose(
      { nodes },
      makePod().name("p").namespace("default").req({ cpu: "1" }).obj(),
      "percentageOfNodesToScore: 5\n",
    );
    expect(d.nodes).toHaveLength(150);
    expect(groupFilterDiagnosis(d).map(formatReasonGroup)).toEqual(["150 nodes: fits"]);
  });

  it("gives the skew per domain of a topology spread constraint and the pods an anti-affinity term conflicts with", async () => {
    const nodes = ["a1", "a2", "b1", "c1"].map((n) =>
      makeNode()
        .name(n)
        .label("zone", n.slice(0, 1))
        .label("kubernetes.io/hostname", n)
        .capacity({ cpu: "4", pods: "10" })
        .obj(),
    );
    nodes.push(
      makeNode()
        .name("nozone")
        .label("kubernetes.io/hostname", "nozone")
        .capacity({ cpu: "4", pods: "10" })
        .obj(),
    );
    const web = (name: string, on: string) =>
      makePod().name(name).namespace("default").label("app", "web").node(on).obj();
    const pods = [web("w1", "a1"), web("w2", "a2"), web("w3", "b1")];
    const pod = makePod()
      .name("new")
      .namespace("default")
      .label("app", "web")
      .spreadConstraint(1, "zone", "DoNotSchedule", makeLabelSelector().label("app", "web").obj())
      .podAntiAffinityIn("app", "kubernetes.io/hostname", ["web"], "required")
      .obj();
    const d = await diagnose({ nodes, pods }, pod);
    // zone a holds 2, the minimum (zone c) 0: 2 + 1 − 0 = 3 > 1.
    expect(node(d, "a1").rejections.flatMap((r) => r.details)).toEqual([
      {
        kind: "TopologySpread",
        topologyKey: "zone",
        domain: "a",
        matchingPods: 2,
        minMatchingPods: 0,
        skew: 3,
        maxSkew: 1,
      },
      {
        kind: "PodAffinity",
        rule: "antiAffinity",
        topologyKey: "kubernetes.io/hostname",
        domain: "a1",
        pods: ["default/w1"],
      },
    ]);
    expect(node(d, "nozone").rejections[0]?.details).toEqual([
      {
        kind: "TopologySpread",
        topologyKey: "zone",
        domain: null,
        matchingPods: null,
        minMatchingPods: null,
        skew: null,
        maxSkew: 1,
      },
    ]);
    expect(node(d, "c1").rejections).toEqual([]);
    const lines = groupFilterDiagnosis(d).map(formatReasonGroup);
    expect(lines).toContain(
      "3 nodes: node(s) didn't match pod anti-affinity rules (kubernetes.io/hostname=a1: antiAffinity conflicts with default/w1; kubernetes.io/hostname=a2: antiAffinity conflicts with default/w2; kubernetes.io/hostname=b1: antiAffinity conflicts with default/w3)",
    );
  });

  it("is undefined for a pod no profile handles", async () => {
    const session = await openSession(configOf(""), { nodes: [makeNode().name("n").obj()] });
    expect(session.sched.diagnoseFilters(makePod().name("x").schedulerName("other").obj())).toBeUndefined();
  });
});
