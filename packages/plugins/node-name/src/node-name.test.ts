// upstream: pkg/scheduler/framework/plugins/nodename/node_name_test.go (TestNodeName)
import type { Node, Pod } from "@kubesched/api";
import {
  createPluginHarness,
  makeNode,
  makePod,
  type StatusSummary,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeNamePlugin } from "./index";
import { ErrReason } from "./reasons";

describe("TestNodeName", () => {
  const tests: { pod: Pod; node: Node; name: string; wantStatus?: StatusSummary }[] = [
    { pod: makePod().obj(), node: makeNode().obj(), name: "no host specified" },
    { pod: makePod().node("foo").obj(), node: makeNode().name("foo").obj(), name: "host matches" },
    {
      pod: makePod().node("bar").obj(),
      node: makeNode().name("foo").obj(),
      name: "host doesn't match",
      wantStatus: { code: "UnschedulableAndUnresolvable", reasons: [ErrReason] },
    },
  ];
  for (const tc of tests) {
    it(tc.name, async () => {
      const h = await createPluginHarness({ plugin: nodeNamePlugin, nodes: [tc.node] });
      const got = h.filter(tc.pod);
      expect(statusSummary(got.statuses.get(tc.node.metadata?.name ?? ""))).toEqual(
        tc.wantStatus ?? { code: "Success", reasons: [] },
      );
    });
  }
});
