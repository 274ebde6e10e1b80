// upstream: test/integration/scheduler/scoring/priorities_test.go (kubernetes/kubernetes at
// b363f196, v1.37 line) — each test's cluster, configuration and expectation, through simulate().
// Not ported: the feature-gate-off rows of MatchLabelKeysInPodAffinity (the gate is GA and
// locked on in v1.37; admission applies matchLabelKeys as the API server does).
import type { Pod, Service } from "@kubesched/api";
import { makeLabelSelector, makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { configOf, podResult, run, scoringConfig } from "./integration-cluster.test-util";

const resourceGPU = "example.com/gpu";

describe("TestNodeResourcesScoring", () => {
  const config = (strategy: "LeastAllocated" | "MostAllocated") =>
    configOf(`profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: ${strategy}
        resources: [{ name: cpu, weight: 1 }, { name: memory, weight: 1 }, { name: ${resourceGPU}, weight: 2 }]
`);
  const res = { cpu: "2", memory: "4G", [resourceGPU]: "1" };
  const existing = () => [
    makePod().name("existing-pod-1").node("node-1").res(res).sidecarReq({ cpu: "2", memory: "2G" }).obj(),
    makePod().name("existing-pod-2").node("node-2").res(res).obj(),
  ];
  const nodes = () =>
    ["node-1", "node-2"].map((n) =>
      makeNode()
        .name(n)
        .capacity({ cpu: "8", memory: "16G", [resourceGPU]: "4" })
        .obj(),
    );
  const cases = [
    {
      name: "with least allocated strategy, take existing sidecars into consideration",
      strategy: "LeastAllocated" as const,
      expectedNodeName: ["node-2"],
    },
    {
      name: "with most allocated strategy, take existing sidecars into consideration",
      strategy: "MostAllocated" as const,
      expectedNodeName: ["node-1"],
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const r = await run(config(tc.strategy), {
        nodes: nodes(),
        pods: [...existing(), makePod().name("pod").res(res).obj()],
      });
      expect(tc.expectedNodeName).toContain(podResult(r, "pod").node);
    });
  }
});

describe("TestNodeAffinityScoring", () => {
  it("the pod goes to the node its preferred node affinity names", async () => {
    const labelKey = "kubernetes.io/node-topologyKey";
    const labelValue = "topologyvalue";
    const pod = makePod()
      .name("pod-with-node-affinity")
      .namespace("ns")
      .nodeAffinity({
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            preference: { matchExpressions: [{ key: labelKey, operator: "In", values: [labelValue] }] },
            weight: 20,
          },
        ],
      })
      .obj();
    const r = await run(scoringConfig("NodeAffinity", "NodeAffinity"), {
      namespaces: { ns: {} },
      nodes: [
        ...[0, 1, 2, 3].map((i) => makeNode().name(`testnode-${i}`).obj()),
        makeNode().name("testnode-4").label(labelKey, labelValue).obj(),
      ],
      pods: [pod],
    });
    expect(podResult(r, "pod-with-node-affinity").node).toBe("testnode-4");
  });
});

describe("TestPodAffinityScoring", () => {
  const labelKey = "service";
  const labelValue = "S1";
  const topologyKey = "node-topologykey";
  const topologyValues = [0, 1, 2, 3, 4].map((i) => `topologyvalue${i}`);
  const tenNodes = () => [
    ...Array.from({ length: 10 }, (_, i) =>
      makeNode()
        .name(`node${i + 1}`)
        .label(topologyKey, topologyValues[i % 5] as string)
        .obj(),
    ),
    makeNode().name("other-node1").obj(),
    makeNode().name("other-node2").obj(),
  ];
  const sixNodes = () =>
    Array.from({ length: 6 }, (_, i) =>
      makeNode()
        .name(`node${i + 1}`)
        .label(topologyKey, topologyValues[i % 3] as string)
        .obj(),
    );
  const running = (name: string, node: string, labels: Record<string, string>) =>
    makePod().name(name).namespace("ns1").labels(labels).node(node).obj();
  const inS1orS3 = makeLabelSelector().in(labelKey, [labelValue, "S3"]).obj();
  const fooExists = makeLabelSelector().exists("foo").obj();
  const barHoge = makeLabelSelector().in("bar", ["hoge"]).obj();
  const cases: {
    name: string;
    pod: Pod;
    existingPods: Pod[];
    nodes: ReturnType<typeof tenNodes>;
    expectedNodeName: string[];
  }[] = [
    {
      name: "pod affinity",
      pod: makePod()
        .name("pod1")
        .namespace("ns1")
        .podAffinity(topologyKey, inS1orS3, "preferred", { weight: 50 })
        .obj(),
      existingPods: [running("attractor-pod", "node1", { [labelKey]: labelValue })],
      nodes: tenNodes(),
      expectedNodeName: ["node1", "node6"],
    },
    {
      name: "pod affinity with namespace selector",
      pod: makePod()
        .name("pod1")
        .namespace("ns2")
        .podAffinity(topologyKey, inS1orS3, "preferred", { weight: 50, namespaceSelector: {} })
        .obj(),
      existingPods: [running("attractor-pod", "node1", { [labelKey]: labelValue })],
      nodes: tenNodes(),
      expectedNodeName: ["node1", "node6"],
    },
    {
      name: "anti affinity: matchLabelKeys is merged into LabelSelector with In operator (feature flag: enabled)",
      pod: makePod()
        .name("incoming")
        .namespace("ns1")
        .labels({ foo: "", bar: "a" })
        .podAntiAffinity(topologyKey, fooExists, "preferred", { weight: 50, matchLabelKeys: ["bar"] })
        .obj(),
      existingPods: [
        running("pod1", "node1", { foo: "", bar: "fuga" }),
        running("pod2", "node2", { foo: "", bar: "a" }),
      ],
      nodes: sixNodes().slice(0, 2),
      expectedNodeName: ["node1"],
    },
    {
      name: "anti affinity: mismatchLabelKeys is merged into LabelSelector with NotIn operator  (feature flag: enabled)",
      pod: makePod()
        .name("incoming")
        .namespace("ns1")
        .labels({ foo: "", bar: "a" })
        .podAntiAffinity(topologyKey, fooExists, "preferred", { weight: 50, mismatchLabelKeys: ["bar"] })
        .obj(),
      existingPods: [
        running("pod1", "node1", { foo: "", bar: "fuga" }),
        running("pod2", "node2", { foo: "", bar: "a" }),
      ],
      nodes: sixNodes().slice(0, 2),
      expectedNodeName: ["node2"],
    },
    {
      name: "affinity: matchLabelKeys is merged into LabelSelector with In operator (feature flag: enabled)",
      pod: makePod()
        .name("incoming")
        .namespace("ns1")
        .labels({ foo: "", bar: "a" })
        .podAffinity(topologyKey, fooExists, "preferred", { weight: 50, matchLabelKeys: ["bar"] })
        .podAffinity(topologyKey, barHoge, "preferred", { weight: 10 })
        .obj(),
      existingPods: [
        running("pod1", "node1", { foo: "", bar: "hoge" }),
        running("pod2", "node2", { foo: "", bar: "hoge" }),
        running("pod3", "node3", { foo: "", bar: "a" }),
      ],
      nodes: sixNodes(),
      expectedNodeName: ["node3", "node6"],
    },
    {
      name: "affinity: mismatchLabelKeys is merged into LabelSelector with NotIn operator (feature flag: enabled)",
      pod: makePod()
        .name("incoming")
        .namespace("ns1")
        .labels({ foo: "", bar: "a" })
        .podAffinity(topologyKey, fooExists, "preferred", { weight: 50, mismatchLabelKeys: ["bar"] })
        .podAffinity(topologyKey, barHoge, "preferred", { weight: 10 })
        .obj(),
      existingPods: [
        running("pod1", "node1", { foo: "", bar: "a" }),
        running("pod2", "node2", { foo: "", bar: "a" }),
        running("pod3", "node3", { foo: "", bar: "hoge" }),
      ],
      nodes: sixNodes(),
      expectedNodeName: ["node3", "node6"],
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const r = await run(scoringConfig("InterPodAffinity", "InterPodAffinity"), {
        namespaces: { ns1: { team: "team1" }, ns2: { team: "team1" } },
        nodes: tc.nodes,
        pods: [...tc.existingPods, tc.pod],
      });
      expect(tc.expectedNodeName).toContain(podResult(r, tc.pod.metadata?.name ?? "").node);
    });
  }
});

describe("TestTaintTolerationScoring", () => {
  const taint = { key: "example-key", value: "example-value", effect: "PreferNoSchedule" as const };
  const cases = [
    {
      name: "no taints or tolerations",
      tolerations: [],
      nodes: [makeNode().name("node-1").obj(), makeNode().name("node-2").obj()],
      expectedNodesName: ["node-1", "node-2"],
    },
    {
      name: "pod with toleration for node's taint",
      tolerations: [
        { key: "example-key", operator: "Equal", value: "example-value", effect: "PreferNoSchedule" },
      ],
      nodes: [makeNode().name("node-1").taints([taint]).obj(), makeNode().name("node-2").obj()],
      expectedNodesName: ["node-1", "node-2"],
    },
    {
      name: "pod without toleration for node's taint",
      tolerations: [
        { key: "other-key", operator: "Equal", value: "other-value", effect: "PreferNoSchedule" },
      ],
      nodes: [makeNode().name("node-1").taints([taint]).obj(), makeNode().name("node-2").obj()],
      expectedNodesName: ["node-2"],
    },
  ];
  cases.forEach((tc, i) => {
    it(tc.name, async () => {
      const pod = makePod().name(`test-pod-${i}`).namespace("ns").tolerations(tc.tolerations).obj();
      const r = await run(scoringConfig("TaintToleration", "TaintToleration"), {
        namespaces: { ns: {} },
        nodes: tc.nodes,
        pods: [pod],
      });
      expect(tc.expectedNodesName).toContain(podResult(r, `test-pod-${i}`).node);
    });
  });
});

describe("TestImageLocalityScoring", () => {
  it("the pod goes to the node where its large image already is", async () => {
    const imageName = "fake-large-image:v1";
    const r = await run(scoringConfig("ImageLocality"), {
      namespaces: { ns: {} },
      nodes: [
        makeNode()
          .name("testnode-large-image")
          .images({ [imageName]: 3000 * 1024 * 1024 })
          .obj(),
        ...Array.from({ length: 10 }, (_, i) => makeNode().name(`testnode-${i}`).obj()),
      ],
      pods: [makePod().name("pod-using-large-image").namespace("ns").containerImages(imageName).obj()],
    });
    expect(podResult(r, "pod-using-large-image").node).toBe("testnode-large-image");
  });
});

describe("TestPodTopologySpreadScoring", () => {
  const pause = "registry.k8s.io/pause:3.10";
  const taint = { key: "k1", value: "v1", effect: "NoSchedule" as const };
  const preferNoSchedule = [
    { key: "node.kubernetes.io/unschedulable", value: "", effect: "PreferNoSchedule" as const },
  ];
  const defaultNodes = () => [
    makeNode().name("node-0").label("node", "node-0").label("zone", "zone-0").taints([taint]).obj(),
    makeNode().name("node-1").label("node", "node-1").label("zone", "zone-0").obj(),
    makeNode().name("node-2").label("node", "node-2").label("zone", "zone-1").obj(),
    makeNode().name("node-3").label("node", "node-3").label("zone", "zone-1").obj(),
  ];
  const inclusionNodes = () => [
    makeNode().name("node-1").label("node", "node-1").label("zone", "zone-1").label("foo", "").obj(),
    makeNode()
      .name("node-2")
      .label("node", "node-2")
      .label("zone", "zone-1")
      .label("foo", "")
      .taints(preferNoSchedule)
      .obj(),
    makeNode().name("node-3").label("node", "node-3").label("zone", "zone-2").label("foo", "").obj(),
    makeNode().name("node-4").label("node", "node-4").label("zone", "zone-2").obj(),
  ];
  const fooExists = () => makeLabelSelector().exists("foo").obj();
  const existing = (name: string, node: string, labels: Record<string, string> = { foo: "" }) =>
    makePod().name(name).node(node).labels(labels).container(pause).obj();
  const cases: {
    name: string;
    incomingPod: Pod;
    existingPods: Pod[];
    nodes: ReturnType<typeof defaultNodes>;
    want: string[];
    enableNodeInclusionPolicy?: boolean;
    enableMatchLabelKeys?: boolean;
  }[] = [
    {
      name: "place pod on a ~0~/1/2/3 cluster with MaxSkew=1, node-1 is the preferred fit",
      incomingPod: makePod()
        .name("p")
        .label("foo", "")
        .container(pause)
        .spreadConstraint(1, "node", "ScheduleAnyway", fooExists())
        .obj(),
      existingPods: [
        existing("p1", "node-1"),
        existing("p2a", "node-2"),
        existing("p2b", "node-2"),
        existing("p3a", "node-3"),
        existing("p3b", "node-3"),
        existing("p3c", "node-3"),
      ],
      nodes: defaultNodes(),
      want: ["node-1"],
    },
    {
      name: "combined with hardSpread constraint on a ~4~/0/1/2 cluster",
      incomingPod: makePod()
        .name("p")
        .label("foo", "")
        .container(pause)
        .spreadConstraint(1, "node", "ScheduleAnyway", fooExists())
        .spreadConstraint(1, "zone", "DoNotSchedule", fooExists())
        .obj(),
      existingPods: [
        existing("p0a", "node-0"),
        existing("p0b", "node-0"),
        existing("p0c", "node-0"),
        existing("p0d", "node-0"),
        existing("p2", "node-2"),
        existing("p3a", "node-3"),
        existing("p3b", "node-3"),
      ],
      nodes: defaultNodes(),
      want: ["node-2"],
    },
    {
      name: "soft constraint with two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
      incomingPod: makePod()
        .name("p")
        .label("foo", "")
        .container(pause)
        .nodeSelector({ foo: "" })
        .spreadConstraint(1, "zone", "ScheduleAnyway", fooExists())
        .spreadConstraint(1, "node", "ScheduleAnyway", fooExists())
        .obj(),
      existingPods: [
        existing("p1a", "node-1"),
        existing("p2a", "node-2"),
        existing("p2b", "node-2"),
        existing("p4a", "node-4"),
      ],
      nodes: inclusionNodes(),
      want: ["node-3"],
      enableNodeInclusionPolicy: true,
    },
    {
      name: "soft constraint with two node inclusion Constraints, zone: ignore/ignore, node: honor/honor",
      incomingPod: makePod()
        .name("p")
        .label("foo", "")
        .container(pause)
        .nodeSelector({ foo: "" })
        .spreadConstraint(1, "zone", "ScheduleAnyway", fooExists(), null, "Ignore", null)
        .spreadConstraint(1, "node", "ScheduleAnyway", fooExists(), null, null, "Honor")
        .obj(),
      existingPods: [
        existing("p1a", "node-1"),
        existing("p2a", "node-2"),
        existing("p2b", "node-2"),
        existing("p4a", "node-4"),
      ],
      nodes: inclusionNodes(),
      want: ["node-3"],
      enableNodeInclusionPolicy: true,
    },
    {
      name: "matchLabelKeys ignored when feature gate disabled, node-1 is the preferred fit",
      incomingPod: makePod()
        .name("p")
        .labels({ foo: "", bar: "" })
        .container(pause)
        .spreadConstraint(1, "node", "ScheduleAnyway", fooExists(), null, null, null, ["bar"])
        .obj(),
      existingPods: [
        existing("p1", "node-1", { foo: "", bar: "" }),
        existing("p2a", "node-2"),
        existing("p2b", "node-2"),
        existing("p3a", "node-3", { foo: "", bar: "" }),
        existing("p3b", "node-3", { foo: "", bar: "" }),
        existing("p3c", "node-3"),
      ],
      nodes: defaultNodes(),
      want: ["node-1"],
      enableMatchLabelKeys: false,
    },
    {
      name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty, node-2 is the preferred fit",
      incomingPod: makePod()
        .name("p")
        .labels({ foo: "", bar: "" })
        .container(pause)
        .spreadConstraint(1, "node", "ScheduleAnyway", fooExists(), null, null, null, ["bar"])
        .obj(),
      existingPods: [
        existing("p1", "node-1", { foo: "", bar: "" }),
        existing("p2a", "node-2"),
        existing("p2b", "node-2"),
        existing("p3a", "node-3", { foo: "", bar: "" }),
        existing("p3b", "node-3", { foo: "", bar: "" }),
        existing("p3c", "node-3"),
      ],
      nodes: defaultNodes(),
      want: ["node-2"],
      enableMatchLabelKeys: true,
    },
    {
      name: "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty, node-1 is the preferred fit",
      incomingPod: makePod()
        .name("p")
        .label("foo", "")
        .container(pause)
        .spreadConstraint(1, "node", "ScheduleAnyway", makeLabelSelector().obj(), null, null, null, ["foo"])
        .obj(),
      existingPods: [
        existing("p1", "node-1"),
        existing("p2a", "node-2"),
        existing("p2b", "node-2"),
        existing("p3a", "node-3"),
        existing("p3b", "node-3"),
        existing("p3c", "node-3"),
      ],
      nodes: defaultNodes(),
      want: ["node-1"],
      enableMatchLabelKeys: true,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const r = await run(
        scoringConfig("PodTopologySpread", "PodTopologySpread"),
        { namespaces: { ns: {} }, nodes: tc.nodes, pods: [...tc.existingPods, tc.incomingPod].map(inNs) },
        {
          enableNodeInclusionPolicyInPodTopologySpread: tc.enableNodeInclusionPolicy ?? false,
          enableMatchLabelKeysInPodTopologySpread: tc.enableMatchLabelKeys ?? false,
        },
      );
      expect(tc.want).toContain(podResult(r, "p").node);
    });
  }
  function inNs(p: Pod): Pod {
    return { ...p, metadata: { ...p.metadata, namespace: "ns" } };
  }
});

describe("TestDefaultPodTopologySpreadScoring", () => {
  // 300 nodes over 3 zones; pods behind a Service are spread by the system default constraints.
  const nodes = Array.from({ length: 300 }, (_, i) =>
    makeNode()
      .name(`node-${i}`)
      .label("kubernetes.io/hostname", `node-${i}`)
      .label("topology.kubernetes.io/zone", `zone-${i % 3}`)
      .obj(),
  );
  const service: Service = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "test-service", namespace: "ns" },
    spec: { selector: { service: "test-service" }, ports: [{ port: 80, targetPort: 80 }] },
  };
  // upstream adds 3, then 9, then 15 pods and checks the zones after each batch.
  for (const total of [3, 12, 27]) {
    it(`${total}-pods`, async () => {
      const pods = Array.from({ length: total }, (_, i) =>
        makePod()
          .name(`p-${i}`)
          .namespace("ns")
          .label("service", "test-service")
          .container("registry.k8s.io/pause:3.10")
          .obj(),
      );
      const r = await run(scoringConfig("PodTopologySpread", "PodTopologySpread"), {
        namespaces: { ns: {} },
        nodes,
        services: [service],
        pods,
      });
      const zoneCnts: Record<string, number> = {};
      for (const p of r.pods) {
        expect(p.outcome).toBe("Scheduled");
        const zone = `zone-${Number((p.node ?? "").slice("node-".length)) % 3}`;
        zoneCnts[zone] = (zoneCnts[zone] ?? 0) + 1;
      }
      const counts = Object.values(zoneCnts);
      expect(Math.max(...counts) - Math.min(...counts), JSON.stringify(zoneCnts)).toBe(0);
    });
  }
});
