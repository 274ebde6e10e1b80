// upstream: test/integration/scheduler/filters/filters_test.go (kubernetes/kubernetes at
// 0e7298d5, v1.37 line) through simulate() with the default profile: TestPodTopologySpreadFilter
// (every case), TestInterPodAffinityWithNamespaceSelector, and TestInterPodAffinity's cases up
// to "satisfies the PodAffinity and PodAntiAffinity ...". Not ported: TestInterPodAffinity's
// "invalid podAffinity" case (the API server rejects the pod; the simulator's loader does not
// validate label selectors), and the cases after the ones above (left for a later port).
import type { LabelSelector, Pod } from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeLabelSelector, makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { podResult, run } from "./integration-cluster.test-util";

const config = defaultConfig({ registry: inTreeRegistry });
const pause = "registry.k8s.io/pause:3.10";

describe("TestPodTopologySpreadFilter", () => {
  const taints = [{ key: "node.kubernetes.io/unschedulable", value: "", effect: "NoSchedule" as const }];
  const defaultNodes = () => [
    makeNode().name("node-0").label("node", "node-0").label("zone", "zone-0").obj(),
    makeNode().name("node-1").label("node", "node-1").label("zone", "zone-0").obj(),
    makeNode().name("node-2").label("node", "node-2").label("zone", "zone-1").obj(),
    makeNode().name("node-3").label("node", "node-3").label("zone", "zone-1").obj(),
  ];
  /** zone-1: node-1, node-2; zone-2: node-3, node-4; "foo" on every node but node-3; one tainted node. */
  const inclusionNodes = (tainted?: "node-2" | "node-3") =>
    [1, 2, 3, 4].map((i) => {
      let n = makeNode()
        .name(`node-${i}`)
        .label("node", `node-${i}`)
        .label("zone", i <= 2 ? "zone-1" : "zone-2");
      if (i !== 3) n = n.label("foo", "");
      if (`node-${i}` === tainted) n = n.taints(taints);
      return n.obj();
    });
  const foo = (): LabelSelector => makeLabelSelector().exists("foo").obj();
  const at = (name: string, node: string, labels: Record<string, string> = { foo: "" }) =>
    makePod().name(name).node(node).labels(labels).container(pause).obj();
  const graceless = (name: string, node: string) =>
    makePod().zeroTerminationGracePeriod().name(name).node(node).label("foo", "").container(pause).obj();
  const incoming = () => makePod().name("p").label("foo", "").container(pause);
  const twoTwoOne = () => [
    graceless("p1a", "node-1"),
    graceless("p1b", "node-1"),
    graceless("p2a", "node-2"),
    graceless("p2b", "node-2"),
    graceless("p3", "node-3"),
  ];
  const cases: {
    name: string;
    incomingPod: Pod;
    existingPods: Pod[];
    fits: boolean;
    nodes: ReturnType<typeof defaultNodes>;
    candidateNodes?: string[];
    enableNodeInclusionPolicy?: boolean;
    enableMatchLabelKeys?: boolean;
  }[] = [
    {
      name: "place pod on a 1/1/0/1 cluster with MaxSkew=1, node-2 is the only fit",
      incomingPod: incoming().spreadConstraint(1, "node", "DoNotSchedule", foo()).obj(),
      existingPods: [at("p0", "node-0"), at("p1", "node-1"), at("p3", "node-3")],
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-2"],
    },
    {
      name: "place pod on a 2/0/0/1 cluster with MaxSkew=2, node-{1,2,3} are good fits",
      incomingPod: incoming().spreadConstraint(2, "node", "DoNotSchedule", foo()).obj(),
      existingPods: [at("p0a", "node-0"), at("p0b", "node-0"), at("p3", "node-3")],
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-1", "node-2", "node-3"],
    },
    {
      name: "pod is required to be placed on zone0, so only node-1 fits",
      incomingPod: incoming()
        .nodeAffinityIn("zone", ["zone-0"])
        .spreadConstraint(1, "node", "DoNotSchedule", foo())
        .obj(),
      existingPods: [at("p0", "node-0"), at("p3", "node-3")],
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-1"],
    },
    {
      name: "two constraints: pod can only be placed to zone-1/node-2",
      incomingPod: incoming()
        .spreadConstraint(1, "zone", "DoNotSchedule", foo())
        .spreadConstraint(1, "node", "DoNotSchedule", foo())
        .obj(),
      existingPods: [at("p0", "node-0"), at("p1", "node-1"), at("p3a", "node-3"), at("p3b", "node-3")],
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-2"],
    },
    {
      name: "pod cannot be placed onto any node",
      incomingPod: incoming()
        .nodeAffinityNotIn("node", ["node-0"])
        .spreadConstraint(1, "zone", "DoNotSchedule", foo())
        .spreadConstraint(1, "node", "DoNotSchedule", foo())
        .obj(),
      existingPods: [
        at("p1a", "node-1"),
        at("p1b", "node-1"),
        at("p2a", "node-2"),
        at("p2b", "node-2"),
        at("p3", "node-3"),
      ],
      fits: false,
      nodes: defaultNodes(),
    },
    {
      name: "high priority pod can preempt others",
      incomingPod: incoming()
        .priority(100)
        .nodeAffinityNotIn("node", ["node-0"])
        .spreadConstraint(1, "zone", "DoNotSchedule", foo())
        .spreadConstraint(1, "node", "DoNotSchedule", foo())
        .obj(),
      existingPods: twoTwoOne(),
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-1", "node-2", "node-3"],
    },
    {
      name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits",
      incomingPod: incoming()
        .nodeAffinityNotIn("node", ["node-0"])
        .spreadConstraint(2, "node", "DoNotSchedule", foo(), 4)
        .obj(),
      existingPods: twoTwoOne(),
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-3"],
    },
    {
      name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit",
      incomingPod: incoming()
        .nodeAffinityNotIn("node", ["node-0"])
        .spreadConstraint(2, "node", "DoNotSchedule", foo(), 2)
        .obj(),
      existingPods: twoTwoOne(),
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-1", "node-2", "node-3"],
    },
    {
      name: "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit",
      incomingPod: incoming().spreadConstraint(2, "zone", "DoNotSchedule", foo(), 3).obj(),
      existingPods: [at("p1a", "node-0"), at("p2a", "node-1"), at("p3a", "node-2")],
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-2", "node-3"],
    },
    {
      name: "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the all nodes fit",
      incomingPod: incoming().spreadConstraint(2, "zone", "DoNotSchedule", foo(), 1).obj(),
      existingPods: [at("p1a", "node-1"), at("p2a", "node-2"), at("p3a", "node-3")],
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-0", "node-1", "node-2", "node-3"],
    },
    {
      name: "NodeAffinityPolicy honored with labelSelectors, pods spread across zone as 2/1",
      incomingPod: incoming()
        .nodeSelector({ foo: "" })
        .spreadConstraint(1, "zone", "DoNotSchedule", foo())
        .obj(),
      existingPods: [at("p1a", "node-1"), at("p2a", "node-2"), at("p3a", "node-3"), at("p4a", "node-4")],
      fits: true,
      nodes: inclusionNodes(),
      candidateNodes: ["node-4"],
      enableNodeInclusionPolicy: true,
    },
    {
      name: "NodeAffinityPolicy ignored with nodeAffinity, pods spread across zone as 1/~2~",
      incomingPod: incoming()
        .nodeAffinityIn("foo", [""])
        .spreadConstraint(1, "zone", "DoNotSchedule", foo(), null, "Ignore")
        .obj(),
      existingPods: [at("p1a", "node-1"), at("p3a", "node-3"), at("p4a", "node-4")],
      fits: true,
      nodes: inclusionNodes(),
      candidateNodes: ["node-1", "node-2"],
      enableNodeInclusionPolicy: true,
    },
    {
      name: "NodeTaintsPolicy honored, pods spread across zone as 2/1",
      incomingPod: incoming().spreadConstraint(1, "zone", "DoNotSchedule", foo(), null, null, "Honor").obj(),
      existingPods: [at("p1a", "node-1"), at("p2a", "node-2"), at("p3a", "node-3"), at("p4a", "node-4")],
      fits: true,
      nodes: inclusionNodes("node-3"),
      candidateNodes: ["node-4"],
      enableNodeInclusionPolicy: true,
    },
    {
      name: "NodeTaintsPolicy ignored, pods spread across zone as 2/2",
      incomingPod: incoming().spreadConstraint(1, "zone", "DoNotSchedule", foo()).obj(),
      existingPods: [at("p1a", "node-1"), at("p2a", "node-2"), at("p3a", "node-3"), at("p4a", "node-4")],
      fits: true,
      nodes: inclusionNodes("node-3"),
      candidateNodes: ["node-1", "node-2", "node-4"],
      enableNodeInclusionPolicy: true,
    },
    {
      name: "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
      incomingPod: incoming()
        .nodeSelector({ foo: "" })
        .spreadConstraint(1, "zone", "DoNotSchedule", foo())
        .spreadConstraint(1, "node", "DoNotSchedule", foo())
        .obj(),
      existingPods: [at("p1a", "node-1"), at("p2a", "node-2"), at("p3a", "node-3"), at("p4a", "node-4")],
      fits: true,
      nodes: inclusionNodes("node-2"),
      candidateNodes: ["node-4"],
      enableNodeInclusionPolicy: true,
    },
    {
      name: "feature gate disabled, two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
      incomingPod: incoming()
        .nodeSelector({ foo: "" })
        .spreadConstraint(1, "zone", "DoNotSchedule", foo())
        .spreadConstraint(1, "node", "DoNotSchedule", foo())
        .obj(),
      existingPods: [at("p1a", "node-1"), at("p2a", "node-2"), at("p3a", "node-3"), at("p4a", "node-4")],
      fits: true,
      nodes: inclusionNodes("node-2"),
      candidateNodes: ["node-4"],
      enableNodeInclusionPolicy: false,
    },
    {
      name: "two node inclusion Constraints, zone: ignore/ignore, node: honor/honor",
      incomingPod: incoming()
        .nodeSelector({ foo: "" })
        .spreadConstraint(1, "zone", "DoNotSchedule", foo(), null, "Ignore")
        .spreadConstraint(1, "node", "DoNotSchedule", foo(), null, null, "Honor")
        .obj(),
      existingPods: [at("p1a", "node-1"), at("p2a", "node-2"), at("p3a", "node-3"), at("p4a", "node-4")],
      fits: true,
      nodes: inclusionNodes("node-2"),
      candidateNodes: ["node-1", "node-4"],
      enableNodeInclusionPolicy: true,
    },
    {
      name: "matchLabelKeys ignored when feature gate disabled, pods spread across zone as 2/1",
      incomingPod: makePod()
        .name("p")
        .labels({ foo: "", bar: "" })
        .container(pause)
        .spreadConstraint(1, "zone", "DoNotSchedule", foo(), null, null, null, ["bar"])
        .obj(),
      existingPods: [at("p1a", "node-0"), at("p2a", "node-1"), at("p3a", "node-2", { foo: "", bar: "" })],
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-2", "node-3"],
      enableMatchLabelKeys: false,
    },
    {
      name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty, pods spread across zone as 0/1",
      incomingPod: makePod()
        .name("p")
        .labels({ foo: "", bar: "" })
        .container(pause)
        .spreadConstraint(1, "zone", "DoNotSchedule", foo(), null, null, null, ["bar"])
        .obj(),
      existingPods: [at("p1a", "node-0"), at("p2a", "node-1"), at("p3a", "node-2", { foo: "", bar: "" })],
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-0", "node-1"],
      enableMatchLabelKeys: true,
    },
    {
      name: "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty, pods spread across zone as 2/1",
      incomingPod: incoming()
        .spreadConstraint(1, "zone", "DoNotSchedule", makeLabelSelector().obj(), null, null, null, ["foo"])
        .obj(),
      existingPods: [at("p1a", "node-0"), at("p2a", "node-1"), at("p3a", "node-2")],
      fits: true,
      nodes: defaultNodes(),
      candidateNodes: ["node-2", "node-3"],
      enableMatchLabelKeys: true,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const inNs = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, namespace: "pts-predicate" } });
      const r = await run(
        config,
        {
          namespaces: { "pts-predicate": {} },
          nodes: tc.nodes,
          pods: [...tc.existingPods, tc.incomingPod].map(inNs),
        },
        {
          enableNodeInclusionPolicyInPodTopologySpread: tc.enableNodeInclusionPolicy ?? false,
          enableMatchLabelKeysInPodTopologySpread: tc.enableMatchLabelKeys ?? false,
        },
      );
      const p = podResult(r, "p");
      if (tc.fits) {
        expect(p.outcome).toBe("Scheduled");
        expect(tc.candidateNodes).toContain(p.node);
      } else {
        expect(p.outcome).toBe("Unschedulable");
      }
    });
  }
});

const podLabel = { service: "securityscan" };
const podLabel2 = { security: "S1" };

describe("TestInterPodAffinity", () => {
  const nodes = () =>
    ["testnode-0", "anothernode-0"].map((name, i) =>
      makeNode()
        .name(name)
        .labels({ region: "r1", zone: "z11", node: `n${i + 1}` })
        .capacity({ memory: "1G" })
        .obj(),
    );
  const existing = (labels: Record<string, string>, namespace = "ns1") =>
    makePod().name("fakename2").namespace(namespace).labels(labels).container(pause).node("testnode-0").obj();
  const required = () => makePod().name("fakename").namespace("ns1").container(pause);
  const sel = {
    in: (key: string, values: string[]) => makeLabelSelector().in(key, values).obj(),
    notIn: (key: string, values: string[]) => makeLabelSelector().notIn(key, values).obj(),
  };
  const cases: { name: string; pod: Pod; pods: Pod[]; fits: boolean }[] = [
    {
      name: "validates that Inter-pod-Affinity is respected if not matching",
      pod: required()
        .labels(podLabel2)
        .podAffinity("region", sel.in("security", ["securityscan"]), "required")
        .obj(),
      pods: [],
      fits: false,
    },
    {
      name: "validates that InterPodAffinity is respected if matching. requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod",
      pod: required()
        .labels(podLabel2)
        .podAffinity("region", sel.in("service", ["securityscan", "value2"]), "required")
        .obj(),
      pods: [existing(podLabel)],
      fits: true,
    },
    {
      name: "validates that InterPodAffinity is respected if matching. requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod",
      pod: required()
        .labels(podLabel2)
        .podAffinity("region", sel.notIn("service", ["securityscan3", "value3"]), "required")
        .obj(),
      pods: [existing(podLabel)],
      fits: true,
    },
    {
      name: "validates that inter-pod-affinity is respected when pods have different Namespaces",
      pod: required()
        .labels(podLabel2)
        .podAffinity("region", sel.in("service", ["securityscan", "value2"]), "required", {
          namespaces: ["diff-namespace"],
        })
        .obj(),
      pods: [existing(podLabel, "ns2")],
      fits: false,
    },
    {
      name: "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
      pod: required()
        .labels(podLabel)
        .podAffinity("region", sel.in("service", ["antivirusscan", "value2"]), "required")
        .obj(),
      pods: [existing(podLabel)],
      fits: false,
    },
    {
      name: "validates that InterPodAffinity is respected if matching with multiple affinities in multiple RequiredDuringSchedulingIgnoredDuringExecution ",
      pod: required()
        .labels(podLabel2)
        .podAffinity("region", makeLabelSelector().exists("service").notExist("wrongkey").obj(), "required")
        .podAffinity(
          "region",
          makeLabelSelector().in("service", ["securityscan"]).notIn("service", ["WrongValue"]).obj(),
          "required",
        )
        .obj(),
      pods: [existing(podLabel)],
      fits: true,
    },
    {
      name: "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression items doesn't match.",
      pod: required()
        .labels(podLabel2)
        .podAffinity("region", makeLabelSelector().exists("service").notExist("wrongkey").obj(), "required")
        .podAffinity(
          "region",
          makeLabelSelector().in("service", ["securityscan2"]).notIn("service", ["WrongValue"]).obj(),
          "required",
        )
        .obj(),
      pods: [existing(podLabel)],
      fits: false,
    },
    {
      name: "validates that InterPod Affinity and AntiAffinity is respected if matching",
      pod: required()
        .labels(podLabel2)
        .podAffinity("region", sel.in("service", ["securityscan", "value2"]), "required")
        .podAntiAffinity("node", sel.in("service", ["antivirusscan", "value2"]), "required")
        .obj(),
      pods: [existing(podLabel)],
      fits: true,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const r = await run(config, {
        namespaces: { ns1: { team: "team1" }, ns2: { team: "team1" }, ns3: { team: "team2" } },
        nodes: nodes(),
        pods: [...tc.pods, tc.pod],
      });
      expect(podResult(r, "fakename").outcome).toBe(tc.fits ? "Scheduled" : "Unschedulable");
    });
  }
});

describe("TestInterPodAffinityWithNamespaceSelector", () => {
  const team1 = makeLabelSelector().in("team", ["team1"]).obj();
  const cases = [
    { name: "MatchingNamespaces", existingNamespace: "ns2", fits: true },
    { name: "MismatchingNamespaces", existingNamespace: "ns3", fits: false },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const pod = makePod()
        .name("pod-ns-selector")
        .namespace("ns1")
        .container(pause)
        .podAffinity("region", makeLabelSelector().in("service", ["securityscan"]).obj(), "required", {
          namespaceSelector: team1,
        })
        .obj();
      const r = await run(config, {
        namespaces: { ns1: { team: "team1" }, ns2: { team: "team1" }, ns3: { team: "team2" } },
        nodes: [0, 1].map((i) =>
          makeNode().name(`testnode-${i}`).labels({ region: "r1", zone: "z11" }).obj(),
        ),
        pods: [
          makePod()
            .name("fakename2")
            .namespace(tc.existingNamespace)
            .labels(podLabel)
            .container(pause)
            .node("testnode-0")
            .obj(),
          pod,
        ],
      });
      expect(podResult(r, "pod-ns-selector").outcome).toBe(tc.fits ? "Scheduled" : "Unschedulable");
    });
  }
});
