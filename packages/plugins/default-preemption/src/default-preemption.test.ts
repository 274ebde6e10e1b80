// Port of upstream pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go.
import type { Node, Pod, PodDisruptionBudget } from "@kubesched/api";
import {
  Code,
  type Extender,
  NodeToStatus,
  NominatingMode,
  type PluginDescriptor,
  type Random,
  Status,
} from "@kubesched/framework";
import { interPodAffinityPlugin as interPodAffinityDescriptor } from "@kubesched/plugin-inter-pod-affinity";
import { nodeResourcesFitPlugin as nodeResourcesFitDescriptor } from "@kubesched/plugin-node-resources-fit";
import { podTopologySpreadPlugin as podTopologySpreadDescriptor } from "@kubesched/plugin-pod-topology-spread";
import { ErrReasonUntoleratedTaint } from "@kubesched/plugin-taint-toleration";
import { type Candidate, getPodStartTime } from "@kubesched/preemption";
import {
  createPluginHarness,
  makeLabelSelector,
  makeNode,
  makePDB,
  makePod,
  type PluginHarness,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { DefaultPreemption, IsEligiblePodFunc, MoreImportantPodFunc } from "./default-preemption";
import { defaultPreemptionPlugin } from "./index";
import {
  epochTime,
  errorPredicateExtender,
  FakeExtender,
  FakeFilterPlugin,
  fakeFilterDescriptor,
  falseFilterPlugin,
  falsePredicateExtender,
  highPriority,
  largeRes,
  lowPriority,
  matchFilterPlugin,
  mediumRes,
  midPriority,
  negPriority,
  node1PredicateExtender,
  nodeToStatus,
  scriptedRandom,
  smallRes,
  testPlugin,
  trueFilterPlugin,
  truePredicateExtender,
  veryHighPriority,
  veryLargeRes,
} from "./test-util";

// The real filter plugins, as upstream's tests register them.
const nodeResourcesFitPlugin = nodeResourcesFitDescriptor as PluginDescriptor;
const interPodAffinityPlugin = interPodAffinityDescriptor as PluginDescriptor;
const podTopologySpreadPlugin = podTopologySpreadDescriptor as PluginDescriptor;

const LabelKeyIsViolatingPDB = "test.kubernetes.io/is-violating-pdb";
const LabelValueViolatingPDB = "violating";
const LabelValueNonViolatingPDB = "non-violating";

const unsched = (): Status => new Status(Code.Unschedulable);
const uau = (): Status => new Status(Code.UnschedulableAndUnresolvable);

interface Setup {
  nodes: Node[];
  pods: Pod[];
  /** The preemptor: added to the pod lister (not to the snapshot). */
  preemptor?: Pod;
  extraPlugins: PluginDescriptor[];
  pdbs?: PodDisruptionBudget[];
  args?: unknown;
  rand?: Random;
  nominatedPods?: Pod[];
  extenders?: Extender[];
  /** Gate SchedulerAsyncPreemption (default: on, as the release default). */
  asyncPreemption?: boolean;
  /** The release emulated (default the framework's). */
  kubernetesVersion?: string;
}

async function setup(s: Setup): Promise<{ h: PluginHarness; pl: DefaultPreemption }> {
  const h = await createPluginHarness({
    plugin: defaultPreemptionPlugin,
    args: s.args,
    nodes: s.nodes,
    pods: s.preemptor ? [...s.pods, s.preemptor] : s.pods,
    objects: { podDisruptionBudgets: s.pdbs ?? [] },
    extraPlugins: s.extraPlugins,
    ...(s.rand ? { rand: s.rand } : {}),
    ...(s.nominatedPods ? { nominatedPods: s.nominatedPods } : {}),
    ...(s.extenders ? { extenders: s.extenders } : {}),
    ...(s.asyncPreemption !== undefined ? { features: { enableAsyncPreemption: s.asyncPreemption } } : {}),
    ...(s.kubernetesVersion !== undefined ? { kubernetesVersion: s.kubernetesVersion } : {}),
  });
  return { h, pl: h.plugin as DefaultPreemption };
}

/** Nodes named "name/zone/region" get hostname/zone/region labels, as upstream's tests. */
function topologyNode(spec: string, capacity: Record<string, string>): Node {
  const labelKeys = ["hostname", "zone", "region"];
  const parts = spec.split("/");
  const w = makeNode()
    .name(parts[0] as string)
    .capacity(capacity);
  parts.forEach((v, i) => {
    w.label(labelKeys[i] as string, v);
  });
  return w.obj();
}

const names = (pods: readonly Pod[]): string[] => pods.map((p) => p.metadata?.name ?? "");

describe("TestPostFilter", () => {
  // 1.37's table (kubernetes/kubernetes#140180): a successful preemption says where and how many.
  const found = (node: string, victims: number) => ({
    code: "Success",
    reasons: [
      `preemption: found a potential placement for pod on node ${node}, preempting ${victims} victims`,
    ],
  });
  const onePodRes = { pods: "1" };
  const nodeRes = { cpu: "200m", memory: "400" };
  const tests: Array<{
    name: string;
    pod: Pod;
    pods: Pod[];
    pdbs?: PodDisruptionBudget[];
    nodes: Node[];
    filteredNodesStatuses: NodeToStatus;
    extender?: Extender;
    wantResult: string | null;
    wantStatus: { code: string; reasons: string[] };
  }> = [
    {
      name: "pod with higher priority can be made schedulable",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).obj(),
      pods: [makePod().name("p1").uid("p1").namespace("default").node("node1").obj()],
      nodes: [makeNode().name("node1").capacity(onePodRes).obj()],
      filteredNodesStatuses: nodeToStatus({ node1: unsched() }, uau()),
      wantResult: "node1",
      wantStatus: found("node1", 1),
    },
    {
      name: "pod with tied priority is still unschedulable",
      pod: makePod().name("p").uid("p").namespace("default").obj(),
      pods: [makePod().name("p1").uid("p1").namespace("default").node("node1").obj()],
      nodes: [makeNode().name("node1").capacity(onePodRes).obj()],
      filteredNodesStatuses: nodeToStatus({ node1: unsched() }, uau()),
      wantResult: "",
      wantStatus: {
        code: "Unschedulable",
        reasons: ["preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."],
      },
    },
    {
      name: "preemption should respect filteredNodesStatuses",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).obj(),
      pods: [makePod().name("p1").uid("p1").namespace("default").node("node1").obj()],
      nodes: [makeNode().name("node1").capacity(onePodRes).obj()],
      filteredNodesStatuses: nodeToStatus({ node1: uau() }, uau()),
      wantResult: "",
      wantStatus: {
        code: "Unschedulable",
        reasons: ["preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."],
      },
    },
    {
      name: "preemption should respect absent NodeToStatusReader entry meaning UnschedulableAndUnresolvable",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).obj(),
      pods: [makePod().name("p1").uid("p1").namespace("default").node("node1").obj()],
      nodes: [makeNode().name("node1").capacity(onePodRes).obj()],
      filteredNodesStatuses: new NodeToStatus(),
      wantResult: "",
      wantStatus: {
        code: "Unschedulable",
        reasons: ["preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."],
      },
    },
    {
      name: "pod can be made schedulable on one node",
      pod: makePod().name("p").uid("p").namespace("default").priority(midPriority).obj(),
      pods: [
        makePod().name("p1").uid("p1").namespace("default").priority(highPriority).node("node1").obj(),
        makePod().name("p2").uid("p2").namespace("default").priority(lowPriority).node("node2").obj(),
      ],
      nodes: [
        makeNode().name("node1").capacity(onePodRes).obj(),
        makeNode().name("node2").capacity(onePodRes).obj(),
      ],
      filteredNodesStatuses: nodeToStatus({ node1: unsched(), node2: unsched() }, uau()),
      wantResult: "node2",
      wantStatus: found("node2", 1),
    },
    {
      name: "pod can be made schedulable on minHighestPriority node",
      pod: makePod().name("p").uid("p").namespace("default").priority(veryHighPriority).obj(),
      pods: [
        makePod()
          .name("p1")
          .uid("p1")
          .label(LabelKeyIsViolatingPDB, LabelValueNonViolatingPDB)
          .namespace("default")
          .priority(highPriority)
          .node("node1")
          .obj(),
        makePod()
          .name("p2")
          .uid("p2")
          .label(LabelKeyIsViolatingPDB, LabelValueViolatingPDB)
          .namespace("default")
          .priority(lowPriority)
          .node("node1")
          .obj(),
        makePod()
          .name("p3")
          .uid("p3")
          .label(LabelKeyIsViolatingPDB, LabelValueViolatingPDB)
          .namespace("default")
          .priority(midPriority)
          .node("node2")
          .obj(),
      ],
      pdbs: [
        makePDB()
          .name("violating-pdb")
          .namespace("default")
          .matchLabel(LabelKeyIsViolatingPDB, LabelValueViolatingPDB)
          .minAvailable("100%")
          .obj(),
        makePDB()
          .name("non-violating-pdb")
          .namespace("default")
          .matchLabel(LabelKeyIsViolatingPDB, LabelValueNonViolatingPDB)
          .minAvailable("0")
          .disruptionsAllowed(2147483647)
          .obj(),
      ],
      nodes: [
        makeNode().name("node1").capacity(onePodRes).obj(),
        makeNode().name("node2").capacity(onePodRes).obj(),
      ],
      filteredNodesStatuses: nodeToStatus({ node1: unsched(), node2: unsched() }, uau()),
      wantResult: "node2",
      wantStatus: found("node2", 1),
    },
    {
      name: "preemption result filtered out by extenders",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).obj(),
      pods: [
        makePod().name("p1").uid("p1").namespace("default").node("node1").obj(),
        makePod().name("p2").uid("p2").namespace("default").node("node2").obj(),
      ],
      nodes: [
        makeNode().name("node1").capacity(onePodRes).obj(),
        makeNode().name("node2").capacity(onePodRes).obj(),
      ],
      filteredNodesStatuses: nodeToStatus({ node1: unsched(), node2: unsched() }, uau()),
      extender: new FakeExtender("FakeExtender1", [node1PredicateExtender]),
      wantResult: "node1",
      wantStatus: found("node1", 1),
    },
    {
      name: "no candidate nodes found, no enough resource after removing low priority pods",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).req(largeRes).obj(),
      pods: [
        makePod().name("p1").uid("p1").namespace("default").node("node1").obj(),
        makePod().name("p2").uid("p2").namespace("default").node("node2").obj(),
      ],
      nodes: [
        makeNode().name("node1").capacity(nodeRes).obj(),
        makeNode().name("node2").capacity(nodeRes).obj(),
      ],
      filteredNodesStatuses: nodeToStatus({ node1: unsched(), node2: unsched() }, uau()),
      wantResult: "",
      wantStatus: {
        code: "Unschedulable",
        reasons: ["preemption: 0/2 nodes are available: 2 Insufficient cpu."],
      },
    },
    {
      name: "no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).req(largeRes).obj(),
      pods: [
        makePod().name("p1").uid("p1").namespace("default").node("node1").priority(highPriority).obj(),
        makePod().name("p2").uid("p2").namespace("default").node("node2").obj(),
        makePod().name("p3").uid("p3").namespace("default").node("node3").priority(highPriority).obj(),
      ],
      nodes: [
        makeNode().name("node1").capacity(onePodRes).obj(),
        makeNode().name("node2").capacity(nodeRes).obj(),
        makeNode().name("node3").capacity(onePodRes).obj(),
      ],
      filteredNodesStatuses: nodeToStatus({ node1: unsched(), node2: unsched(), node3: unsched() }, uau()),
      wantResult: "",
      wantStatus: {
        code: "Unschedulable",
        reasons: [
          "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.",
        ],
      },
    },
    {
      name: "no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have enough CPU resource",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).req(largeRes).obj(),
      pods: [
        makePod().name("p1").uid("p1").namespace("default").node("node1").obj(),
        makePod().name("p2").uid("p2").namespace("default").node("node2").obj(),
      ],
      nodes: [
        makeNode().name("node1").capacity(nodeRes).obj(),
        makeNode().name("node2").capacity(nodeRes).obj(),
        makeNode().name("node3").capacity(nodeRes).obj(),
        makeNode().name("node4").capacity(nodeRes).obj(),
      ],
      filteredNodesStatuses: nodeToStatus({ node1: unsched(), node2: unsched(), node4: uau() }, uau()),
      wantResult: "",
      wantStatus: {
        code: "Unschedulable",
        reasons: [
          "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.",
        ],
      },
    },
    {
      name: "only one node but failed with TestPlugin",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).req(largeRes).obj(),
      pods: [makePod().name("p1").uid("p1").namespace("default").node("node1").obj()],
      // label the node with key as "error" so that the TestPlugin will fail with error.
      nodes: [makeNode().name("node1").capacity(largeRes).label("error", "true").obj()],
      filteredNodesStatuses: nodeToStatus({ node1: unsched() }, uau()),
      wantResult: null,
      wantStatus: {
        code: "Error",
        reasons: ['preemption: running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p'],
      },
    },
    {
      name: "one failed with TestPlugin and the other pass",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).req(largeRes).obj(),
      pods: [
        makePod().name("p1").uid("p1").namespace("default").node("node1").obj(),
        makePod().name("p2").uid("p2").namespace("default").node("node2").req(mediumRes).obj(),
      ],
      // even though node1 will fail with error but node2 will still be returned as a valid nominated node.
      nodes: [
        makeNode().name("node1").capacity(largeRes).label("error", "true").obj(),
        makeNode().name("node2").capacity(largeRes).obj(),
      ],
      filteredNodesStatuses: nodeToStatus({ node1: unsched(), node2: unsched() }, uau()),
      wantResult: "node2",
      wantStatus: found("node2", 1),
    },
  ];

  it("before 1.37, a successful preemption returns Success without a message (1.36's table)", async () => {
    const tt = tests[0] as (typeof tests)[number];
    const { h, pl } = await setup({
      nodes: tt.nodes,
      pods: tt.pods,
      preemptor: tt.pod,
      extraPlugins: [nodeResourcesFitPlugin, testPlugin],
      kubernetesVersion: "1.36",
    });
    const state = h.newCycleState();
    h.runPreFilter(state, tt.pod);
    const { result, status } = await pl.postFilter(state, tt.pod, tt.filteredNodesStatuses);
    expect(statusSummary(status)).toEqual({ code: "Success", reasons: [] });
    expect(result?.nominatingInfo?.nominatedNodeName).toBe("node1");
  });

  for (const tt of tests) {
    it(tt.name, async () => {
      const { h, pl } = await setup({
        nodes: tt.nodes,
        pods: tt.pods,
        preemptor: tt.pod,
        pdbs: tt.pdbs ?? [],
        extraPlugins: [nodeResourcesFitPlugin, testPlugin],
        ...(tt.extender ? { extenders: [tt.extender] } : {}),
      });
      const state = h.newCycleState();
      const pre = h.runPreFilter(state, tt.pod);
      expect(statusSummary(pre.status).code).toBe("Success");
      const { result, status } = await pl.postFilter(state, tt.pod, tt.filteredNodesStatuses);
      expect(statusSummary(status)).toEqual(tt.wantStatus);
      if (tt.wantResult === null) {
        expect(result).toBeNull();
      } else {
        expect(result?.nominatingInfo).toEqual({
          nominatedNodeName: tt.wantResult,
          nominatingMode: NominatingMode.Override,
        });
      }
    });
  }
});

interface DryRunCase {
  name: string;
  args?: { minCandidateNodesPercentage: number; minCandidateNodesAbsolute: number };
  nodeNames: string[];
  testPods: Pod[];
  initPods: Pod[];
  registerPlugins: PluginDescriptor[];
  pdbs?: PodDisruptionBudget[];
  fakeFilterRC?: Code;
  /** Offsets upstream's seeded getOffsetRand produces (seed 4), in cycle order. */
  offsets?: number[];
  expected: Array<Array<{ name: string; pods: string[]; numPDBViolations?: number }>>;
  expectedNumFilterCalled: number[];
}

describe("TestDryRunPreemption", () => {
  const pdbFoo = (allowed: number, disrupted?: Record<string, Date>): PodDisruptionBudget => {
    const w = makePDB()
      .selector({ matchLabels: { app: "foo" } })
      .disruptionsAllowed(allowed);
    if (disrupted) w.disruptedPods(disrupted);
    return w.obj();
  };
  const fiveNodes = ["node1", "node2", "node3", "node4", "node5"];
  const tests: DryRunCase[] = [
    {
      name: "a pod that does not fit on any node",
      registerPlugins: [falseFilterPlugin],
      nodeNames: ["node1", "node2"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).obj()],
      initPods: [
        makePod().name("p1").uid("p1").node("node1").priority(midPriority).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(midPriority).obj(),
      ],
      expected: [[]],
      expectedNumFilterCalled: [2],
    },
    {
      name: "a pod that fits with no preemption",
      registerPlugins: [trueFilterPlugin],
      nodeNames: ["node1", "node2"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).obj()],
      initPods: [
        makePod().name("p1").uid("p1").node("node1").priority(midPriority).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(midPriority).obj(),
      ],
      expected: [[]],
      fakeFilterRC: Code.Unschedulable,
      expectedNumFilterCalled: [2],
    },
    {
      name: "a pod that fits on one node with no preemption",
      registerPlugins: [matchFilterPlugin],
      nodeNames: ["node1", "node2"],
      // Name the pod as "node1" to fit "MatchFilter" plugin.
      testPods: [makePod().name("node1").uid("node1").priority(highPriority).obj()],
      initPods: [
        makePod().name("p1").uid("p1").node("node1").priority(midPriority).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(midPriority).obj(),
      ],
      expected: [[]],
      fakeFilterRC: Code.Unschedulable,
      expectedNumFilterCalled: [2],
    },
    {
      name: "a pod that fits on both nodes when lower priority pods are preempted",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1", "node2"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(largeRes).obj()],
      initPods: [
        makePod().name("p1").uid("p1").node("node1").priority(midPriority).req(largeRes).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(midPriority).req(largeRes).obj(),
      ],
      expected: [
        [
          { name: "node1", pods: ["p1"] },
          { name: "node2", pods: ["p2"] },
        ],
      ],
      expectedNumFilterCalled: [4],
    },
    {
      name: "a pod that would fit on the nodes, but other pods running are higher priority, no preemption would happen",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1", "node2"],
      testPods: [makePod().name("p").uid("p").priority(lowPriority).req(largeRes).obj()],
      initPods: [
        makePod().name("p1").uid("p1").node("node1").priority(midPriority).req(largeRes).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(midPriority).req(largeRes).obj(),
      ],
      expected: [[]],
      expectedNumFilterCalled: [0],
    },
    {
      name: "medium priority pod is preempted, but lower priority one stays as it is small",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1", "node2"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(largeRes).obj()],
      initPods: [
        makePod().name("p1.1").uid("p1.1").node("node1").priority(lowPriority).req(smallRes).obj(),
        makePod().name("p1.2").uid("p1.2").node("node1").priority(midPriority).req(largeRes).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(midPriority).req(largeRes).obj(),
      ],
      expected: [
        [
          { name: "node1", pods: ["p1.2"] },
          { name: "node2", pods: ["p2"] },
        ],
      ],
      expectedNumFilterCalled: [5],
    },
    {
      name: "mixed priority pods are preempted",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1", "node2"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(largeRes).obj()],
      initPods: [
        makePod().name("p1.1").uid("p1.1").node("node1").priority(midPriority).req(smallRes).obj(),
        makePod().name("p1.2").uid("p1.2").node("node1").priority(lowPriority).req(smallRes).obj(),
        makePod().name("p1.3").uid("p1.3").node("node1").priority(midPriority).req(mediumRes).obj(),
        makePod().name("p1.4").uid("p1.4").node("node1").priority(highPriority).req(smallRes).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(highPriority).req(largeRes).obj(),
      ],
      expected: [[{ name: "node1", pods: ["p1.2", "p1.3"] }]],
      expectedNumFilterCalled: [4],
    },
    {
      name: "mixed priority pods are preempted, pick later StartTime one when priorities are equal",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1", "node2"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(largeRes).obj()],
      initPods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .startTime(epochTime(5))
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .startTime(epochTime(4))
          .obj(),
        makePod()
          .name("p1.3")
          .uid("p1.3")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(3))
          .obj(),
        makePod()
          .name("p1.4")
          .uid("p1.4")
          .node("node1")
          .priority(highPriority)
          .req(smallRes)
          .startTime(epochTime(2))
          .obj(),
        makePod()
          .name("p2")
          .uid("p2")
          .node("node2")
          .priority(highPriority)
          .req(largeRes)
          .startTime(epochTime(1))
          .obj(),
      ],
      expected: [[{ name: "node1", pods: ["p1.1", "p1.3"] }]],
      // no preemption would happen on node2 and no filter call is counted.
      expectedNumFilterCalled: [4],
    },
    {
      name: "pod with anti-affinity is preempted",
      registerPlugins: [nodeResourcesFitPlugin, interPodAffinityPlugin],
      nodeNames: ["node1", "node2"],
      testPods: [makePod().name("p").uid("p").label("foo", "").priority(highPriority).req(smallRes).obj()],
      initPods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .label("foo", "")
          .priority(lowPriority)
          .req(smallRes)
          .podAntiAffinityExists("foo", "hostname", "required")
          .obj(),
        makePod().name("p1.2").uid("p1.2").node("node1").priority(midPriority).req(smallRes).obj(),
        makePod().name("p1.3").uid("p1.3").node("node1").priority(highPriority).req(smallRes).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(highPriority).req(smallRes).obj(),
      ],
      expected: [[{ name: "node1", pods: ["p1.1"] }]],
      // no preemption would happen on node2 and no filter call is counted.
      expectedNumFilterCalled: [3],
    },
    {
      name: "preemption to resolve pod topology spread filter failure",
      registerPlugins: [podTopologySpreadPlugin],
      nodeNames: ["node-a/zone1", "node-b/zone1", "node-x/zone2"],
      testPods: [
        makePod()
          .name("p")
          .uid("p")
          .label("foo", "")
          .priority(highPriority)
          .spreadConstraint(1, "zone", "DoNotSchedule", makeLabelSelector().exists("foo").obj())
          .spreadConstraint(1, "hostname", "DoNotSchedule", makeLabelSelector().exists("foo").obj())
          .obj(),
      ],
      initPods: [
        makePod().name("pod-a1").uid("pod-a1").node("node-a").label("foo", "").priority(midPriority).obj(),
        makePod().name("pod-a2").uid("pod-a2").node("node-a").label("foo", "").priority(lowPriority).obj(),
        makePod().name("pod-b1").uid("pod-b1").node("node-b").label("foo", "").priority(lowPriority).obj(),
        makePod().name("pod-x1").uid("pod-x1").node("node-x").label("foo", "").priority(highPriority).obj(),
        makePod().name("pod-x2").uid("pod-x2").node("node-x").label("foo", "").priority(highPriority).obj(),
      ],
      expected: [
        [
          { name: "node-a", pods: ["pod-a2"] },
          { name: "node-b", pods: ["pod-b1"] },
        ],
      ],
      // node-a (3), node-b (2), node-x (0)
      expectedNumFilterCalled: [5],
    },
    {
      name: "get Unschedulable in the preemption phase when the filter plugins filtering the nodes",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1", "node2"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(largeRes).obj()],
      initPods: [
        makePod().name("p1").uid("p1").node("node1").priority(midPriority).req(largeRes).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(midPriority).req(largeRes).obj(),
      ],
      fakeFilterRC: Code.Unschedulable,
      expected: [[]],
      expectedNumFilterCalled: [2],
    },
    {
      name: "preemption with violation of same pdb",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj()],
      initPods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
      ],
      pdbs: [pdbFoo(1)],
      expected: [[{ name: "node1", pods: ["p1.1", "p1.2"], numPDBViolations: 1 }]],
      expectedNumFilterCalled: [3],
    },
    {
      name: "preemption with violation of the pdb with pod whose eviction was processed, the victim doesn't belong to DisruptedPods",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj()],
      initPods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
      ],
      pdbs: [pdbFoo(1, { p2: new Date() })],
      expected: [[{ name: "node1", pods: ["p1.1", "p1.2"], numPDBViolations: 1 }]],
      expectedNumFilterCalled: [3],
    },
    {
      name: "preemption with violation of the pdb with pod whose eviction was processed, the victim belongs to DisruptedPods",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj()],
      initPods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
      ],
      pdbs: [pdbFoo(1, { "p1.2": new Date() })],
      expected: [[{ name: "node1", pods: ["p1.1", "p1.2"], numPDBViolations: 0 }]],
      expectedNumFilterCalled: [3],
    },
    {
      name: "preemption with violation of the pdb with pod whose eviction was processed, the victim which belongs to DisruptedPods is treated as 'nonViolating'",
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: ["node1"],
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj()],
      initPods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
        makePod()
          .name("p1.3")
          .uid("p1.3")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
      ],
      pdbs: [pdbFoo(1, { "p1.3": new Date() })],
      expected: [[{ name: "node1", pods: ["p1.1", "p1.2", "p1.3"], numPDBViolations: 1 }]],
      expectedNumFilterCalled: [4],
    },
    {
      name: "all nodes are possible candidates, but DefaultPreemptionArgs limits to 2",
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: fiveNodes,
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(largeRes).obj()],
      initPods: fiveNodes.map((n, i) =>
        makePod()
          .name(`p${i + 1}`)
          .uid(`p${i + 1}`)
          .node(n)
          .priority(midPriority)
          .req(largeRes)
          .obj(),
      ),
      offsets: [4],
      // cycle=0 => offset=4 => node5 (yes), node1 (yes)
      expected: [
        [
          { name: "node1", pods: ["p1"] },
          { name: "node5", pods: ["p5"] },
        ],
      ],
      expectedNumFilterCalled: [4],
    },
    {
      name: "some nodes are not possible candidates, DefaultPreemptionArgs limits to 2",
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: fiveNodes,
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(largeRes).obj()],
      initPods: [
        makePod().name("p1").uid("p1").node("node1").priority(midPriority).req(largeRes).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(veryHighPriority).req(largeRes).obj(),
        makePod().name("p3").uid("p3").node("node3").priority(midPriority).req(largeRes).obj(),
        makePod().name("p4").uid("p4").node("node4").priority(midPriority).req(largeRes).obj(),
        makePod().name("p5").uid("p5").node("node5").priority(veryHighPriority).req(largeRes).obj(),
      ],
      offsets: [4],
      // cycle=0 => offset=4 => node5 (no), node1 (yes), node2 (no), node3 (yes)
      expected: [
        [
          { name: "node1", pods: ["p1"] },
          { name: "node3", pods: ["p3"] },
        ],
      ],
      expectedNumFilterCalled: [4],
    },
    {
      name: "preemption offset across multiple scheduling cycles and wrap around",
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: fiveNodes,
      testPods: ["tp1", "tp2", "tp3"].map((n) =>
        makePod().name(n).uid(n).priority(highPriority).req(largeRes).obj(),
      ),
      initPods: fiveNodes.map((n, i) =>
        makePod()
          .name(`p${i + 1}`)
          .uid(`p${i + 1}`)
          .node(n)
          .priority(midPriority)
          .req(largeRes)
          .obj(),
      ),
      offsets: [4, 1, 3],
      expected: [
        // cycle=0 => offset=4 => node5 (yes), node1 (yes)
        [
          { name: "node1", pods: ["p1"] },
          { name: "node5", pods: ["p5"] },
        ],
        // cycle=1 => offset=1 => node2 (yes), node3 (yes)
        [
          { name: "node2", pods: ["p2"] },
          { name: "node3", pods: ["p3"] },
        ],
        // cycle=2 => offset=3 => node4 (yes), node5 (yes)
        [
          { name: "node4", pods: ["p4"] },
          { name: "node5", pods: ["p5"] },
        ],
      ],
      expectedNumFilterCalled: [4, 4, 4],
    },
    {
      name: "preemption looks past numCandidates until a non-PDB violating node is found",
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 2 },
      registerPlugins: [nodeResourcesFitPlugin],
      nodeNames: fiveNodes,
      testPods: [makePod().name("p").uid("p").priority(highPriority).req(largeRes).obj()],
      initPods: [
        makePod()
          .name("p1")
          .uid("p1")
          .node("node1")
          .label("app", "foo")
          .priority(midPriority)
          .req(largeRes)
          .obj(),
        makePod()
          .name("p2")
          .uid("p2")
          .node("node2")
          .label("app", "foo")
          .priority(midPriority)
          .req(largeRes)
          .obj(),
        makePod().name("p3").uid("p3").node("node3").priority(midPriority).req(largeRes).obj(),
        makePod().name("p4").uid("p4").node("node4").priority(midPriority).req(largeRes).obj(),
        makePod()
          .name("p5")
          .uid("p5")
          .node("node5")
          .label("app", "foo")
          .priority(midPriority)
          .req(largeRes)
          .obj(),
      ],
      pdbs: [pdbFoo(0)],
      offsets: [4],
      // Even though the DefaultPreemptionArgs constraints suggest that the minimum number of
      // candidates is 2, we get three candidates here because we're okay with being a little
      // over. cycle=0 => offset=4 => node5 (yes, pdb), node1 (yes, pdb), node2 (no, pdb), node3 (yes)
      expected: [
        [
          { name: "node1", pods: ["p1"], numPDBViolations: 1 },
          { name: "node3", pods: ["p3"] },
          { name: "node5", pods: ["p5"], numPDBViolations: 1 },
        ],
      ],
      expectedNumFilterCalled: [8],
    },
  ];

  for (const tt of tests) {
    it(tt.name, async () => {
      const nodes = tt.nodeNames.map((n) => topologyNode(n, veryLargeRes));
      const rc = new Map<string, Code>();
      for (const n of nodes) rc.set(n.metadata?.name ?? "", tt.fakeFilterRC ?? Code.Success);
      const fake = new FakeFilterPlugin(rc);
      const { h, pl } = await setup({
        nodes,
        pods: tt.initPods,
        pdbs: tt.pdbs ?? [],
        extraPlugins: [fakeFilterDescriptor(fake), ...tt.registerPlugins],
        args: tt.args,
        rand: scriptedRandom(tt.offsets ?? [0]),
      });
      const nodeInfos = [...h.snapshot.nodeInfos().list()].sort((a, b) =>
        a.nodeName < b.nodeName ? -1 : a.nodeName > b.nodeName ? 1 : 0,
      );
      let prev = 0;
      tt.testPods.forEach((pod, cycle) => {
        const state = h.newCycleState();
        const pre = h.runPreFilter(state, pod);
        expect(statusSummary(pre.status).code).toBe("Success");
        const { offset, numCandidates } = pl.getOffsetAndNumCandidates(nodeInfos.length);
        const { candidates } = pl.evaluator.dryRunPreemption(
          state,
          pod,
          nodeInfos,
          tt.pdbs ?? [],
          offset,
          numCandidates,
        );
        const got = candidates
          .map((c: Candidate) => ({
            name: c.name,
            pods: names(c.victims.pods).sort(),
            numPDBViolations: c.victims.numPDBViolations,
          }))
          .sort((a, b) => (a.name < b.name ? -1 : 1));
        expect(fake.numFilterCalled - prev).toBe(tt.expectedNumFilterCalled[cycle]);
        prev = fake.numFilterCalled;
        expect(got).toEqual(
          (tt.expected[cycle] ?? []).map((c) => ({ ...c, numPDBViolations: c.numPDBViolations ?? 0 })),
        );
      });
    });
  }
});

describe("TestSelectBestCandidate", () => {
  const t0 = epochTime();
  const tests: Array<{ name: string; nodeNames: string[]; pod: Pod; pods: Pod[]; expected: string[] }> = [
    {
      name: "a pod that fits on both nodes when lower priority pods are preempted",
      nodeNames: ["node1", "node2"],
      pod: makePod().name("p").uid("p").priority(highPriority).req(largeRes).obj(),
      pods: [
        makePod().name("p1").uid("p1").node("node1").priority(midPriority).req(largeRes).startTime(t0).obj(),
        makePod().name("p2").uid("p2").node("node2").priority(midPriority).req(largeRes).startTime(t0).obj(),
      ],
      expected: ["node1", "node2"],
    },
    {
      name: "node with min highest priority pod is picked",
      nodeNames: ["node1", "node2", "node3"],
      pod: makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .priority(midPriority)
          .req(largeRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .node("node2")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p2.2")
          .uid("p2.2")
          .node("node2")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .node("node3")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.2")
          .uid("p3.2")
          .node("node3")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
      ],
      expected: ["node3"],
    },
    {
      name: "when highest priorities are the same, minimum sum of priorities is picked",
      nodeNames: ["node1", "node2", "node3"],
      pod: makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .priority(midPriority)
          .req(largeRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .node("node2")
          .priority(midPriority)
          .req(largeRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p2.2")
          .uid("p2.2")
          .node("node2")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.2")
          .uid("p3.2")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
      ],
      expected: ["node2"],
    },
    {
      name: "when highest priority and sum are the same, minimum number of pods is picked",
      nodeNames: ["node1", "node2", "node3"],
      pod: makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .priority(midPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .priority(negPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p1.3")
          .uid("p1.3")
          .node("node1")
          .priority(midPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p1.4")
          .uid("p1.4")
          .node("node1")
          .priority(negPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .node("node2")
          .priority(midPriority)
          .req(largeRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p2.2")
          .uid("p2.2")
          .node("node2")
          .priority(negPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.2")
          .uid("p3.2")
          .node("node3")
          .priority(negPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.3")
          .uid("p3.3")
          .node("node3")
          .priority(lowPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
      ],
      expected: ["node2"],
    },
    {
      // pickOneNodeForPreemption adjusts pod priorities when finding the sum of the victims.
      // This test ensures that the logic works correctly.
      name: "sum of adjusted priorities is considered",
      nodeNames: ["node1", "node2", "node3"],
      pod: makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .priority(midPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .priority(negPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p1.3")
          .uid("p1.3")
          .node("node1")
          .priority(negPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .node("node2")
          .priority(midPriority)
          .req(largeRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p2.2")
          .uid("p2.2")
          .node("node2")
          .priority(negPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.2")
          .uid("p3.2")
          .node("node3")
          .priority(negPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.3")
          .uid("p3.3")
          .node("node3")
          .priority(lowPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
      ],
      expected: ["node2"],
    },
    {
      name: "non-overlapping lowest high priority, sum priorities, and number of pods",
      nodeNames: ["node1", "node2", "node3", "node4"],
      pod: makePod().name("p").uid("p").priority(veryHighPriority).req(veryLargeRes).obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .priority(midPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p1.3")
          .uid("p1.3")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .node("node2")
          .priority(highPriority)
          .req(largeRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.2")
          .uid("p3.2")
          .node("node3")
          .priority(lowPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.3")
          .uid("p3.3")
          .node("node3")
          .priority(lowPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p3.4")
          .uid("p3.4")
          .node("node3")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p4.1")
          .uid("p4.1")
          .node("node4")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p4.2")
          .uid("p4.2")
          .node("node4")
          .priority(midPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p4.3")
          .uid("p4.3")
          .node("node4")
          .priority(midPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
        makePod()
          .name("p4.4")
          .uid("p4.4")
          .node("node4")
          .priority(negPriority)
          .req(smallRes)
          .startTime(t0)
          .obj(),
      ],
      expected: ["node1"],
    },
    {
      name: "same priority, same number of victims, different start time for each node's pod",
      nodeNames: ["node1", "node2", "node3"],
      pod: makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(2))
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(2))
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .node("node2")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(3))
          .obj(),
        makePod()
          .name("p2.2")
          .uid("p2.2")
          .node("node2")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(3))
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(1))
          .obj(),
        makePod()
          .name("p3.2")
          .uid("p3.2")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(1))
          .obj(),
      ],
      expected: ["node2"],
    },
    {
      name: "same priority, same number of victims, different start time for all pods",
      nodeNames: ["node1", "node2", "node3"],
      pod: makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(4))
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(2))
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .node("node2")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(5))
          .obj(),
        makePod()
          .name("p2.2")
          .uid("p2.2")
          .node("node2")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(1))
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(3))
          .obj(),
        makePod()
          .name("p3.2")
          .uid("p3.2")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(6))
          .obj(),
      ],
      expected: ["node3"],
    },
    {
      name: "different priority, same number of victims, different start time for all pods",
      nodeNames: ["node1", "node2", "node3"],
      pod: makePod().name("p").uid("p").priority(highPriority).req(veryLargeRes).obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .node("node1")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(epochTime(4))
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(2))
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .node("node2")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(6))
          .obj(),
        makePod()
          .name("p2.2")
          .uid("p2.2")
          .node("node2")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(epochTime(1))
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .node("node3")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(epochTime(3))
          .obj(),
        makePod()
          .name("p3.2")
          .uid("p3.2")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(5))
          .obj(),
      ],
      expected: ["node2"],
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const nodes = tt.nodeNames.map((n) => makeNode().name(n).capacity(veryLargeRes).obj());
      const { h, pl } = await setup({
        nodes,
        pods: tt.pods,
        extraPlugins: [nodeResourcesFitPlugin],
        rand: scriptedRandom([4]),
      });
      const nodeInfos = h.snapshot.nodeInfos().list();
      const state = h.newCycleState();
      expect(statusSummary(h.runPreFilter(state, tt.pod).status).code).toBe("Success");
      const { offset, numCandidates } = pl.getOffsetAndNumCandidates(nodeInfos.length);
      const { candidates } = pl.evaluator.dryRunPreemption(
        state,
        tt.pod,
        nodeInfos,
        [],
        offset,
        numCandidates,
      );
      const s = pl.evaluator.selectCandidate(candidates);
      expect(s?.name).toBeTruthy();
      expect(tt.expected).toContain(s?.name);
    });
  }
});

describe("TestCustomSelection", () => {
  const t0 = epochTime();
  const podLabelIsEligible =
    (key: string, val: string): IsEligiblePodFunc =>
    (_ni, victim) =>
      victim.pod.metadata?.labels?.[key] === val;
  const nodeNameIsEligible =
    (name: string): IsEligiblePodFunc =>
    (ni) =>
      ni.nodeName === name;
  const priorityBelowThresholdCannotPreempt =
    (minPreempting: number): IsEligiblePodFunc =>
    (_ni, _victim, preemptor) =>
      (preemptor.spec?.priority ?? 0) >= minPreempting;
  const priorityAboveThresholdCannotBePreempted =
    (maxPreemptible: number): IsEligiblePodFunc =>
    (_ni, victim) =>
      (victim.pod.spec?.priority ?? 0) <= maxPreemptible;
  const labelPods = (): Pod[] => [
    makePod()
      .name("v1")
      .uid("v1")
      .label("preemptible", "no")
      .node("node1")
      .priority(midPriority)
      .req(largeRes)
      .startTime(t0)
      .obj(),
    makePod()
      .name("v2")
      .uid("v2")
      .label("preemptible", "yes")
      .node("node2")
      .priority(midPriority)
      .req(largeRes)
      .startTime(t0)
      .obj(),
    makePod()
      .name("v3")
      .uid("v3")
      .label("preemptible", "yes")
      .node("node3")
      .priority(lowPriority)
      .req(largeRes)
      .startTime(t0)
      .obj(),
    makePod().name("v4").uid("v4").node("node4").priority(lowPriority).req(largeRes).startTime(t0).obj(),
  ];
  const nodePods = (v1Res: Record<string, string>): Pod[] => [
    makePod().name("v1").uid("v1").node("node1").priority(highPriority).req(v1Res).startTime(t0).obj(),
    makePod().name("v2").uid("v2").node("node1").priority(midPriority).req(smallRes).startTime(t0).obj(),
    makePod().name("v3").uid("v3").node("node1").priority(lowPriority).req(smallRes).startTime(t0).obj(),
    makePod().name("v4").uid("v4").node("node2").priority(midPriority).req(largeRes).startTime(t0).obj(),
    makePod().name("v5").uid("v5").node("node3").priority(lowPriority).req(largeRes).startTime(t0).obj(),
  ];
  const thresholdPods = (): Pod[] => [
    makePod().name("v1").uid("v1").node("node1").priority(highPriority).req(largeRes).startTime(t0).obj(),
    makePod().name("v2").uid("v2").node("node2").priority(midPriority).req(largeRes).startTime(t0).obj(),
    makePod().name("v3").uid("v3").node("node3").priority(lowPriority).req(largeRes).startTime(t0).obj(),
  ];
  const four = ["node1", "node2", "node3", "node4"];
  const three = ["node1", "node2", "node3"];
  const tests: Array<{
    name: string;
    eligiblePods: IsEligiblePodFunc;
    nodeNames: string[];
    pod: Pod;
    pods: Pod[];
    expected: Record<string, string[]>;
  }> = [
    {
      name: "filter for matching pod label: high priority",
      eligiblePods: podLabelIsEligible("preemptible", "yes"),
      nodeNames: four,
      pod: makePod().name("p1").uid("p1").priority(highPriority).req(largeRes).obj(),
      pods: labelPods(),
      expected: { node2: ["v2"], node3: ["v3"] },
    },
    {
      name: "filter for matching pod label: mid priority",
      eligiblePods: podLabelIsEligible("preemptible", "yes"),
      nodeNames: four,
      pod: makePod().name("p2").uid("p2").priority(midPriority).req(largeRes).obj(),
      pods: labelPods(),
      expected: { node3: ["v3"] },
    },
    {
      name: "filter for matching pod label: low priority",
      eligiblePods: podLabelIsEligible("preemptible", "yes"),
      nodeNames: four,
      pod: makePod().name("p3").uid("p3").priority(lowPriority).req(largeRes).obj(),
      pods: labelPods(),
      expected: {},
    },
    {
      name: "filter for matching victim node: high priority",
      eligiblePods: nodeNameIsEligible("node1"),
      nodeNames: three,
      pod: makePod().name("p3").uid("p3").priority(highPriority).req(largeRes).obj(),
      pods: nodePods(mediumRes),
      expected: { node1: ["v2", "v3"] },
    },
    {
      name: "filter for matching victim node: mid priority",
      eligiblePods: nodeNameIsEligible("node1"),
      nodeNames: three,
      pod: makePod().name("p3").uid("p3").priority(midPriority).req(largeRes).obj(),
      pods: nodePods(smallRes),
      expected: { node1: ["v3"] },
    },
    {
      name: "filter for matching victim node: low priority",
      eligiblePods: nodeNameIsEligible("node1"),
      nodeNames: three,
      pod: makePod().name("p3").uid("p3").priority(lowPriority).req(largeRes).obj(),
      pods: nodePods(smallRes),
      expected: {},
    },
    {
      name: "only pods at or above specified priority can preempted: high priority",
      eligiblePods: priorityBelowThresholdCannotPreempt(highPriority),
      nodeNames: three,
      pod: makePod().name("p1").uid("p1").priority(highPriority).req(largeRes).obj(),
      pods: thresholdPods(),
      // highPriority can preempt anything, but not other highPriority
      expected: { node2: ["v2"], node3: ["v3"] },
    },
    {
      name: "only pods at or above specified priority can preempted: mid priority",
      eligiblePods: priorityBelowThresholdCannotPreempt(highPriority),
      nodeNames: three,
      pod: makePod().name("p2").uid("p2").priority(midPriority).req(largeRes).obj(),
      pods: thresholdPods(),
      // midPriority can't preempt anything
      expected: {},
    },
    {
      name: "only pods at or below specified priority can be preempted: high priority",
      eligiblePods: priorityAboveThresholdCannotBePreempted(midPriority),
      nodeNames: three,
      pod: makePod().name("p1").uid("p1").priority(highPriority).req(largeRes).obj(),
      pods: thresholdPods(),
      // the lowPriority pod can be preempted but not the midPriority pod
      expected: { node2: ["v2"], node3: ["v3"] },
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const nodes = tt.nodeNames.map((n) => makeNode().name(n).capacity(veryLargeRes).obj());
      const { h, pl } = await setup({ nodes, pods: tt.pods, extraPlugins: [nodeResourcesFitPlugin] });
      const state = h.newCycleState();
      expect(statusSummary(h.runPreFilter(state, tt.pod).status).code).toBe("Success");
      pl.isEligiblePod = tt.eligiblePods;
      const nodeInfos = h.snapshot.nodeInfos().list();
      const { offset, numCandidates } = pl.getOffsetAndNumCandidates(nodeInfos.length);
      let { candidates } = pl.evaluator.dryRunPreemption(state, tt.pod, nodeInfos, [], offset, numCandidates);
      expect(candidates.length).toBe(Object.keys(tt.expected).length);
      while (candidates.length > 0) {
        const selected = pl.evaluator.selectCandidate(candidates) as Candidate;
        expect(Object.keys(tt.expected)).toContain(selected.name);
        expect(names(selected.victims.pods)).toEqual(tt.expected[selected.name]);
        candidates = candidates.filter((c) => c.name !== selected.name);
      }
    });
  }
});

describe("TestCustomOrdering", () => {
  const orderByOldestStart: MoreImportantPodFunc = (a, b) => getPodStartTime(a, 0) < getPodStartTime(b, 0);
  const orderByPodName: MoreImportantPodFunc = (a, b) => (a.metadata?.name ?? "") < (b.metadata?.name ?? "");
  const tests: Array<{
    name: string;
    orderPods: MoreImportantPodFunc;
    pod: Pod;
    pods: Pod[];
    expectedPods: string[];
  }> = [
    {
      name: "select newest pods",
      orderPods: orderByOldestStart,
      pod: makePod().name("p2").uid("p2").priority(highPriority).req(largeRes).obj(),
      // size victims to require at least two to be preempted
      pods: [
        makePod()
          .name("v1")
          .uid("v1")
          .node("node1")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(epochTime(2))
          .obj(),
        makePod()
          .name("v2")
          .uid("v2")
          .node("node1")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(epochTime())
          .obj(),
        makePod()
          .name("v3")
          .uid("v3")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime(1))
          .obj(),
      ],
      // the newest two pods are selected, despite one with higher priority
      expectedPods: ["v3", "v1"],
    },
    {
      name: "select alphabetically-last pods",
      orderPods: orderByPodName,
      pod: makePod().name("p2").uid("p2").priority(highPriority).req(largeRes).obj(),
      // size victims to require at least two to be preempted
      pods: [
        makePod()
          .name("foo")
          .uid("v1")
          .node("node1")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(epochTime())
          .obj(),
        makePod()
          .name("bar")
          .uid("v2")
          .node("node1")
          .priority(lowPriority)
          .req(mediumRes)
          .startTime(epochTime())
          .obj(),
        makePod()
          .name("baz")
          .uid("v3")
          .node("node1")
          .priority(midPriority)
          .req(mediumRes)
          .startTime(epochTime())
          .obj(),
      ],
      // the last pods in alphabetic order are selected, despite one with higher priority
      expectedPods: ["baz", "foo"],
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const nodes = [makeNode().name("node1").capacity(veryLargeRes).obj()];
      const { h, pl } = await setup({ nodes, pods: tt.pods, extraPlugins: [nodeResourcesFitPlugin] });
      const state = h.newCycleState();
      expect(statusSummary(h.runPreFilter(state, tt.pod).status).code).toBe("Success");
      pl.moreImportantPod = tt.orderPods;
      const nodeInfos = h.snapshot.nodeInfos().list();
      const { offset, numCandidates } = pl.getOffsetAndNumCandidates(nodeInfos.length);
      const { candidates } = pl.evaluator.dryRunPreemption(
        state,
        tt.pod,
        nodeInfos,
        [],
        offset,
        numCandidates,
      );
      expect(candidates.length).toBe(1);
      expect(names((candidates[0] as Candidate).victims.pods)).toEqual(tt.expectedPods);
    });
  }
});

describe("TestPodEligibleToPreemptOthers", () => {
  const tests: Array<{
    name: string;
    pod: Pod;
    pods: Pod[];
    nodes: string[];
    nominatedNodeStatus: Status | null;
    expected: boolean;
  }> = [
    {
      name: "Pod with nominated node",
      pod: makePod()
        .name("p_with_nominated_node")
        .uid("p")
        .priority(highPriority)
        .nominatedNodeName("node1")
        .obj(),
      pods: [makePod().name("p1").uid("p1").priority(lowPriority).node("node1").terminating().obj()],
      nodes: ["node1"],
      nominatedNodeStatus: new Status(Code.UnschedulableAndUnresolvable, ErrReasonUntoleratedTaint),
      expected: true,
    },
    {
      name: "Pod without nominated node",
      pod: makePod().name("p_without_nominated_node").uid("p").priority(highPriority).obj(),
      pods: [],
      nodes: [],
      nominatedNodeStatus: null,
      expected: true,
    },
    {
      name: "Pod with 'PreemptNever' preemption policy",
      pod: makePod()
        .name("p_with_preempt_never_policy")
        .uid("p")
        .priority(highPriority)
        .preemptionPolicy("Never")
        .obj(),
      pods: [],
      nodes: [],
      nominatedNodeStatus: null,
      expected: false,
    },
    {
      name: "preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition",
      pod: makePod()
        .name("p_with_nominated_node")
        .uid("p")
        .priority(highPriority)
        .nominatedNodeName("node1")
        .obj(),
      pods: [
        makePod()
          .name("p1")
          .uid("p1")
          .priority(lowPriority)
          .node("node1")
          .terminating()
          .condition("DisruptionTarget", "True", "PreemptionByScheduler")
          .obj(),
      ],
      nodes: ["node1"],
      nominatedNodeStatus: null,
      expected: false,
    },
    {
      name: "non-victim Pods terminating",
      pod: makePod()
        .name("p_with_nominated_node")
        .uid("p")
        .priority(highPriority)
        .nominatedNodeName("node1")
        .obj(),
      pods: [makePod().name("p1").uid("p1").priority(lowPriority).node("node1").terminating().obj()],
      nodes: ["node1"],
      nominatedNodeStatus: null,
      expected: true,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const { pl } = await setup({
        nodes: tt.nodes.map((n) => makeNode().name(n).obj()),
        pods: tt.pods,
        extraPlugins: [],
      });
      expect(pl.podEligibleToPreemptOthers(tt.pod, tt.nominatedNodeStatus).eligible).toBe(tt.expected);
    });
  }

  it("reasons are upstream's", async () => {
    const { pl } = await setup({ nodes: [], pods: [], extraPlugins: [] });
    const never = makePod().name("p").priority(highPriority).preemptionPolicy("Never").obj();
    expect(pl.podEligibleToPreemptOthers(never, null).reason).toBe(
      "not eligible due to preemptionPolicy=Never.",
    );
  });
});

describe("TestPreempt", () => {
  const tests: Array<{
    name: string;
    pod: Pod;
    pods: Pod[];
    extenders?: FakeExtender[];
    nodeNames: string[];
    registerPlugin: PluginDescriptor;
    want: string | null;
    expectedPods: string[];
  }> = [
    {
      name: "basic preemption logic",
      pod: makePod()
        .name("p")
        .uid("p")
        .namespace("default")
        .priority(highPriority)
        .req(veryLargeRes)
        .preemptionPolicy("PreemptLowerPriority")
        .obj(),
      pods: [
        makePod().name("p1.1").uid("p1.1").node("node1").priority(lowPriority).req(smallRes).obj(),
        makePod().name("p1.2").uid("p1.2").node("node1").priority(lowPriority).req(smallRes).obj(),
        makePod().name("p2.1").uid("p2.1").node("node2").priority(highPriority).req(largeRes).obj(),
        makePod().name("p3.1").uid("p3.1").node("node3").priority(midPriority).req(mediumRes).obj(),
      ],
      nodeNames: ["node1", "node2", "node3"],
      registerPlugin: nodeResourcesFitPlugin,
      want: "node1",
      expectedPods: ["p1.1", "p1.2"],
    },
    {
      name: "preemption for topology spread constraints",
      pod: makePod()
        .name("p")
        .uid("p")
        .namespace("default")
        .label("foo", "")
        .priority(highPriority)
        .spreadConstraint(1, "zone", "DoNotSchedule", makeLabelSelector().exists("foo").obj())
        .spreadConstraint(1, "hostname", "DoNotSchedule", makeLabelSelector().exists("foo").obj())
        .obj(),
      pods: [
        makePod()
          .name("p-a1")
          .uid("p-a1")
          .namespace("default")
          .node("node-a")
          .label("foo", "")
          .priority(highPriority)
          .obj(),
        makePod()
          .name("p-a2")
          .uid("p-a2")
          .namespace("default")
          .node("node-a")
          .label("foo", "")
          .priority(highPriority)
          .obj(),
        makePod()
          .name("p-b1")
          .uid("p-b1")
          .namespace("default")
          .node("node-b")
          .label("foo", "")
          .priority(lowPriority)
          .obj(),
        makePod()
          .name("p-x1")
          .uid("p-x1")
          .namespace("default")
          .node("node-x")
          .label("foo", "")
          .priority(highPriority)
          .obj(),
        makePod()
          .name("p-x2")
          .uid("p-x2")
          .namespace("default")
          .node("node-x")
          .label("foo", "")
          .priority(highPriority)
          .obj(),
      ],
      nodeNames: ["node-a/zone1", "node-b/zone1", "node-x/zone2"],
      registerPlugin: podTopologySpreadPlugin,
      want: "node-b",
      expectedPods: ["p-b1"],
    },
    {
      name: "Scheduler extenders allow only node1, otherwise node3 would have been chosen",
      pod: makePod()
        .name("p")
        .uid("p")
        .namespace("default")
        .priority(highPriority)
        .req(veryLargeRes)
        .preemptionPolicy("PreemptLowerPriority")
        .obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .namespace("default")
          .node("node1")
          .priority(midPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .namespace("default")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .namespace("default")
          .node("node3")
          .priority(midPriority)
          .req(largeRes)
          .obj(),
      ],
      nodeNames: ["node1", "node2", "node3"],
      extenders: [
        new FakeExtender("FakeExtender1", [truePredicateExtender]),
        new FakeExtender("FakeExtender2", [node1PredicateExtender]),
      ],
      registerPlugin: nodeResourcesFitPlugin,
      want: "node1",
      expectedPods: ["p1.1", "p1.2"],
    },
    {
      name: "Scheduler extenders do not allow any preemption",
      pod: makePod()
        .name("p")
        .uid("p")
        .namespace("default")
        .priority(highPriority)
        .req(veryLargeRes)
        .preemptionPolicy("PreemptLowerPriority")
        .obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .namespace("default")
          .node("node1")
          .priority(midPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .namespace("default")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .namespace("default")
          .node("node2")
          .priority(midPriority)
          .req(largeRes)
          .obj(),
      ],
      nodeNames: ["node1", "node2", "node3"],
      extenders: [new FakeExtender("FakeExtender1", [falsePredicateExtender])],
      registerPlugin: nodeResourcesFitPlugin,
      want: null,
      expectedPods: [],
    },
    {
      name: "One scheduler extender allows only node1, the other returns error but ignorable. Only node1 would be chosen",
      pod: makePod()
        .name("p")
        .uid("p")
        .namespace("default")
        .priority(highPriority)
        .req(veryLargeRes)
        .preemptionPolicy("PreemptLowerPriority")
        .obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .namespace("default")
          .node("node1")
          .priority(midPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .namespace("default")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .namespace("default")
          .node("node2")
          .priority(midPriority)
          .req(largeRes)
          .obj(),
      ],
      nodeNames: ["node1", "node2", "node3"],
      extenders: [
        new FakeExtender("FakeExtender1", [errorPredicateExtender], { ignorable: true }),
        new FakeExtender("FakeExtender2", [node1PredicateExtender]),
      ],
      registerPlugin: nodeResourcesFitPlugin,
      want: "node1",
      expectedPods: ["p1.1", "p1.2"],
    },
    {
      name: "One scheduler extender allows only node1, but it is not interested in given pod, otherwise node1 would have been chosen",
      pod: makePod()
        .name("p")
        .uid("p")
        .namespace("default")
        .priority(highPriority)
        .req(veryLargeRes)
        .preemptionPolicy("PreemptLowerPriority")
        .obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .namespace("default")
          .node("node1")
          .priority(midPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .namespace("default")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .namespace("default")
          .node("node2")
          .priority(midPriority)
          .req(largeRes)
          .obj(),
      ],
      nodeNames: ["node1", "node2"],
      extenders: [
        new FakeExtender("FakeExtender1", [node1PredicateExtender], { unInterested: true }),
        new FakeExtender("FakeExtender2", [truePredicateExtender]),
      ],
      registerPlugin: nodeResourcesFitPlugin,
      // sum of priorities of all victims on node1 is larger than node2, node2 is chosen.
      want: "node2",
      expectedPods: ["p2.1"],
    },
    {
      name: "no preempting in pod",
      pod: makePod()
        .name("p")
        .uid("p")
        .namespace("default")
        .priority(highPriority)
        .req(veryLargeRes)
        .preemptionPolicy("Never")
        .obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .namespace("default")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .namespace("default")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .namespace("default")
          .node("node2")
          .priority(highPriority)
          .req(largeRes)
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .namespace("default")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
      ],
      nodeNames: ["node1", "node2", "node3"],
      registerPlugin: nodeResourcesFitPlugin,
      want: null,
      expectedPods: [],
    },
    {
      name: "PreemptionPolicy is nil",
      pod: makePod().name("p").uid("p").namespace("default").priority(highPriority).req(veryLargeRes).obj(),
      pods: [
        makePod()
          .name("p1.1")
          .uid("p1.1")
          .namespace("default")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p1.2")
          .uid("p1.2")
          .namespace("default")
          .node("node1")
          .priority(lowPriority)
          .req(smallRes)
          .obj(),
        makePod()
          .name("p2.1")
          .uid("p2.1")
          .namespace("default")
          .node("node2")
          .priority(highPriority)
          .req(largeRes)
          .obj(),
        makePod()
          .name("p3.1")
          .uid("p3.1")
          .namespace("default")
          .node("node3")
          .priority(midPriority)
          .req(mediumRes)
          .obj(),
      ],
      nodeNames: ["node1", "node2", "node3"],
      registerPlugin: nodeResourcesFitPlugin,
      want: "node1",
      expectedPods: ["p1.1", "p1.2"],
    },
  ];

  for (const asyncPreemptionEnabled of [true, false])
    for (const tt of tests) {
      it(`${tt.name} (Async preemption enabled: ${asyncPreemptionEnabled})`, async () => {
        const nodes = tt.nodeNames.map((n) => topologyNode(n, veryLargeRes));
        const { h, pl } = await setup({
          nodes,
          pods: tt.pods,
          preemptor: tt.pod,
          extraPlugins: [tt.registerPlugin],
          extenders: tt.extenders ?? [],
          asyncPreemption: asyncPreemptionEnabled,
        });
        for (const e of tt.extenders ?? []) for (const n of nodes) e.nodes.set(n.metadata?.name ?? "", n);
        const state = h.newCycleState();
        expect(statusSummary(h.runPreFilter(state, tt.pod).status).code).toBe("Success");
        // so that these nodes are eligible for preemption, we set their status to Unschedulable.
        const m = new NodeToStatus();
        for (const n of nodes) m.set(n.metadata?.name ?? "", unsched());
        const { result, status } = await pl.evaluator.preempt(state, tt.pod, m);
        expect(status === null || status.isSuccess() || status.isRejected()).toBe(true);
        if (tt.want === null) expect(result).toBeNull();
        else expect(result?.nominatingInfo?.nominatedNodeName).toBe(tt.want);
        // Async: the victims are preempted off the cycle; wait for it (upstream polls the client).
        await pl.evaluator.executor.settled();

        const deleted = h.client.calls
          .filter((c) => c.verb === "delete")
          .map((c) => c.pod.metadata?.name ?? "");
        const patched = h.client.calls
          .filter((c) => c.verb === "patchStatus")
          .map((c) => c.pod.metadata?.name ?? "");
        expect(deleted.sort()).toEqual([...tt.expectedPods].sort());
        expect(patched.sort()).toEqual(deleted);
        // The DisruptionTarget condition is added to each victim before its deletion.
        for (const c of h.client.calls) {
          if (c.verb !== "patchStatus") continue;
          const cond = c.patch.conditions?.[0];
          expect({ ...cond, lastTransitionTime: undefined }).toEqual({
            type: "DisruptionTarget",
            status: "True",
            reason: "PreemptionByScheduler",
            message: "default-scheduler: preempting to accommodate a higher priority pod",
            lastTransitionTime: undefined,
          });
        }
        // Every victim gets the Preempted event.
        expect(h.events.map((e) => [e.regarding.metadata?.name, e.reason, e.action, e.note])).toEqual(
          h.client.calls
            .filter((c) => c.verb === "delete")
            .map((c) => [
              c.pod.metadata?.name,
              "Preempted",
              "Preempting",
              `Preempted by pod p on node ${tt.want}`,
            ]),
        );

        // Call preempt again and make sure it doesn't preempt any more pods.
        const before = h.client.calls.length;
        const again = await pl.evaluator.preempt(state, tt.pod, new NodeToStatus());
        expect(again.status === null || again.status.isSuccess() || again.status.isRejected()).toBe(true);
        expect(h.client.calls.filter((c, i) => i >= before && c.verb === "delete")).toEqual([]);
      });
    }
});

describe("DefaultPreemption prepares the candidate", () => {
  const low = makePod()
    .name("low")
    .uid("low")
    .namespace("default")
    .priority(lowPriority)
    .nominatedNodeName("node1")
    .obj();
  const high = makePod()
    .name("high")
    .uid("high")
    .namespace("default")
    .priority(veryHighPriority)
    .nominatedNodeName("node1")
    .obj();
  const preemptor = makePod().name("p").uid("p").namespace("default").priority(highPriority).obj();
  const preemptOnNode1 = async (asyncPreemption: boolean, failDelete: boolean) => {
    const { h, pl } = await setup({
      // Room for the preemptor and the higher-priority nominated pod once p1 is gone.
      nodes: [
        makeNode()
          .name("node1")
          .capacity({ pods: failDelete ? "1" : "2" })
          .obj(),
      ],
      pods: [makePod().name("p1").uid("p1").namespace("default").node("node1").obj()],
      preemptor,
      nominatedPods: failDelete ? [] : [low, high],
      extraPlugins: [nodeResourcesFitPlugin],
      asyncPreemption,
    });
    const activated: string[] = [];
    h.framework.setActivator({ activate: (pods) => activated.push(...pods.keys()) });
    if (failDelete) h.client.failWith("delete", new Error("delete pod failed"));
    const state = h.newCycleState();
    h.runPreFilter(state, preemptor);
    const out = await pl.postFilter(state, preemptor, nodeToStatus({ node1: unsched() }, uau()));
    return { h, pl, activated, ...out };
  };
  const calls = (h: PluginHarness) => h.client.calls.map((c) => [c.verb, c.pod.metadata?.name]);
  /** 1.37's Success status of a preemption that chose node1 for one victim (#140180). */
  const foundOnNode1 = {
    code: "Success",
    reasons: ["preemption: found a potential placement for pod on node node1, preempting 1 victims"],
  };

  it("clears the nomination of lower-priority pods nominated to the node", async () => {
    const { h, result, status } = await preemptOnNode1(false, false);
    expect(statusSummary(status)).toEqual(foundOnNode1);
    expect(result?.nominatingInfo?.nominatedNodeName).toBe("node1");
    expect(calls(h)).toEqual([
      ["patchStatus", "p1"],
      ["delete", "p1"],
      ["patchStatus", "low"],
    ]);
    const last = h.client.calls[2];
    expect(last?.verb === "patchStatus" ? last.patch : null).toEqual({ nominatedNodeName: null });
  });

  it("fails with the API error and stops", async () => {
    const { result, status } = await preemptOnNode1(false, true);
    expect(result).toBeNull();
    expect(statusSummary(status)).toEqual({ code: "Error", reasons: ["preemption: delete pod failed"] });
  });

  it("async: nominates, holds the preemptor at PreEnqueue until done; clears nominations first, then preempts", async () => {
    const { h, pl, result, status, activated } = await preemptOnNode1(true, false);
    expect(statusSummary(status)).toEqual(foundOnNode1);
    expect(result?.nominatingInfo?.nominatedNodeName).toBe("node1");
    expect(pl.preEnqueue(preemptor)?.message()).toBe(
      "waiting for the preemption for this pod to be finished",
    );
    await pl.evaluator.executor.settled();
    expect(calls(h)).toEqual([
      ["patchStatus", "low"],
      ["patchStatus", "p1"],
      ["delete", "p1"],
    ]);
    expect(pl.preEnqueue(preemptor)).toBeNull();
    expect(activated).toEqual([]);
  });

  it("async: an API error leaves the nomination and activates the preemptor", async () => {
    const { pl, result, status, activated } = await preemptOnNode1(true, true);
    expect(statusSummary(status)).toEqual(foundOnNode1);
    expect(result?.nominatingInfo?.nominatedNodeName).toBe("node1");
    await pl.evaluator.executor.settled();
    expect(activated).toEqual(["p"]);
    expect(pl.preEnqueue(preemptor)).toBeNull();
  });
});

describe("TestPreEnqueue", () => {
  // upstream default_preemption.go PreEnqueue: UnschedulableAndUnresolvable while the pod's
  // async preemption runs; nil when the gate is off or the pod is not preempting.
  const pod = makePod().name("p").uid("p").namespace("default").priority(highPriority).obj();
  const tests: Array<{ name: string; asyncPreemption: boolean; preempting: boolean; want: string | null }> = [
    { name: "async preemption disabled", asyncPreemption: false, preempting: true, want: null },
    { name: "pod is not running preemption", asyncPreemption: true, preempting: false, want: null },
    {
      name: "pod is running preemption",
      asyncPreemption: true,
      preempting: true,
      want: "waiting for the preemption for this pod to be finished",
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const { pl } = await setup({
        nodes: [],
        pods: [],
        extraPlugins: [],
        asyncPreemption: tt.asyncPreemption,
      });
      if (tt.preempting) pl.evaluator.executor.preempting.add("p");
      const s = pl.preEnqueue(pod);
      if (tt.want === null) expect(s).toBeNull();
      else expect(statusSummary(s)).toEqual({ code: "UnschedulableAndUnresolvable", reasons: [tt.want] });
    });
  }
});
