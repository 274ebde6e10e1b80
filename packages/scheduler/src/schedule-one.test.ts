// upstream: pkg/scheduler/schedule_one_test.go — tables ported through the real engine (queue,
// cache, framework) with fake plugins; the cluster is a FakeSource (fake-source.test-util.ts).
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from "@kubesched/api";
import {
  Code,
  CycleState,
  definePlugin,
  type Extender,
  type ExtenderFilterResult,
  FitError,
  type NodeInfo,
  type NodePluginScores,
  NominatingMode,
  PodInfo,
  PodsToActivate,
  Status,
  seededRandom,
} from "@kubesched/framework";
import { makeNode, makePod, makePV, makePVC } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { ExplainRecorder } from "./explain";
import {
  ErrReasonFake,
  equalPrioritizer,
  fakeFilter,
  fakePermit,
  fakePreBind,
  fakePreFilter,
  fakePreFilterAndFilter,
  fakePreScoreAndScore,
  fakeReserve,
  falseFilter,
  falseMap,
  matchFilter,
  newTestScheduler,
  node2Prioritizer,
  noPodsFilter,
  numericMap,
  type PluginLists,
  profile,
  reverseNumericMap,
  trueFilter,
  trueMap,
} from "./fake-source.test-util";
import { handleSchedulingFailure, numFeasibleNodesToFind, selectHost } from "./schedule-one";
import { schedulerState } from "./scheduler";

const hostNode = (name: string): Node => makeNode().name(name).label("kubernetes.io/hostname", name).obj();
const nodeList = (names: string[]): Node[] => names.map((n) => makeNode().name(n).obj());
const pod = (name: string): Pod => makePod().name(name).uid(name).obj();

interface StatusView {
  code: Code;
  reasons: string[];
  plugin: string;
}
const view = (s: Status): StatusView => ({ code: s.code, reasons: s.getReasons(), plugin: s.plugin });
const st = (code: Code, reason: string | null, plugin = ""): StatusView => ({
  code,
  reasons: reason === null ? [] : [reason],
  plugin,
});

interface DiagnosisView {
  nodeToStatus: Record<string, StatusView>;
  absent: StatusView;
  unschedulablePlugins: string[];
  preFilterMsg: string;
}
function diagnosisOf(err: FitError): DiagnosisView {
  const m: Record<string, StatusView> = {};
  err.diagnosis.nodeToStatus.forEachExplicitNode((n, s) => {
    m[n] = view(s);
  });
  return {
    nodeToStatus: m,
    absent: view(err.diagnosis.nodeToStatus.absentNodesStatus),
    unschedulablePlugins: [...err.diagnosis.unschedulablePlugins].sort(),
    preFilterMsg: err.diagnosis.preFilterMsg,
  };
}
function fitErrorOf(status: Status): FitError {
  const e = status.err;
  if (!(e instanceof FitError)) throw new Error(`expected a FitError, got ${status.message()}`);
  return e;
}

describe("TestNumFeasibleNodesToFind", () => {
  const cases: { name: string; global?: number; profile?: number; numAllNodes: number; want: number }[] = [
    { name: "not set percentageOfNodesToScore and nodes number not more than 50", numAllNodes: 10, want: 10 },
    {
      name: "set profile percentageOfNodesToScore and nodes number not more than 50",
      profile: 40,
      numAllNodes: 10,
      want: 10,
    },
    { name: "not set percentageOfNodesToScore and nodes number more than 50", numAllNodes: 1000, want: 420 },
    {
      name: "set profile percentageOfNodesToScore and nodes number more than 50",
      profile: 40,
      numAllNodes: 1000,
      want: 400,
    },
    {
      name: "set global and profile percentageOfNodesToScore and nodes number more than 50",
      global: 100,
      profile: 40,
      numAllNodes: 1000,
      want: 400,
    },
    {
      name: "set global percentageOfNodesToScore and nodes number more than 50",
      global: 40,
      numAllNodes: 1000,
      want: 400,
    },
    {
      name: "not set profile percentageOfNodesToScore and nodes number more than 50*125",
      numAllNodes: 6000,
      want: 300,
    },
    {
      name: "set profile percentageOfNodesToScore and nodes number more than 50*125",
      profile: 40,
      numAllNodes: 6000,
      want: 2400,
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      expect(numFeasibleNodesToFind(tc.profile ?? null, tc.global ?? 0, tc.numAllNodes)).toBe(tc.want);
    });
  }
  it("never fewer than 100 nodes once there are 100", () => {
    expect(numFeasibleNodesToFind(1, 0, 150)).toBe(100);
    expect(numFeasibleNodesToFind(null, 0, 99)).toBe(99);
    expect(numFeasibleNodesToFind(null, 0, 100)).toBe(100);
  });
});

// ---------------------------------------------------------------------------------------------

interface SchedulePodCase {
  name: string;
  plugins: PluginLists;
  descriptors: Parameters<typeof newTestScheduler>[0]["plugins"];
  extenders?: Extender[];
  nodes: Node[];
  pods?: Pod[];
  pvcs?: PersistentVolumeClaim[];
  pvs?: PersistentVolume[];
  pod: Pod;
  wantNodes?: string[];
  /** Nodes whose Filter ran (upstream wantEvaluatedNodes, observed through the explain trace). */
  wantFilteredNodes?: number;
  wantFit?: DiagnosisView & { message?: string };
  wantError?: string;
}

/** A port of tf.FakeExtender: per-node predicates, weighted prioritizers. */
type Predicate = (pod: Pod, node: NodeInfo) => Status | null;
const truePredicate: Predicate = () => null;
const falsePredicate: Predicate = (_p, n) =>
  new Status(Code.Unschedulable, `pod is unschedulable on the node "${n.nodeName}"`);
const errorPredicate: Predicate = () => new Status(Code.Error, "some error");
const node1Prioritizer = (nodes: NodeInfo[]) =>
  new Map(nodes.map((n) => [n.nodeName, n.nodeName === "node1" ? 10 : 1] as const));
const node2PrioritizerExt = (nodes: NodeInfo[]) =>
  new Map(nodes.map((n) => [n.nodeName, n.nodeName === "node2" ? 10 : 1] as const));

class FakeExtender implements Extender {
  filterCalls = 0;
  constructor(
    readonly opts: {
      name: string;
      predicates?: Predicate[];
      prioritizers?: { weight: number; fn: (nodes: NodeInfo[]) => Map<string, number> }[];
      weight?: number;
      ignorable?: boolean;
      interested?: (pod: Pod) => boolean;
      binder?: boolean;
      /** bind() fails (upstream fakeExtender.errBind). */
      errBind?: boolean;
    },
  ) {}
  gotBind = false;
  name() {
    return this.opts.name;
  }
  isIgnorable() {
    return this.opts.ignorable === true;
  }
  isInterested(pod: Pod) {
    return this.opts.interested ? this.opts.interested(pod) : true;
  }
  isFilter() {
    return (this.opts.predicates ?? []).length > 0;
  }
  isPrioritizer() {
    return (this.opts.prioritizers ?? []).length > 0;
  }
  isBinder() {
    return this.opts.binder === true;
  }
  supportsPreemption() {
    return false;
  }
  async filter(pod: Pod, nodes: NodeInfo[]): Promise<ExtenderFilterResult> {
    this.filterCalls++;
    const out: NodeInfo[] = [];
    const failed = new Map<string, string>();
    const unresolvable = new Map<string, string>();
    for (const n of nodes) {
      let status: Status | null = null;
      for (const p of this.opts.predicates ?? []) {
        status = p(pod, n);
        if (status && status.code !== Code.Success) break;
      }
      if (!status || status.code === Code.Success) out.push(n);
      else if (status.code === Code.Error) throw new Error(status.message());
      else if (status.code === Code.Unschedulable)
        failed.set(n.nodeName, `FakeExtender: node "${n.nodeName}" failed`);
      else unresolvable.set(n.nodeName, `FakeExtender: node "${n.nodeName}" failed and unresolvable`);
    }
    return { nodes: out, failedNodes: failed, failedAndUnresolvableNodes: unresolvable };
  }
  async prioritize(_pod: Pod, nodes: NodeInfo[]) {
    const scores = new Map<string, number>();
    for (const p of this.opts.prioritizers ?? []) {
      for (const [n, s] of p.fn(nodes)) scores.set(n, (scores.get(n) ?? 0) + s * p.weight);
    }
    return { scores, weight: this.opts.weight ?? 1 };
  }
  async bind() {
    if (this.opts.errBind) throw new Error("bind error");
    this.gotBind = true;
  }
  async processPreemption(): Promise<Map<string, { pods: Pod[]; numPDBViolations: number }>> {
    return new Map();
  }
}

async function runSchedulePod(tc: SchedulePodCase) {
  const explain = new ExplainRecorder();
  const ts = await newTestScheduler({
    plugins: tc.descriptors,
    profiles: [profile(tc.plugins)],
    nodes: tc.nodes,
    pods: tc.pods ?? [],
    extenders: tc.extenders ?? [],
    explain,
  });
  for (const pvc of tc.pvcs ?? []) ts.source.store.persistentVolumeClaims.add(pvc);
  for (const pv of tc.pvs ?? []) ts.source.store.persistentVolumes.add(pv);
  await ts.schedule(tc.pod);
  return { ts, explain };
}

const fitError = (
  nodeToStatus: Record<string, StatusView>,
  unschedulablePlugins: string[],
  opts: { absent?: StatusView; preFilterMsg?: string; message?: string } = {},
): DiagnosisView & { message?: string } => ({
  nodeToStatus,
  absent: opts.absent ?? st(Code.UnschedulableAndUnresolvable, null),
  unschedulablePlugins: [...unschedulablePlugins].sort(),
  preFilterMsg: opts.preFilterMsg ?? "",
  ...(opts.message ? { message: opts.message } : {}),
});

const U = Code.Unschedulable;
const UAU = Code.UnschedulableAndUnresolvable;

/** A claim bound to `volumeName`, annotated bind-completed as upstream's test loop does for every claim. */
const boundClaim = (name: string, volumeName: string): PersistentVolumeClaim =>
  makePVC()
    .name(name)
    .uid(name)
    .namespace("default")
    .volumeName(volumeName)
    .annotation("pv.kubernetes.io/bind-completed", "true")
    .obj();

const schedulePodCases: SchedulePodCase[] = [
  {
    name: "test 1",
    descriptors: [falseFilter],
    plugins: { filter: ["FalseFilter"] },
    nodes: [hostNode("node1"), hostNode("node2")],
    pod: pod("2"),
    wantFit: fitError(
      { node1: st(U, ErrReasonFake, "FalseFilter"), node2: st(U, ErrReasonFake, "FalseFilter") },
      ["FalseFilter"],
      { message: "0/2 nodes are available: 2 Nodes failed the fake plugin." },
    ),
  },
  {
    name: "test 2",
    descriptors: [trueFilter, equalPrioritizer],
    plugins: { filter: ["TrueFilter"], score: [{ name: "EqualPrioritizerPlugin", weight: 1 }] },
    nodes: [hostNode("node1"), hostNode("node2")],
    pod: pod("ignore"),
    wantNodes: ["node1", "node2"],
    wantFilteredNodes: 2,
  },
  {
    // Fits on a node where the pod ID matches the node name
    name: "test 3",
    descriptors: [matchFilter],
    plugins: { filter: ["MatchFilter"] },
    nodes: [hostNode("node1"), hostNode("node2")],
    pod: pod("node2"),
    wantNodes: ["node2"],
    wantFilteredNodes: 2,
  },
  {
    name: "test 4",
    descriptors: [trueFilter, numericMap],
    plugins: { filter: ["TrueFilter"], score: [{ name: "NumericMap", weight: 1 }] },
    nodes: [hostNode("3"), hostNode("2"), hostNode("1")],
    pod: pod("ignore"),
    wantNodes: ["3"],
    wantFilteredNodes: 3,
  },
  {
    name: "test 5",
    descriptors: [matchFilter, numericMap],
    plugins: { filter: ["MatchFilter"], score: [{ name: "NumericMap", weight: 1 }] },
    nodes: [hostNode("3"), hostNode("2"), hostNode("1")],
    pod: pod("2"),
    wantNodes: ["2"],
    wantFilteredNodes: 3,
  },
  {
    name: "test 6",
    descriptors: [trueFilter, numericMap, reverseNumericMap],
    plugins: {
      filter: ["TrueFilter"],
      score: [
        { name: "NumericMap", weight: 1 },
        { name: "ReverseNumericMap", weight: 2 },
      ],
    },
    nodes: [hostNode("3"), hostNode("2"), hostNode("1")],
    pod: pod("2"),
    wantNodes: ["1"],
    wantFilteredNodes: 3,
  },
  {
    name: "test 7",
    descriptors: [trueFilter, falseFilter, numericMap],
    plugins: { filter: ["TrueFilter", "FalseFilter"], score: [{ name: "NumericMap", weight: 1 }] },
    nodes: [hostNode("3"), hostNode("2"), hostNode("1")],
    pod: pod("2"),
    wantFit: fitError(
      {
        "3": st(U, ErrReasonFake, "FalseFilter"),
        "2": st(U, ErrReasonFake, "FalseFilter"),
        "1": st(U, ErrReasonFake, "FalseFilter"),
      },
      ["FalseFilter"],
    ),
  },
  {
    name: "test 8",
    descriptors: [noPodsFilter, matchFilter, numericMap],
    plugins: { filter: ["NoPodsFilter", "MatchFilter"], score: [{ name: "NumericMap", weight: 1 }] },
    pods: [makePod().name("2").uid("2").node("2").phase("Running").obj()],
    pod: pod("2"),
    nodes: [hostNode("1"), hostNode("2")],
    wantFit: fitError(
      { "1": st(U, ErrReasonFake, "MatchFilter"), "2": st(U, ErrReasonFake, "NoPodsFilter") },
      ["MatchFilter", "NoPodsFilter"],
    ),
  },
  {
    // Pod with existing PVC
    name: "existing PVC",
    descriptors: [trueFilter, equalPrioritizer],
    plugins: { preFilter: ["VolumeBinding"], filter: ["TrueFilter"], score: ["EqualPrioritizerPlugin"] },
    nodes: [hostNode("node1"), hostNode("node2")],
    pvcs: [boundClaim("existingPVC", "existingPV")],
    pvs: [makePV().name("existingPV").obj()],
    pod: makePod().name("ignore").uid("ignore").namespace("default").pvc("existingPVC").obj(),
    wantNodes: ["node1", "node2"],
  },
  {
    // Pod with non existing PVC
    name: "unknown PVC",
    descriptors: [trueFilter],
    plugins: { preFilter: ["VolumeBinding"], filter: ["TrueFilter"] },
    nodes: [hostNode("node1"), hostNode("node2")],
    pod: makePod().name("ignore").uid("ignore").namespace("default").pvc("unknownPVC").obj(),
    wantFit: fitError({}, ["VolumeBinding"], {
      absent: st(UAU, 'persistentvolumeclaim "unknownPVC" not found', "VolumeBinding"),
      preFilterMsg: 'persistentvolumeclaim "unknownPVC" not found',
    }),
  },
  {
    // Pod with deleting PVC
    name: "deleted PVC",
    descriptors: [trueFilter],
    plugins: { preFilter: ["VolumeBinding"], filter: ["TrueFilter"] },
    nodes: [hostNode("node1"), hostNode("node2")],
    pvcs: [
      {
        ...makePVC().name("existingPVC").uid("existingPVC").namespace("default").obj(),
        metadata: {
          name: "existingPVC",
          uid: "existingPVC",
          namespace: "default",
          deletionTimestamp: "1970-01-01T00:00:00Z",
          annotations: { "pv.kubernetes.io/bind-completed": "true" },
        },
      },
    ],
    pod: makePod().name("ignore").uid("ignore").namespace("default").pvc("existingPVC").obj(),
    wantFit: fitError({}, ["VolumeBinding"], {
      absent: st(UAU, 'persistentvolumeclaim "existingPVC" is being deleted', "VolumeBinding"),
      preFilterMsg: 'persistentvolumeclaim "existingPVC" is being deleted',
    }),
  },
  {
    name: "test error with priority map",
    descriptors: [trueFilter, falseMap, trueMap],
    plugins: {
      filter: ["TrueFilter"],
      score: [
        { name: "FalseMap", weight: 1 },
        { name: "TrueMap", weight: 2 },
      ],
    },
    nodes: [hostNode("2"), hostNode("1")],
    pod: makePod().name("2").obj(),
    wantError: 'running Score plugins: plugin "FalseMap" failed with: priority map encounters an error',
  },
  {
    name: "test podtopologyspread plugin - 2 nodes with maxskew=1",
    descriptors: [],
    plugins: { preFilter: ["PodTopologySpread"], filter: ["PodTopologySpread"] },
    nodes: [hostNode("node1"), hostNode("node2")],
    pod: makePod()
      .name("p")
      .uid("p")
      .label("foo", "")
      .spreadConstraint(1, "kubernetes.io/hostname", "DoNotSchedule", {
        matchExpressions: [{ key: "foo", operator: "Exists" }],
      })
      .obj(),
    pods: [makePod().name("pod1").uid("pod1").label("foo", "").node("node1").phase("Running").obj()],
    wantNodes: ["node2"],
  },
  {
    name: "test podtopologyspread plugin - 3 nodes with maxskew=2",
    descriptors: [equalPrioritizer],
    plugins: {
      preFilter: ["PodTopologySpread"],
      filter: ["PodTopologySpread"],
      score: [{ name: "EqualPrioritizerPlugin", weight: 1 }],
    },
    nodes: [hostNode("node1"), hostNode("node2"), hostNode("node3")],
    pod: makePod()
      .name("p")
      .uid("p")
      .label("foo", "")
      .spreadConstraint(2, "kubernetes.io/hostname", "DoNotSchedule", {
        matchExpressions: [{ key: "foo", operator: "Exists" }],
      })
      .obj(),
    pods: [
      makePod().name("pod1a").uid("pod1a").label("foo", "").node("node1").phase("Running").obj(),
      makePod().name("pod1b").uid("pod1b").label("foo", "").node("node1").phase("Running").obj(),
      makePod().name("pod2").uid("pod2").label("foo", "").node("node2").phase("Running").obj(),
    ],
    wantNodes: ["node2", "node3"],
  },
  {
    name: "test with filter plugin returning Unschedulable status",
    descriptors: [fakeFilter("FakeFilter", { "3": U }), numericMap],
    plugins: { filter: ["FakeFilter"], score: [{ name: "NumericMap", weight: 1 }] },
    nodes: [hostNode("3")],
    pod: pod("test-filter"),
    wantFit: fitError({ "3": st(U, "injecting failure for pod test-filter", "FakeFilter") }, ["FakeFilter"]),
  },
  {
    name: "test with extender which filters out some Nodes",
    descriptors: [fakeFilter("FakeFilter", { "3": U }), numericMap],
    plugins: { filter: ["FakeFilter"], score: [{ name: "NumericMap", weight: 1 }] },
    extenders: [new FakeExtender({ name: "FakeExtender1", predicates: [falsePredicate] })],
    nodes: [hostNode("1"), hostNode("2"), hostNode("3")],
    pod: pod("test-filter"),
    wantFit: fitError(
      {
        "1": st(U, 'FakeExtender: node "1" failed'),
        "2": st(U, 'FakeExtender: node "2" failed'),
        "3": st(U, "injecting failure for pod test-filter", "FakeFilter"),
      },
      ["FakeFilter", "Extender"],
    ),
  },
  {
    name: "test with filter plugin returning UnschedulableAndUnresolvable status",
    descriptors: [fakeFilter("FakeFilter", { "3": UAU }), numericMap],
    plugins: { filter: ["FakeFilter"], score: [{ name: "NumericMap", weight: 1 }] },
    nodes: [hostNode("3")],
    pod: pod("test-filter"),
    wantFit: fitError({ "3": st(UAU, "injecting failure for pod test-filter", "FakeFilter") }, [
      "FakeFilter",
    ]),
  },
  {
    name: "test with partial failed filter plugin",
    descriptors: [fakeFilter("FakeFilter", { "1": U }), numericMap],
    plugins: { filter: ["FakeFilter"], score: [{ name: "NumericMap", weight: 1 }] },
    nodes: [hostNode("1"), hostNode("2")],
    pod: pod("test-filter"),
    wantNodes: ["2"],
    wantFilteredNodes: 2,
  },
  {
    name: "test prefilter plugin returning Unschedulable status",
    descriptors: [fakePreFilter("FakePreFilter", null, new Status(UAU, "injected unschedulable status"))],
    plugins: { preFilter: ["FakePreFilter"] },
    nodes: [hostNode("1"), hostNode("2")],
    pod: pod("test-prefilter"),
    wantFit: fitError({}, ["FakePreFilter"], {
      absent: st(UAU, "injected unschedulable status", "FakePreFilter"),
      preFilterMsg: "injected unschedulable status",
      message: "0/2 nodes are available: injected unschedulable status.",
    }),
  },
  {
    name: "test prefilter plugin returning error status",
    descriptors: [fakePreFilter("FakePreFilter", null, new Status(Code.Error, "injected error status"))],
    plugins: { preFilter: ["FakePreFilter"] },
    nodes: [hostNode("1"), hostNode("2")],
    pod: pod("test-prefilter"),
    wantError: 'running PreFilter plugin "FakePreFilter": injected error status',
  },
  {
    name: "test prefilter plugin returning node",
    descriptors: [
      fakePreFilter("FakePreFilter1", null, null),
      fakePreFilter("FakePreFilter2", { nodeNames: new Set(["node2"]) }, null),
      fakePreFilter("FakePreFilter3", { nodeNames: new Set(["node1", "node2"]) }, null),
    ],
    plugins: { preFilter: ["FakePreFilter1", "FakePreFilter2", "FakePreFilter3"] },
    nodes: [hostNode("node1"), hostNode("node2"), hostNode("node3")],
    pod: pod("test-prefilter"),
    wantNodes: ["node2"],
  },
  {
    name: "test prefilter plugin returning non-intersecting nodes",
    descriptors: [
      fakePreFilter("FakePreFilter1", null, null),
      fakePreFilter("FakePreFilter2", { nodeNames: new Set(["node2"]) }, null),
      fakePreFilter("FakePreFilter3", { nodeNames: new Set(["node1"]) }, null),
    ],
    plugins: { preFilter: ["FakePreFilter1", "FakePreFilter2", "FakePreFilter3"] },
    nodes: [hostNode("node1"), hostNode("node2"), hostNode("node3")],
    pod: pod("test-prefilter"),
    wantFit: fitError({}, ["FakePreFilter2", "FakePreFilter3"], {
      absent: st(UAU, "node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3] simultaneously"),
      preFilterMsg: "node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3] simultaneously",
    }),
  },
  {
    name: "test prefilter plugin returning empty node set",
    descriptors: [
      fakePreFilter("FakePreFilter1", null, null),
      fakePreFilter("FakePreFilter2", { nodeNames: new Set() }, null),
    ],
    plugins: { preFilter: ["FakePreFilter1", "FakePreFilter2"] },
    nodes: [hostNode("node1")],
    pod: pod("test-prefilter"),
    wantFit: fitError({}, ["FakePreFilter2"], {
      absent: st(UAU, "node(s) didn't satisfy plugin FakePreFilter2"),
      preFilterMsg: "node(s) didn't satisfy plugin FakePreFilter2",
    }),
  },
  {
    name: "test some nodes are filtered out by prefilter plugin and other are filtered out by filter plugin",
    descriptors: [
      fakePreFilter("FakePreFilter", { nodeNames: new Set(["node2"]) }, null),
      fakeFilter("FakeFilter", { node2: U }),
    ],
    plugins: { preFilter: ["FakePreFilter"], filter: ["FakeFilter"] },
    nodes: [hostNode("node1"), hostNode("node2")],
    pod: pod("test-prefilter"),
    wantFit: fitError(
      { node2: st(U, "injecting failure for pod test-prefilter", "FakeFilter") },
      ["FakePreFilter", "FakeFilter"],
      {
        absent: st(UAU, "node(s) didn't satisfy plugin(s) [FakePreFilter]"),
        message:
          "0/2 nodes are available: 1 injecting failure for pod test-prefilter, 1 node(s) didn't satisfy plugin(s) [FakePreFilter].",
      },
    ),
  },
  {
    name: "test prefilter plugin returning skip",
    descriptors: [
      fakePreFilter("FakePreFilter1", null, null),
      fakeFilter("FakeFilter1", { node1: U }),
      // Its Filter must not run (Skip at PreFilter): it would return Error on every node.
      fakePreFilterAndFilter("FakeFilter2", new Status(Code.Skip), {
        node1: Code.Error,
        node2: Code.Error,
        node3: Code.Error,
      }),
      equalPrioritizer,
    ],
    plugins: {
      preFilter: ["FakePreFilter1", "FakeFilter2"],
      filter: ["FakeFilter1", "FakeFilter2"],
      score: [{ name: "EqualPrioritizerPlugin", weight: 1 }],
    },
    nodes: [hostNode("node1"), hostNode("node2"), hostNode("node3")],
    pod: pod("test-prefilter"),
    wantNodes: ["node2", "node3"],
    wantFilteredNodes: 3,
  },
  {
    name: "test all prescore plugins return skip",
    descriptors: [
      trueFilter,
      fakePreScoreAndScore(
        "FakePreScoreAndScorePlugin",
        0,
        new Status(Code.Skip, "fake skip"),
        new Status(
          Code.Error,
          "this score function shouldn't be executed because this plugin returned Skip in the PreScore",
        ),
      ),
    ],
    plugins: {
      filter: ["TrueFilter"],
      preScore: ["FakePreScoreAndScorePlugin"],
      score: [{ name: "FakePreScoreAndScorePlugin", weight: 1 }],
    },
    nodes: [hostNode("node1"), hostNode("node2")],
    pod: pod("ignore"),
    wantNodes: ["node1", "node2"],
  },
  {
    name: "test without score plugin no extra nodes are evaluated",
    descriptors: [trueFilter],
    plugins: { filter: ["TrueFilter"] },
    nodes: [hostNode("node1"), hostNode("node2"), hostNode("node3")],
    pod: pod("pod1"),
    wantNodes: ["node1", "node2", "node3"],
    wantFilteredNodes: 1,
  },
  {
    name: "test no score plugin, prefilter plugin returning 2 nodes",
    descriptors: [fakePreFilter("FakePreFilter", { nodeNames: new Set(["node1", "node2"]) }, null)],
    plugins: { preFilter: ["FakePreFilter"] },
    nodes: [hostNode("node1"), hostNode("node2"), hostNode("node3")],
    pod: pod("test-prefilter"),
    wantNodes: ["node1", "node2"],
  },
  {
    name: "test prefilter plugin returned an invalid node",
    descriptors: [fakePreFilter("FakePreFilter", { nodeNames: new Set(["invalid-node"]) }, null), trueFilter],
    plugins: { preFilter: ["FakePreFilter"], filter: ["TrueFilter"] },
    nodes: [hostNode("1"), hostNode("2")],
    pod: pod("test-prefilter"),
    wantFit: fitError({}, ["FakePreFilter"], {
      absent: st(UAU, "node(s) didn't satisfy plugin(s) [FakePreFilter]"),
      message: "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [FakePreFilter].",
    }),
  },
  {
    // The PV names the node by its hostname label, which is not its name (as on several clouds):
    // VolumeBinding's PreFilter must map the label value to the node name.
    name: "hostname and nodename of the node do not match",
    descriptors: [trueFilter, equalPrioritizer],
    plugins: { preFilter: ["VolumeBinding"], filter: ["TrueFilter"], score: ["EqualPrioritizerPlugin"] },
    nodes: [makeNode().name("node1").label("kubernetes.io/hostname", "host1").obj()],
    pvcs: [
      makePVC()
        .name("PVC1")
        .uid("PVC1")
        .namespace("default")
        .volumeName("PV1")
        .annotation("pv.kubernetes.io/bind-completed", "true")
        .obj(),
    ],
    pvs: [makePV().name("PV1").uid("PV1").nodeAffinityIn("kubernetes.io/hostname", ["host1"]).obj()],
    pod: makePod().name("pod1").uid("pod1").namespace("default").pvc("PVC1").obj(),
    wantNodes: ["node1"],
  },
];

describe("TestSchedulerSchedulePod", () => {
  for (const tc of schedulePodCases) {
    it(tc.name, async () => {
      const { ts, explain } = await runSchedulePod(tc);
      const key = `${tc.pod.metadata?.namespace ?? ""}/${tc.pod.metadata?.name ?? ""}`;
      if (tc.wantFit || tc.wantError) {
        expect(ts.scheduled).toEqual([]);
        expect(ts.failures).toHaveLength(1);
        const f = ts.failures[0]!;
        if (tc.wantError) {
          expect(f.reason).toBe("SchedulerError");
          expect(f.message).toBe(tc.wantError);
          return;
        }
        expect(f.reason).toBe("Unschedulable");
        const fe = fitErrorOf(f.status);
        const { message, ...want } = tc.wantFit!;
        expect(diagnosisOf(fe)).toEqual(want);
        expect(fe.numAllNodes).toBe(tc.nodes.length);
        if (message) expect(f.message).toBe(message);
        return;
      }
      expect(ts.failures.map((f) => f.message)).toEqual([]);
      expect(ts.scheduled).toHaveLength(1);
      if (tc.wantNodes) expect(tc.wantNodes).toContain(ts.scheduled[0]!.node);
      if (tc.wantFilteredNodes !== undefined) {
        expect(Object.keys(explain.get(key)?.filter ?? {})).toHaveLength(tc.wantFilteredNodes);
      }
    });
  }
});

describe("TestFindNodesThatPassExtenders", () => {
  // Driven through the engine: a TrueFilter passes every node (or FakeFilter fails "c"), then the
  // extenders run on the feasible nodes.
  const absentlessNodes = (names: string[]) => names.map((n) => makeNode().name(n).obj());
  const notAllowed =
    (allowed: string, unschedulable: string[]): Predicate =>
    (_p, n) =>
      n.nodeName === allowed
        ? null
        : unschedulable.includes(n.nodeName)
          ? new Status(U, `node "${n.nodeName}" is not allowed`)
          : new Status(UAU, `node "${n.nodeName}" is not allowed`);
  const cases: {
    name: string;
    extenders: FakeExtender[];
    nodes: string[];
    failFilter?: string[];
    wantError?: boolean;
    wantNodes?: string[];
    wantStatuses?: Record<string, StatusView>;
  }[] = [
    {
      name: "error",
      extenders: [new FakeExtender({ name: "FakeExtender1", predicates: [errorPredicate] })],
      nodes: ["a"],
      wantError: true,
    },
    {
      name: "success",
      extenders: [new FakeExtender({ name: "FakeExtender1", predicates: [truePredicate] })],
      nodes: ["a"],
      wantNodes: ["a"],
    },
    {
      name: "unschedulable",
      extenders: [new FakeExtender({ name: "FakeExtender1", predicates: [notAllowed("a", ["b"])] })],
      nodes: ["a", "b"],
      wantNodes: ["a"],
      wantStatuses: { b: st(U, 'FakeExtender: node "b" failed') },
    },
    {
      name: "unschedulable and unresolvable",
      extenders: [new FakeExtender({ name: "FakeExtender1", predicates: [notAllowed("a", ["b"])] })],
      nodes: ["a", "b", "c"],
      wantNodes: ["a"],
      wantStatuses: {
        b: st(U, 'FakeExtender: node "b" failed'),
        c: st(UAU, 'FakeExtender: node "c" failed and unresolvable'),
      },
    },
    {
      name: "extender does not overwrite the previous statuses",
      extenders: [new FakeExtender({ name: "FakeExtender1", predicates: [notAllowed("a", ["b"])] })],
      nodes: ["a", "b", "c"],
      failFilter: ["c"],
      wantNodes: ["a"],
      wantStatuses: {
        b: st(U, 'FakeExtender: node "b" failed'),
        c: st(U, "injecting failure for pod 1", "FakeFilter"),
      },
    },
    {
      name: "multiple extenders",
      extenders: [
        new FakeExtender({ name: "FakeExtender1", predicates: [notAllowed("a", ["b"])] }),
        new FakeExtender({ name: "FakeExtender1", predicates: [notAllowed("a", ["b", "c"])] }),
      ],
      nodes: ["a", "b", "c"],
      wantNodes: ["a"],
      wantStatuses: {
        b: st(U, 'FakeExtender: node "b" failed'),
        c: st(UAU, 'FakeExtender: node "c" failed and unresolvable'),
      },
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const failed: Record<string, number> = {};
      for (const n of tc.failFilter ?? []) failed[n] = U;
      // A filter that rejects "a" after the extenders would hide the result; instead the
      // feasible list is observed by making the pod unschedulable only through the extender.
      const ts = await newTestScheduler({
        plugins: [fakeFilter("FakeFilter", failed), equalPrioritizer],
        profiles: [profile({ filter: ["FakeFilter"], score: ["EqualPrioritizerPlugin"] })],
        nodes: absentlessNodes(tc.nodes),
        extenders: tc.extenders,
      });
      await ts.schedule(pod("1"));
      if (tc.wantError) {
        expect(ts.failures[0]?.reason).toBe("SchedulerError");
        expect(ts.failures[0]?.message).toBe("some error");
        return;
      }
      expect(ts.scheduled.map((s) => s.node)).toEqual(tc.wantNodes);
      // The statuses are not reported on success; rerun with the only feasible node removed
      // by a second extender to see them in the FitError.
      if (tc.wantStatuses) {
        const blocker = new FakeExtender({ name: "Blocker", predicates: [notAllowed("none", ["a"])] });
        const ts2 = await newTestScheduler({
          plugins: [fakeFilter("FakeFilter", failed), equalPrioritizer],
          profiles: [profile({ filter: ["FakeFilter"], score: ["EqualPrioritizerPlugin"] })],
          nodes: absentlessNodes(tc.nodes),
          extenders: [...tc.extenders, blocker],
        });
        await ts2.schedule(pod("1"));
        const d = diagnosisOf(fitErrorOf(ts2.failures[0]!.status));
        expect(d.nodeToStatus).toEqual({ ...tc.wantStatuses, a: st(U, 'FakeExtender: node "a" failed') });
        expect(d.unschedulablePlugins).toContain("Extender");
      }
    });
  }

  it("ignorable extender errors are skipped", async () => {
    const ts = await newTestScheduler({
      plugins: [trueFilter],
      profiles: [profile({ filter: ["TrueFilter"] })],
      nodes: absentlessNodes(["a"]),
      extenders: [new FakeExtender({ name: "E", predicates: [errorPredicate], ignorable: true })],
    });
    await ts.schedule(pod("1"));
    expect(ts.scheduled.map((s) => s.node)).toEqual(["a"]);
  });

  it("extenders not interested in the pod are not called", async () => {
    const ext = new FakeExtender({ name: "E", predicates: [falsePredicate], interested: () => false });
    const ts = await newTestScheduler({
      plugins: [trueFilter],
      profiles: [profile({ filter: ["TrueFilter"] })],
      nodes: absentlessNodes(["a"]),
      extenders: [ext],
    });
    await ts.schedule(pod("1"));
    expect(ts.scheduled.map((s) => s.node)).toEqual(["a"]);
    expect(ext.filterCalls).toBe(0);
  });
});

describe("TestFindFitAllError", () => {
  it("every node fails MatchFilter", async () => {
    const ts = await newTestScheduler({
      plugins: [trueFilter, matchFilter],
      profiles: [profile({ filter: ["TrueFilter", "MatchFilter"] })],
      nodes: nodeList(["3", "2", "1"]),
    });
    await ts.schedule(makePod().name("").uid("empty").obj());
    expect(diagnosisOf(fitErrorOf(ts.failures[0]!.status))).toEqual(
      fitError(
        {
          "1": st(U, ErrReasonFake, "MatchFilter"),
          "2": st(U, ErrReasonFake, "MatchFilter"),
          "3": st(U, ErrReasonFake, "MatchFilter"),
        },
        ["MatchFilter"],
      ),
    );
  });
});

describe("TestFindFitSomeError", () => {
  it("all nodes but the pod's namesake fail MatchFilter", async () => {
    const explain = new ExplainRecorder();
    const ts = await newTestScheduler({
      plugins: [trueFilter, matchFilter],
      profiles: [profile({ filter: ["TrueFilter", "MatchFilter"] })],
      nodes: nodeList(["3", "2", "1"]),
      explain,
      // Every node must be evaluated to see every status: use a scorer (no scoring → 1 node).
    });
    await ts.schedule(pod("1"));
    expect(ts.scheduled.map((s) => s.node)).toEqual(["1"]);
    const filter = explain.get("/1")?.filter ?? {};
    for (const n of ["3", "2"]) {
      expect(filter[n]?.MatchFilter).toEqual({ code: "Unschedulable", reasons: [ErrReasonFake] });
    }
    expect(filter["1"]).toEqual({ TrueFilter: { code: "Success" }, MatchFilter: { code: "Success" } });
  });
});

describe("TestFindFitPredicateCallCounts", () => {
  const cases = [
    {
      name: "nominated pods have lower priority, predicate is called once",
      pod: makePod().name("1").uid("1").priority(1000).obj(),
      expectedCount: 1,
    },
    {
      name: "nominated pods have higher priority, predicate is called twice",
      pod: makePod().name("1").uid("1").priority(0).obj(),
      expectedCount: 2,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const filter = fakeFilter("FakeFilter");
      const ts = await newTestScheduler({
        plugins: [filter],
        profiles: [profile({ filter: ["FakeFilter"] })],
        nodes: nodeList(["1"]),
      });
      const nominated = makePod().name("nominated").uid("nominated").priority(100).obj();
      ts.source.store.pods.add(nominated);
      ts.sched.queue.addNominatedPod(new PodInfo(nominated), {
        nominatingMode: NominatingMode.Override,
        nominatedNodeName: "1",
      });
      await ts.schedule(tc.pod);
      expect(filter.calls()).toBe(tc.expectedCount);
    });
  }
});

describe("filter with nominated pods over many nodes (columnar Filter marks the nominated nodes)", () => {
  it("runs two passes exactly on the nodes with higher-priority nominated pods, cycle after cycle", async () => {
    const perNode = new Map<string, number>();
    const counting = definePlugin<unknown>({
      name: "CountingFilter",
      factory: () => ({
        name: () => "CountingFilter",
        filter: (_s: CycleState, _p: Pod, ni: NodeInfo) => {
          perNode.set(ni.nodeName, (perNode.get(ni.nodeName) ?? 0) + 1);
          return null;
        },
      }),
    });
    const names = Array.from({ length: 40 }, (_, i) => String(i));
    const ts = await newTestScheduler({
      // A Score plugin: every node is filtered (without one, the first feasible node is enough).
      plugins: [counting, equalPrioritizer],
      profiles: [
        profile({ filter: ["CountingFilter"], score: [{ name: "EqualPrioritizerPlugin", weight: 1 }] }),
      ],
      nodes: nodeList(names),
    });
    const nominate = (name: string, node: string) => {
      const p = makePod().name(name).uid(name).priority(100).obj();
      ts.source.store.pods.add(p);
      ts.sched.queue.addNominatedPod(new PodInfo(p), {
        nominatingMode: NominatingMode.Override,
        nominatedNodeName: node,
      });
      return p;
    };
    const a = nominate("nominated-a", "3");
    nominate("nominated-b", "17");
    nominate("nominated-c", "17");
    // A node the snapshot does not have: nothing to mark.
    nominate("nominated-ghost", "ghost");
    const twice = (nodes: string[]) => {
      for (const n of names) expect([n, perNode.get(n)]).toEqual([n, nodes.includes(n) ? 2 : 1]);
    };
    await ts.schedule(makePod().name("p1").uid("p1").priority(0).obj());
    twice(["3", "17"]);
    perNode.clear();
    ts.sched.queue.deleteNominatedPodIfExists(a);
    await ts.schedule(makePod().name("p2").uid("p2").priority(0).obj());
    twice(["17"]);
    perNode.clear();
    // Lower-priority nominated pods are not added: one pass everywhere.
    await ts.schedule(makePod().name("p3").uid("p3").priority(1000).obj());
    twice([]);
  });
});

describe("Test_prioritizeNodes", () => {
  const mb = 1024 * 1024;
  const node = (name: string, images: { names: string[]; sizeBytes: number }[] = []) =>
    makeNode()
      .name(name)
      .capacity({ cpu: "1", memory: String(200 * mb * 10), pods: "100" })
      .images(images)
      .obj();
  const imageStatus1 = [
    { names: ["gcr.io/40:latest", "gcr.io/40:v1"], sizeBytes: 80 * mb },
    { names: ["gcr.io/300:latest", "gcr.io/300:v1"], sizeBytes: 300 * mb },
  ];
  const imageStatus2 = [
    { names: ["gcr.io/300:latest"], sizeBytes: 300 * mb },
    { names: ["gcr.io/40:latest", "gcr.io/40:v1"], sizeBytes: 80 * mb },
  ];
  const imageStatus3 = [
    { names: ["gcr.io/600:latest"], sizeBytes: 600 * mb },
    { names: ["gcr.io/40:latest"], sizeBytes: 80 * mb },
    { names: ["gcr.io/900:latest"], sizeBytes: 900 * mb },
  ];
  const cases: {
    name: string;
    pod: Pod;
    nodes: Node[];
    plugins: PluginLists;
    extenders?: Extender[];
    wantScores: Record<string, Record<string, number>>;
    wantFinal: Record<string, number>;
  }[] = [
    {
      name: "the score from all plugins should be recorded in PluginToNodeScores",
      pod: makePod().name("p").obj(),
      nodes: [node("node1"), node("node2")],
      plugins: {
        score: [
          { name: "NodeResourcesBalancedAllocation", weight: 1 },
          { name: "Node2Prioritizer", weight: 1 },
        ],
      },
      wantScores: {
        node1: { Node2Prioritizer: 10, NodeResourcesBalancedAllocation: 0 },
        node2: { Node2Prioritizer: 100, NodeResourcesBalancedAllocation: 0 },
      },
      wantFinal: { node1: 10, node2: 100 },
    },
    {
      name: "the score from extender should also be recorded in PluginToNodeScores with plugin scores",
      pod: makePod().name("p").obj(),
      nodes: [node("node1"), node("node2")],
      plugins: { score: [{ name: "NodeResourcesBalancedAllocation", weight: 1 }] },
      extenders: [
        new FakeExtender({
          name: "FakeExtender1",
          weight: 1,
          prioritizers: [{ weight: 3, fn: node1Prioritizer }],
        }),
        new FakeExtender({
          name: "FakeExtender2",
          weight: 1,
          prioritizers: [{ weight: 2, fn: node2PrioritizerExt }],
        }),
      ],
      wantScores: {
        node1: { NodeResourcesBalancedAllocation: 0 },
        node2: { NodeResourcesBalancedAllocation: 0 },
      },
      // node1: 300 (FakeExtender1) + 20 (FakeExtender2); node2: 30 + 200
      wantFinal: { node1: 320, node2: 230 },
    },
    {
      name: "plugin which returned skip in preScore shouldn't be executed in the score phase",
      pod: makePod().name("p").obj(),
      nodes: [node("node1"), node("node2")],
      plugins: {
        preScore: ["FakePreScoreAndScorePlugin"],
        score: [
          { name: "NodeResourcesBalancedAllocation", weight: 1 },
          { name: "Node2Prioritizer", weight: 1 },
          { name: "FakePreScoreAndScorePlugin", weight: 1 },
        ],
      },
      wantScores: {
        node1: { Node2Prioritizer: 10, NodeResourcesBalancedAllocation: 0 },
        node2: { Node2Prioritizer: 100, NodeResourcesBalancedAllocation: 0 },
      },
      wantFinal: { node1: 10, node2: 100 },
    },
    {
      name: "all score plugins are skipped",
      pod: makePod().name("p").obj(),
      nodes: [node("node1"), node("node2")],
      plugins: {
        preScore: ["FakePreScoreAndScorePlugin"],
        score: [{ name: "FakePreScoreAndScorePlugin", weight: 1 }],
      },
      wantScores: {},
      wantFinal: { node1: 0, node2: 0 },
    },
    {
      name: "the score from Image Locality plugin with image in all nodes",
      pod: makePod().name("p").containerImage("gcr.io/40").obj(),
      nodes: [node("node1", imageStatus1), node("node2", imageStatus2), node("node3", imageStatus3)],
      plugins: { score: [{ name: "ImageLocality", weight: 1 }] },
      wantScores: { node1: { ImageLocality: 5 }, node2: { ImageLocality: 5 }, node3: { ImageLocality: 5 } },
      wantFinal: { node1: 5, node2: 5, node3: 5 },
    },
    {
      name: "the score from Image Locality plugin with image in partial nodes",
      pod: makePod().name("p").containerImage("gcr.io/300").obj(),
      nodes: [node("node1", imageStatus1), node("node2", imageStatus2), node("node3", imageStatus3)],
      plugins: { score: [{ name: "ImageLocality", weight: 1 }] },
      wantScores: { node1: { ImageLocality: 18 }, node2: { ImageLocality: 18 }, node3: { ImageLocality: 0 } },
      wantFinal: { node1: 18, node2: 18, node3: 0 },
    },
  ];
  const skipScore = fakePreScoreAndScore(
    "FakePreScoreAndScorePlugin",
    0,
    new Status(Code.Skip, "fake skip"),
    new Status(
      Code.Error,
      "this score function shouldn't be executed because this plugin returned Skip in the PreScore",
    ),
  );
  for (const tc of cases) {
    it(tc.name, async () => {
      const explain = new ExplainRecorder();
      const ts = await newTestScheduler({
        plugins: [node2Prioritizer, skipScore],
        profiles: [profile({ preScore: tc.plugins.preScore ?? [], score: tc.plugins.score ?? [] })],
        nodes: tc.nodes,
        extenders: tc.extenders ?? [],
        explain,
      });
      await ts.schedule(tc.pod);
      expect(ts.failures.map((f) => f.message)).toEqual([]);
      const e = explain.get(`/${tc.pod.metadata?.name}`);
      const weighted: Record<string, Record<string, number>> = {};
      for (const [n, byPlugin] of Object.entries(e?.score ?? {})) {
        weighted[n] = {};
        for (const [p, s] of Object.entries(byPlugin)) weighted[n]![p] = s.weighted;
      }
      expect(weighted).toEqual(tc.wantScores);
      expect(e?.finalScore).toEqual(tc.wantFinal);
    });
  }
});

describe("TestFairEvaluationForNodes", () => {
  it("nextStartNodeIndex rotates over every node", async () => {
    const numAllNodes = 500;
    const names = Array.from({ length: numAllNodes }, (_, i) => String(i));
    const nodesToFind = Math.trunc((numAllNodes * 30) / 100);
    const explain = new ExplainRecorder();
    const ts = await newTestScheduler({
      plugins: [trueFilter, equalPrioritizer],
      profiles: [profile({ filter: ["TrueFilter"], score: ["EqualPrioritizerPlugin"] })],
      nodes: nodeList(names),
      percentageOfNodesToScore: 30,
      explain,
    });
    // Iterating over all nodes more than twice
    for (let i = 0; i < 2 * (Math.trunc(numAllNodes / nodesToFind) + 1); i++) {
      const p = pod(`p${i}`);
      await ts.schedule(p);
      // Every node passes: the cycle evaluates exactly the window starting at nextStartNodeIndex,
      // which advanced by nodesToFind per cycle.
      const start = (i * nodesToFind) % numAllNodes;
      const window = Array.from({ length: nodesToFind }, (_, k) => names[(start + k) % numAllNodes]);
      expect(Object.keys(explain.get(`/p${i}`)?.finalScore ?? {}).sort()).toEqual(window.sort());
    }
  });
});

describe("TestPreferNominatedNodeFilterCallCounts", () => {
  const cases: { name: string; pod: Pod; failed?: Record<string, number>; expectedCount: number }[] = [
    {
      name: "pod has the nominated node set, filter is called only once",
      pod: makePod().name("p_with_nominated_node").uid("p").priority(1000).nominatedNodeName("node1").obj(),
      expectedCount: 1,
    },
    {
      name: "pod without the nominated pod, filter is called for each node",
      pod: makePod().name("p_without_nominated_node").uid("p").priority(1000).obj(),
      expectedCount: 3,
    },
    {
      name: "nominated pod cannot pass the filter, filter is called for each node",
      pod: makePod().name("p_with_nominated_node").uid("p").priority(1000).nominatedNodeName("node1").obj(),
      failed: { node1: U },
      expectedCount: 4,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const filter = fakeFilter("FakeFilter", tc.failed ?? {});
      const ts = await newTestScheduler({
        plugins: [filter, equalPrioritizer],
        profiles: [profile({ filter: ["FakeFilter"], score: ["EqualPrioritizerPlugin"] })],
        nodes: nodeList(["node1", "node2", "node3"]),
      });
      await ts.schedule(tc.pod);
      expect(filter.calls()).toBe(tc.expectedCount);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// selectHost: upstream replaced reservoir sampling with a randomized heap (1.35); kubesched keeps
// uniform tie-breaking from the seeded stream (upstream.md §5.6).

describe("selectHost", () => {
  const s = (name: string, totalScore: number): NodePluginScores => ({ name, scores: [], totalScore });
  const withSeed = (seed: number) => seededRandom(seed);

  it("unique properly ordered scores", () => {
    expect(selectHost(withSeed(1), [s("node1", 1), s("node2", 2)])).toBe("node2");
  });
  it("out of order scores", () => {
    for (let seed = 0; seed < 20; seed++) {
      expect(["node3.1", "node3.2"]).toContain(
        selectHost(withSeed(seed), [s("node3.1", 3), s("node2.1", 2), s("node1.1", 1), s("node3.2", 3)]),
      );
    }
  });
  it("equal scores are chosen uniformly", () => {
    const list = [s("a", 5), s("b", 5), s("c", 5), s("d", 1)];
    const counts: Record<string, number> = {};
    const rand = withSeed(42);
    const n = 30000;
    for (let i = 0; i < n; i++) {
      const h = selectHost(rand, list);
      counts[h] = (counts[h] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(["a", "b", "c"]);
    for (const k of ["a", "b", "c"]) expect(Math.abs((counts[k] ?? 0) / n - 1 / 3)).toBeLessThan(0.02);
  });
  it("the same seed picks the same nodes", () => {
    const list = [s("a", 5), s("b", 5), s("c", 5)];
    const run = (seed: number) => {
      const rand = withSeed(seed);
      return Array.from({ length: 20 }, () => selectHost(rand, list)).join(",");
    };
    expect(run(7)).toBe(run(7));
    expect(run(7)).not.toBe(run(8));
  });
});

// ---------------------------------------------------------------------------------------------

describe("TestSchedulerScheduleOne", () => {
  const testNode = () => makeNode().name("node1").uid("node1").obj();
  const podFoo = () => makePod().name("foo").uid("foo").obj();
  const cases: {
    name: string;
    plugins: Parameters<typeof newTestScheduler>[0]["plugins"];
    lists: PluginLists;
    sendPod: Pod;
    injectBindError?: Error;
    injectPreFilterError?: string;
    expectError?: string;
    expectBind?: string;
    expectForget?: boolean;
    eventReason: string;
  }[] = [
    {
      name: "error reserve pod",
      plugins: [fakeReserve("FakeReserve", new Status(Code.Error, "reserve error"))],
      lists: { reserve: ["FakeReserve"] },
      sendPod: podFoo(),
      expectForget: true,
      expectError: 'running Reserve plugin "FakeReserve": reserve error',
      eventReason: "FailedScheduling",
    },
    {
      name: "error permit pod",
      plugins: [fakePermit("FakePermit", new Status(Code.Error, "permit error"), 60_000)],
      lists: { permit: ["FakePermit"] },
      sendPod: podFoo(),
      expectForget: true,
      expectError: 'running Permit plugin "FakePermit": permit error',
      eventReason: "FailedScheduling",
    },
    {
      name: "error prebind pod",
      plugins: [fakePreBind("FakePreBind", new Status(Code.Error).withError(new Error("on PreBind")))],
      lists: { preBind: ["FakePreBind"] },
      sendPod: podFoo(),
      expectForget: true,
      expectError: 'running PreBind plugin "FakePreBind": on PreBind',
      eventReason: "FailedScheduling",
    },
    {
      name: "bind assumed pod scheduled",
      plugins: [],
      lists: {},
      sendPod: podFoo(),
      expectBind: "node1",
      eventReason: "Scheduled",
    },
    {
      // upstream mocks SchedulePod returning an error; here a PreFilter returns it.
      name: "error pod failed scheduling",
      plugins: [fakePreFilter("FakePreFilter", null, new Status(Code.Error, "scheduler"))],
      lists: { preFilter: ["FakePreFilter"] },
      sendPod: podFoo(),
      expectError: 'running PreFilter plugin "FakePreFilter": scheduler',
      eventReason: "FailedScheduling",
    },
    {
      name: "error bind forget pod failed scheduling",
      plugins: [],
      lists: {},
      sendPod: podFoo(),
      injectBindError: new Error("binder"),
      expectBind: "node1",
      expectForget: true,
      expectError: 'running Bind plugin "DefaultBinder": binder',
      eventReason: "FailedScheduling",
    },
    {
      name: "deleting pod",
      plugins: [],
      lists: {},
      sendPod: makePod().name("foo").uid("foo").terminating(new Date(0)).obj(),
      eventReason: "FailedScheduling",
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const ts = await newTestScheduler({
        plugins: tc.plugins,
        profiles: [profile(tc.lists)],
        nodes: [testNode()],
      });
      if (tc.injectBindError) ts.source.calls.failWith("bind", tc.injectBindError);
      await ts.schedule(tc.sendPod);
      const events = ts.source.recorder.events;
      expect(events.map((e) => e.reason)).toEqual([tc.eventReason]);
      const bind = ts.source.calls.calls.find((c) => c.verb === "bind");
      expect(bind && bind.verb === "bind" ? bind.nodeName : undefined).toBe(tc.expectBind);
      if (tc.expectError) {
        expect(ts.failures.map((f) => f.message)).toEqual([tc.expectError]);
        expect(ts.failures[0]?.reason).toBe("SchedulerError");
        expect(events[0]?.note).toBe(tc.expectError);
      } else {
        expect(ts.failures).toEqual([]);
      }
      // Forgotten (or never assumed) pods leave nothing in the cache; a bound one stays assumed
      // until the informer confirms it.
      const assumed = ts.sched.cache.isAssumedPod(tc.sendPod);
      expect(assumed).toBe(tc.expectBind !== undefined && !tc.expectForget);
      if (tc.name === "deleting pod") {
        expect(events[0]?.note).toBe("skip schedule deleting pod: /foo");
        expect(ts.scheduled).toEqual([]);
      }
      if (tc.eventReason === "Scheduled") {
        expect(events[0]?.note).toBe("Successfully assigned /foo to node1");
        expect(events[0]?.type).toBe("Normal");
      }
    });
  }
});

describe("TestSchedulerBinding", () => {
  // upstream runs sched.bind directly; here the pod goes through a whole cycle of the engine
  // (QueueSort + DefaultBinder only, as upstream's framework), and the binding that reaches the
  // cluster is the default one exactly when no extender bound the pod.
  const interestedIn = (name: string) => (p: Pod) => p.metadata?.name === name;
  const cases: {
    name: string;
    podName: string;
    extenders: () => FakeExtender[];
    wantBinderID: number;
  }[] = [
    {
      name: "the extender is not a binder",
      podName: "pod0",
      extenders: () => [new FakeExtender({ name: "e0", binder: false, interested: interestedIn("pod0") })],
      wantBinderID: -1, // default binding.
    },
    {
      name: "one of the extenders is a binder and interested in pod",
      podName: "pod0",
      extenders: () => [
        new FakeExtender({ name: "e0", binder: false, interested: interestedIn("pod0") }),
        new FakeExtender({ name: "e1", binder: true, interested: interestedIn("pod0") }),
      ],
      wantBinderID: 1,
    },
    {
      name: "one of the extenders is a binder, but not interested in pod",
      podName: "pod1",
      extenders: () => [
        new FakeExtender({ name: "e0", binder: false, interested: interestedIn("pod1") }),
        new FakeExtender({ name: "e1", binder: true, interested: interestedIn("pod0") }),
      ],
      wantBinderID: -1, // default binding.
    },
    {
      name: "ignore when extender bind failed",
      podName: "pod1",
      extenders: () => [
        new FakeExtender({
          name: "e0",
          binder: true,
          errBind: true,
          interested: interestedIn("pod1"),
          ignorable: true,
        }),
      ],
      wantBinderID: -1, // default binding.
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const extenders = tc.extenders();
      const ts = await newTestScheduler({
        plugins: [],
        profiles: [profile({})],
        nodes: [makeNode().name("node").obj()],
        extenders,
      });
      await ts.schedule(pod(tc.podName));
      expect(ts.failures).toEqual([]);
      expect(ts.scheduled.map((s) => s.node)).toEqual(["node"]);
      const defaultBound = ts.source.calls.calls.some((c) => c.verb === "bind");
      expect(defaultBound, "bound with default binding").toBe(tc.wantBinderID === -1);
      expect(extenders.map((e) => e.gotBind)).toEqual(extenders.map((_, i) => i === tc.wantBinderID));
      if (tc.name === "ignore when extender bind failed") {
        expect(ts.logger.entries.map((e) => e.msg)).toContain(
          "Skipping extender in bind as it returned error and has ignorable flag set",
        );
      }
    });
  }

  it("an extender bind error that is not ignorable fails the binding cycle", async () => {
    const ext = new FakeExtender({ name: "e0", binder: true, errBind: true });
    const ts = await newTestScheduler({
      plugins: [],
      profiles: [profile({})],
      nodes: [makeNode().name("node").obj()],
      extenders: [ext],
    });
    await ts.schedule(pod("pod0"));
    expect(ts.source.calls.calls.some((c) => c.verb === "bind")).toBe(false);
    expect(ts.failures.map((f) => [f.reason, f.message])).toEqual([["SchedulerError", "bind error"]]);
    expect(ts.sched.cache.isAssumedPod(pod("pod0"))).toBe(false);
  });
});

describe("TestSchedulerNoPhantomPodAfterDelete", () => {
  it("a pod conflicting with an assumed pod schedules once that pod is deleted", async () => {
    const node = makeNode().name("node1").uid("node1").obj();
    const ts = await newTestScheduler({
      plugins: [],
      profiles: [profile({ preFilter: ["NodePorts"], filter: ["NodePorts"] })],
      nodes: [node],
    });
    const firstPod = makePod().name("pod.Name").uid("pod.Name").hostPort(8080).obj();
    await ts.schedule(firstPod);
    expect(ts.source.bindings()).toEqual({ "pod.Name": "node1" });

    // We use conflicted pod ports to incur fit predicate failure.
    const secondPod = makePod().name("bar").uid("bar").hostPort(8080).obj();
    await ts.schedule(secondPod);
    expect(ts.failures).toHaveLength(1);
    const fe = fitErrorOf(ts.failures[0]!.status);
    expect(fe.numAllNodes).toBe(1);
    expect(diagnosisOf(fe)).toEqual(
      fitError({ node1: st(U, "node(s) didn't have free ports for the requested pod ports", "NodePorts") }, [
        "NodePorts",
      ]),
    );

    // The informer confirms the first pod, then the user deletes it.
    const bound = { ...firstPod, spec: { ...firstPod.spec!, nodeName: "node1" } };
    ts.source.updatePod(firstPod, bound);
    ts.source.deletePod(bound);
    await ts.runOne();
    expect(ts.source.bindings()).toEqual({ "pod.Name": "node1", bar: "node1" });
  });
});

describe("TestSchedulerFailedSchedulingReasons", () => {
  it("100 nodes too small roll up into a short message", async () => {
    const nodes: Node[] = [];
    for (let i = 0; i < 100; i++) {
      nodes.push(
        makeNode().name(`node${i}`).uid(`node${i}`).capacity({ cpu: "2", memory: "100", pods: "10" }).obj(),
      );
    }
    const ts = await newTestScheduler({
      plugins: [],
      profiles: [profile({ preFilter: ["NodeResourcesFit"], filter: ["NodeResourcesFit"] })],
      nodes,
    });
    const podWithTooBigResourceRequests = makePod()
      .name("bar")
      .uid("bar")
      .req({ cpu: "4", memory: "500" })
      .lim({ cpu: "4", memory: "500" })
      .obj();
    await ts.schedule(podWithTooBigResourceRequests);
    const f = ts.failures[0]!;
    const fe = fitErrorOf(f.status);
    expect(fe.numAllNodes).toBe(100);
    const d = diagnosisOf(fe);
    expect(d.unschedulablePlugins).toEqual(["NodeResourcesFit"]);
    for (const n of nodes) {
      // The request exceeds each node's whole allocatable: Unresolvable (NodeResourcesFit, 1.32+).
      expect(d.nodeToStatus[n.metadata!.name!]).toEqual({
        code: UAU,
        reasons: ["Insufficient cpu", "Insufficient memory"],
        plugin: "NodeResourcesFit",
      });
    }
    expect(f.message).toBe("0/100 nodes are available: 100 Insufficient cpu, 100 Insufficient memory.");
    // message is not spammy
    expect(f.message.length).toBeLessThanOrEqual(150);
  });
});

describe("TestSchedulerMultipleProfilesScheduling", () => {
  it("each profile filters with its own args and reports its own controller", async () => {
    const fakeNodeSelector = {
      name: "FakeNodeSelector",
      factory: (args: unknown) => {
        const nodeName = (args as { nodeName: string }).nodeName;
        return {
          name: () => "FakeNodeSelector",
          filter: (_s: unknown, _p: Pod, ni: NodeInfo) =>
            ni.nodeName === nodeName ? null : new Status(Code.UnschedulableAndUnresolvable),
        };
      },
    };
    const prof = (schedulerName: string, nodeName: string) =>
      profile(
        { filter: ["FakeNodeSelector"] },
        { schedulerName, pluginConfig: [{ name: "FakeNodeSelector", args: { nodeName } }] },
      );
    const ts = await newTestScheduler({
      plugins: [fakeNodeSelector],
      profiles: [prof("match-node2", "node2"), prof("match-node3", "node3")],
      nodes: nodeList(["node1", "node2", "node3"]),
    });
    const pods = [
      makePod().name("pod1").uid("pod1").schedulerName("match-node3").obj(),
      makePod().name("pod2").uid("pod2").schedulerName("match-node2").obj(),
      makePod().name("pod3").uid("pod3").schedulerName("match-node2").obj(),
      makePod().name("pod4").uid("pod4").schedulerName("match-node3").obj(),
    ];
    for (const p of pods) ts.source.addPod(p);
    while (await ts.runOne()) {
      // until the queue is empty
    }
    expect(ts.source.bindings()).toEqual({ pod1: "node3", pod2: "node2", pod3: "node2", pod4: "node3" });
    // A pod whose schedulerName matches no profile is not queued at all.
    ts.source.addPod(makePod().name("other").uid("other").schedulerName("nobody").obj());
    expect(await ts.runOne()).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// handleSchedulingFailure / updatePod: the PodScheduled condition and nominatedNodeName are
// patched only when they change (upstream TestUpdatePod), and events are truncated.

describe("TestUpdatePod", () => {
  const cond = (status: string, reason: string, message: string) => ({
    type: "PodScheduled",
    status,
    reason,
    message,
    lastProbeTime: undefined,
  });
  const cases: {
    name: string;
    currentConditions: { type: string; status: string; reason?: string; message?: string }[];
    currentNominatedNodeName?: string;
    status: Status;
    nominatingInfo: { nominatingMode: 0 | 1; nominatedNodeName: string } | null;
    expectPatch: Record<string, unknown> | null;
  }[] = [
    {
      name: "Should make patch request to add pod condition when there are none currently",
      currentConditions: [],
      status: new Status(Code.Unschedulable, "newMessage"),
      nominatingInfo: null,
      expectPatch: { conditions: [cond("False", "Unschedulable", "newMessage")] },
    },
    {
      name: "Should make patch request to add a new pod condition when there is already one with another type",
      currentConditions: [
        { type: "someOtherType", status: "someOtherTypeStatus", reason: "someOtherTypeReason" },
      ],
      status: new Status(Code.Unschedulable, "newMessage"),
      nominatingInfo: null,
      expectPatch: { conditions: [cond("False", "Unschedulable", "newMessage")] },
    },
    {
      name: "Should make patch request to update an existing pod condition",
      currentConditions: [
        { type: "PodScheduled", status: "True", reason: "currentReason", message: "currentMessage" },
      ],
      status: new Status(Code.Unschedulable, "newMessage"),
      nominatingInfo: null,
      expectPatch: { conditions: [cond("False", "Unschedulable", "newMessage")] },
    },
    {
      name: "Should not make patch request if pod condition already exists and is identical and nominated node name is not set",
      currentConditions: [
        { type: "PodScheduled", status: "False", reason: "Unschedulable", message: "newMessage" },
      ],
      status: new Status(Code.Unschedulable, "newMessage"),
      nominatingInfo: null,
      expectPatch: null,
    },
    {
      name: "Should make patch request if pod condition already exists and is identical but nominated node name is set and different",
      currentConditions: [
        { type: "PodScheduled", status: "False", reason: "Unschedulable", message: "newMessage" },
      ],
      currentNominatedNodeName: "node1",
      status: new Status(Code.Unschedulable, "newMessage"),
      nominatingInfo: { nominatingMode: NominatingMode.Override, nominatedNodeName: "node2" },
      expectPatch: { nominatedNodeName: "node2" },
    },
    {
      name: "Should not update nominated node name if pod condition already exists and is identical and nominated node name is the same",
      currentConditions: [
        { type: "PodScheduled", status: "False", reason: "Unschedulable", message: "newMessage" },
      ],
      currentNominatedNodeName: "node1",
      status: new Status(Code.Unschedulable, "newMessage"),
      nominatingInfo: { nominatingMode: NominatingMode.Override, nominatedNodeName: "node1" },
      expectPatch: null,
    },
    {
      name: "Should clear the nominated node name when the mode is Override with an empty name",
      currentConditions: [
        { type: "PodScheduled", status: "False", reason: "Unschedulable", message: "newMessage" },
      ],
      currentNominatedNodeName: "node1",
      status: new Status(Code.Unschedulable, "newMessage"),
      nominatingInfo: { nominatingMode: NominatingMode.Override, nominatedNodeName: "" },
      expectPatch: { nominatedNodeName: null },
    },
    {
      name: "Should not touch the nominated node name when the mode is Noop",
      currentConditions: [],
      currentNominatedNodeName: "node1",
      status: new Status(Code.Error, "boom"),
      nominatingInfo: { nominatingMode: NominatingMode.Noop, nominatedNodeName: "" },
      expectPatch: { conditions: [cond("False", "SchedulerError", "boom")] },
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const w = makePod().name("foo").uid("foo").conditions(tc.currentConditions);
      const p = (tc.currentNominatedNodeName ? w.nominatedNodeName(tc.currentNominatedNodeName) : w).obj();
      const ts = await newTestScheduler({ plugins: [], profiles: [profile({})], nodes: nodeList(["node1"]) });
      ts.source.store.pods.add(p);
      const fwk = ts.sched.profiles.get("default-scheduler")!;
      const qpi = {
        podInfo: new PodInfo(p),
        timestamp: 0,
        attempts: 1,
        unschedulableCount: 0,
        consecutiveErrorsCount: 0,
        initialAttemptTimestamp: null,
        unschedulablePlugins: new Set<string>(),
        pendingPlugins: new Set<string>(),
        gatingPlugin: "",
        gatingPluginEvents: [],
      } as unknown as Parameters<typeof handleSchedulingFailure>[2];
      const state = new CycleState();
      const attempt = {
        qpi,
        pod: p,
        fwk,
        state,
        podsToActivate: new PodsToActivate(),
        startedMs: 0,
        algorithmStartMs: 0,
        batch: null,
      };
      handleSchedulingFailure(schedulerState(ts.sched), attempt, qpi, tc.status, tc.nominatingInfo);
      await new Promise((r) => setTimeout(r, 0));
      const patches = ts.source.calls.calls.filter((c) => c.verb === "patchStatus");
      if (tc.expectPatch === null) {
        expect(patches).toEqual([]);
      } else {
        expect(patches).toHaveLength(1);
        const patch = patches[0]!.verb === "patchStatus" ? patches[0]!.patch : null;
        expect(JSON.parse(JSON.stringify(patch))).toEqual(JSON.parse(JSON.stringify(tc.expectPatch)));
      }
    });
  }
});

describe("truncateMessage", () => {
  it("FailedScheduling events keep at most 1024 characters, ending with ' ...'", async () => {
    const longReason = "x".repeat(2000);
    const ts = await newTestScheduler({
      plugins: [
        fakePreFilter("FakePreFilter", null, new Status(Code.UnschedulableAndUnresolvable, longReason)),
      ],
      profiles: [profile({ preFilter: ["FakePreFilter"] })],
      nodes: nodeList(["node1"]),
    });
    await ts.schedule(pod("p"));
    const note = ts.source.recorder.events[0]!.note;
    expect(note).toHaveLength(1024);
    expect(note.endsWith(" ...")).toBe(true);
    expect(note.startsWith("0/1 nodes are available: xxx")).toBe(true);
    // The condition message is the full text.
    const patch = ts.source.calls.calls.find((c) => c.verb === "patchStatus");
    expect(patch?.verb === "patchStatus" ? patch.patch.conditions?.[0]?.message : "").toBe(
      `0/1 nodes are available: ${longReason}.`,
    );
  });
  it("short messages are kept", async () => {
    const ts = await newTestScheduler({
      plugins: [falseFilter],
      profiles: [profile({ filter: ["FalseFilter"] })],
      nodes: nodeList(["node1"]),
    });
    await ts.schedule(pod("p"));
    expect(ts.source.recorder.events[0]!.note).toBe(
      "0/1 nodes are available: 1 Nodes failed the fake plugin.",
    );
  });
});

describe("no nodes", () => {
  it("an empty cluster fails with 'no nodes available to schedule pods'", async () => {
    const ts = await newTestScheduler({ plugins: [], profiles: [profile({})], nodes: [] });
    await ts.schedule(pod("p"));
    expect(ts.failures.map((f) => [f.reason, f.message])).toEqual([
      ["Unschedulable", "no nodes available to schedule pods"],
    ]);
  });
});
