// upstream: pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go
// (TestNodeResourcesBalancedAllocation) with the v1.36+ score of kubernetes/kubernetes#135573:
// expected scores are `50 + (50 + balanceWithPod − balanceWithoutPod) / 2` (the per-case comments
// give both balances). `expectedList135` are the 1.35 table's scores (the balance with the pod;
// read at kubernetes/kubernetes@00fdb4f), run with `kubernetesVersion: "1.35"`.
import type { Node, Pod, PodSpec } from "@kubesched/api";
import type { NodeScore, ResourceSpec } from "@kubesched/framework";
import { createPluginHarness, makePod, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeResourcesBalancedAllocationPlugin } from "./index";

/** upstream makeNode (noderesources/test_util.go). */
function makeNode(
  name: string,
  milliCPU: number,
  memory: number,
  extended: Record<string, number> = {},
): Node {
  const rl: Record<string, string> = { cpu: `${milliCPU}m`, memory: String(memory) };
  for (const [k, v] of Object.entries(extended)) rl[k] = String(v);
  return { metadata: { name }, status: { capacity: { ...rl }, allocatable: { ...rl } } };
}

const requests = (cpu: string, memory: string, extra: Record<string, string> = {}) => ({
  resources: { requests: { cpu, memory, ...extra } },
});

const cpuAndMemoryAndGPU: PodSpec = {
  containers: [
    { name: "a", ...requests("1000m", "2000") },
    { name: "b", ...requests("2000m", "3000", { "nvidia.com/gpu": "3" }) },
  ],
  nodeName: "node1",
};
const cpuOnly: PodSpec = {
  nodeName: "node1",
  containers: [
    { name: "a", ...requests("1000m", "0") },
    { name: "b", ...requests("2000m", "0") },
  ],
};
const cpuAndMemory: PodSpec = {
  nodeName: "node2",
  containers: [
    { name: "a", ...requests("1000m", "2000") },
    { name: "b", ...requests("2000m", "3000") },
  ],
};
const pod = (spec: PodSpec, name = "p"): Pod => ({
  metadata: { name, namespace: "default", uid: name },
  spec,
});

const defaultResourceBalancedAllocationSet: ResourceSpec[] = [
  { name: "cpu", weight: 1 },
  { name: "memory", weight: 1 },
];
const withGPU: ResourceSpec[] = [
  ...defaultResourceBalancedAllocationSet,
  { name: "nvidia.com/gpu", weight: 1 },
];
const scalarResource = { "nvidia.com/gpu": 8 };

describe("TestNodeResourcesBalancedAllocation", () => {
  const cases: {
    name: string;
    pod: Pod;
    pods?: Pod[];
    nodes: Node[];
    resources: ResourceSpec[];
    expectedList?: NodeScore[];
    expectedList135?: NodeScore[];
    runPreScore: boolean;
    wantPreScoreStatusCode?: "Skip";
  }[] = [
    {
      // bestEffort pods, skip in PreScore
      name: "nothing scheduled, nothing requested, skip in PreScore",
      pod: makePod().obj(),
      nodes: [makeNode("node1", 4000, 10000), makeNode("node2", 4000, 10000)],
      resources: defaultResourceBalancedAllocationSet,
      runPreScore: true,
      wantPreScoreStatusCode: "Skip",
    },
    {
      // node1: with pod cpu 3000/4000 = 0.75, memory 5000/10000 = 0.5 → 87; without 0, 0 → 100;
      //        50 + (50 + 87 − 100) / 2 = 68
      // node2: with 0.5, 0.5 → 100; without → 100; 75
      name: "nothing scheduled, resources requested, differently sized nodes",
      pod: pod(cpuAndMemory),
      nodes: [makeNode("node1", 4000, 10000), makeNode("node2", 6000, 10000)],
      resources: defaultResourceBalancedAllocationSet,
      expectedList: [
        { name: "node1", score: 68 },
        { name: "node2", score: 75 },
      ],
      expectedList135: [
        { name: "node1", score: 87 },
        { name: "node2", score: 100 },
      ],
      runPreScore: true,
    },
    {
      // node1: with 0.6, 0.25 → 82; without 0.3, 0 → 85; 50 + (50 + 82 − 85) / 2 = 73
      // node2: with 0.6, 0.5 → 95; without 0.3, 0.25 → 97; 50 + (50 + 95 − 97) / 2 = 74
      name: "resources requested, pods scheduled with resources",
      pod: pod(cpuAndMemory),
      pods: [pod(cpuOnly, "e1"), pod(cpuAndMemory, "e2")],
      nodes: [makeNode("node1", 10000, 20000), makeNode("node2", 10000, 20000)],
      resources: defaultResourceBalancedAllocationSet,
      expectedList: [
        { name: "node1", score: 73 },
        { name: "node2", score: 74 },
      ],
      expectedList135: [
        { name: "node1", score: 82 },
        { name: "node2", score: 95 },
      ],
      runPreScore: true,
    },
    {
      // node1: 73 as above
      // node2: with 0.6, 0.2 → 80; without 0.3, 0.1 → 90; 50 + (50 + 80 − 90) / 2 = 70
      name: "resources requested, pods scheduled with resources, differently sized nodes",
      pod: pod(cpuAndMemory),
      pods: [pod(cpuOnly, "e1"), pod(cpuAndMemory, "e2")],
      nodes: [makeNode("node1", 10000, 20000), makeNode("node2", 10000, 50000)],
      resources: defaultResourceBalancedAllocationSet,
      expectedList: [
        { name: "node1", score: 73 },
        { name: "node2", score: 70 },
      ],
      expectedList135: [
        { name: "node1", score: 82 },
        { name: "node2", score: 80 },
      ],
      runPreScore: true,
    },
    {
      // node1: with 6000/6000 = 1, 0 → 50; without 0.5, 0 → 75; 50 + (50 + 50 − 75) / 2 = 62
      // node2: with 1, 0.5 → 75; without 0.5, 0.5 → 100; 50 + (50 + 75 − 100) / 2 = 62
      name: "requested resources at node capacity",
      pod: pod(cpuOnly),
      pods: [pod(cpuOnly, "e1"), pod(cpuAndMemory, "e2")],
      nodes: [makeNode("node1", 6000, 10000), makeNode("node2", 6000, 10000)],
      resources: defaultResourceBalancedAllocationSet,
      expectedList: [
        { name: "node1", score: 62 },
        { name: "node2", score: 62 },
      ],
      expectedList135: [
        { name: "node1", score: 50 },
        { name: "node2", score: 75 },
      ],
      runPreScore: true,
    },
    {
      // node1: with cpu 0.857, memory 0.125, gpu 4/8 → 70; without gpu 3/8 → 69; 50 + (50 + 70 − 69) / 2 = 75
      // node2: with 0.857, 0.125, gpu 1/8 → 65; without gpu 0 → 62; 50 + (50 + 65 − 62) / 2 = 76
      name: "include scalar resource on a node for balanced resource allocation",
      pod: makePod().req({ memory: "0", "nvidia.com/gpu": "1" }).obj(),
      pods: [pod(cpuAndMemory, "e1"), pod(cpuAndMemoryAndGPU, "e2")],
      nodes: [makeNode("node1", 3500, 40000, scalarResource), makeNode("node2", 3500, 40000, scalarResource)],
      resources: withGPU,
      expectedList: [
        { name: "node1", score: 75 },
        { name: "node2", score: 76 },
      ],
      expectedList135: [
        { name: "node1", score: 70 },
        { name: "node2", score: 65 },
      ],
      runPreScore: true,
    },
    {
      // Only node1 has the scalar resource and the pod does not request it: it is skipped.
      // both: with 0.857, 0.125 → 63; without 0, 0 → 100; 50 + (50 + 63 − 100) / 2 = 56
      name: "node without the scalar resource should skip the scalar resource",
      pod: pod(cpuAndMemory),
      pods: [],
      nodes: [makeNode("node1", 3500, 40000, scalarResource), makeNode("node2", 3500, 40000)],
      resources: withGPU,
      expectedList: [
        { name: "node1", score: 56 },
        { name: "node2", score: 56 },
      ],
      expectedList135: [
        { name: "node1", score: 63 },
        { name: "node2", score: 63 },
      ],
      runPreScore: true,
    },
    {
      name: "resources requested, pods scheduled with resources if PreScore not called",
      pod: pod(cpuAndMemory),
      pods: [pod(cpuOnly, "e1"), pod(cpuAndMemory, "e2")],
      nodes: [makeNode("node1", 10000, 20000), makeNode("node2", 10000, 20000)],
      resources: defaultResourceBalancedAllocationSet,
      expectedList: [
        { name: "node1", score: 73 },
        { name: "node2", score: 74 },
      ],
      expectedList135: [
        { name: "node1", score: 82 },
        { name: "node2", score: 95 },
      ],
      runPreScore: false,
    },
  ];

  const run = async (
    tc: (typeof cases)[number],
    kubernetesVersion: string,
    expected: NodeScore[] | undefined,
  ) => {
    const h = await createPluginHarness({
      plugin: nodeResourcesBalancedAllocationPlugin,
      args: { resources: tc.resources },
      nodes: tc.nodes,
      pods: tc.pods ?? [],
      kubernetesVersion,
    });
    if (tc.runPreScore) {
      const got = h.score(tc.pod);
      expect(got.preScoreStatus?.code ?? 0).toBe(tc.wantPreScoreStatusCode ? 5 : 0);
      expect(statusSummary(got.status)).toEqual({ code: "Success", reasons: [] });
      expect(got.scores).toEqual(expected ?? []);
      return;
    }
    // Score (and NormalizeScore, which the plugin does not have) without PreScore.
    const got = h.score(tc.pod, undefined, { runPreScore: false });
    expect(statusSummary(got.status)).toEqual({ code: "Success", reasons: [] });
    expect(got.scores).toEqual(expected);
  };
  it.each(cases)("$name", (tc) => run(tc, "1.37", tc.expectedList));
  // Releases before #135573 (1.33–1.35) score the balance with the pod.
  it.each(cases)("1.35: $name", (tc) => run(tc, "1.35", tc.expectedList135));

  it("scores 0 without PreScore for a best-effort pod", async () => {
    const h = await createPluginHarness({
      plugin: nodeResourcesBalancedAllocationPlugin,
      nodes: [makeNode("node1", 4000, 10000)],
    });
    expect(h.score(makePod().obj(), undefined, { runPreScore: false }).scores).toEqual([
      { name: "node1", score: 0 },
    ]);
  });
});
