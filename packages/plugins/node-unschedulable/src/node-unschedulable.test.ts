// upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go (TestNodeUnschedulable)
import type { Node, Pod } from "@kubesched/api";
import {
  createPluginHarness,
  makeNode,
  makePod,
  type StatusSummary,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeUnschedulablePlugin, TaintNodeUnschedulable } from "./index";
import { ErrReasonUnschedulable } from "./reasons";

describe("TestNodeUnschedulable", () => {
  const testCases: { name: string; pod: Pod; node: Node; wantStatus?: StatusSummary }[] = [
    {
      name: "Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)",
      pod: makePod().obj(),
      node: makeNode().unschedulable(true).obj(),
      wantStatus: { code: "UnschedulableAndUnresolvable", reasons: [ErrReasonUnschedulable] },
    },
    {
      name: "Schedule pod to normal node",
      pod: makePod().obj(),
      node: makeNode().unschedulable(false).obj(),
    },
    {
      name: "Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)",
      pod: makePod().toleration({ key: TaintNodeUnschedulable, effect: "NoSchedule" }).obj(),
      node: makeNode().unschedulable(true).obj(),
    },
  ];
  for (const tc of testCases) {
    it(tc.name, async () => {
      const h = await createPluginHarness({ plugin: nodeUnschedulablePlugin, nodes: [tc.node] });
      const got = h.filter(tc.pod);
      expect(statusSummary(got.statuses.get(""))).toEqual(tc.wantStatus ?? { code: "Success", reasons: [] });
    });
  }
});
