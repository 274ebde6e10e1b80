import type {
  Node,
  NodeSelector,
  NodeSelectorTerm,
  Pod,
  PreferredSchedulingTerm,
} from "kubernetes-types/core/v1.js";
import { describe, expect, it } from "vitest";
import {
  getRequiredNodeAffinity,
  NodeSelectorError,
  newNodeSelector,
  PreferredSchedulingTermsMatcher,
} from "./node-affinity";

// upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go
const node = (name?: string, labels?: Record<string, string>): Node => ({ metadata: { name, labels } });
const keyErr =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const invalidTerms: NodeSelectorTerm[] = [
  { matchFields: [{ key: "metadata.name", operator: "In", values: ["host_1", "host_2"] }] },
  {
    matchExpressions: [{ key: "label_1", operator: "In", values: ["label_1_val"] }],
    matchFields: [{ key: "metadata.name", operator: "In", values: ["host_1"] }],
  },
  { matchExpressions: [{ key: "invalid key", operator: "In", values: ["label_value"] }] },
];

describe("TestNodeSelectorMatch", () => {
  const cases: { name: string; ns: NodeSelector; node?: Node; wantErr?: string; wantMatch: boolean }[] = [
    { name: "nil node", ns: { nodeSelectorTerms: [] }, wantMatch: false },
    {
      name: "invalid field selector and label selector",
      ns: { nodeSelectorTerms: invalidTerms },
      wantErr: `[nodeSelectorTerms[0].matchFields[0].values: Invalid value: []string{"host_1", "host_2"}: must have one element, nodeSelectorTerms[2].matchExpressions[0].key: Invalid value: "invalid key": ${keyErr}]`,
      wantMatch: false,
    },
    {
      name: "node matches field selector, but not labels",
      ns: { nodeSelectorTerms: [invalidTerms[1]!] },
      node: node("host_1"),
      wantMatch: false,
    },
    {
      name: "node matches field selector and label selector",
      ns: { nodeSelectorTerms: [invalidTerms[1]!] },
      node: node("host_1", { label_1: "label_1_val" }),
      wantMatch: true,
    },
    {
      name: "second term matches",
      ns: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: "label_1", operator: "In", values: ["label_1_val"] }] },
          { matchFields: [{ key: "metadata.name", operator: "In", values: ["host_1"] }] },
        ],
      },
      node: node("host_1"),
      wantMatch: true,
    },
  ];
  it.each(cases)("$name", ({ ns, node: n, wantErr, wantMatch }) => {
    if (wantErr !== undefined) {
      expect(() => newNodeSelector(ns, { strict: true })).toThrow(NodeSelectorError);
      expect(() => newNodeSelector(ns, { strict: true })).toThrow(wantErr);
      // Lazy: invalid terms never match, the valid one still does.
      const lazy = newNodeSelector(ns);
      expect(lazy.errors).toHaveLength(2);
      expect(lazy.match(node("host_1", { label_1: "label_1_val" }))).toBe(true);
      return;
    }
    expect(newNodeSelector(ns, { strict: true }).match(n)).toBe(wantMatch);
  });
});

describe("TestPreferredSchedulingTermsScore", () => {
  const weighted = (weight: number, preference: NodeSelectorTerm): PreferredSchedulingTerm => ({
    weight,
    preference,
  });
  it("invalid field selector and label selector", () => {
    const terms = invalidTerms.map((t) => weighted(1, t));
    expect(() => new PreferredSchedulingTermsMatcher(terms, { strict: true })).toThrow(
      `[[0].matchFields[0].values: Invalid value: []string{"host_1", "host_2"}: must have one element, [2].matchExpressions[0].key: Invalid value: "invalid key": ${keyErr}]`,
    );
  });
  it("invalid field selector but no weight, error not reported", () => {
    const m = new PreferredSchedulingTermsMatcher([weighted(0, invalidTerms[0]!)], { strict: true });
    expect(m.score(node("host_1"))).toBe(0);
  });
  it("first and third term match", () => {
    const m = new PreferredSchedulingTermsMatcher([
      weighted(5, { matchFields: [{ key: "metadata.name", operator: "In", values: ["host_1"] }] }),
      weighted(7, {
        matchExpressions: [{ key: "unknown_label", operator: "In", values: ["unknown_label_val"] }],
      }),
      weighted(11, { matchExpressions: [{ key: "label_1", operator: "In", values: ["label_1_val"] }] }),
    ]);
    expect(m.score(node("host_1", { label_1: "label_1_val" }))).toBe(16);
  });
});

describe("TestNodeSelectorRequirementsAsSelector (via terms)", () => {
  it("Exists with values is rejected with the field path", () => {
    expect(() =>
      newNodeSelector(
        {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: "foo", operator: "Exists", values: ["bar", "baz"] }] },
          ],
        },
        { strict: true },
      ),
    ).toThrow(
      `nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: []string{"bar", "baz"}: values set must be empty for exists and does not exist`,
    );
  });
  it("unknown operators are Unsupported values", () => {
    expect(() =>
      newNodeSelector(
        { nodeSelectorTerms: [{ matchExpressions: [{ key: "foo", operator: "Foo" }] }] },
        { strict: true },
      ),
    ).toThrow(
      `nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "Foo": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"`,
    );
  });
  it.each([
    ["Gt", "1", "2", true],
    ["Lt", "7", "6", true],
    ["Gt", "1", "1", false],
  ])("%s %s against %s", (operator, value, label, want) => {
    const m = newNodeSelector({
      nodeSelectorTerms: [{ matchExpressions: [{ key: "foo", operator, values: [value] }] }],
    });
    expect(m.match(node("n", { foo: label }))).toBe(want);
  });
});

const affinityPod = (
  nodeSelectorTerms: NodeSelectorTerm[] | undefined,
  nodeSelector?: Record<string, string>,
): Pod => ({
  spec: {
    containers: [],
    nodeSelector,
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: nodeSelectorTerms! },
      },
    },
  },
});
const expr = (key: string, operator: string, values?: string[]) => ({ key, operator, values });

describe("TestPodMatchesNodeSelectorAndAffinityTerms", () => {
  const cases: {
    name: string;
    pod: Pod;
    labels?: Record<string, string>;
    nodeName?: string;
    want: boolean;
  }[] = [
    { name: "no selector", pod: { spec: { containers: [] } }, want: true },
    { name: "missing labels", pod: { spec: { containers: [], nodeSelector: { foo: "bar" } } }, want: false },
    {
      name: "same labels",
      pod: { spec: { containers: [], nodeSelector: { foo: "bar" } } },
      labels: { foo: "bar" },
      want: true,
    },
    {
      name: "node labels are superset",
      pod: { spec: { containers: [], nodeSelector: { foo: "bar" } } },
      labels: { foo: "bar", baz: "blah" },
      want: true,
    },
    {
      name: "node labels are subset",
      pod: { spec: { containers: [], nodeSelector: { foo: "bar", baz: "blah" } } },
      labels: { foo: "bar" },
      want: false,
    },
    {
      name: "Pod with matchExpressions using In operator that matches the existing node",
      pod: affinityPod([{ matchExpressions: [expr("foo", "In", ["bar", "value2"])] }]),
      labels: { foo: "bar" },
      want: true,
    },
    {
      name: "Pod with matchExpressions using Gt operator that matches the existing node",
      pod: affinityPod([{ matchExpressions: [expr("kernel-version", "Gt", ["0204"])] }]),
      labels: { "kernel-version": "0206" },
      want: true,
    },
    {
      name: "Pod with matchExpressions using NotIn operator that matches the existing node",
      pod: affinityPod([{ matchExpressions: [expr("mem-type", "NotIn", ["DDR", "DDR2"])] }]),
      labels: { "mem-type": "DDR3" },
      want: true,
    },
    {
      name: "Pod with matchExpressions using Exists operator that matches the existing node",
      pod: affinityPod([{ matchExpressions: [expr("GPU", "Exists")] }]),
      labels: { GPU: "NVIDIA-GRID-K1" },
      want: true,
    },
    {
      name: "Pod with affinity that don't match node's labels won't schedule onto the node",
      pod: affinityPod([{ matchExpressions: [expr("foo", "In", ["value1", "value2"])] }]),
      labels: { foo: "bar" },
      want: false,
    },
    {
      name: "Pod with a nil []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node",
      pod: affinityPod(undefined),
      labels: { foo: "bar" },
      want: false,
    },
    {
      name: "Pod with an empty []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node",
      pod: affinityPod([]),
      labels: { foo: "bar" },
      want: false,
    },
    {
      name: "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
      pod: affinityPod([{ matchExpressions: [] }]),
      labels: { foo: "bar" },
      want: false,
    },
    {
      name: "Pod with no Affinity will schedule onto a node",
      pod: { spec: { containers: [] } },
      labels: { foo: "bar" },
      want: true,
    },
    {
      name: "Pod with Affinity but nil NodeSelector will schedule onto a node",
      pod: { spec: { containers: [], affinity: { nodeAffinity: {} } } },
      labels: { foo: "bar" },
      want: true,
    },
    {
      name: "Pod with multiple matchExpressions ANDed that matches the existing node",
      pod: affinityPod([
        { matchExpressions: [expr("GPU", "Exists"), expr("GPU", "NotIn", ["AMD", "INTER"])] },
      ]),
      labels: { GPU: "NVIDIA-GRID-K1" },
      want: true,
    },
    {
      name: "Pod with multiple matchExpressions ANDed that doesn't match the existing node",
      pod: affinityPod([{ matchExpressions: [expr("GPU", "Exists"), expr("GPU", "In", ["AMD", "INTER"])] }]),
      labels: { GPU: "NVIDIA-GRID-K1" },
      want: false,
    },
    {
      name: "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
      pod: affinityPod([
        { matchExpressions: [expr("foo", "In", ["bar", "value2"])] },
        { matchExpressions: [expr("diffkey", "In", ["wrong", "value2"])] },
      ]),
      labels: { foo: "bar" },
      want: true,
    },
    {
      name: "Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node",
      pod: affinityPod([{ matchExpressions: [expr("foo", "Exists")] }], { foo: "bar" }),
      labels: { foo: "bar" },
      want: true,
    },
    {
      name: "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
      pod: affinityPod([{ matchExpressions: [expr("foo", "Exists")] }], { foo: "bar" }),
      labels: { foo: "barrrrrr" },
      want: false,
    },
    {
      name: "Pod with an invalid value in Affinity term won't be scheduled onto the node",
      pod: affinityPod([{ matchExpressions: [expr("foo", "NotIn", ["invalid value: ___@#$%^"])] }]),
      labels: { foo: "bar" },
      want: false,
    },
    {
      name: "Pod with matchFields using In operator that matches the existing node",
      pod: affinityPod([{ matchFields: [expr("metadata.name", "In", ["node_1"])] }]),
      nodeName: "node_1",
      want: true,
    },
    {
      name: "Pod with matchFields using In operator that does not match the existing node",
      pod: affinityPod([{ matchFields: [expr("metadata.name", "In", ["node_1"])] }]),
      nodeName: "node_2",
      want: false,
    },
    {
      name: "Pod with two terms: matchFields does not match, but matchExpressions matches",
      pod: affinityPod([
        { matchFields: [expr("metadata.name", "In", ["node_1"])] },
        { matchExpressions: [expr("foo", "In", ["bar"])] },
      ]),
      nodeName: "node_2",
      labels: { foo: "bar" },
      want: true,
    },
    {
      name: "Pod with one term: matchFields does not match, but matchExpressions matches",
      pod: affinityPod([
        {
          matchFields: [expr("metadata.name", "In", ["node_1"])],
          matchExpressions: [expr("foo", "In", ["bar"])],
        },
      ]),
      nodeName: "node_2",
      labels: { foo: "bar" },
      want: false,
    },
    {
      name: "Pod with one term: both matchFields and matchExpressions match",
      pod: affinityPod([
        {
          matchFields: [expr("metadata.name", "In", ["node_1"])],
          matchExpressions: [expr("foo", "In", ["bar"])],
        },
      ]),
      nodeName: "node_1",
      labels: { foo: "bar" },
      want: true,
    },
    {
      name: "Pod with two terms: both matchFields and matchExpressions do not match",
      pod: affinityPod([
        { matchFields: [expr("metadata.name", "In", ["node_1"])] },
        { matchExpressions: [expr("foo", "In", ["not-match-to-bar"])] },
      ]),
      nodeName: "node_2",
      labels: { foo: "bar" },
      want: false,
    },
  ];
  it.each(cases)("$name", ({ pod, labels, nodeName, want }) => {
    expect(getRequiredNodeAffinity(pod).match(node(nodeName ?? "", labels))).toBe(want);
  });
});

// upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/helpers_test.go
describe("TestMatchNodeSelectorTerms", () => {
  const f = (values: string[]) => [expr("metadata.name", "In", values)];
  const l = [expr("label_1", "In", ["label_1_val"])];
  const cases: { name: string; ns?: NodeSelector; node?: Node; want: boolean }[] = [
    { name: "nil terms", want: false },
    {
      name: "node label matches matchExpressions terms",
      ns: { nodeSelectorTerms: [{ matchExpressions: l }] },
      node: node("", { label_1: "label_1_val" }),
      want: true,
    },
    {
      name: "node field matches matchFields terms",
      ns: { nodeSelectorTerms: [{ matchFields: f(["host_1"]) }] },
      node: node("host_1"),
      want: true,
    },
    {
      name: "invalid node field requirement",
      ns: { nodeSelectorTerms: [{ matchFields: f(["host_1", "host_2"]) }] },
      node: node("host_1"),
      want: false,
    },
    {
      name: "fieldSelectorTerm with node labels",
      ns: { nodeSelectorTerms: [{ matchFields: f(["host_1"]) }] },
      node: node("not_host_1", { "metadata.name": "host_1" }),
      want: false,
    },
    {
      name: "labelSelectorTerm with node fields",
      ns: { nodeSelectorTerms: [{ matchExpressions: [expr("metadata.name", "In", ["host_1"])] }] },
      node: node("host_1"),
      want: false,
    },
    {
      name: "labelSelectorTerm and fieldSelectorTerm was set, but only node fields",
      ns: { nodeSelectorTerms: [{ matchExpressions: l, matchFields: f(["host_1"]) }] },
      node: node("host_1"),
      want: false,
    },
    {
      name: "labelSelectorTerm and fieldSelectorTerm was set, both node fields and labels (both matched)",
      ns: { nodeSelectorTerms: [{ matchExpressions: l, matchFields: f(["host_1"]) }] },
      node: node("host_1", { label_1: "label_1_val" }),
      want: true,
    },
    {
      name: "labelSelectorTerm and fieldSelectorTerm was set, both node fields and labels (one mismatched)",
      ns: { nodeSelectorTerms: [{ matchExpressions: l, matchFields: f(["host_1"]) }] },
      node: node("host_1", { label_1: "label_1_val-failed" }),
      want: false,
    },
    {
      name: "multi-selector was set, both node fields and labels (one mismatched)",
      ns: { nodeSelectorTerms: [{ matchExpressions: l }, { matchFields: f(["host_1"]) }] },
      node: node("host_1", { label_1: "label_1_val-failed" }),
      want: true,
    },
  ];
  it.each(cases)("$name", ({ ns, node: n, want }) => expect(newNodeSelector(ns).match(n)).toBe(want));

  it("does not modify the selector (TestMatchNodeSelectorTermsStateless)", () => {
    const ns: NodeSelector = {
      nodeSelectorTerms: [
        {
          matchExpressions: [expr("label_1", "In", ["label_2_val", "label_1_val"])],
          matchFields: f(["host_2", "host_1"]),
        },
      ],
    };
    const copy = structuredClone(ns);
    newNodeSelector(ns).match(node("host_1", { label_1: "label_1_val" }));
    expect(ns).toEqual(copy);
  });
});
