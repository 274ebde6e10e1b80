// Ported from upstream pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go.
// Upstream's TopologyPairToPodCounts is summarized per constraint (hostname constraints have no
// domain counts: they are counted in Score).
import { LabelHostname, LabelTopologyZone, type Node, type Pod } from "@kubesched/api";
import type { Features } from "@kubesched/framework";
import { makeLabelSelector, makeNode, makePod, makeReplicaSet, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { topologyNormalizingWeight as w } from "./scoring";
import {
  barSelector,
  fooSelector,
  type PreScoreStateSummary,
  summarizePreScoreState,
  taints,
  tsc,
} from "./test-fixtures";
import { buildNodeInfos, type Objects, runScore, setup } from "./test-harness";

const H = LabelHostname;
const node = (name: string, labels: Record<string, string>): Node =>
  makeNode().name(name).labels(labels).obj();
const pod = (name: string, nodeName: string, labels: Record<string, string> = { foo: "" }): Pod =>
  makePod().name(name).node(nodeName).labels(labels).obj();
const rs1 = () => makeReplicaSet().name("rs1").namespace("default").obj();
const rsFoo = () => {
  const rs = rs1();
  rs.spec!.selector = fooSelector;
  return rs;
};
const rsGVK = { group: "apps", version: "v1", kind: "ReplicaSet" };

function features(tc: {
  enableNodeInclusionPolicy?: boolean;
  enableMatchLabelKeys?: boolean;
}): Partial<Features> {
  return {
    enableNodeInclusionPolicyInPodTopologySpread: tc.enableNodeInclusionPolicy ?? false,
    enableMatchLabelKeysInPodTopologySpread: tc.enableMatchLabelKeys ?? false,
  };
}

describe("TestPreScoreSkip", () => {
  const cases: { name: string; pod: Pod; nodes: Node[]; objs?: Objects; config: unknown }[] = [
    {
      name: "the pod doesn't have soft topology spread Constraints",
      pod: makePod().name("p").namespace("default").obj(),
      config: { defaultingType: "List" },
      nodes: [node("node-a", { [H]: "node-a" }), node("node-b", { [H]: "node-b" })],
    },
    {
      name: "default constraints and a replicaset that doesn't match",
      pod: makePod()
        .name("p")
        .namespace("default")
        .label("foo", "bar")
        .label("baz", "sup")
        .ownerReference("rs2", rsGVK)
        .obj(),
      config: {
        defaultConstraints: [{ maxSkew: 2, topologyKey: "planet", whenUnsatisfiable: "ScheduleAnyway" }],
        defaultingType: "List",
      },
      nodes: [node("node-a", { planet: "mars" })],
      objs: {
        replicaSets: [
          (() => {
            const rs = rs1();
            rs.spec!.selector = makeLabelSelector().exists("tar").obj();
            return rs;
          })(),
        ],
      },
    },
  ];
  it.each(cases)("$name", async (tc) => {
    const s = await setup({ nodes: tc.nodes, objs: tc.objs, args: tc.config, features: features({}) });
    const { preScore } = runScore(s, tc.pod, buildNodeInfos(tc.nodes));
    expect(statusSummary(preScore).code).toBe("Skip");
  });
});

interface PreScoreCase {
  name: string;
  pod: Pod;
  nodes: Node[];
  objs?: Objects;
  config: unknown;
  want: PreScoreStateSummary;
  enableNodeInclusionPolicy?: boolean;
}

const zoneNodes = (fooOnAB = false, taintX = false) => [
  node("node-a", { zone: "zone1", ...(fooOnAB ? { foo: "" } : {}), [H]: "node-a" }),
  node("node-b", { zone: "zone1", ...(fooOnAB ? { foo: "" } : {}), [H]: "node-b" }),
  taintX
    ? makeNode().name("node-x").label("zone", "zone2").label(H, "node-x").taints(taints).obj()
    : node("node-x", { zone: "zone2", [H]: "node-x" }),
];
const listArgs = { defaultingType: "List" };

const preScoreCases: PreScoreCase[] = [
  {
    name: "normal case",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "ScheduleAnyway", fooSelector)
      .spreadConstraint(1, H, "ScheduleAnyway", fooSelector)
      .obj(),
    nodes: zoneNodes(),
    config: listArgs,
    want: {
      constraints: [tsc(1, "zone", fooSelector), tsc(1, H, fooSelector)],
      ignoredNodes: [],
      counts: [{ zone1: 0, zone2: 0 }, {}],
      weights: [w(2), w(3)],
    },
  },
  {
    name: "null selector",
    pod: makePod().name("p").label("foo", "").spreadConstraint(1, "zone", "ScheduleAnyway", null).obj(),
    nodes: zoneNodes(),
    config: listArgs,
    want: {
      constraints: [tsc(1, "zone", null)],
      ignoredNodes: [],
      counts: [{ zone1: 0, zone2: 0 }],
      weights: [w(2)],
    },
  },
  {
    name: "node-x doesn't have label zone",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "ScheduleAnyway", fooSelector)
      .spreadConstraint(1, H, "ScheduleAnyway", barSelector)
      .obj(),
    nodes: [
      node("node-a", { zone: "zone1", [H]: "node-a" }),
      node("node-b", { zone: "zone1", [H]: "node-b" }),
      node("node-x", { [H]: "node-x" }),
    ],
    config: listArgs,
    want: {
      constraints: [tsc(1, "zone", fooSelector), tsc(1, H, barSelector)],
      ignoredNodes: ["node-x"],
      counts: [{ zone1: 0 }, {}],
      weights: [w(1), w(2)],
    },
  },
  {
    name: "system default constraints and a replicaset",
    pod: makePod()
      .name("p")
      .namespace("default")
      .label("foo", "tar")
      .label("baz", "sup")
      .ownerReference("rs1", rsGVK)
      .obj(),
    config: { defaultingType: "System" },
    nodes: [
      node("node-a", { [H]: "node-a", [LabelTopologyZone]: "mars" }),
      node("node-b", { [H]: "node-b", [LabelTopologyZone]: "mars" }),
      // Nodes with no zone are not excluded. They are considered a separate zone.
      node("node-c", { [H]: "node-c" }),
      node("node-d", { [H]: "node-d" }),
    ],
    objs: { replicaSets: [rsFoo()] },
    want: {
      constraints: [tsc(3, H, fooSelector), tsc(5, LabelTopologyZone, fooSelector)],
      ignoredNodes: [],
      counts: [{}, { mars: 0, "": 0 }],
      weights: [w(4), w(2)],
    },
  },
  {
    name: "default constraints and a replicaset",
    pod: makePod()
      .name("p")
      .namespace("default")
      .label("foo", "tar")
      .label("baz", "sup")
      .ownerReference("rs1", rsGVK)
      .obj(),
    config: {
      defaultConstraints: [
        { maxSkew: 1, topologyKey: H, whenUnsatisfiable: "ScheduleAnyway" },
        { maxSkew: 2, topologyKey: "rack", whenUnsatisfiable: "DoNotSchedule" },
        { maxSkew: 2, topologyKey: "planet", whenUnsatisfiable: "ScheduleAnyway" },
      ],
      defaultingType: "List",
    },
    nodes: [node("node-a", { rack: "rack1", [H]: "node-a", planet: "mars" })],
    objs: { replicaSets: [rsFoo()] },
    want: {
      constraints: [tsc(1, H, fooSelector), tsc(2, "planet", fooSelector)],
      ignoredNodes: [],
      counts: [{}, { mars: 0 }],
      weights: [w(1), w(1)],
    },
  },
  {
    name: "default constraints and a replicaset, but pod has constraints",
    pod: makePod()
      .name("p")
      .namespace("default")
      .label("foo", "bar")
      .label("baz", "sup")
      .ownerReference("rs1", rsGVK)
      .spreadConstraint(1, "zone", "DoNotSchedule", barSelector)
      .spreadConstraint(2, "planet", "ScheduleAnyway", makeLabelSelector().label("baz", "sup").obj())
      .obj(),
    config: {
      defaultConstraints: [{ maxSkew: 2, topologyKey: "galaxy", whenUnsatisfiable: "ScheduleAnyway" }],
      defaultingType: "List",
    },
    nodes: [node("node-a", { planet: "mars", galaxy: "andromeda" })],
    objs: { replicaSets: [rsFoo()] },
    want: {
      constraints: [tsc(2, "planet", makeLabelSelector().label("baz", "sup").obj())],
      ignoredNodes: [],
      counts: [{ mars: 0 }],
      weights: [w(1)],
    },
  },
  ...(
    [
      ["NodeAffinityPolicy honored with labelSelectors", "selector", null, null],
      ["NodeAffinityPolicy ignored with labelSelectors", "selector", "Ignore", null],
      ["NodeAffinityPolicy honored with nodeAffinity", "affinity", null, null],
      ["NodeAffinityPolicy ignored with nodeAffinity", "affinity", "Ignore", null],
      ["NodeTaintsPolicy honored", null, null, "Honor"],
      ["NodeTaintsPolicy ignored", null, null, null],
    ] as const
  ).map(([name, how, affinityPolicy, taintsPolicy]): PreScoreCase => {
    let b = makePod().name("p").label("foo", "");
    if (how === "selector") b = b.nodeSelector({ foo: "" });
    if (how === "affinity") b = b.nodeAffinityIn("foo", [""]);
    return {
      name,
      pod: b
        .spreadConstraint(1, "zone", "ScheduleAnyway", barSelector, null, affinityPolicy, taintsPolicy)
        .obj(),
      nodes: zoneNodes(true, how === null),
      config: listArgs,
      want: {
        constraints: [
          tsc(1, "zone", barSelector, {
            nodeAffinityPolicy: affinityPolicy ?? "Honor",
            nodeTaintsPolicy: taintsPolicy ?? "Ignore",
          }),
        ],
        ignoredNodes: [],
        counts: [{ zone1: 0, zone2: 0 }],
        weights: [w(2)],
      },
      enableNodeInclusionPolicy: true,
    };
  }),
];

describe("TestPreScoreStateEmptyNodes", () => {
  it.each(preScoreCases)("$name", async (tc) => {
    const s = await setup({ nodes: tc.nodes, objs: tc.objs, args: tc.config, features: features(tc) });
    const { preScore, state } = runScore(s, tc.pod, buildNodeInfos(tc.nodes));
    expect(preScore).toBeNull();
    expect(summarizePreScoreState(state)).toEqual(tc.want);
  });
});

interface ScoreCase {
  name: string;
  pod: Pod;
  existingPods?: Pod[];
  nodes: Node[];
  /** nodes + failedNodes = all nodes. */
  failedNodes?: Node[];
  objs?: Objects;
  want: { name: string; score: number }[];
  enableNodeInclusionPolicy?: boolean;
  enableMatchLabelKeys?: boolean;
}

const hn = (name: string) => node(name, { [H]: name });
const hz = (name: string, zone: string) => node(name, { zone, [H]: name });
const many = (nodeName: string, prefix: string, n: number, labels: Record<string, string> = { foo: "" }) =>
  Array.from({ length: n }, (_v, i) => pod(`${prefix}${i + 1}`, nodeName, labels));
const scores = (...s: [string, number][]) => s.map(([name, score]) => ({ name, score }));
const hostSpread = (
  maxSkew: number,
  sel: Parameters<ReturnType<typeof makePod>["spreadConstraint"]>[3] = fooSelector,
) => makePod().name("p").label("foo", "").spreadConstraint(maxSkew, H, "ScheduleAnyway", sel).obj();
const spread2103 = () => [
  ...many("node-a", "p-a", 2),
  ...many("node-b", "p-b", 1),
  ...many("node-d", "p-d", 3),
];
const spread4321 = () => [
  ...many("node-a", "p-a", 4),
  ...many("node-b", "p-b", 3),
  ...many("node-c", "p-c", 2),
  ...many("node-d", "p-d", 1),
];
const abcd = () => [hn("node-a"), hn("node-b"), hn("node-c"), hn("node-d")];
const spread4213 = () => [
  ...many("node-a", "p-a", 4),
  ...many("node-b", "p-b", 2),
  ...many("node-x", "p-x", 1),
  ...many("node-y", "p-y", 3),
];
const zoneHostPod = (labels: Record<string, string>, zoneSel = fooSelector, hostSel = barSelector) =>
  makePod()
    .name("p")
    .labels(labels)
    .spreadConstraint(1, "zone", "ScheduleAnyway", zoneSel)
    .spreadConstraint(1, H, "ScheduleAnyway", hostSel)
    .obj();
const diffSelectorPods = () => [
  pod("p-a1", "node-a", { foo: "" }),
  pod("p-b1", "node-b", { foo: "", bar: "" }),
  pod("p-y1", "node-y", { foo: "" }),
  pod("p-y2", "node-y", { bar: "" }),
];
const inclusionPods = () => [
  ...many("node-a", "p-a", 2),
  ...many("node-b", "p-b", 1),
  ...many("node-c", "p-c", 1),
];
const inclusionNodes = (fooAB: boolean, taintC: boolean) => [
  node("node-a", { node: "node-a", ...(fooAB ? { foo: "" } : {}) }),
  node("node-b", { node: "node-b", ...(fooAB ? { foo: "" } : {}) }),
  taintC
    ? makeNode().name("node-c").label("node", "node-c").taints(taints).obj()
    : node("node-c", { node: "node-c" }),
];
const mlkNodes = () => [
  hz("node-a", "zone1"),
  hz("node-b", "zone1"),
  hz("node-c", "zone2"),
  hz("node-d", "zone2"),
];
const mlkPods = () => [
  pod("p-a1", "node-a", { foo: "" }),
  pod("p-b1", "node-b", { foo: "", bar: "" }),
  pod("p-y1", "node-c", { foo: "" }),
  pod("p-y2", "node-c", { bar: "" }),
];

const scoreCases: ScoreCase[] = [
  {
    name: "one constraint on node, no existing pods",
    pod: hostSpread(1),
    nodes: [hn("node-a"), hn("node-b")],
    want: scores(["node-a", 100], ["node-b", 100]),
  },
  {
    name: "one constraint on node, only one node is candidate",
    pod: hostSpread(1),
    existingPods: [...many("node-a", "p-a", 2), ...many("node-b", "p-b", 1)],
    nodes: [hn("node-a")],
    failedNodes: [hn("node-b")],
    want: scores(["node-a", 100]),
  },
  {
    name: "one constraint on node, all nodes have the same number of matching pods",
    pod: hostSpread(1),
    existingPods: [pod("p-a1", "node-a"), pod("p-b1", "node-b")],
    nodes: [hn("node-a"), hn("node-b")],
    want: scores(["node-a", 100], ["node-b", 100]),
  },
  {
    name: "one constraint on node, all 4 nodes are candidates",
    pod: hostSpread(1),
    existingPods: spread2103(),
    nodes: abcd(),
    want: scores(["node-a", 20], ["node-b", 60], ["node-c", 100], ["node-d", 0]),
  },
  {
    name: "one constraint on node, null selector",
    pod: hostSpread(1, null),
    existingPods: spread2103(),
    nodes: abcd(),
    want: scores(["node-a", 100], ["node-b", 100], ["node-c", 100], ["node-d", 100]),
  },
  {
    name: "one constraint on node, all 4 nodes are candidates, maxSkew=2",
    pod: hostSpread(2),
    existingPods: spread2103(),
    nodes: abcd(),
    want: scores(["node-a", 33], ["node-b", 66], ["node-c", 100], ["node-d", 16]),
  },
  {
    name: "one constraint on node, all 4 nodes are candidates, maxSkew=3",
    pod: hostSpread(3),
    existingPods: spread4321(),
    nodes: abcd(),
    want: scores(["node-a", 44], ["node-b", 66], ["node-c", 77], ["node-d", 100]),
  },
  {
    name: "system defaulting, nodes don't have zone, pods match service",
    pod: makePod().name("p").label("foo", "").obj(),
    existingPods: spread4321(),
    nodes: abcd(),
    objs: { services: [{ metadata: { name: "svc" }, spec: { selector: { foo: "" } } }] },
    // Same scores as if we were using one spreading constraint.
    want: scores(["node-a", 44], ["node-b", 66], ["node-c", 77], ["node-d", 100]),
  },
  {
    name: "one constraint on node, 3 out of 4 nodes are candidates",
    pod: hostSpread(1),
    existingPods: spread4213(),
    nodes: [hn("node-a"), hn("node-b"), hn("node-x")],
    failedNodes: [hn("node-y")],
    want: scores(["node-a", 33], ["node-b", 83], ["node-x", 100]),
  },
  {
    name: "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
    pod: hostSpread(1),
    existingPods: spread4213(),
    nodes: [hn("node-a"), node("node-b", { n: "node-b" }), hn("node-x")],
    failedNodes: [hn("node-y")],
    want: scores(["node-a", 16], ["node-b", 0], ["node-x", 100]),
  },
  {
    name: "one constraint on zone, 3 out of 4 nodes are candidates",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "ScheduleAnyway", fooSelector)
      .obj(),
    existingPods: spread4213(),
    nodes: [hz("node-a", "zone1"), hz("node-b", "zone1"), hz("node-x", "zone2")],
    failedNodes: [hz("node-y", "zone2")],
    want: scores(["node-a", 75], ["node-b", 75], ["node-x", 100]),
  },
  {
    name: "two Constraints on zone and node, 2 out of 4 nodes are candidates",
    pod: zoneHostPod({ foo: "" }, fooSelector, fooSelector),
    existingPods: [
      ...many("node-a", "p-a", 2),
      ...many("node-b", "p-b", 1),
      ...many("node-x", "p-x", 2),
      ...many("node-y", "p-y", 4),
    ],
    nodes: [hz("node-a", "zone1"), hz("node-x", "zone2")],
    failedNodes: [hz("node-b", "zone1"), hz("node-y", "zone2")],
    want: scores(["node-a", 100], ["node-x", 63]),
  },
  {
    name: "two Constraints on zone and node, with different labelSelectors",
    pod: zoneHostPod({ foo: "", bar: "" }),
    existingPods: diffSelectorPods(),
    nodes: [hz("node-a", "zone1"), hz("node-b", "zone1"), hz("node-x", "zone2"), hz("node-y", "zone2")],
    want: scores(["node-a", 60], ["node-b", 20], ["node-x", 100], ["node-y", 60]),
  },
  {
    name: "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
    pod: zoneHostPod({ foo: "", bar: "" }),
    existingPods: [
      pod("p-b1", "node-b", { bar: "" }),
      pod("p-x1", "node-x", { foo: "" }),
      pod("p-y1", "node-y", { foo: "", bar: "" }),
    ],
    nodes: [hz("node-a", "zone1"), hz("node-b", "zone1"), hz("node-x", "zone2"), hz("node-y", "zone2")],
    want: scores(["node-a", 100], ["node-b", 60], ["node-x", 40], ["node-y", 0]),
  },
  {
    name: "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates",
    pod: zoneHostPod({ foo: "", bar: "" }),
    existingPods: diffSelectorPods(),
    nodes: [hz("node-a", "zone1"), hz("node-b", "zone1"), hz("node-x", "zone2")],
    failedNodes: [hz("node-y", "zone2")],
    want: scores(["node-a", 50], ["node-b", 25], ["node-x", 100]),
  },
  {
    name: "existing pods in a different namespace do not count",
    pod: hostSpread(1),
    existingPods: [
      makePod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
      pod("p-a2", "node-a"),
      pod("p-b1", "node-b"),
      pod("p-b2", "node-b"),
    ],
    nodes: [hn("node-a"), hn("node-b")],
    want: scores(["node-a", 100], ["node-b", 33]),
  },
  {
    name: "terminating Pods should be excluded",
    pod: hostSpread(1),
    nodes: [hn("node-a"), hn("node-b")],
    existingPods: [
      makePod().name("p-a").node("node-a").label("foo", "").terminating().obj(),
      pod("p-b", "node-b"),
    ],
    want: scores(["node-a", 100], ["node-b", 0]),
  },
  {
    name: "minDomains has no effect when ScheduleAnyway",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(2, "node", "ScheduleAnyway", fooSelector, 10)
      .obj(),
    nodes: [
      node("node-a", { node: "node-a" }),
      node("node-b", { node: "node-b" }),
      node("node-c", { node: "node-c" }),
    ],
    existingPods: [...many("node-a", "p-a", 2), ...many("node-b", "p-b", 2), ...many("node-c", "p-c", 1)],
    want: scores(["node-a", 75], ["node-b", 75], ["node-c", 100]),
  },
  ...(
    [
      ["NodeAffinityPolicy honoed with labelSelectors", "selector", null, null, [0, 33, 100]],
      ["NodeAffinityPolicy ignored with labelSelectors", "selector", "Ignore", null, [66, 100, 100]],
      ["NodeAffinityPolicy honoed with nodeAffinity", "affinity", null, null, [0, 33, 100]],
      ["NodeAffinityPolicy ignored with nodeAffinity", "affinity", "Ignore", null, [66, 100, 100]],
      ["NodeTaintsPolicy honored", null, null, "Honor", [0, 33, 100]],
      ["NodeTaintsPolicy ignored", null, null, null, [66, 100, 100]],
    ] as const
  ).map(([name, how, affinityPolicy, taintsPolicy, want]): ScoreCase => {
    let b = makePod().name("p").label("foo", "");
    if (how === "selector") b = b.nodeSelector({ foo: "" });
    if (how === "affinity") b = b.nodeAffinityIn("foo", [""]);
    return {
      name,
      pod: b
        .spreadConstraint(1, "node", "ScheduleAnyway", fooSelector, null, affinityPolicy, taintsPolicy)
        .obj(),
      nodes: inclusionNodes(how !== null, how === null),
      existingPods: inclusionPods(),
      want: scores(["node-a", want[0]], ["node-b", want[1]], ["node-c", want[2]]),
      enableNodeInclusionPolicy: true,
    };
  }),
  {
    name: "matchLabelKeys ignored when feature gate disabled",
    pod: makePod()
      .name("p")
      .labels({ foo: "", bar: "", baz: "" })
      .spreadConstraint(1, "zone", "ScheduleAnyway", fooSelector, null, null, null, ["baz"])
      .spreadConstraint(1, H, "ScheduleAnyway", barSelector, null, null, null, ["baz"])
      .obj(),
    existingPods: mlkPods(),
    nodes: mlkNodes(),
    want: scores(["node-a", 60], ["node-b", 20], ["node-c", 60], ["node-d", 100]),
    enableMatchLabelKeys: false,
  },
  {
    name: "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
    pod: makePod()
      .name("p")
      .labels({ foo: "", bar: "" })
      .spreadConstraint(1, "zone", "ScheduleAnyway", makeLabelSelector().obj(), null, null, null, ["foo"])
      .spreadConstraint(1, H, "ScheduleAnyway", makeLabelSelector().obj(), null, null, null, ["bar"])
      .obj(),
    existingPods: mlkPods(),
    nodes: mlkNodes(),
    want: scores(["node-a", 60], ["node-b", 20], ["node-c", 60], ["node-d", 100]),
    enableMatchLabelKeys: true,
  },
  {
    name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
    pod: makePod()
      .name("p")
      .labels({ foo: "", bar: "", baz: "" })
      .spreadConstraint(1, "zone", "ScheduleAnyway", fooSelector)
      .spreadConstraint(1, H, "ScheduleAnyway", barSelector, null, null, null, ["baz"])
      .obj(),
    existingPods: [
      pod("p-a1", "node-a", { foo: "" }),
      pod("p-b1", "node-b", { foo: "", bar: "", baz: "" }),
      pod("p-c1", "node-c", { foo: "" }),
      pod("p-c2", "node-c", { bar: "" }),
      pod("p-d3", "node-c", { bar: "", baz: "" }),
    ],
    nodes: mlkNodes(),
    want: scores(["node-a", 60], ["node-b", 20], ["node-c", 60], ["node-d", 100]),
    enableMatchLabelKeys: true,
  },
];

describe("TestPodTopologySpreadScore", () => {
  it.each(scoreCases)("$name", async (tc) => {
    const s = await setup({
      nodes: [...tc.nodes, ...(tc.failedNodes ?? [])],
      pods: tc.existingPods,
      objs: tc.objs,
      args: { defaultingType: "System" },
      features: features(tc),
    });
    const filtered = tc.nodes.map((n) => s.nodeInfo(n.metadata!.name!));
    const { preScore, scores: got } = runScore(s, tc.pod, filtered);
    expect(preScore).toBeNull();
    expect(got).toEqual(tc.want);
  });
});
