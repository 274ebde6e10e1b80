// upstream: pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go
import type { Affinity, LabelSelector, Namespace, Node, Pod, PodAffinityTerm } from "@kubesched/api";
import { MaxNodeScore, type NodeScore, type Status } from "@kubesched/framework";
import { createPluginHarness, type StatusSummary, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { interPodAffinityPlugin } from "./index";

const ns = (name: string, labels: Record<string, string>): Namespace => ({ metadata: { name, labels } });

/** upstream scoring_test.go `namespaces`. */
const namespaces: Namespace[] = [
  ns("subteam1.team1", { team: "team1" }),
  ns("subteam2.team1", { team: "team1" }),
  ns("subteam1.team2", { team: "team2" }),
  ns("subteam2.team2", { team: "team2" }),
];

/**
 * The plugin in a real framework (createPluginHarness) over `nodes` with `pods`: PreScore, then
 * Score and NormalizeScore on every node unless PreScore did not succeed.
 */
async function runPreScoreScore(
  opts: { nodes: Node[]; pods: Pod[]; args: unknown },
  pod: Pod,
): Promise<{ preScore: Status | null; scores: NodeScore[] }> {
  const h = await createPluginHarness({
    plugin: interPodAffinityPlugin,
    nodes: opts.nodes,
    pods: opts.pods,
    objects: { namespaces },
    args: opts.args,
  });
  const out = h.score(pod);
  if (out.preScoreStatus !== null) return { preScore: out.preScoreStatus, scores: [] };
  if (out.status !== null) throw new Error(`Score failed: ${out.status.message()}`);
  return { preScore: null, scores: out.scores };
}

const node = (name: string, labels: Record<string, string>): Node => ({ metadata: { name, labels } });
const exprs = (...e: NonNullable<LabelSelector["matchExpressions"]>): LabelSelector => ({
  matchExpressions: e,
});
const pod = (
  nodeName: string,
  labels?: Record<string, string>,
  affinity?: Affinity,
  namespace?: string,
): Pod => ({
  metadata: { ...(labels ? { labels } : {}), ...(namespace !== undefined ? { namespace } : {}) },
  spec: { containers: [], ...(nodeName ? { nodeName } : {}), ...(affinity ? { affinity } : {}) },
});
const weighted = (weight: number, podAffinityTerm: PodAffinityTerm) => ({ weight, podAffinityTerm });
const scores = (...s: [string, number][]): NodeScore[] => s.map(([name, score]) => ({ name, score }));
const skip: StatusSummary = { code: "Skip", reasons: [] };

describe("TestPreferredAffinity", () => {
  const labelRgChina = { region: "China" };
  const labelRgIndia = { region: "India" };
  const labelAzAz1 = { az: "az1" };
  const labelAzAz2 = { az: "az2" };
  const labelRgChinaAzAz1 = { region: "China", az: "az1" };
  const podLabelSecurityS1 = { security: "S1" };
  const podLabelSecurityS2 = { security: "S2" };
  const securityIn = (...values: string[]) => exprs({ key: "security", operator: "In", values });
  // considered only preferredDuringSchedulingIgnoredDuringExecution in pod affinity
  const stayWithS1InRegion: Affinity = {
    podAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        weighted(5, { labelSelector: securityIn("S1"), topologyKey: "region" }),
      ],
    },
  };
  const stayWithS2InRegion: Affinity = {
    podAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        weighted(6, { labelSelector: securityIn("S2"), topologyKey: "region" }),
      ],
    },
  };
  const affinity3: Affinity = {
    podAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        weighted(8, {
          labelSelector: exprs(
            { key: "security", operator: "NotIn", values: ["S1"] },
            { key: "security", operator: "In", values: ["S2"] },
          ),
          topologyKey: "region",
        }),
        weighted(2, {
          labelSelector: exprs(
            { key: "security", operator: "Exists" },
            { key: "wrongkey", operator: "DoesNotExist" },
          ),
          topologyKey: "region",
        }),
      ],
    },
  };
  const hardAffinity: Affinity = {
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: securityIn("S1", "value2"), topologyKey: "region" },
        {
          labelSelector: exprs(
            { key: "security", operator: "Exists" },
            { key: "wrongkey", operator: "DoesNotExist" },
          ),
          topologyKey: "region",
        },
      ],
    },
  };
  const awayFromS1InAz: Affinity = {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        weighted(5, { labelSelector: securityIn("S1"), topologyKey: "az" }),
      ],
    },
  };
  // to stay away from security S2 in any az.
  const awayFromS2InAz: Affinity = {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        weighted(5, { labelSelector: securityIn("S2"), topologyKey: "az" }),
      ],
    },
  };
  // to stay with security S1 in same region, stay away from security S2 in any az.
  const stayWithS1InRegionAwayFromS2InAz: Affinity = {
    podAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        weighted(8, { labelSelector: securityIn("S1"), topologyKey: "region" }),
      ],
    },
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        weighted(5, { labelSelector: securityIn("S2"), topologyKey: "az" }),
      ],
    },
  };
  const nsSelectorTerm: PodAffinityTerm = {
    labelSelector: securityIn("S1"),
    topologyKey: "region",
    namespaces: ["subteam2.team2"],
    namespaceSelector: exprs({ key: "team", operator: "In", values: ["team1"] }),
  };
  const affinityNamespaceSelector: Affinity = {
    podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, nsSelectorTerm)] },
  };
  const antiAffinityNamespaceSelector: Affinity = {
    podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, nsSelectorTerm)] },
  };
  const invalidAffinityLabels: Affinity = {
    podAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        weighted(8, { labelSelector: securityIn("{{.bad-value.}}"), topologyKey: "region" }),
      ],
    },
  };
  const invalidAntiAffinityLabels: Affinity = {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        weighted(5, { labelSelector: securityIn("{{.bad-value.}}"), topologyKey: "az" }),
      ],
    },
  };
  const max = MaxNodeScore;

  const tests: {
    name: string;
    pod: Pod;
    pods?: Pod[];
    nodes: Node[];
    expectedList?: NodeScore[];
    ignorePreferredTermsOfExistingPods?: boolean;
    wantStatus?: StatusSummary;
  }[] = [
    {
      name: "all nodes are same priority as Affinity is nil",
      pod: pod("", podLabelSecurityS1),
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia), node("node3", labelAzAz1)],
      wantStatus: skip,
    },
    // the node(node1) that have the label {"region": "China"} (match the topology key) and that have existing pods that match the labelSelector get high score
    // the node(node3) that don't have the label {"region": "whatever the value is"} (mismatch the topology key) but that have existing pods that match the labelSelector get low score
    // the node(node2) that have the label {"region": "China"} (match the topology key) but that have existing pods that mismatch the labelSelector get low score
    {
      name:
        "Affinity: pod that matches topology key & pods in nodes will get high score comparing to others" +
        "which doesn't match either pods in nodes or in topology key",
      pod: pod("", podLabelSecurityS1, stayWithS1InRegion),
      pods: [
        pod("node1", podLabelSecurityS1),
        pod("node2", podLabelSecurityS2),
        pod("node3", podLabelSecurityS1),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia), node("node3", labelAzAz1)],
      expectedList: scores(["node1", max], ["node2", 0], ["node3", 0]),
    },
    // the node1(node1) that have the label {"region": "China"} (match the topology key) and that have existing pods that match the labelSelector get high score
    // the node2(node2) that have the label {"region": "China"}, match the topology key and have the same label value with node1, get the same high score with node1
    // the node3(node3) that have the label {"region": "India"}, match the topology key but have a different label value, don't have existing pods that match the labelSelector,
    // get a low score.
    {
      name: "All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score",
      pod: pod("", undefined, stayWithS1InRegion),
      pods: [pod("node1", podLabelSecurityS1)],
      nodes: [node("node1", labelRgChina), node("node2", labelRgChinaAzAz1), node("node3", labelRgIndia)],
      expectedList: scores(["node1", max], ["node2", max], ["node3", 0]),
    },
    // there are 2 regions, say regionChina(node1,node3,node4) and regionIndia(node2,node5), both regions have nodes that match the preference.
    // But there are more nodes(actually more existing pods) in regionChina that match the preference than regionIndia.
    // Then, nodes in regionChina get higher score than nodes in regionIndia, and all the nodes in regionChina should get a same score(high score),
    // while all the nodes in regionIndia should get another same score(low score).
    {
      name: "Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score",
      pod: pod("", podLabelSecurityS1, stayWithS2InRegion),
      pods: [
        pod("node1", podLabelSecurityS2),
        pod("node1", podLabelSecurityS2),
        pod("node2", podLabelSecurityS2),
        pod("node3", podLabelSecurityS2),
        pod("node4", podLabelSecurityS2),
        pod("node5", podLabelSecurityS2),
      ],
      nodes: [
        node("node1", labelRgChina),
        node("node2", labelRgIndia),
        node("node3", labelRgChina),
        node("node4", labelRgChina),
        node("node5", labelRgIndia),
      ],
      expectedList: scores(["node1", max], ["node2", 0], ["node3", max], ["node4", max], ["node5", 0]),
    },
    // Test with the different operators and values for pod affinity scheduling preference, including some match failures.
    {
      name: "Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures ",
      pod: pod("", podLabelSecurityS1, affinity3),
      pods: [
        pod("node1", podLabelSecurityS1),
        pod("node2", podLabelSecurityS2),
        pod("node3", podLabelSecurityS1),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia), node("node3", labelAzAz1)],
      expectedList: scores(["node1", 20], ["node2", max], ["node3", 0]),
    },
    // Test the symmetry cases for affinity, the difference between affinity and symmetry is not the pod wants to run together with some existing pods,
    // but the existing pods have the inter pod affinity preference while the pod to schedule satisfy the preference.
    {
      name: "Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
      pod: pod("", podLabelSecurityS2),
      pods: [
        pod("node1", podLabelSecurityS1, stayWithS1InRegion),
        pod("node2", podLabelSecurityS2, stayWithS2InRegion),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia), node("node3", labelAzAz1)],
      expectedList: scores(["node1", 0], ["node2", max], ["node3", 0]),
    },
    {
      name: "Affinity symmetry with namespace selector",
      pod: pod("", podLabelSecurityS1, undefined, "subteam1.team1"),
      pods: [
        pod("node1", podLabelSecurityS1, affinityNamespaceSelector),
        pod("node2", podLabelSecurityS2, stayWithS2InRegion),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia), node("node3", labelAzAz1)],
      expectedList: scores(["node1", max], ["node2", 0], ["node3", 0]),
    },
    {
      name: "AntiAffinity symmetry with namespace selector",
      pod: pod("", podLabelSecurityS1, undefined, "subteam1.team1"),
      pods: [
        pod("node1", podLabelSecurityS1, antiAffinityNamespaceSelector),
        pod("node2", podLabelSecurityS2, stayWithS2InRegion),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia), node("node3", labelAzAz1)],
      expectedList: scores(["node1", 0], ["node2", max], ["node3", max]),
    },
    {
      name: "Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
      pod: pod("", podLabelSecurityS1),
      pods: [pod("node1", podLabelSecurityS1, hardAffinity), pod("node2", podLabelSecurityS2, hardAffinity)],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia), node("node3", labelAzAz1)],
      expectedList: scores(["node1", max], ["node2", max], ["node3", 0]),
    },
    // The pod to schedule prefer to stay away from some existing pods at node level using the pod anti affinity.
    // the nodes that have the label {"node": "bar"} (match the topology key) and that have existing pods that match the labelSelector get low score
    // the nodes that don't have the label {"node": "whatever the value is"} (mismatch the topology key) but that have existing pods that match the labelSelector get high score
    // the nodes that have the label {"node": "bar"} (match the topology key) but that have existing pods that mismatch the labelSelector get high score
    // there are 2 nodes, say node1 and node2, both nodes have pods that match the labelSelector and have topology-key in node.Labels.
    // But there are more pods on node1 that match the preference than node2. Then, node1 get a lower score than node2.
    {
      name: "Anti Affinity: pod that does not match existing pods in node will get high score ",
      pod: pod("", podLabelSecurityS1, awayFromS1InAz),
      pods: [pod("node1", podLabelSecurityS1), pod("node2", podLabelSecurityS2)],
      nodes: [node("node1", labelAzAz1), node("node2", labelRgChina)],
      expectedList: scores(["node1", 0], ["node2", max]),
    },
    {
      name: "Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others ",
      pod: pod("", podLabelSecurityS1, awayFromS1InAz),
      pods: [pod("node1", podLabelSecurityS1), pod("node2", podLabelSecurityS1)],
      nodes: [node("node1", labelAzAz1), node("node2", labelRgChina)],
      expectedList: scores(["node1", 0], ["node2", max]),
    },
    {
      name: "Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score",
      pod: pod("", podLabelSecurityS1, awayFromS1InAz),
      pods: [
        pod("node1", podLabelSecurityS1),
        pod("node1", podLabelSecurityS1),
        pod("node2", podLabelSecurityS2),
      ],
      nodes: [node("node1", labelAzAz1), node("node2", labelRgIndia)],
      expectedList: scores(["node1", 0], ["node2", max]),
    },
    // Test the symmetry cases for anti affinity
    {
      name: "Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
      pod: pod("", podLabelSecurityS2),
      pods: [
        pod("node1", podLabelSecurityS1, awayFromS2InAz),
        pod("node2", podLabelSecurityS2, awayFromS1InAz),
      ],
      nodes: [node("node1", labelAzAz1), node("node2", labelAzAz2)],
      expectedList: scores(["node1", 0], ["node2", max]),
    },
    // Test both  affinity and anti-affinity
    {
      name: "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity",
      pod: pod("", podLabelSecurityS1, stayWithS1InRegionAwayFromS2InAz),
      pods: [pod("node1", podLabelSecurityS1), pod("node2", podLabelSecurityS1)],
      nodes: [node("node1", labelRgChina), node("node2", labelAzAz1)],
      expectedList: scores(["node1", max], ["node2", 0]),
    },
    // Combined cases considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels (they are in the same RC/service),
    // the pod prefer to run together with its brother pods in the same region, but wants to stay away from them at node level,
    // so that all the pods of a RC/service can stay in a same region but trying to separate with each other
    // node-1,node-3,node-4 are in ChinaRegion others node-2,node-5 are in IndiaRegion
    {
      name: "Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels",
      pod: pod("", podLabelSecurityS1, stayWithS1InRegionAwayFromS2InAz),
      pods: [
        pod("node1", podLabelSecurityS1),
        pod("node1", podLabelSecurityS1),
        pod("node2", podLabelSecurityS1),
        pod("node3", podLabelSecurityS1),
        pod("node3", podLabelSecurityS1),
        pod("node4", podLabelSecurityS1),
        pod("node5", podLabelSecurityS1),
      ],
      nodes: [
        node("node1", labelRgChinaAzAz1),
        node("node2", labelRgIndia),
        node("node3", labelRgChina),
        node("node4", labelRgChina),
        node("node5", labelRgIndia),
      ],
      expectedList: scores(["node1", max], ["node2", 0], ["node3", max], ["node4", max], ["node5", 0]),
    },
    // Consider Affinity, Anti Affinity and symmetry together.
    // for Affinity, the weights are:                8,  0,  0,  0
    // for Anti Affinity, the weights are:           0, -5,  0,  0
    // for Affinity symmetry, the weights are:       0,  0,  8,  0
    // for Anti Affinity symmetry, the weights are:  0,  0,  0, -5
    {
      name: "Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry",
      pod: pod("", podLabelSecurityS1, stayWithS1InRegionAwayFromS2InAz),
      pods: [
        pod("node1", podLabelSecurityS1),
        pod("node2", podLabelSecurityS2),
        pod("node3", undefined, stayWithS1InRegionAwayFromS2InAz),
        pod("node4", undefined, awayFromS1InAz),
      ],
      nodes: [
        node("node1", labelRgChina),
        node("node2", labelAzAz1),
        node("node3", labelRgIndia),
        node("node4", labelAzAz2),
      ],
      expectedList: scores(["node1", max], ["node2", 0], ["node3", max], ["node4", 0]),
    },
    // Cover https://github.com/kubernetes/kubernetes/issues/82796 which panics upon:
    // 1. Some nodes in a topology don't have pods with affinity, but other nodes in the same topology have.
    // 2. The incoming pod doesn't have affinity.
    {
      name: "Avoid panic when partial nodes in a topology don't have pods with affinity",
      pod: pod("", podLabelSecurityS1),
      pods: [pod("node1", podLabelSecurityS1), pod("node2", undefined, stayWithS1InRegionAwayFromS2InAz)],
      nodes: [node("node1", labelRgChina), node("node2", labelRgChina)],
      expectedList: scores(["node1", 0], ["node2", 0]),
    },
    {
      name: "invalid Affinity fails PreScore",
      pod: pod("", undefined, invalidAffinityLabels),
      wantStatus: { code: "Error", reasons: [`Invalid value: "{{.bad-value.}}"`] },
      nodes: [node("node1", labelRgChina), node("node2", labelRgChina)],
    },
    {
      name: "invalid AntiAffinity fails PreScore",
      pod: pod("", undefined, invalidAntiAffinityLabels),
      wantStatus: { code: "Error", reasons: [`Invalid value: "{{.bad-value.}}"`] },
      nodes: [node("node1", labelRgChina), node("node2", labelRgChina)],
    },
    {
      name: "Affinity with pods matching NamespaceSelector",
      pod: pod("", podLabelSecurityS1, affinityNamespaceSelector, "subteam1.team1"),
      pods: [
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team1"),
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team1"),
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team2"),
        pod("node2", podLabelSecurityS1, undefined, "subteam2.team1"),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia)],
      expectedList: scores(["node1", max], ["node2", 0]),
    },
    {
      name: "Affinity with pods matching both NamespaceSelector and Namespaces fields",
      pod: pod("", podLabelSecurityS1, affinityNamespaceSelector, "subteam1.team1"),
      pods: [
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team1"),
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team1"),
        pod("node1", podLabelSecurityS1, undefined, "subteam2.team2"),
        pod("node2", podLabelSecurityS1, undefined, "subteam2.team1"),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia)],
      expectedList: scores(["node1", max], ["node2", 0]),
    },
    {
      name: "Affinity with pods matching NamespaceSelector",
      pod: pod("", podLabelSecurityS1, antiAffinityNamespaceSelector, "subteam1.team1"),
      pods: [
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team1"),
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team1"),
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team2"),
        pod("node2", podLabelSecurityS1, undefined, "subteam2.team1"),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia)],
      expectedList: scores(["node1", 0], ["node2", max]),
    },
    {
      name: "Affinity with pods matching both NamespaceSelector and Namespaces fields",
      pod: pod("", podLabelSecurityS1, antiAffinityNamespaceSelector, "subteam1.team1"),
      pods: [
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team1"),
        pod("node1", podLabelSecurityS1, undefined, "subteam1.team1"),
        pod("node1", podLabelSecurityS1, undefined, "subteam2.team2"),
        pod("node2", podLabelSecurityS1, undefined, "subteam2.team1"),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia)],
      expectedList: scores(["node1", 0], ["node2", max]),
    },
    {
      name: "Ignore preferred terms of existing pods",
      pod: pod("", podLabelSecurityS2),
      pods: [
        pod("node1", podLabelSecurityS1, stayWithS1InRegionAwayFromS2InAz),
        pod("node2", podLabelSecurityS2, stayWithS2InRegion),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia)],
      expectedList: scores(["node1", 0], ["node2", 0]),
      wantStatus: skip,
      ignorePreferredTermsOfExistingPods: true,
    },
    {
      name: "Do not ignore preferred terms of existing pods",
      pod: pod("", podLabelSecurityS2),
      pods: [
        pod("node1", podLabelSecurityS1, stayWithS1InRegionAwayFromS2InAz),
        pod("node2", podLabelSecurityS2, stayWithS2InRegion),
      ],
      nodes: [node("node1", labelRgChina), node("node2", labelRgIndia)],
      expectedList: scores(["node1", 0], ["node2", max]),
      ignorePreferredTermsOfExistingPods: false,
    },
    {
      name: "No nodes to score",
      pod: pod("", podLabelSecurityS2),
      pods: [],
      nodes: [],
      wantStatus: skip,
    },
  ];

  for (const test of tests) {
    it(test.name, async () => {
      const got = await runPreScoreScore(
        {
          nodes: test.nodes,
          pods: test.pods ?? [],
          args: {
            hardPodAffinityWeight: 1,
            ignorePreferredTermsOfExistingPods: test.ignorePreferredTermsOfExistingPods ?? false,
          },
        },
        test.pod,
      );
      if (got.preScore !== null) {
        const want = test.wantStatus;
        expect(want).toBeDefined();
        const summary = statusSummary(got.preScore);
        expect(summary.code).toBe(want!.code);
        // upstream checks that the message contains the wanted one.
        expect(got.preScore.message()).toContain(want!.reasons.join(", "));
        return;
      }
      expect(got.scores).toEqual(test.expectedList);
    });
  }
});

describe("TestPreferredAffinityWithHardPodAffinitySymmetricWeight", () => {
  const podLabelServiceS1 = { service: "S1" };
  const labelRgChina = { region: "China" };
  const labelRgIndia = { region: "India" };
  const labelAzAz1 = { az: "az1" };
  const hardPodAffinity: Affinity = {
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        {
          labelSelector: exprs({ key: "service", operator: "In", values: ["S1"] }),
          namespaces: ["", "subteam2.team2"],
          namespaceSelector: exprs({ key: "team", operator: "In", values: ["team1"] }),
          topologyKey: "region",
        },
      ],
    },
  };
  const nodes = [node("node1", labelRgChina), node("node2", labelRgIndia), node("node3", labelAzAz1)];
  const pods = [pod("node1", undefined, hardPodAffinity), pod("node2", undefined, hardPodAffinity)];
  const defaultHardPodAffinitySymmetricWeight = 1;
  const max = MaxNodeScore;

  const tests: {
    name: string;
    pod: Pod;
    hardPodAffinityWeight: number;
    expectedList?: NodeScore[];
    wantStatus?: StatusSummary;
  }[] = [
    {
      name: "with default weight",
      pod: pod("", podLabelServiceS1),
      hardPodAffinityWeight: defaultHardPodAffinitySymmetricWeight,
      expectedList: scores(["node1", max], ["node2", max], ["node3", 0]),
    },
    {
      name: "with zero weight",
      pod: pod("", podLabelServiceS1),
      hardPodAffinityWeight: 0,
      wantStatus: skip,
    },
    {
      name: "with no matching namespace",
      pod: pod("", podLabelServiceS1, undefined, "subteam1.team2"),
      hardPodAffinityWeight: defaultHardPodAffinitySymmetricWeight,
      wantStatus: skip,
    },
    {
      name: "with matching NamespaceSelector",
      pod: pod("", podLabelServiceS1, undefined, "subteam1.team1"),
      hardPodAffinityWeight: defaultHardPodAffinitySymmetricWeight,
      expectedList: scores(["node1", max], ["node2", max], ["node3", 0]),
    },
    {
      name: "with matching Namespaces",
      pod: pod("", podLabelServiceS1, undefined, "subteam2.team2"),
      hardPodAffinityWeight: defaultHardPodAffinitySymmetricWeight,
      expectedList: scores(["node1", max], ["node2", max], ["node3", 0]),
    },
  ];

  for (const test of tests) {
    it(test.name, async () => {
      const got = await runPreScoreScore(
        { nodes, pods, args: { hardPodAffinityWeight: test.hardPodAffinityWeight } },
        test.pod,
      );
      expect(statusSummary(got.preScore)).toEqual(test.wantStatus ?? { code: "Success", reasons: [] });
      if (got.preScore !== null) return;
      expect(got.scores).toEqual(test.expectedList);
    });
  }
});
