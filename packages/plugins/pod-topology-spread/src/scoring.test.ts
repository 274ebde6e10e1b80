// Ported from upstream pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go.
// Upstream's TopologyPairToPodCounts is summarized per constraint (hostname constraints have no
// domain counts: they are counted in Score).
import type { Node, Pod } from "@kubesched/api";
import type { Features } from "@kubesched/framework";
import { makeLabelSelector, makeNode, makePod, makeReplicaSet, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { LabelHostname, LabelTopologyZone } from "./common";
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
  it.each(cases)("$name", (tc) => {
    const s = setup({ nodes: tc.nodes, objs: tc.objs, args: tc.config, features: features({}) });
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
  it.each(preScoreCases)("$name", (tc) => {
    const s = setup({ nodes: tc.nodes, objs: tc.objs, args: tc.config, features: features(tc) });
    const { preScore, state } = runScore(s, tc.pod, buildNodeInfos(tc.nodes));
    expect(preScore).toBeNull();
    expect(summarizePreScoreState(state)).toEqual(tc.want);
  });
});
