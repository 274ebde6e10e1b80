// Ported from upstream pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go.
// Upstream compares the whole preFilterState; here the state is summarized as per-constraint
// counts (TpPairToMatchNum split by constraint) and critical paths, sorted as upstream's comparer.
import type { Node, Pod } from "@kubesched/api";
import { CycleState, type Features } from "@kubesched/framework";
import { makeLabelSelector, makeNode, makePod, makeService, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import {
  barSelector,
  fooSelector,
  noPaths,
  type PreFilterStateSummary,
  paths,
  summarizePreFilterState,
  taints,
  tsc,
} from "./test-fixtures";
import { buildNodeInfos, type Objects, PodInfo, runPreFilterFilter, setup } from "./test-harness";

const node = (name: string, labels: Record<string, string>): Node =>
  makeNode().name(name).labels(labels).obj();
const zn = (name: string, zone: string): Node => node(name, { zone, node: name });
const pod = (name: string, nodeName: string, labels: Record<string, string> = {}): Pod =>
  makePod().name(name).node(nodeName).labels(labels).obj();
const foo = { foo: "" };
const bar = { bar: "" };
const fooBar = { foo: "", bar: "" };
const fourNodes = () => [
  zn("node-a", "zone1"),
  zn("node-b", "zone1"),
  zn("node-x", "zone2"),
  zn("node-y", "zone2"),
];
const fivePods = () => [
  pod("p-a1", "node-a", foo),
  pod("p-a2", "node-a", foo),
  pod("p-b1", "node-b", foo),
  pod("p-y1", "node-y", foo),
  pod("p-y2", "node-y", foo),
];
const sevenPods = () => [...fivePods(), pod("p-y3", "node-y", foo), pod("p-y4", "node-y", foo)];
const threeNodes = () => [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-y", "zone2")];
const inclusionNodes = (taintC = false) => [
  node("node-a", { node: "node-a", foo: "" }),
  node("node-b", { node: "node-b", foo: "" }),
  taintC
    ? makeNode().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj()
    : node("node-c", { node: "node-c", bar: "" }),
];
const inclusionPods = () => [
  pod("p-a", "node-a", bar),
  pod("p-b", "node-b", bar),
  pod("p-c", "node-b", bar),
  pod("p-d", "node-c"),
];
const taintNodes = () => [
  node("node-a", { node: "node-a" }),
  node("node-b", { node: "node-b" }),
  makeNode().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj(),
];

interface PreFilterCase {
  name: string;
  pod: Pod;
  nodes?: Node[];
  existingPods?: Pod[];
  objs?: Objects;
  defaultConstraints?: unknown[];
  want?: PreFilterStateSummary;
  wantPrefilterStatus?: { code: string; reasons: string[] };
  enableNodeInclusionPolicy?: boolean;
  enableMatchLabelKeys?: boolean;
}

const preFilterCases: PreFilterCase[] = [
  {
    name: "clean cluster with one spreadConstraint",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(5, "zone", "DoNotSchedule", makeLabelSelector().label("foo", "bar").obj())
      .obj(),
    nodes: fourNodes(),
    want: {
      constraints: [tsc(5, "zone", makeLabelSelector().label("foo", "bar").obj())],
      counts: [{ zone1: 0, zone2: 0 }],
      paths: paths([
        ["zone1", 0],
        ["zone2", 0],
      ]),
    },
  },
  {
    name: "normal case with one spreadConstraint",
    pod: makePod().name("p").label("foo", "").spreadConstraint(1, "zone", "DoNotSchedule", fooSelector).obj(),
    nodes: fourNodes(),
    existingPods: fivePods(),
    want: {
      constraints: [tsc(1, "zone", fooSelector)],
      counts: [{ zone1: 3, zone2: 2 }],
      paths: paths([
        ["zone2", 2],
        ["zone1", 3],
      ]),
    },
  },
  {
    name: "normal case with null label selector",
    pod: makePod().name("p").label("foo", "").spreadConstraint(1, "zone", "DoNotSchedule", null).obj(),
    nodes: fourNodes(),
    existingPods: fivePods(),
    want: {
      constraints: [tsc(1, "zone", null)],
      counts: [{ zone1: 0, zone2: 0 }],
      paths: paths([
        ["zone2", 0],
        ["zone1", 0],
      ]),
    },
  },
  {
    name: "normal case with one spreadConstraint, on a 3-zone cluster",
    pod: makePod().name("p").label("foo", "").spreadConstraint(1, "zone", "DoNotSchedule", fooSelector).obj(),
    nodes: [...fourNodes(), zn("node-o", "zone3"), zn("node-p", "zone3")],
    existingPods: fivePods(),
    want: {
      constraints: [tsc(1, "zone", fooSelector)],
      counts: [{ zone1: 3, zone2: 2, zone3: 0 }],
      paths: paths([
        ["zone3", 0],
        ["zone2", 2],
      ]),
    },
  },
  {
    name: "namespace mismatch doesn't count",
    pod: makePod().name("p").label("foo", "").spreadConstraint(1, "zone", "DoNotSchedule", fooSelector).obj(),
    nodes: fourNodes(),
    existingPods: [
      pod("p-a1", "node-a", foo),
      makePod().name("p-a2").namespace("ns1").node("node-a").label("foo", "").obj(),
      pod("p-b1", "node-b", foo),
      makePod().name("p-y1").namespace("ns2").node("node-y").label("foo", "").obj(),
      pod("p-y2", "node-y", foo),
    ],
    want: {
      constraints: [tsc(1, "zone", fooSelector)],
      counts: [{ zone1: 2, zone2: 1 }],
      paths: paths([
        ["zone2", 1],
        ["zone1", 2],
      ]),
    },
  },
  {
    name: "normal case with two spreadConstraints",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
      .spreadConstraint(1, "node", "DoNotSchedule", fooSelector)
      .obj(),
    nodes: fourNodes(),
    existingPods: sevenPods(),
    want: {
      constraints: [tsc(1, "zone", fooSelector), tsc(1, "node", fooSelector)],
      counts: [
        { zone1: 3, zone2: 4 },
        { "node-a": 2, "node-b": 1, "node-x": 0, "node-y": 4 },
      ],
      paths: paths(
        [
          ["zone1", 3],
          ["zone2", 4],
        ],
        [
          ["node-x", 0],
          ["node-b", 1],
        ],
      ),
    },
  },
  {
    name: "soft spreadConstraints should be bypassed",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "ScheduleAnyway", fooSelector)
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
      .spreadConstraint(1, "node", "ScheduleAnyway", fooSelector)
      .spreadConstraint(1, "node", "DoNotSchedule", fooSelector)
      .obj(),
    nodes: threeNodes(),
    existingPods: sevenPods(),
    want: {
      constraints: [tsc(1, "zone", fooSelector), tsc(1, "node", fooSelector)],
      counts: [
        { zone1: 3, zone2: 4 },
        { "node-a": 2, "node-b": 1, "node-y": 4 },
      ],
      paths: paths(
        [
          ["zone1", 3],
          ["zone2", 4],
        ],
        [
          ["node-b", 1],
          ["node-a", 2],
        ],
      ),
    },
  },
  {
    name: "different labelSelectors - simple version",
    pod: makePod()
      .name("p")
      .labels(fooBar)
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
      .spreadConstraint(1, "node", "DoNotSchedule", barSelector)
      .obj(),
    nodes: threeNodes(),
    existingPods: [pod("p-a", "node-a", foo), pod("p-b", "node-b", bar)],
    want: {
      constraints: [tsc(1, "zone", fooSelector), tsc(1, "node", barSelector)],
      counts: [
        { zone1: 1, zone2: 0 },
        { "node-a": 0, "node-b": 1, "node-y": 0 },
      ],
      paths: paths(
        [
          ["zone2", 0],
          ["zone1", 1],
        ],
        [
          ["node-a", 0],
          ["node-y", 0],
        ],
      ),
    },
  },
  {
    name: "different labelSelectors - complex pods",
    pod: makePod()
      .name("p")
      .labels(fooBar)
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
      .spreadConstraint(1, "node", "DoNotSchedule", barSelector)
      .obj(),
    nodes: threeNodes(),
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-a2", "node-a", fooBar),
      pod("p-b1", "node-b", foo),
      pod("p-y1", "node-y", foo),
      pod("p-y2", "node-y", fooBar),
      pod("p-y3", "node-y", foo),
      pod("p-y4", "node-y", fooBar),
    ],
    want: {
      constraints: [tsc(1, "zone", fooSelector), tsc(1, "node", barSelector)],
      counts: [
        { zone1: 3, zone2: 4 },
        { "node-a": 1, "node-b": 0, "node-y": 2 },
      ],
      paths: paths(
        [
          ["zone1", 3],
          ["zone2", 4],
        ],
        [
          ["node-b", 0],
          ["node-a", 1],
        ],
      ),
    },
  },
  {
    name: "two spreadConstraints, and with podAffinity",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .nodeAffinityNotIn("node", ["node-x"]) // exclude node-x
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
      .spreadConstraint(1, "node", "DoNotSchedule", fooSelector)
      .obj(),
    nodes: fourNodes(),
    existingPods: sevenPods(),
    want: {
      constraints: [tsc(1, "zone", fooSelector), tsc(1, "node", fooSelector)],
      counts: [
        { zone1: 3, zone2: 4 },
        { "node-a": 2, "node-b": 1, "node-y": 4 },
      ],
      paths: paths(
        [
          ["zone1", 3],
          ["zone2", 4],
        ],
        [
          ["node-b", 1],
          ["node-a", 2],
        ],
      ),
    },
  },
  {
    name: "default constraints and a service",
    pod: makePod().name("p").label("foo", "bar").label("baz", "kar").obj(),
    defaultConstraints: [
      { maxSkew: 3, topologyKey: "node", whenUnsatisfiable: "DoNotSchedule" },
      { maxSkew: 2, topologyKey: "node", whenUnsatisfiable: "ScheduleAnyway" },
      { maxSkew: 5, topologyKey: "rack", whenUnsatisfiable: "DoNotSchedule" },
    ],
    objs: { services: [makeService().name("svc").selector("foo", "bar").obj()] },
    want: {
      constraints: [
        tsc(3, "node", makeLabelSelector().label("foo", "bar").obj()),
        tsc(5, "rack", makeLabelSelector().label("foo", "bar").obj()),
      ],
      counts: [{}, {}],
      paths: [noPaths, noPaths],
    },
  },
  {
    name: "default constraints and a service that doesn't match",
    pod: makePod().name("p").label("foo", "bar").obj(),
    defaultConstraints: [{ maxSkew: 3, topologyKey: "node", whenUnsatisfiable: "DoNotSchedule" }],
    objs: { services: [makeService().name("svc").selector("baz", "kep").obj()] },
    wantPrefilterStatus: { code: "Skip", reasons: [] },
  },
  {
    name: "default constraints and a service, but pod has constraints",
    pod: makePod()
      .name("p")
      .label("foo", "bar")
      .label("baz", "tar")
      .spreadConstraint(1, "zone", "DoNotSchedule", makeLabelSelector().label("baz", "tar").obj())
      .spreadConstraint(2, "planet", "ScheduleAnyway", makeLabelSelector().label("fot", "rok").obj())
      .obj(),
    defaultConstraints: [{ maxSkew: 2, topologyKey: "node", whenUnsatisfiable: "DoNotSchedule" }],
    objs: { services: [makeService().name("svc").selector("foo", "bar").obj()] },
    want: {
      constraints: [tsc(1, "zone", makeLabelSelector().label("baz", "tar").obj())],
      counts: [{}],
      paths: [noPaths],
    },
  },
  {
    name: "default soft constraints and a service",
    pod: makePod().name("p").label("foo", "bar").obj(),
    defaultConstraints: [{ maxSkew: 2, topologyKey: "node", whenUnsatisfiable: "ScheduleAnyway" }],
    objs: { services: [makeService().name("svc").selector("foo", "bar").obj()] },
    wantPrefilterStatus: { code: "Skip", reasons: [] },
  },
  {
    name: "TpKeyToDomainsNum is calculated when MinDomains is enabled",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
      .spreadConstraint(1, "node", "DoNotSchedule", fooSelector)
      .obj(),
    nodes: fourNodes(),
    existingPods: sevenPods(),
    want: {
      constraints: [tsc(1, "zone", fooSelector), tsc(1, "node", fooSelector)],
      counts: [
        { zone1: 3, zone2: 4 },
        { "node-a": 2, "node-b": 1, "node-x": 0, "node-y": 4 },
      ],
      paths: paths(
        [
          ["zone1", 3],
          ["zone2", 4],
        ],
        [
          ["node-x", 0],
          ["node-b", 1],
        ],
      ),
    },
  },
  {
    name: "feature gate disabled with NodeAffinityPolicy",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .nodeSelector({ foo: "" })
      .spreadConstraint(1, "node", "DoNotSchedule", barSelector)
      .obj(),
    nodes: inclusionNodes(),
    existingPods: inclusionPods(),
    want: {
      constraints: [tsc(1, "node", barSelector)],
      counts: [{ "node-a": 1, "node-b": 2 }],
      paths: paths([
        ["node-a", 1],
        ["node-b", 2],
      ]),
    },
    enableNodeInclusionPolicy: false,
  },
  {
    name: "NodeAffinityPolicy honored with labelSelectors",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .nodeSelector({ foo: "" })
      .spreadConstraint(1, "node", "DoNotSchedule", barSelector)
      .obj(),
    nodes: inclusionNodes(),
    existingPods: inclusionPods(),
    want: {
      constraints: [tsc(1, "node", barSelector)],
      counts: [{ "node-a": 1, "node-b": 2 }],
      paths: paths([
        ["node-a", 1],
        ["node-b", 2],
      ]),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "NodeAffinityPolicy ignored with labelSelectors",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .nodeSelector({ foo: "" })
      .spreadConstraint(1, "node", "DoNotSchedule", barSelector, null, "Ignore")
      .obj(),
    nodes: inclusionNodes(),
    existingPods: inclusionPods(),
    want: {
      constraints: [tsc(1, "node", barSelector, { nodeAffinityPolicy: "Ignore" })],
      counts: [{ "node-a": 1, "node-b": 2, "node-c": 0 }],
      paths: paths([
        ["node-c", 0],
        ["node-a", 1],
      ]),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "NodeAffinityPolicy honored with nodeAffinity",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .nodeAffinityIn("foo", [""])
      .spreadConstraint(1, "node", "DoNotSchedule", barSelector)
      .obj(),
    nodes: inclusionNodes(),
    existingPods: [
      pod("p-a", "node-a", bar),
      pod("p-c", "node-b", bar),
      pod("p-d", "node-b", bar),
      pod("p-e", "node-c"),
    ],
    want: {
      constraints: [tsc(1, "node", barSelector)],
      counts: [{ "node-a": 1, "node-b": 2 }],
      paths: paths([
        ["node-a", 1],
        ["node-b", 2],
      ]),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "NodeAffinityPolicy ignored with nodeAffinity",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .nodeAffinityIn("foo", [""])
      .spreadConstraint(1, "node", "DoNotSchedule", barSelector, null, "Ignore")
      .obj(),
    nodes: inclusionNodes(),
    existingPods: inclusionPods(),
    want: {
      constraints: [tsc(1, "node", barSelector, { nodeAffinityPolicy: "Ignore" })],
      counts: [{ "node-a": 1, "node-b": 2, "node-c": 0 }],
      paths: paths([
        ["node-c", 0],
        ["node-a", 1],
      ]),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "feature gate disabled with NodeTaintsPolicy",
    pod: makePod().name("p").label("foo", "").spreadConstraint(1, "node", "DoNotSchedule", barSelector).obj(),
    nodes: taintNodes(),
    existingPods: inclusionPods(),
    want: {
      constraints: [tsc(1, "node", barSelector)],
      counts: [{ "node-a": 1, "node-b": 2, "node-c": 0 }],
      paths: paths([
        ["node-c", 0],
        ["node-a", 1],
      ]),
    },
    enableNodeInclusionPolicy: false,
  },
  {
    name: "NodeTaintsPolicy ignored",
    pod: makePod().name("p").label("foo", "").spreadConstraint(1, "node", "DoNotSchedule", barSelector).obj(),
    nodes: taintNodes(),
    existingPods: inclusionPods(),
    want: {
      constraints: [tsc(1, "node", barSelector)],
      counts: [{ "node-a": 1, "node-b": 2, "node-c": 0 }],
      paths: paths([
        ["node-c", 0],
        ["node-a", 1],
      ]),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "NodeTaintsPolicy honored",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "node", "DoNotSchedule", barSelector, null, null, "Honor")
      .obj(),
    nodes: taintNodes(),
    existingPods: inclusionPods(),
    want: {
      constraints: [tsc(1, "node", barSelector, { nodeTaintsPolicy: "Honor" })],
      counts: [{ "node-a": 1, "node-b": 2 }],
      paths: paths([
        ["node-a", 1],
        ["node-b", 2],
      ]),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "NodeTaintsPolicy honored with tolerated taints",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .toleration("node.kubernetes.io/unschedulable")
      .spreadConstraint(1, "node", "DoNotSchedule", barSelector, null, null, "Honor")
      .obj(),
    nodes: taintNodes(),
    existingPods: inclusionPods(),
    want: {
      constraints: [tsc(1, "node", barSelector, { nodeTaintsPolicy: "Honor" })],
      counts: [{ "node-a": 1, "node-b": 2, "node-c": 0 }],
      paths: paths([
        ["node-c", 0],
        ["node-a", 1],
      ]),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .nodeSelector({ foo: "" })
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
      .spreadConstraint(1, "node", "DoNotSchedule", fooSelector, null, "Ignore")
      .obj(),
    nodes: [
      node("node-a", { zone: "zone1", node: "node-a", foo: "" }),
      zn("node-b", "zone1"),
      node("node-x", { zone: "zone2", node: "node-x", foo: "" }),
    ],
    existingPods: [pod("p-b1", "node-b", foo), pod("p-b2", "node-b", foo), pod("p-x1", "node-x", foo)],
    want: {
      constraints: [
        tsc(1, "zone", fooSelector),
        tsc(1, "node", fooSelector, { nodeAffinityPolicy: "Ignore" }),
      ],
      counts: [
        { zone1: 0, zone2: 1 },
        { "node-a": 0, "node-b": 2, "node-x": 1 },
      ],
      paths: paths(
        [
          ["zone1", 0],
          ["zone2", 1],
        ],
        [
          ["node-a", 0],
          ["node-x", 1],
        ],
      ),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, null, "Honor")
      .spreadConstraint(1, "node", "DoNotSchedule", fooSelector)
      .obj(),
    nodes: [
      node("node-a", { zone: "zone1", node: "node-a", foo: "" }),
      makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").taints(taints).obj(),
      node("node-x", { zone: "zone2", node: "node-x", foo: "" }),
    ],
    existingPods: [pod("p-b1", "node-b", foo), pod("p-b2", "node-b", foo), pod("p-x1", "node-x", foo)],
    want: {
      constraints: [tsc(1, "zone", fooSelector, { nodeTaintsPolicy: "Honor" }), tsc(1, "node", fooSelector)],
      counts: [
        { zone1: 0, zone2: 1 },
        { "node-a": 0, "node-b": 2, "node-x": 1 },
      ],
      paths: paths(
        [
          ["zone1", 0],
          ["zone2", 1],
        ],
        [
          ["node-a", 0],
          ["node-x", 1],
        ],
      ),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .nodeSelector({ foo: "" })
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
      .spreadConstraint(1, "node", "DoNotSchedule", fooSelector)
      .obj(),
    nodes: [
      zn("node-a", "zone1"),
      makeNode()
        .name("node-b")
        .label("zone", "zone1")
        .label("node", "node-b")
        .label("foo", "")
        .taints(taints)
        .obj(),
      node("node-x", { zone: "zone2", node: "node-x", foo: "" }),
      zn("node-y", "zone2"),
    ],
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-a2", "node-a", foo),
      pod("p-x1", "node-x", foo),
      pod("p-y1", "node-y", foo),
    ],
    want: {
      constraints: [tsc(1, "zone", fooSelector), tsc(1, "node", fooSelector)],
      counts: [
        { zone1: 0, zone2: 1 },
        { "node-b": 0, "node-x": 1 },
      ],
      paths: paths(
        [
          ["zone1", 0],
          ["zone2", 1],
        ],
        [
          ["node-b", 0],
          ["node-x", 1],
        ],
      ),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "two node inclusion Constraints, zone: ignore/ignore, node: honor/honor",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .nodeSelector({ foo: "" })
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, "Ignore")
      .spreadConstraint(1, "node", "DoNotSchedule", fooSelector, null, null, "Honor")
      .obj(),
    nodes: [
      zn("node-a", "zone1"),
      makeNode()
        .name("node-b")
        .label("zone", "zone1")
        .label("node", "node-b")
        .label("foo", "")
        .taints(taints)
        .obj(),
      node("node-x", { zone: "zone2", node: "node-x", foo: "" }),
      node("node-y", { zone: "zone2", node: "node-y", foo: "" }),
    ],
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-a2", "node-a", foo),
      pod("p-x1", "node-x", foo),
      pod("p-x2", "node-x", foo),
      pod("p-y1", "node-y", foo),
    ],
    want: {
      constraints: [
        tsc(1, "zone", fooSelector, { nodeAffinityPolicy: "Ignore" }),
        tsc(1, "node", fooSelector, { nodeTaintsPolicy: "Honor" }),
      ],
      counts: [
        { zone1: 2, zone2: 3 },
        { "node-x": 2, "node-y": 1 },
      ],
      paths: paths(
        [
          ["zone1", 2],
          ["zone2", 3],
        ],
        [
          ["node-y", 1],
          ["node-x", 2],
        ],
      ),
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "matchLabelKeys ignored when feature gate disabled",
    pod: makePod()
      .name("p")
      .labels(fooBar)
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, null, null, ["bar"])
      .obj(),
    nodes: fourNodes(),
    existingPods: fivePods(),
    want: {
      constraints: [tsc(1, "zone", fooSelector)],
      counts: [{ zone1: 3, zone2: 2 }],
      paths: paths([
        ["zone2", 2],
        ["zone1", 3],
      ]),
    },
    enableMatchLabelKeys: false,
  },
  {
    name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .label("bar", "a")
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, null, null, ["bar"])
      .obj(),
    nodes: fourNodes(),
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-a2", "node-a", { foo: "", bar: "a" }),
      pod("p-b1", "node-b", foo),
      pod("p-y1", "node-y", { foo: "", bar: "a" }),
      pod("p-y2", "node-y", bar),
    ],
    want: {
      constraints: [tsc(1, "zone", makeLabelSelector().exists("foo").label("bar", "a").obj())],
      counts: [{ zone1: 1, zone2: 1 }],
      paths: paths([
        ["zone2", 1],
        ["zone1", 1],
      ]),
    },
    enableMatchLabelKeys: true,
  },
  {
    name: "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
    pod: makePod()
      .name("p")
      .label("foo", "a")
      .spreadConstraint(1, "zone", "DoNotSchedule", makeLabelSelector().obj(), null, null, null, ["foo"])
      .obj(),
    nodes: fourNodes(),
    existingPods: fiveFooA(),
    want: {
      constraints: [tsc(1, "zone", makeLabelSelector().label("foo", "a").obj())],
      counts: [{ zone1: 3, zone2: 2 }],
      paths: paths([
        ["zone2", 2],
        ["zone1", 3],
      ]),
    },
    enableMatchLabelKeys: true,
  },
  {
    name: "key in matchLabelKeys is ignored when LabelSelector is nil when feature gate enabled",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "DoNotSchedule", null, null, null, null, ["bar"])
      .obj(),
    nodes: fourNodes(),
    existingPods: fiveFooA(),
    want: {
      constraints: [tsc(1, "zone", null)],
      counts: [{ zone1: 0, zone2: 0 }],
      paths: paths([
        ["zone2", 0],
        ["zone1", 0],
      ]),
    },
    enableMatchLabelKeys: true,
  },
  {
    name: "no pod is matched when LabelSelector is nil when feature gate disabled",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "DoNotSchedule", null, null, null, null, ["bar"])
      .obj(),
    nodes: fourNodes(),
    existingPods: fiveFooA(),
    want: {
      constraints: [tsc(1, "zone", null)],
      counts: [{ zone1: 0, zone2: 0 }],
      paths: paths([
        ["zone2", 0],
        ["zone1", 0],
      ]),
    },
  },
  {
    name: "key in matchLabelKeys is ignored when it isn't exist in pod.labels",
    pod: makePod()
      .name("p")
      .label("foo", "")
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, null, null, ["bar"])
      .obj(),
    nodes: fourNodes(),
    existingPods: fiveFooA(),
    want: {
      constraints: [tsc(1, "zone", fooSelector)],
      counts: [{ zone1: 3, zone2: 2 }],
      paths: paths([
        ["zone2", 2],
        ["zone1", 3],
      ]),
    },
    enableMatchLabelKeys: true,
  },
  {
    name: "skip if not specified",
    pod: makePod().name("p").label("foo", "").obj(),
    nodes: [zn("node-a", "zone1")],
    wantPrefilterStatus: { code: "Skip", reasons: [] },
  },
];

function fiveFooA(): Pod[] {
  const a = { foo: "a" };
  return [
    pod("p-a1", "node-a", a),
    pod("p-a2", "node-a", a),
    pod("p-b1", "node-b", a),
    pod("p-y1", "node-y", a),
    pod("p-y2", "node-y", a),
  ];
}

/** The features upstream's filtering tests run with: both gates off unless a case turns them on. */
function testFeatures(tc: {
  enableNodeInclusionPolicy?: boolean;
  enableMatchLabelKeys?: boolean;
}): Partial<Features> {
  return {
    enableNodeInclusionPolicyInPodTopologySpread: tc.enableNodeInclusionPolicy ?? false,
    enableMatchLabelKeysInPodTopologySpread: tc.enableMatchLabelKeys ?? false,
  };
}

describe("TestPreFilterState", () => {
  it.each(preFilterCases)("$name", async (tc) => {
    const s = await setup({
      nodes: tc.nodes,
      pods: tc.existingPods,
      objs: tc.objs,
      args: { defaultingType: "List", defaultConstraints: tc.defaultConstraints ?? [] },
      features: testFeatures(tc),
    });
    const { preFilter, state } = runPreFilterFilter(s, tc.pod);
    expect(statusSummary(preFilter)).toEqual(tc.wantPrefilterStatus ?? { code: "Success", reasons: [] });
    if (preFilter !== null) return;
    expect(summarizePreFilterState(state)).toEqual(tc.want);
  });
});

const nodeConstraint = tsc(1, "node", fooSelector);
const zoneConstraint = tsc(1, "zone", fooSelector);
const nodeBarConstraint = tsc(1, "node", barSelector);
const oneNode = (p: Pod = makePod().name("p").label("foo", "").obj()) => p;
const nodeSpread = () =>
  oneNode(
    makePod().name("p").label("foo", "").spreadConstraint(1, "node", "DoNotSchedule", fooSelector).obj(),
  );
const zoneNodeSpread = (labels: Record<string, string> = foo, nodeSel = fooSelector) =>
  makePod()
    .name("p")
    .labels(labels)
    .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
    .spreadConstraint(1, "node", "DoNotSchedule", nodeSel)
    .obj();
const affinityNodes = () => [
  node("node-a", { zone: "zone1", node: "node-a", foo: "bar" }),
  node("node-b", { zone: "zone2", node: "node-b", foo: "" }),
];
const zoneSpreadNotInBar = () =>
  makePod()
    .name("p")
    .label("foo", "")
    .nodeAffinityNotIn("foo", ["bar"])
    .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
    .obj();
const zoneSpread = () =>
  makePod().name("p").label("foo", "").spreadConstraint(1, "zone", "DoNotSchedule", fooSelector).obj();

interface UpdateCase {
  name: string;
  preemptor: Pod;
  pod: Pod;
  existingPods?: Pod[];
  nodeIdx: number;
  nodes: Node[];
  want: PreFilterStateSummary;
  enableNodeInclusionPolicy?: boolean;
}

const addPodCases: UpdateCase[] = [
  {
    name: "node a and b both impact current min match",
    preemptor: nodeSpread(),
    pod: pod("p-a1", "node-a", foo),
    nodeIdx: 0,
    nodes: [zn("node-a", "zone1"), zn("node-b", "zone1")],
    want: {
      constraints: [nodeConstraint],
      counts: [{ "node-a": 1, "node-b": 0 }],
      paths: paths([
        ["node-b", 0],
        ["node-a", 1],
      ]),
    },
  },
  {
    name: "only node a impacts current min match",
    preemptor: nodeSpread(),
    pod: pod("p-a1", "node-a", foo),
    existingPods: [pod("p-b1", "node-b", foo)],
    nodeIdx: 0,
    nodes: [zn("node-a", "zone1"), zn("node-b", "zone1")],
    want: {
      constraints: [nodeConstraint],
      counts: [{ "node-a": 1, "node-b": 1 }],
      paths: paths([
        ["node-a", 1],
        ["node-b", 1],
      ]),
    },
  },
  {
    name: "add a pod in a different namespace doesn't change topologyKeyToMinPodsMap",
    preemptor: nodeSpread(),
    pod: makePod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
    existingPods: [pod("p-b1", "node-b", foo)],
    nodeIdx: 0,
    nodes: [zn("node-a", "zone1"), zn("node-b", "zone1")],
    want: {
      constraints: [nodeConstraint],
      counts: [{ "node-a": 0, "node-b": 1 }],
      paths: paths([
        ["node-a", 0],
        ["node-b", 1],
      ]),
    },
  },
  {
    name: "add pod on non-critical node won't trigger re-calculation",
    preemptor: nodeSpread(),
    pod: pod("p-b2", "node-b", foo),
    existingPods: [pod("p-b1", "node-b", foo)],
    nodeIdx: 1,
    nodes: [zn("node-a", "zone1"), zn("node-b", "zone1")],
    want: {
      constraints: [nodeConstraint],
      counts: [{ "node-a": 0, "node-b": 2 }],
      paths: paths([
        ["node-a", 0],
        ["node-b", 2],
      ]),
    },
  },
  {
    name: "node a and x both impact topologyKeyToMinPodsMap on zone and node",
    preemptor: zoneNodeSpread(),
    pod: pod("p-a1", "node-a", foo),
    nodeIdx: 0,
    nodes: [zn("node-a", "zone1"), zn("node-x", "zone2")],
    want: {
      constraints: [zoneConstraint, nodeConstraint],
      counts: [
        { zone1: 1, zone2: 0 },
        { "node-a": 1, "node-x": 0 },
      ],
      paths: paths(
        [
          ["zone2", 0],
          ["zone1", 1],
        ],
        [
          ["node-x", 0],
          ["node-a", 1],
        ],
      ),
    },
  },
  {
    name: "only node a impacts topologyKeyToMinPodsMap on zone and node",
    preemptor: zoneNodeSpread(),
    pod: pod("p-a1", "node-a", foo),
    existingPods: [pod("p-x1", "node-x", foo)],
    nodeIdx: 0,
    nodes: [zn("node-a", "zone1"), zn("node-x", "zone2")],
    want: {
      constraints: [zoneConstraint, nodeConstraint],
      counts: [
        { zone1: 1, zone2: 1 },
        { "node-a": 1, "node-x": 1 },
      ],
      paths: paths(
        [
          ["zone1", 1],
          ["zone2", 1],
        ],
        [
          ["node-a", 1],
          ["node-x", 1],
        ],
      ),
    },
  },
  {
    name: "node a impacts topologyKeyToMinPodsMap on node, node x impacts topologyKeyToMinPodsMap on zone",
    preemptor: zoneNodeSpread(),
    pod: pod("p-a1", "node-a", foo),
    existingPods: [pod("p-b1", "node-b", foo), pod("p-b2", "node-b", foo), pod("p-x1", "node-x", foo)],
    nodeIdx: 0,
    nodes: [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2")],
    want: {
      constraints: [zoneConstraint, nodeConstraint],
      counts: [
        { zone1: 3, zone2: 1 },
        { "node-a": 1, "node-b": 2, "node-x": 1 },
      ],
      paths: paths(
        [
          ["zone2", 1],
          ["zone1", 3],
        ],
        [
          ["node-a", 1],
          ["node-x", 1],
        ],
      ),
    },
  },
  {
    name: "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on zone",
    preemptor: zoneNodeSpread(fooBar, barSelector),
    pod: pod("p-a1", "node-a", foo),
    existingPods: [pod("p-b1", "node-b", fooBar), pod("p-x1", "node-x", fooBar), pod("p-x2", "node-x", bar)],
    nodeIdx: 0,
    nodes: [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2")],
    want: {
      constraints: [zoneConstraint, nodeBarConstraint],
      counts: [
        { zone1: 2, zone2: 1 },
        { "node-a": 0, "node-b": 1, "node-x": 2 },
      ],
      paths: paths(
        [
          ["zone2", 1],
          ["zone1", 2],
        ],
        [
          ["node-a", 0],
          ["node-b", 1],
        ],
      ),
    },
  },
  {
    name: "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on both zone and node",
    preemptor: zoneNodeSpread(fooBar, barSelector),
    pod: pod("p-a1", "node-a", fooBar),
    existingPods: [pod("p-b1", "node-b", bar), pod("p-x1", "node-x", fooBar), pod("p-x2", "node-x", bar)],
    nodeIdx: 0,
    nodes: [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2")],
    want: {
      constraints: [zoneConstraint, nodeBarConstraint],
      counts: [
        { zone1: 1, zone2: 1 },
        { "node-a": 1, "node-b": 1, "node-x": 2 },
      ],
      paths: paths(
        [
          ["zone1", 1],
          ["zone2", 1],
        ],
        [
          ["node-a", 1],
          ["node-b", 1],
        ],
      ),
    },
  },
  ...[false, true].map(
    (enabled): UpdateCase => ({
      name: `add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy ${enabled ? "enabled" : "disabled"}`,
      preemptor: zoneSpreadNotInBar(),
      nodeIdx: 0,
      pod: pod("p-a1", "node-a", { foo: "", zone: "zone1" }),
      existingPods: [
        pod("p-a2", "node-a", { foo: "", zone: "zone1" }),
        pod("p-b1", "node-b", { foo: "", zone: "zone2" }),
      ],
      nodes: affinityNodes(),
      want: {
        constraints: [zoneConstraint],
        counts: [{ zone2: 1 }],
        paths: paths([
          ["zone2", 1],
          ["", 2147483647],
        ]),
      },
      enableNodeInclusionPolicy: enabled,
    }),
  ),
  ...[false, true].map(
    (enabled): UpdateCase => ({
      name: `add a pod when scheduling node affinity matched pod with NodeInclusionPolicy ${enabled ? "enabled" : "disabled"}`,
      preemptor: zoneSpread(),
      nodeIdx: 1,
      pod: pod("p-b1", "node-b", { foo: "", zone: "zone2" }),
      existingPods: [
        pod("p-a1", "node-a", { foo: "", zone: "zone1" }),
        pod("p-b2", "node-b", { foo: "", zone: "zone2" }),
      ],
      nodes: affinityNodes(),
      want: {
        constraints: [zoneConstraint],
        counts: [{ zone1: 1, zone2: 2 }],
        paths: paths([
          ["zone1", 1],
          ["zone2", 2],
        ]),
      },
      enableNodeInclusionPolicy: enabled,
    }),
  ),
  {
    name: "add a label selector not matched pod when with NodeInclusionPolicy enabled",
    preemptor: zoneSpread(),
    nodeIdx: 1,
    pod: pod("p-b1", "node-b", { zone: "zone2" }),
    existingPods: [
      pod("p-a1", "node-a", { foo: "", zone: "zone1" }),
      pod("p-b2", "node-b", { foo: "", zone: "zone2" }),
    ],
    nodes: affinityNodes(),
    want: {
      constraints: [zoneConstraint],
      counts: [{ zone1: 1, zone2: 1 }],
      paths: paths([
        ["zone1", 1],
        ["zone2", 1],
      ]),
    },
    enableNodeInclusionPolicy: true,
  },
  ...[false, true].map(
    (enabled): UpdateCase => ({
      name: enabled
        ? "add a pod when scheduling taint tolerated pod with NodeInclusionPolicy enabled"
        : "add a pod when scheduling taint untolerated pod with NodeInclusionPolicy disabled",
      preemptor: enabled
        ? makePod()
            .name("p")
            .label("foo", "")
            .toleration("node.kubernetes.io/unschedulable")
            .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
            .obj()
        : zoneSpread(),
      nodeIdx: 1,
      pod: pod("p-b1", "node-b", { foo: "", zone: "zone2" }),
      existingPods: [
        pod("p-a1", "node-a", { foo: "", zone: "zone1" }),
        pod("p-b2", "node-b", { foo: "", zone: "zone2" }),
      ],
      nodes: [
        makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").taints(taints).obj(),
        zn("node-b", "zone2"),
      ],
      want: {
        constraints: [zoneConstraint],
        counts: [{ zone1: 1, zone2: 2 }],
        paths: paths([
          ["zone1", 1],
          ["zone2", 2],
        ]),
      },
      enableNodeInclusionPolicy: enabled,
    }),
  ),
];

describe("TestPreFilterStateAddPod", () => {
  it.each(addPodCases)("$name", async (tc) => {
    const s = await setup({
      nodes: tc.nodes,
      pods: tc.existingPods,
      args: { defaultingType: "List" },
      features: testFeatures(tc),
    });
    const { preFilter, state } = runPreFilterFilter(s, tc.preemptor);
    expect(preFilter).toBeNull();
    const ni = s.nodeInfos[tc.nodeIdx]!;
    expect(s.plugin.addPod(state, tc.preemptor, new PodInfo(tc.pod), ni)).toBeNull();
    expect(summarizePreFilterState(state)).toEqual(tc.want);
  });
});

interface RemoveCase extends Omit<UpdateCase, "pod"> {
  /** Index into existingPods of the removed pod (upstream defaults to 0); -1 uses deletedPod. */
  deletedPodIdx?: number;
  deletedPod?: Pod;
}

const removePodCases: RemoveCase[] = [
  {
    name: "one spreadConstraint on zone, topologyKeyToMinPodsMap unchanged",
    preemptor: zoneSpread(),
    nodes: [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2")],
    existingPods: [pod("p-a1", "node-a", foo), pod("p-b1", "node-b", foo), pod("p-x1", "node-x", foo)],
    deletedPodIdx: 0,
    nodeIdx: 0,
    want: {
      constraints: [zoneConstraint],
      counts: [{ zone1: 1, zone2: 1 }],
      paths: paths([
        ["zone1", 1],
        ["zone2", 1],
      ]),
    },
  },
  {
    name: "one spreadConstraint on node, topologyKeyToMinPodsMap changed",
    preemptor: zoneSpread(),
    nodes: fourNodes(),
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-b1", "node-b", foo),
      pod("p-x1", "node-x", foo),
      pod("p-y1", "node-y", foo),
    ],
    deletedPodIdx: 0,
    nodeIdx: 0,
    want: {
      constraints: [zoneConstraint],
      counts: [{ zone1: 1, zone2: 2 }],
      paths: paths([
        ["zone1", 1],
        ["zone2", 2],
      ]),
    },
  },
  {
    name: "delete an irrelevant pod won't help",
    preemptor: zoneSpread(),
    nodes: fourNodes(),
    existingPods: [
      pod("p-a0", "node-a", bar),
      pod("p-a1", "node-a", foo),
      pod("p-b1", "node-b", foo),
      pod("p-x1", "node-x", foo),
      pod("p-y1", "node-y", foo),
    ],
    deletedPodIdx: 0,
    nodeIdx: 0,
    want: {
      constraints: [zoneConstraint],
      counts: [{ zone1: 2, zone2: 2 }],
      paths: paths([
        ["zone1", 2],
        ["zone2", 2],
      ]),
    },
  },
  {
    name: "delete a non-existing pod won't help",
    preemptor: zoneSpread(),
    nodes: fourNodes(),
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-b1", "node-b", foo),
      pod("p-x1", "node-x", foo),
      pod("p-y1", "node-y", foo),
    ],
    deletedPodIdx: -1,
    deletedPod: pod("p-a0", "node-a", bar),
    nodeIdx: 0,
    want: {
      constraints: [zoneConstraint],
      counts: [{ zone1: 2, zone2: 2 }],
      paths: paths([
        ["zone1", 2],
        ["zone2", 2],
      ]),
    },
  },
  {
    name: "two spreadConstraints",
    preemptor: zoneNodeSpread(),
    nodes: [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2")],
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-a2", "node-a", foo),
      pod("p-b1", "node-b", foo),
      pod("p-x1", "node-x", foo),
      pod("p-x2", "node-x", foo),
    ],
    deletedPodIdx: 3,
    nodeIdx: 2,
    want: {
      constraints: [zoneConstraint, nodeConstraint],
      counts: [
        { zone1: 3, zone2: 1 },
        { "node-a": 2, "node-b": 1, "node-x": 1 },
      ],
      paths: paths(
        [
          ["zone2", 1],
          ["zone1", 3],
        ],
        [
          ["node-b", 1],
          ["node-x", 1],
        ],
      ),
    },
  },
  ...[false, true].map(
    (enabled): RemoveCase => ({
      name: `remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy ${enabled ? "enabled" : "disabled"}`,
      preemptor: zoneSpreadNotInBar(),
      nodeIdx: 0,
      deletedPod: pod("p-a1", "node-a", { foo: "", zone: "zone1" }),
      existingPods: [
        pod("p-a2", "node-a", { foo: "", zone: "zone1" }),
        pod("p-b1", "node-b", { foo: "", zone: "zone2" }),
      ],
      nodes: affinityNodes(),
      want: {
        constraints: [zoneConstraint],
        counts: [{ zone2: 1 }],
        paths: paths([
          ["zone2", 1],
          ["", 2147483647],
        ]),
      },
      enableNodeInclusionPolicy: enabled,
    }),
  ),
  ...[false, true].map(
    (enabled): RemoveCase => ({
      name: `remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy ${enabled ? "enabled" : "disabled"}`,
      preemptor: zoneSpread(),
      nodeIdx: 1,
      deletedPod: pod("p-b1", "node-b", { foo: "", zone: "zone2" }),
      existingPods: [
        pod("p-a1", "node-a", { foo: "", zone: "zone1" }),
        pod("p-b2", "node-b", { foo: "", zone: "zone2" }),
      ],
      nodes: affinityNodes(),
      want: {
        constraints: [zoneConstraint],
        counts: [{ zone1: 1, zone2: 0 }],
        paths: paths([
          ["zone2", 0],
          ["zone1", 1],
        ]),
      },
      enableNodeInclusionPolicy: enabled,
    }),
  ),
];

describe("TestPreFilterStateRemovePod", () => {
  it.each(removePodCases)("$name", async (tc) => {
    const s = await setup({
      nodes: tc.nodes,
      pods: tc.existingPods,
      args: { defaultingType: "List" },
      features: testFeatures(tc),
    });
    const { preFilter, state } = runPreFilterFilter(s, tc.preemptor);
    expect(preFilter).toBeNull();
    // As upstream: deletedPodIdx (default 0) picks an existing pod when in range.
    const idx = tc.deletedPodIdx ?? 0;
    const existing = tc.existingPods ?? [];
    const deleted = idx >= 0 && idx < existing.length ? existing[idx]! : tc.deletedPod!;
    expect(
      s.plugin.removePod(state, tc.preemptor, new PodInfo(deleted), s.nodeInfos[tc.nodeIdx]!),
    ).toBeNull();
    expect(summarizePreFilterState(state)).toEqual(tc.want);
  });
});

type CodeName = "Success" | "Unschedulable" | "UnschedulableAndUnresolvable";

interface FilterCase {
  name: string;
  pod: Pod;
  nodes: Node[];
  existingPods?: Pod[];
  wantStatusCode: Record<string, CodeName>;
  enableNodeInclusionPolicy?: boolean;
}

async function runFilterCase(tc: FilterCase): Promise<void> {
  const s = await setup({
    nodes: tc.nodes,
    pods: tc.existingPods,
    args: { defaultingType: "List" },
    features: testFeatures(tc),
  });
  const { preFilter, filter } = runPreFilterFilter(s, tc.pod);
  expect(statusSummary(preFilter).code).toBe("Success");
  const got: Record<string, string> = {};
  for (const [name, st] of filter) got[name] = statusSummary(st).code;
  expect(got).toEqual(tc.wantStatusCode);
  for (const st of filter.values()) {
    if (st === null) continue;
    // Reasons are upstream's exact strings.
    expect(st.reasons).toEqual([
      st.code === 2
        ? "node(s) didn't match pod topology spread constraints"
        : "node(s) didn't match pod topology spread constraints (missing required label)",
    ]);
  }
}

const fooPod = (
  c: (p: ReturnType<typeof makePod>) => ReturnType<typeof makePod>,
  labels: Record<string, string> = foo,
): Pod => c(makePod().name("p").labels(labels)).obj();
const allOK = { "node-a": "Success", "node-b": "Success", "node-x": "Success", "node-y": "Success" } as const;
const sixPods = () => [
  pod("p-a1", "node-a", foo),
  pod("p-a2", "node-a", foo),
  pod("p-b1", "node-b", foo),
  pod("p-y1", "node-y", foo),
  pod("p-y2", "node-y", foo),
  pod("p-y3", "node-y", foo),
];

const singleConstraintCases: FilterCase[] = [
  {
    name: "no existing pods",
    pod: fooPod((p) => p.spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)),
    nodes: fourNodes(),
    wantStatusCode: { ...allOK },
  },
  {
    name: "no existing pods, incoming pod doesn't match itself",
    pod: fooPod((p) => p.spreadConstraint(1, "zone", "DoNotSchedule", barSelector)),
    nodes: fourNodes(),
    wantStatusCode: { ...allOK },
  },
  {
    name: "existing pods in a different namespace do not count",
    pod: fooPod((p) => p.spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)),
    nodes: fourNodes(),
    existingPods: [
      makePod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
      makePod().name("p-b1").namespace("ns2").node("node-a").label("foo", "").obj(),
      pod("p-x1", "node-x", foo),
      pod("p-y1", "node-y", foo),
    ],
    wantStatusCode: {
      "node-a": "Success",
      "node-b": "Success",
      "node-x": "Unschedulable",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "existing pods do not match null selector",
    pod: fooPod((p) => p.spreadConstraint(1, "zone", "DoNotSchedule", null)),
    nodes: fourNodes(),
    existingPods: [pod("p-x1", "node-x", foo), pod("p-y1", "node-y", foo)],
    wantStatusCode: { ...allOK },
  },
  {
    name: "pods spread across zones as 3/3, all nodes fit",
    pod: fooPod((p) => p.spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)),
    nodes: fourNodes(),
    existingPods: sixPods(),
    wantStatusCode: { ...allOK },
  },
  {
    name: "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
    pod: fooPod((p) => p.spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)),
    nodes: [
      zn("node-a", "zone1"),
      node("node-b", { zon: "zone1", node: "node-b" }),
      zn("node-x", "zone2"),
      zn("node-y", "zone2"),
    ],
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-b1", "node-b", foo),
      pod("p-x1", "node-x", foo),
      pod("p-y1", "node-y", foo),
    ],
    wantStatusCode: {
      "node-a": "Success",
      "node-b": "UnschedulableAndUnresolvable",
      "node-x": "Unschedulable",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "pod cannot be scheduled as all nodes don't have label 'rack'",
    pod: fooPod((p) => p.spreadConstraint(1, "rack", "DoNotSchedule", fooSelector)),
    nodes: [zn("node-a", "zone1"), zn("node-x", "zone2")],
    wantStatusCode: { "node-a": "UnschedulableAndUnresolvable", "node-x": "UnschedulableAndUnresolvable" },
  },
  {
    name: "pods spread across nodes as 2/1/0/3, only node-x fits",
    pod: fooPod((p) => p.spreadConstraint(1, "node", "DoNotSchedule", fooSelector)),
    nodes: fourNodes(),
    existingPods: sixPods(),
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Unschedulable",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
    pod: fooPod((p) => p.spreadConstraint(2, "node", "DoNotSchedule", fooSelector)),
    nodes: fourNodes(),
    existingPods: sixPods(),
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Success",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
    pod: fooPod((p) => p.spreadConstraint(1, "node", "DoNotSchedule", fooSelector), bar),
    nodes: fourNodes(),
    existingPods: sixPods(),
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Success",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
    pod: fooPod((p) =>
      p
        .nodeAffinityIn("node", ["node-a", "node-y"])
        .spreadConstraint(1, "node", "DoNotSchedule", fooSelector),
    ),
    nodes: fourNodes(),
    existingPods: sixPods(),
    wantStatusCode: {
      "node-a": "Success",
      "node-b": "Success",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "terminating Pods should be excluded",
    pod: fooPod((p) => p.spreadConstraint(1, "node", "DoNotSchedule", fooSelector)),
    nodes: [node("node-a", { node: "node-a" }), node("node-b", { node: "node-b" })],
    existingPods: [
      makePod().name("p-a").node("node-a").label("foo", "").terminating().obj(),
      pod("p-b", "node-b", foo),
    ],
    wantStatusCode: { "node-a": "Success", "node-b": "Unschedulable" },
  },
  {
    name: "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
    pod: fooPod((p) =>
      p.nodeAffinityNotIn("node", ["node-b"]).spreadConstraint(1, "zone", "DoNotSchedule", fooSelector),
    ),
    nodes: fourNodes(),
    existingPods: [pod("p-b1", "node-b", foo), pod("p-b2", "node-b", foo), pod("p-y1", "node-y", foo)],
    wantStatusCode: {
      "node-a": "Success",
      "node-b": "Success",
      "node-x": "Unschedulable",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits",
    pod: fooPod((p) => p.spreadConstraint(2, "node", "DoNotSchedule", fooSelector, 4)),
    nodes: [
      node("node-a", { node: "node-a" }),
      node("node-b", { node: "node-b" }),
      node("node-c", { node: "node-c" }),
    ],
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-a2", "node-a", foo),
      pod("p-b1", "node-b", foo),
      pod("p-b2", "node-b", foo),
      pod("p-c1", "node-c", foo),
    ],
    wantStatusCode: { "node-a": "Unschedulable", "node-b": "Unschedulable", "node-c": "Success" },
  },
  {
    name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit",
    pod: fooPod((p) => p.spreadConstraint(2, "node", "DoNotSchedule", fooSelector, 2)),
    nodes: [
      node("node-a", { node: "node-a" }),
      node("node-b", { node: "node-b" }),
      node("node-c", { node: "node-c" }),
    ],
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-a2", "node-a", foo),
      pod("p-b1", "node-b", foo),
      pod("p-b2", "node-b", foo),
      pod("p-c1", "node-c", foo),
    ],
    wantStatusCode: { "node-a": "Success", "node-b": "Success", "node-c": "Success" },
  },
  {
    name: "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit",
    pod: fooPod((p) => p.spreadConstraint(2, "zone", "DoNotSchedule", fooSelector, 3)),
    nodes: fourNodes(),
    existingPods: [pod("p-b1", "node-a", foo), pod("p-b2", "node-b", foo), pod("p-y1", "node-y", foo)],
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Unschedulable",
      "node-x": "Success",
      "node-y": "Success",
    },
  },
  {
    name: "pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit",
    pod: fooPod((p) => p.spreadConstraint(2, "zone", "DoNotSchedule", fooSelector, 1)),
    nodes: fourNodes(),
    existingPods: [pod("p-b1", "node-a", foo), pod("p-b2", "node-b", foo), pod("p-y1", "node-y", foo)],
    wantStatusCode: { ...allOK },
  },
  ...(
    [
      ["NodeAffinityPolicy honored with labelSelectors", "selector", null, "Success"],
      ["NodeAffinityPolicy ignored with labelSelectors", "selector", "Ignore", "Unschedulable"],
      ["NodeAffinityPolicy honored with nodeAffinity", "affinity", null, "Success"],
      ["NodeAffinityPolicy ignored with labelSelectors", "affinity", "Ignore", "Unschedulable"],
    ] as const
  ).map(
    ([name, how, policy, nodeY]): FilterCase => ({
      name,
      pod: fooPod((p) =>
        (how === "selector" ? p.nodeSelector({ foo: "" }) : p.nodeAffinityIn("foo", [""])).spreadConstraint(
          1,
          "node",
          "DoNotSchedule",
          fooSelector,
          null,
          policy,
        ),
      ),
      nodes: [
        node("node-a", { node: "node-a", foo: "" }),
        node("node-b", { node: "node-b", foo: "" }),
        node("node-x", { node: "node-x", foo: "" }),
        node("node-y", { node: "node-y" }),
      ],
      existingPods: [pod("p-b1", "node-a", foo), pod("p-b2", "node-b", foo), pod("p-y1", "node-y", foo)],
      wantStatusCode: {
        "node-a": "Unschedulable",
        "node-b": "Unschedulable",
        "node-x": "Success",
        "node-y": nodeY,
      },
      enableNodeInclusionPolicy: true,
    }),
  ),
  ...(
    [
      ["NodeTaintsPolicy honored", "Honor", "Success"],
      ["NodeTaintsPolicy ignored", null, "Unschedulable"],
    ] as const
  ).map(
    ([name, policy, nodeY]): FilterCase => ({
      name,
      pod: fooPod((p) => p.spreadConstraint(1, "node", "DoNotSchedule", fooSelector, null, null, policy)),
      nodes: [
        node("node-a", { node: "node-a", foo: "" }),
        node("node-b", { node: "node-b", foo: "" }),
        node("node-x", { node: "node-x", foo: "" }),
        makeNode().name("node-y").label("node", "node-y").taints(taints).obj(),
      ],
      existingPods: [pod("p-b1", "node-a", foo), pod("p-b2", "node-b", foo), pod("p-y1", "node-y", foo)],
      wantStatusCode: {
        "node-a": "Unschedulable",
        "node-b": "Unschedulable",
        "node-x": "Success",
        "node-y": nodeY,
      },
      enableNodeInclusionPolicy: true,
    }),
  ),
];

describe("TestSingleConstraint", () => {
  it.each(singleConstraintCases)("$name", async (tc) => runFilterCase(tc));
});

const zoneNode =
  (labels: Record<string, string> = foo, nodeSel = fooSelector) =>
  (p: ReturnType<typeof makePod>) =>
    p
      .labels(labels)
      .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
      .spreadConstraint(1, "node", "DoNotSchedule", nodeSel);
const taintedY = (extra: Record<string, string> = {}) =>
  makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").labels(extra).taints(taints).obj();
const threePodsABY = () => [
  pod("p-a1", "node-a", foo),
  pod("p-b1", "node-b", foo),
  pod("p-y1", "node-y", foo),
];

const multipleConstraintsCases: FilterCase[] = [
  {
    name: "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
    pod: fooPod(zoneNode()),
    nodes: fourNodes(),
    existingPods: sixPods(),
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Unschedulable",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
    pod: fooPod(zoneNode()),
    nodes: fourNodes(),
    existingPods: [...sixPods(), pod("p-y4", "node-y", foo)],
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Unschedulable",
      "node-x": "Unschedulable",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
    pod: fooPod(zoneNode(fooBar, barSelector)),
    nodes: fourNodes(),
    existingPods: [pod("p-a1", "node-a", foo), pod("p-y1", "node-y", bar)],
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Unschedulable",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
    pod: fooPod(zoneNode(fooBar, barSelector)),
    nodes: fourNodes(),
    existingPods: [pod("p-a1", "node-a", foo), pod("p-x1", "node-x", bar), pod("p-y1", "node-y", bar)],
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Unschedulable",
      "node-x": "Unschedulable",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
    pod: fooPod(zoneNode(fooBar, barSelector)),
    nodes: fourNodes(),
    existingPods: [
      pod("p-a1", "node-a", foo),
      pod("p-a2", "node-a", fooBar),
      pod("p-y1", "node-y", foo),
      pod("p-y2", "node-y", fooBar),
      pod("p-y3", "node-y", foo),
    ],
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Success",
      "node-x": "Unschedulable",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
    pod: fooPod(zoneNode(bar, barSelector), bar),
    nodes: fourNodes(),
    existingPods: [pod("p-a1", "node-a", foo), pod("p-x1", "node-x", bar), pod("p-y1", "node-y", bar)],
    wantStatusCode: {
      "node-a": "Success",
      "node-b": "Success",
      "node-x": "Unschedulable",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
    pod: fooPod(zoneNode()),
    nodes: [
      zn("node-a", "zone1"),
      zn("node-b", "zone1"),
      node("node-x", { zone: "zone2" }),
      zn("node-y", "zone2"),
    ],
    existingPods: [pod("p-a1", "node-a", foo), pod("p-y3", "node-y", foo)],
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Success",
      "node-x": "UnschedulableAndUnresolvable",
      "node-y": "Unschedulable",
    },
  },
  {
    name: "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
    pod: fooPod((p) =>
      p
        .nodeSelector({ foo: "" })
        .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
        .spreadConstraint(1, "node", "DoNotSchedule", fooSelector, null, "Ignore"),
    ),
    nodes: [
      node("node-a", { zone: "zone1", node: "node-a", foo: "" }),
      node("node-b", { zone: "zone1", node: "node-b", foo: "" }),
      node("node-x", { zone: "zone2", node: "node-x", foo: "" }),
      zn("node-y", "zone2"),
    ],
    existingPods: threePodsABY(),
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Unschedulable",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
    pod: fooPod((p) =>
      p
        .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, null, "Honor")
        .spreadConstraint(1, "node", "DoNotSchedule", fooSelector),
    ),
    nodes: [
      node("node-a", { zone: "zone1", node: "node-a", foo: "" }),
      node("node-b", { zone: "zone1", node: "node-b", foo: "" }),
      node("node-x", { zone: "zone2", node: "node-x", foo: "" }),
      taintedY(),
    ],
    existingPods: threePodsABY(),
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Unschedulable",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
    pod: fooPod((p) =>
      p
        .nodeSelector({ foo: "" })
        .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
        .spreadConstraint(1, "node", "DoNotSchedule", fooSelector),
    ),
    nodes: [
      node("node-a", { zone: "zone1", node: "node-a", foo: "" }),
      zn("node-b", "zone1"),
      node("node-x", { zone: "zone2", node: "node-x", foo: "" }),
      taintedY({ foo: "" }),
    ],
    existingPods: threePodsABY(),
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Success",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
    enableNodeInclusionPolicy: true,
  },
  {
    name: "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore",
    pod: fooPod((p) =>
      p
        .nodeSelector({ foo: "" })
        .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, null, "Honor")
        .spreadConstraint(1, "node", "DoNotSchedule", fooSelector, null, "Ignore"),
    ),
    nodes: [
      node("node-a", { zone: "zone1", node: "node-a", foo: "" }),
      zn("node-b", "zone1"),
      node("node-x", { zone: "zone2", node: "node-x", foo: "" }),
      taintedY({ foo: "" }),
    ],
    existingPods: threePodsABY(),
    wantStatusCode: {
      "node-a": "Unschedulable",
      "node-b": "Unschedulable",
      "node-x": "Success",
      "node-y": "Unschedulable",
    },
    enableNodeInclusionPolicy: true,
  },
];

describe("TestMultipleConstraints", () => {
  it.each(multipleConstraintsCases)("$name", async (tc) => runFilterCase(tc));
});

describe("TestPreFilterDisabled", () => {
  it("Filter without PreFilter is an error", async () => {
    const s = await setup({ args: { defaultingType: "List" } });
    const ni = buildNodeInfos([{ metadata: {} }])[0]!;
    const st = s.plugin.filter(new CycleState(), {}, ni);
    expect(statusSummary(st)).toEqual({
      code: "Error",
      reasons: ['reading "PreFilterPodTopologySpread" from cycleState: not found'],
    });
  });
});
