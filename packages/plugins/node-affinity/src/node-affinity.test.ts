// upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go
// (TestNodeAffinity, TestNodeAffinityPriority)
import type { Affinity, Node, NodeSelectorTerm, Pod } from "@kubesched/api";
import { MaxNodeScore } from "@kubesched/framework";
import {
  createPluginHarness,
  makeNode,
  makePod,
  type StatusSummary,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { NodeAffinityArgs } from "./args";
import { name, nodeAffinityPlugin } from "./index";
import { ErrReasonConflict, ErrReasonEnforced, ErrReasonPod } from "./reasons";

const uau = (reason: string): StatusSummary => ({ code: "UnschedulableAndUnresolvable", reasons: [reason] });
const success: StatusSummary = { code: "Success", reasons: [] };

function podWithRequired(...terms: NodeSelectorTerm[]): Pod {
  return makePod()
    .nodeAffinity({ requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } })
    .obj();
}

const nameIn = (...values: string[]) => ({ key: "metadata.name", operator: "In", values });

describe("TestNodeAffinity", () => {
  const tests: {
    name: string;
    pod: Pod;
    labels?: Record<string, string>;
    nodeName?: string;
    wantStatus?: StatusSummary;
    wantPreFilterStatus?: StatusSummary;
    wantPreFilterResult?: string[];
    args?: NodeAffinityArgs;
    runPreFilter: boolean;
  }[] = [
    {
      name: "missing labels",
      pod: makePod().nodeSelector({ foo: "bar" }).obj(),
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "same labels",
      pod: makePod().nodeSelector({ foo: "bar" }).obj(),
      labels: { foo: "bar" },
      runPreFilter: true,
    },
    {
      name: "node labels are superset",
      pod: makePod().nodeSelector({ foo: "bar" }).obj(),
      labels: { foo: "bar", baz: "blah" },
      runPreFilter: true,
    },
    {
      name: "node labels are subset",
      pod: makePod().nodeSelector({ foo: "bar", baz: "blah" }).obj(),
      labels: { foo: "bar" },
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Pod with matchExpressions using In operator that matches the existing node",
      pod: podWithRequired({ matchExpressions: [{ key: "foo", operator: "In", values: ["bar", "value2"] }] }),
      labels: { foo: "bar" },
      runPreFilter: true,
    },
    {
      name: "Pod with matchExpressions using Gt operator that matches the existing node",
      pod: podWithRequired({
        matchExpressions: [{ key: "kernel-version", operator: "Gt", values: ["0204"] }],
      }),
      // Two digits for the major version and two for the minor.
      labels: { "kernel-version": "0206" },
      runPreFilter: true,
    },
    {
      name: "Pod with matchExpressions using NotIn operator that matches the existing node",
      pod: podWithRequired({
        matchExpressions: [{ key: "mem-type", operator: "NotIn", values: ["DDR", "DDR2"] }],
      }),
      labels: { "mem-type": "DDR3" },
      runPreFilter: true,
    },
    {
      name: "Pod with matchExpressions using Exists operator that matches the existing node",
      pod: podWithRequired({ matchExpressions: [{ key: "GPU", operator: "Exists" }] }),
      labels: { GPU: "NVIDIA-GRID-K1" },
      runPreFilter: true,
    },
    {
      name: "Pod with affinity that don't match node's labels won't schedule onto the node",
      pod: podWithRequired({
        matchExpressions: [{ key: "foo", operator: "In", values: ["value1", "value2"] }],
      }),
      labels: { foo: "bar" },
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
      pod: podWithRequired({ matchExpressions: [] }),
      labels: { foo: "bar" },
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Pod with no Affinity will schedule onto a node",
      pod: makePod().obj(),
      labels: { foo: "bar" },
      wantPreFilterStatus: { code: "Skip", reasons: [] },
      runPreFilter: true,
    },
    {
      name: "Pod with Affinity but nil NodeSelector will schedule onto a node",
      pod: makePod().nodeAffinity({}).obj(),
      labels: { foo: "bar" },
      wantPreFilterStatus: { code: "Skip", reasons: [] },
      runPreFilter: true,
    },
    {
      name: "Pod with multiple matchExpressions ANDed that matches the existing node",
      pod: podWithRequired({
        matchExpressions: [
          { key: "GPU", operator: "Exists" },
          { key: "GPU", operator: "NotIn", values: ["AMD", "INTER"] },
        ],
      }),
      labels: { GPU: "NVIDIA-GRID-K1" },
      runPreFilter: true,
    },
    {
      name: "Pod with multiple matchExpressions ANDed that doesn't match the existing node",
      pod: podWithRequired({
        matchExpressions: [
          { key: "GPU", operator: "Exists" },
          { key: "GPU", operator: "In", values: ["AMD", "INTER"] },
        ],
      }),
      labels: { GPU: "NVIDIA-GRID-K1" },
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
      pod: podWithRequired(
        { matchExpressions: [{ key: "foo", operator: "In", values: ["bar", "value2"] }] },
        { matchExpressions: [{ key: "diffkey", operator: "In", values: ["wrong", "value2"] }] },
      ),
      labels: { foo: "bar" },
      runPreFilter: true,
    },
    {
      name:
        "Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) " +
        "both are satisfied, will schedule onto the node",
      pod: makePod()
        .nodeSelector({ foo: "bar" })
        .nodeAffinity({
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: "foo", operator: "Exists" }] }],
          },
        })
        .obj(),
      labels: { foo: "bar" },
      runPreFilter: true,
    },
    {
      name:
        "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) " +
        "is not satisfied, won't schedule onto the node",
      pod: makePod()
        .nodeSelector({ foo: "bar" })
        .nodeAffinity({
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: "foo", operator: "Exists" }] }],
          },
        })
        .obj(),
      labels: { foo: "barrrrrr" },
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Pod with an invalid value in Affinity term won't be scheduled onto the node",
      pod: podWithRequired({
        matchExpressions: [{ key: "foo", operator: "NotIn", values: ["invalid value: ___@#$%^"] }],
      }),
      labels: { foo: "bar" },
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Pod with matchFields using In operator that matches the existing node",
      pod: podWithRequired({ matchFields: [nameIn("node1")] }),
      nodeName: "node1",
      wantPreFilterResult: ["node1"],
      runPreFilter: true,
    },
    {
      name: "Pod with matchFields using In operator that does not match the existing node",
      pod: podWithRequired({ matchFields: [nameIn("node1")] }),
      nodeName: "node2",
      wantStatus: uau(ErrReasonPod),
      wantPreFilterResult: ["node1"],
      runPreFilter: true,
    },
    {
      name: "Pod with two terms: matchFields does not match, but matchExpressions matches",
      pod: podWithRequired(
        { matchFields: [nameIn("node1"), nameIn("node2")] },
        { matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }] },
      ),
      nodeName: "node2",
      labels: { foo: "bar" },
      runPreFilter: true,
    },
    {
      name: "Pod with one term: matchFields does not match, but matchExpressions matches",
      pod: podWithRequired({
        matchFields: [nameIn("node1")],
        matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }],
      }),
      nodeName: "node2",
      labels: { foo: "bar" },
      wantPreFilterResult: ["node1"],
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Pod with one term: both matchFields and matchExpressions match",
      pod: podWithRequired({
        matchFields: [nameIn("node1")],
        matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }],
      }),
      nodeName: "node1",
      labels: { foo: "bar" },
      wantPreFilterResult: ["node1"],
      runPreFilter: true,
    },
    {
      name: "Pod with two terms: both matchFields and matchExpressions do not match",
      pod: podWithRequired(
        { matchFields: [nameIn("node1")] },
        { matchExpressions: [{ key: "foo", operator: "In", values: ["not-match-to-bar"] }] },
      ),
      nodeName: "node2",
      labels: { foo: "bar" },
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Pod with two terms of node.Name affinity",
      pod: podWithRequired({ matchFields: [nameIn("node1")] }, { matchFields: [nameIn("node2")] }),
      nodeName: "node2",
      wantPreFilterResult: ["node1", "node2"],
      runPreFilter: true,
    },
    {
      name: "Pod with two conflicting mach field requirements",
      pod: podWithRequired({ matchFields: [nameIn("node1"), nameIn("node2")] }),
      nodeName: "node2",
      labels: { foo: "bar" },
      wantPreFilterStatus: uau(ErrReasonConflict),
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Matches added affinity and Pod's node affinity",
      pod: podWithRequired({ matchExpressions: [{ key: "zone", operator: "In", values: ["foo"] }] }),
      nodeName: "node2",
      labels: { zone: "foo" },
      args: {
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [nameIn("node2")] }],
          },
        },
      },
      runPreFilter: true,
    },
    {
      name: "Matches added affinity but not Pod's node affinity",
      pod: podWithRequired({ matchExpressions: [{ key: "zone", operator: "In", values: ["bar"] }] }),
      nodeName: "node2",
      labels: { zone: "foo" },
      args: {
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [nameIn("node2")] }],
          },
        },
      },
      wantStatus: uau(ErrReasonPod),
      runPreFilter: true,
    },
    {
      name: "Doesn't match added affinity",
      pod: makePod().obj(),
      nodeName: "node2",
      labels: { zone: "foo" },
      args: {
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: ["bar"] }] }],
          },
        },
      },
      wantStatus: uau(ErrReasonEnforced),
      runPreFilter: true,
    },
    {
      name: "Matches node selector correctly even if PreFilter is not called",
      pod: makePod().nodeSelector({ foo: "bar" }).obj(),
      labels: { foo: "bar", baz: "blah" },
      runPreFilter: false,
    },
    {
      name: "Matches node affinity correctly even if PreFilter is not called",
      pod: podWithRequired({
        matchExpressions: [
          { key: "GPU", operator: "Exists" },
          { key: "GPU", operator: "NotIn", values: ["AMD", "INTER"] },
        ],
      }),
      labels: { GPU: "NVIDIA-GRID-K1" },
      runPreFilter: false,
    },
  ];

  for (const tc of tests) {
    it(tc.name, async () => {
      const nodeName = tc.nodeName ?? "";
      const node = makeNode()
        .name(nodeName)
        .labels(tc.labels ?? {})
        .obj();
      const h = await createPluginHarness({ plugin: nodeAffinityPlugin, args: tc.args, nodes: [node] });
      const state = h.newCycleState();
      if (tc.runPreFilter) {
        const pre = h.runPreFilter(state, tc.pod);
        // The runtime records a PreFilter Skip in the cycle state (the plugin's Filter is skipped).
        const preFilterStatus = state.skipFilterPlugins.has(name)
          ? { code: "Skip", reasons: [] }
          : statusSummary(pre.status);
        expect(preFilterStatus).toEqual(tc.wantPreFilterStatus ?? success);
        expect(pre.result?.nodeNames ? [...pre.result.nodeNames].sort() : undefined).toEqual(
          tc.wantPreFilterResult,
        );
      }
      // As upstream, Filter runs on the node whatever PreFilter returned.
      expect(statusSummary(h.runFilter(state, tc.pod, nodeName))).toEqual(tc.wantStatus ?? success);
    });
  }
});

describe("TestNodeAffinityPriority", () => {
  const label1 = { foo: "bar" };
  const label2 = { key: "value" };
  const label3 = { az: "az1" };
  const label4 = { abc: "az11", def: "az22" };
  const label5 = { foo: "bar", key: "value", az: "az1" };

  const affinity1: Affinity = {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 2, preference: { matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }] } },
      ],
    },
  };
  const affinity2: Affinity = {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 2, preference: { matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }] } },
        { weight: 4, preference: { matchExpressions: [{ key: "key", operator: "In", values: ["value"] }] } },
        {
          weight: 5,
          preference: {
            matchExpressions: [
              { key: "foo", operator: "In", values: ["bar"] },
              { key: "key", operator: "In", values: ["value"] },
              { key: "az", operator: "In", values: ["az1"] },
            ],
          },
        },
      ],
    },
  };
  const withAffinity = (a: Affinity): Pod => makePod().nodeAffinity(a.nodeAffinity!).obj();
  const node = (name: string, labels: Record<string, string>): Node =>
    makeNode().name(name).labels(labels).obj();

  const tests: {
    name: string;
    pod: Pod;
    nodes: Node[];
    expectedList?: { name: string; score: number }[];
    args?: NodeAffinityArgs;
    runPreScore: boolean;
    wantPreScoreStatus?: StatusSummary;
  }[] = [
    {
      name: "all nodes are same priority as NodeAffinity is nil",
      pod: makePod().annotations({}).obj(),
      nodes: [node("node1", label1), node("node2", label2), node("node3", label3)],
      expectedList: [
        { name: "node1", score: 0 },
        { name: "node2", score: 0 },
        { name: "node3", score: 0 },
      ],
      runPreScore: false,
    },
    {
      // PreScore returns Skip.
      name: "Skip is returned in PreScore when NodeAffinity is nil",
      pod: makePod().annotations({}).obj(),
      nodes: [node("node1", label1)],
      runPreScore: true,
      wantPreScoreStatus: { code: "Skip", reasons: [] },
    },
    {
      name: "PreScore returns error when an incoming Pod has a broken affinity",
      pod: makePod()
        .annotations({})
        .nodeAffinity({
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 2,
              preference: { matchExpressions: [{ key: "invalid key", operator: "In", values: ["bar"] }] },
            },
          ],
        })
        .obj(),
      nodes: [node("node1", label1)],
      runPreScore: true,
      wantPreScoreStatus: {
        code: "Error",
        reasons: [
          `[0].matchExpressions[0].key: Invalid value: "invalid key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
        ],
      },
    },
    {
      name: "no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero",
      pod: withAffinity(affinity1),
      nodes: [node("node1", label4), node("node2", label2), node("node3", label3)],
      expectedList: [
        { name: "node1", score: 0 },
        { name: "node2", score: 0 },
        { name: "node3", score: 0 },
      ],
      runPreScore: true,
    },
    {
      name: "only node1 matches the preferred scheduling requirements of pod",
      pod: withAffinity(affinity1),
      nodes: [node("node1", label1), node("node2", label2), node("node3", label3)],
      expectedList: [
        { name: "node1", score: MaxNodeScore },
        { name: "node2", score: 0 },
        { name: "node3", score: 0 },
      ],
      runPreScore: true,
    },
    {
      name: "all nodes matches the preferred scheduling requirements of pod but with different priorities ",
      pod: withAffinity(affinity2),
      nodes: [node("node1", label1), node("node5", label5), node("node2", label2)],
      expectedList: [
        { name: "node1", score: 18 },
        { name: "node5", score: MaxNodeScore },
        { name: "node2", score: 36 },
      ],
      runPreScore: true,
    },
    {
      name: "added affinity",
      pod: makePod().obj(),
      nodes: [node("node1", label1), node("node2", label2)],
      expectedList: [
        { name: "node1", score: MaxNodeScore },
        { name: "node2", score: 0 },
      ],
      args: { addedAffinity: affinity1.nodeAffinity! },
      runPreScore: true,
    },
    {
      name: "added affinity and pod has default affinity",
      pod: withAffinity(affinity1),
      nodes: [node("node1", label1), node("node2", label2), node("node3", label5)],
      expectedList: [
        { name: "node1", score: 40 },
        { name: "node2", score: 60 },
        { name: "node3", score: MaxNodeScore },
      ],
      args: {
        addedAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 3,
              preference: { matchExpressions: [{ key: "key", operator: "In", values: ["value"] }] },
            },
          ],
        },
      },
      runPreScore: true,
    },
    {
      name: "calculate the priorities correctly even if PreScore is not called",
      pod: withAffinity(affinity2),
      nodes: [node("node1", label1), node("node5", label5), node("node2", label2)],
      expectedList: [
        { name: "node1", score: 18 },
        { name: "node5", score: MaxNodeScore },
        { name: "node2", score: 36 },
      ],
      // upstream's table says runPreScore: true here despite the name; the Score fallback is
      // exercised by the first case.
      runPreScore: true,
    },
  ];

  for (const tc of tests) {
    it(tc.name, async () => {
      const h = await createPluginHarness({ plugin: nodeAffinityPlugin, args: tc.args, nodes: tc.nodes });
      if (tc.runPreScore) {
        const got = h.score(tc.pod);
        expect(statusSummary(got.preScoreStatus)).toEqual(tc.wantPreScoreStatus ?? success);
        if (got.preScoreStatus) return;
        expect(statusSummary(got.status)).toEqual(success);
        expect(got.scores).toEqual(tc.expectedList);
        return;
      }
      // Score and NormalizeScore without PreScore (PreScore disabled in the profile).
      const got = h.score(tc.pod, undefined, { runPreScore: false });
      expect(statusSummary(got.status)).toEqual(success);
      expect(got.scores).toEqual(tc.expectedList);
    });
  }
});
