// upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go
// (TestTaintTolerationScore, TestTaintTolerationFilter)
import type { Node, Pod, Taint, Toleration } from "@kubesched/api";
import { MaxNodeScore } from "@kubesched/framework";
import {
  createPluginHarness,
  makeNode,
  makePod,
  type StatusSummary,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { taintTolerationPlugin } from "./index";
import { ErrReasonUntoleratedTaint } from "./reasons";

function nodeWithTaints(nodeName: string, taints: Taint[]): Node {
  return makeNode().name(nodeName).taints(taints).obj();
}

function podWithTolerations(podName: string, tolerations: Toleration[]): Pod {
  return makePod().name(podName).tolerations(tolerations).obj();
}

describe("TestTaintTolerationScore", () => {
  const tests: { name: string; pod: Pod; nodes: Node[]; expectedList: { name: string; score: number }[] }[] =
    [
      // basic test case
      {
        name: "node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
        pod: podWithTolerations("pod1", [
          { key: "foo", operator: "Equal", value: "bar", effect: "PreferNoSchedule" },
        ]),
        nodes: [
          nodeWithTaints("nodeA", [{ key: "foo", value: "bar", effect: "PreferNoSchedule" }]),
          nodeWithTaints("nodeB", [{ key: "foo", value: "blah", effect: "PreferNoSchedule" }]),
        ],
        expectedList: [
          { name: "nodeA", score: MaxNodeScore },
          { name: "nodeB", score: 0 },
        ],
      },
      // the count of taints that are tolerated by pod, does not matter.
      {
        name: "the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has",
        pod: podWithTolerations("pod1", [
          { key: "cpu-type", operator: "Equal", value: "arm64", effect: "PreferNoSchedule" },
          { key: "disk-type", operator: "Equal", value: "ssd", effect: "PreferNoSchedule" },
        ]),
        nodes: [
          nodeWithTaints("nodeA", []),
          nodeWithTaints("nodeB", [{ key: "cpu-type", value: "arm64", effect: "PreferNoSchedule" }]),
          nodeWithTaints("nodeC", [
            { key: "cpu-type", value: "arm64", effect: "PreferNoSchedule" },
            { key: "disk-type", value: "ssd", effect: "PreferNoSchedule" },
          ]),
        ],
        expectedList: [
          { name: "nodeA", score: MaxNodeScore },
          { name: "nodeB", score: MaxNodeScore },
          { name: "nodeC", score: MaxNodeScore },
        ],
      },
      // the count of taints on a node that are not tolerated by pod, matters.
      {
        name: "the more intolerable taints a node has, the lower score it gets.",
        pod: podWithTolerations("pod1", [
          { key: "foo", operator: "Equal", value: "bar", effect: "PreferNoSchedule" },
        ]),
        nodes: [
          nodeWithTaints("nodeA", []),
          nodeWithTaints("nodeB", [{ key: "cpu-type", value: "arm64", effect: "PreferNoSchedule" }]),
          nodeWithTaints("nodeC", [
            { key: "cpu-type", value: "arm64", effect: "PreferNoSchedule" },
            { key: "disk-type", value: "ssd", effect: "PreferNoSchedule" },
          ]),
        ],
        expectedList: [
          { name: "nodeA", score: MaxNodeScore },
          { name: "nodeB", score: 50 },
          { name: "nodeC", score: 0 },
        ],
      },
      // taints-tolerations priority only takes care about the taints and tolerations that have effect PreferNoSchedule
      {
        name: "only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function",
        pod: podWithTolerations("pod1", [
          { key: "cpu-type", operator: "Equal", value: "arm64", effect: "NoSchedule" },
          { key: "disk-type", operator: "Equal", value: "ssd", effect: "NoSchedule" },
        ]),
        nodes: [
          nodeWithTaints("nodeA", []),
          nodeWithTaints("nodeB", [{ key: "cpu-type", value: "arm64", effect: "NoSchedule" }]),
          nodeWithTaints("nodeC", [
            { key: "cpu-type", value: "arm64", effect: "PreferNoSchedule" },
            { key: "disk-type", value: "ssd", effect: "PreferNoSchedule" },
          ]),
        ],
        expectedList: [
          { name: "nodeA", score: MaxNodeScore },
          { name: "nodeB", score: MaxNodeScore },
          { name: "nodeC", score: 0 },
        ],
      },
      {
        name: "Default behaviour No taints and tolerations, lands on node with no taints",
        // pod without tolerations
        pod: podWithTolerations("pod1", []),
        nodes: [
          // Node without taints
          nodeWithTaints("nodeA", []),
          nodeWithTaints("nodeB", [{ key: "cpu-type", value: "arm64", effect: "PreferNoSchedule" }]),
        ],
        expectedList: [
          { name: "nodeA", score: MaxNodeScore },
          { name: "nodeB", score: 0 },
        ],
      },
    ];
  for (const tc of tests) {
    it(tc.name, async () => {
      const h = await createPluginHarness({ plugin: taintTolerationPlugin, nodes: tc.nodes });
      const got = h.score(tc.pod);
      expect(statusSummary(got.preScoreStatus)).toEqual({ code: "Success", reasons: [] });
      expect(statusSummary(got.status)).toEqual({ code: "Success", reasons: [] });
      expect(got.scores).toEqual(tc.expectedList);
    });
  }
});

// Each case's node and, before 1.35, the reason naming the first untolerated taint (upstream's
// table before kubernetes/kubernetes#134740); from 1.35 every rejection reads
// `node(s) had untolerated taint(s)`.
const filterCases = (
  untolerated: (taint: string) => StatusSummary,
): { name: string; pod: Pod; node: Node; wantStatus?: StatusSummary }[] => [
  {
    name: "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
    pod: podWithTolerations("pod1", []),
    node: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user1", effect: "NoSchedule" }]),
    wantStatus: untolerated("{dedicated: user1}"),
  },
  {
    name: "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
    pod: podWithTolerations("pod1", [{ key: "dedicated", value: "user1", effect: "NoSchedule" }]),
    node: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user1", effect: "NoSchedule" }]),
  },
  {
    name: "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
    pod: podWithTolerations("pod1", [
      { key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" },
    ]),
    node: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user1", effect: "NoSchedule" }]),
    wantStatus: untolerated("{dedicated: user1}"),
  },
  {
    name: "A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node",
    pod: podWithTolerations("pod1", [{ key: "foo", operator: "Exists", effect: "NoSchedule" }]),
    node: nodeWithTaints("nodeA", [{ key: "foo", value: "bar", effect: "NoSchedule" }]),
  },
  {
    name: "A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node",
    pod: podWithTolerations("pod1", [
      { key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" },
      { key: "foo", operator: "Exists", effect: "NoSchedule" },
    ]),
    node: nodeWithTaints("nodeA", [
      { key: "dedicated", value: "user2", effect: "NoSchedule" },
      { key: "foo", value: "bar", effect: "NoSchedule" },
    ]),
  },
  {
    name:
      "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, " +
      "can't be scheduled onto the node",
    pod: podWithTolerations("pod1", [
      { key: "foo", operator: "Equal", value: "bar", effect: "PreferNoSchedule" },
    ]),
    node: nodeWithTaints("nodeA", [{ key: "foo", value: "bar", effect: "NoSchedule" }]),
    wantStatus: untolerated("{foo: bar}"),
  },
  {
    name:
      "The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, " +
      "and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
    pod: podWithTolerations("pod1", [{ key: "foo", operator: "Equal", value: "bar" }]),
    node: nodeWithTaints("nodeA", [{ key: "foo", value: "bar", effect: "NoSchedule" }]),
  },
  {
    name:
      "The pod has a toleration that key and value don't match the taint on the node, " +
      "but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
    pod: podWithTolerations("pod1", [
      { key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" },
    ]),
    node: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user1", effect: "PreferNoSchedule" }]),
  },
  {
    name:
      "The pod has no toleration, " +
      "but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
    pod: podWithTolerations("pod1", []),
    node: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user1", effect: "PreferNoSchedule" }]),
  },
];

describe("TestTaintTolerationFilter", () => {
  for (const tc of filterCases(() => ({
    code: "UnschedulableAndUnresolvable",
    reasons: [ErrReasonUntoleratedTaint],
  }))) {
    it(tc.name, async () => {
      const h = await createPluginHarness({ plugin: taintTolerationPlugin, nodes: [tc.node] });
      const got = h.filter(tc.pod);
      expect(statusSummary(got.preFilter.status)).toEqual({ code: "Success", reasons: [] });
      expect(statusSummary(got.statuses.get("nodeA"))).toEqual(
        tc.wantStatus ?? { code: "Success", reasons: [] },
      );
    });
  }
});

// The same table at 1.34 with upstream's strings of that release (taint_toleration_test.go before
// kubernetes/kubernetes#134740): the reason names the first untolerated taint.
describe("TestTaintTolerationFilter at 1.34", () => {
  for (const tc of filterCases((taint) => ({
    code: "UnschedulableAndUnresolvable",
    reasons: [`node(s) had untolerated taint ${taint}`],
  }))) {
    it(tc.name, async () => {
      // The harness also checks the columnar Filter decides (and says) what filter() does.
      const h = await createPluginHarness({
        plugin: taintTolerationPlugin,
        nodes: [tc.node],
        kubernetesVersion: "1.34",
      });
      expect(statusSummary(h.filter(tc.pod).statuses.get("nodeA"))).toEqual(
        tc.wantStatus ?? { code: "Success", reasons: [] },
      );
    });
  }
});
