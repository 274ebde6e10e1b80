// upstream: pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio_test.go
import type { Node, Pod } from "@kubesched/api";
import type { NodeScore } from "@kubesched/framework";
import { buildBrokenLinearFunction } from "@kubesched/plugin-helpers";
import { makePod, makeNode as stMakeNode } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { NodeResourcesFitArgs } from "./args";
import { defaultResources, makeNode, runScore } from "./test-util";

const node = (name: string, cpu: string, memory: string) =>
  stMakeNode().name(name).capacity({ cpu, memory }).obj();

describe("TestRequestedToCapacityRatioScoringStrategy", () => {
  const shape = [
    { utilization: 0, score: 10 },
    { utilization: 100, score: 0 },
  ];
  const cases: {
    name: string;
    requestedPod: Pod;
    nodes: Node[];
    existingPods: Pod[];
    expectedScores: NodeScore[];
  }[] = [
    {
      name: "nothing scheduled, nothing requested (default - least requested nodes have priority)",
      requestedPod: makePod().obj(),
      nodes: [node("node1", "4000", "10000"), node("node2", "4000", "10000")],
      existingPods: [makePod().node("node1").obj(), makePod().node("node1").obj()],
      expectedScores: [
        { name: "node1", score: 100 },
        { name: "node2", score: 100 },
      ],
    },
    {
      name: "nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)",
      requestedPod: makePod().req({ cpu: "1000", memory: "2000" }).req({ cpu: "2000", memory: "3000" }).obj(),
      nodes: [node("node1", "4000", "10000"), node("node2", "6000", "10000")],
      existingPods: [makePod().node("node1").obj(), makePod().node("node1").obj()],
      expectedScores: [
        { name: "node1", score: 38 },
        { name: "node2", score: 50 },
      ],
    },
    {
      name: "no resources requested, pods scheduled with resources (default - least requested nodes have priority)",
      requestedPod: makePod().obj(),
      nodes: [node("node1", "4000", "10000"), node("node2", "6000", "10000")],
      existingPods: [
        makePod().node("node1").req({ cpu: "3000", memory: "5000" }).obj(),
        makePod().node("node2").req({ cpu: "3000", memory: "5000" }).obj(),
      ],
      expectedScores: [
        { name: "node1", score: 38 },
        { name: "node2", score: 50 },
      ],
    },
  ];
  it.each(cases)("$name", async (tc) => {
    const args: NodeResourcesFitArgs = {
      ignoredResources: [],
      ignoredResourceGroups: [],
      scoringStrategy: {
        type: "RequestedToCapacityRatio",
        resources: defaultResources,
        requestedToCapacityRatio: { shape },
      },
    };
    expect((await runScore(tc.requestedPod, tc.nodes, tc.existingPods, { args })).scores).toEqual(
      tc.expectedScores,
    );
  });
});

describe("TestBrokenLinearFunction", () => {
  const tests: { points: { utilization: number; score: number }[]; assertions: [number, number][] }[] = [
    {
      points: [
        { utilization: 10, score: 1 },
        { utilization: 90, score: 9 },
      ],
      assertions: [
        [-10, 1],
        [0, 1],
        [9, 1],
        [10, 1],
        [15, 1],
        [19, 1],
        [20, 2],
        [89, 8],
        [90, 9],
        [99, 9],
        [100, 9],
        [110, 9],
      ],
    },
    {
      points: [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 10 },
        { utilization: 100, score: 0 },
      ],
      assertions: [
        [-10, 2],
        [0, 2],
        [20, 6],
        [30, 8],
        [40, 10],
        [70, 5],
        [100, 0],
        [110, 0],
      ],
    },
    {
      points: [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 2 },
        { utilization: 100, score: 2 },
      ],
      assertions: [
        [-10, 2],
        [0, 2],
        [20, 2],
        [30, 2],
        [40, 2],
        [70, 2],
        [100, 2],
        [110, 2],
      ],
    },
  ];
  it.each(tests.map((t, i) => [`case_${i}`, t] as const))("%s", (_name, tc) => {
    const fn = buildBrokenLinearFunction(tc.points);
    for (const [p, expected] of tc.assertions) expect(fn(p), `p=${p}`).toBe(expected);
  });
});

const mi = 1024 * 1024;

function binPackingArgs(resources: { name: string; weight: number }[]): NodeResourcesFitArgs {
  return {
    ignoredResources: [],
    ignoredResourceGroups: [],
    scoringStrategy: {
      type: "RequestedToCapacityRatio",
      resources,
      requestedToCapacityRatio: {
        shape: [
          { utilization: 0, score: 0 },
          { utilization: 100, score: 1 },
        ],
      },
    },
  };
}

describe("TestResourceBinPackingSingleExtended", () => {
  const extendedResource1 = { "intel.com/foo": 4 };
  const extendedResource2 = { "intel.com/foo": 8 };
  const nodes = [
    makeNode("node1", 4000, 10000 * mi, extendedResource2),
    makeNode("node2", 4000, 10000 * mi, extendedResource1),
  ];
  const cases: { name: string; pod: Pod; pods: Pod[]; expectedScores: NodeScore[] }[] = [
    {
      name: "nothing scheduled, nothing requested",
      pod: makePod().obj(),
      pods: [],
      expectedScores: [
        { name: "node1", score: 0 },
        { name: "node2", score: 0 },
      ],
    },
    {
      name: "resources requested, pods scheduled with less resources",
      pod: makePod().req({ "intel.com/foo": "2" }).obj(),
      pods: [makePod().obj()],
      expectedScores: [
        { name: "node1", score: 2 },
        { name: "node2", score: 5 },
      ],
    },
    {
      name: "resources requested, pods scheduled with resources, on node with existing pod running ",
      pod: makePod().req({ "intel.com/foo": "2" }).obj(),
      pods: [makePod().req({ "intel.com/foo": "2" }).node("node2").obj()],
      expectedScores: [
        { name: "node1", score: 2 },
        { name: "node2", score: 10 },
      ],
    },
    {
      name: "resources requested, pods scheduled with more resources",
      pod: makePod().req({ "intel.com/foo": "4" }).obj(),
      pods: [makePod().obj()],
      expectedScores: [
        { name: "node1", score: 5 },
        { name: "node2", score: 10 },
      ],
    },
  ];
  it.each(cases)("$name", async (tc) => {
    const args = binPackingArgs([{ name: "intel.com/foo", weight: 1 }]);
    expect((await runScore(tc.pod, nodes, tc.pods, { args })).scores).toEqual(tc.expectedScores);
  });
});

describe("TestResourceBinPackingMultipleExtended", () => {
  const extendedResources1 = { "intel.com/foo": 4, "intel.com/bar": 8 };
  const extendedResources2 = { "intel.com/foo": 8, "intel.com/bar": 4 };
  const nodes = [
    makeNode("node1", 4000, 10000 * mi, extendedResources2),
    makeNode("node2", 4000, 10000 * mi, extendedResources1),
  ];
  const pod1 = { "intel.com/foo": "2", "intel.com/bar": "2" };
  const pod2 = { "intel.com/foo": "4", "intel.com/bar": "2" };
  const cases: { name: string; pod: Pod; pods: Pod[]; expectedScores: NodeScore[] }[] = [
    {
      name: "nothing scheduled, nothing requested",
      pod: makePod().obj(),
      pods: [],
      expectedScores: [
        { name: "node1", score: 0 },
        { name: "node2", score: 0 },
      ],
    },
    {
      name: "resources requested, pods scheduled with less resources",
      pod: makePod().req(pod1).obj(),
      pods: [makePod().obj()],
      expectedScores: [
        { name: "node1", score: 4 },
        { name: "node2", score: 3 },
      ],
    },
    {
      name: "resources requested, pods scheduled with resources, on node with existing pod running ",
      pod: makePod().req(pod1).obj(),
      pods: [makePod().req(pod2).node("node2").obj()],
      expectedScores: [
        { name: "node1", score: 4 },
        { name: "node2", score: 7 },
      ],
    },
    {
      name: "resources requested, pods scheduled with more resources",
      pod: makePod().req(pod2).obj(),
      pods: [makePod().obj()],
      expectedScores: [
        { name: "node1", score: 5 },
        { name: "node2", score: 5 },
      ],
    },
  ];
  it.each(cases)("$name", async (tc) => {
    const args = binPackingArgs([
      { name: "intel.com/foo", weight: 3 },
      { name: "intel.com/bar", weight: 5 },
    ]);
    expect((await runScore(tc.pod, nodes, tc.pods, { args })).scores).toEqual(tc.expectedScores);
  });
});
