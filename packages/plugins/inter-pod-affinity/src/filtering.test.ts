// upstream: pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go
import type { LabelSelector, Namespace, Node, Pod, PodAffinityTerm } from "@kubesched/api";
import { Code, CycleState, PodInfo, Status } from "@kubesched/framework";
import {
  PodAffinityWithRequiredReq as affReq,
  PodAntiAffinityWithRequiredReq as antiReq,
  createPluginHarness,
  makePod,
  type PluginHarness,
  type StatusSummary,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { type PreFilterState, preFilterStateKey } from "./filtering";
import { interPodAffinityPlugin } from "./index";
import type { InterPodAffinity } from "./inter-pod-affinity";
import {
  ErrReasonAffinityRulesNotMatch,
  ErrReasonAntiAffinityRulesNotMatch,
  ErrReasonExistingAntiAffinityRulesNotMatch,
} from "./reasons";

const defaultNamespace = "";

/** A namespace with labels (the namespace lister's objects). */
const ns = (name: string, labels?: Record<string, string>): Namespace => ({
  metadata: { name, ...(labels ? { labels } : {}) },
});

/** upstream scoring_test.go `namespaces`. */
const namespaces: Namespace[] = [
  ns("subteam1.team1", { team: "team1" }),
  ns("subteam2.team1", { team: "team1" }),
  ns("subteam1.team2", { team: "team2" }),
  ns("subteam2.team2", { team: "team2" }),
];

interface Setup {
  harness: PluginHarness;
  plugin: InterPodAffinity;
  nodeInfo(name: string): ReturnType<PluginHarness["nodeInfo"]>;
}

/** The plugin in a real framework (createPluginHarness) over a snapshot of `nodes` with `pods`. */
async function setup(opts: { nodes: Node[]; pods: Pod[]; namespaces?: Namespace[] }): Promise<Setup> {
  const harness = await createPluginHarness({
    plugin: interPodAffinityPlugin,
    nodes: opts.nodes,
    pods: opts.pods,
    objects: { namespaces: opts.namespaces ?? [] },
  });
  return { harness, plugin: harness.plugin as InterPodAffinity, nodeInfo: (n) => harness.nodeInfo(n) };
}

/**
 * PreFilter then Filter on every node (in node order) unless PreFilter did not succeed. A PreFilter
 * Skip, which the framework records in the state, is reported as a Skip status.
 */
function runPreFilterFilter(
  s: Setup,
  pod: Pod,
): { preFilter: Status | null; filter: (Status | null)[]; state: CycleState } {
  const out = s.harness.filter(pod);
  let preFilter = out.preFilter.status;
  if (preFilter === null && out.state.skipFilterPlugins.has(s.plugin.name()))
    preFilter = new Status(Code.Skip);
  return { preFilter, filter: preFilter === null ? [...out.statuses.values()] : [], state: out.state };
}

const node = (name: string, labels: Record<string, string>): Node => ({ metadata: { name, labels } });

const success: StatusSummary = { code: "Success", reasons: [] };
const skip: StatusSummary = { code: "Skip", reasons: [] };
const affinityFail: StatusSummary = {
  code: "UnschedulableAndUnresolvable",
  reasons: [ErrReasonAffinityRulesNotMatch],
};
const antiFail: StatusSummary = { code: "Unschedulable", reasons: [ErrReasonAntiAffinityRulesNotMatch] };
const existingFail: StatusSummary = {
  code: "Unschedulable",
  reasons: [ErrReasonExistingAntiAffinityRulesNotMatch],
};

function createPodWithAffinityTerms(
  namespace: string,
  nodeName: string,
  labels: Record<string, string>,
  affinity: PodAffinityTerm[] | null,
  antiAffinity: PodAffinityTerm[] | null,
): Pod {
  return {
    metadata: { labels, namespace },
    spec: {
      containers: [],
      ...(nodeName ? { nodeName } : {}),
      affinity: {
        podAffinity: affinity ? { requiredDuringSchedulingIgnoredDuringExecution: affinity } : {},
        podAntiAffinity: antiAffinity ? { requiredDuringSchedulingIgnoredDuringExecution: antiAffinity } : {},
      },
    },
  };
}

const exprs = (...e: NonNullable<LabelSelector["matchExpressions"]>): LabelSelector => ({
  matchExpressions: e,
});
const rawPod = (nodeName: string, namespace: string, labels: Record<string, string>): Pod => ({
  metadata: { namespace, labels },
  spec: { containers: [], nodeName },
});

const badLabelMessage = `parsing pod: requiredAffinityTerms: values[0][service]: Invalid value: "{{.bad-value.}}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`;

describe("TestRequiredAffinitySingleNode", () => {
  const podLabel = { service: "securityscan" };
  const pod = makePod().labels(podLabel).node("node1").obj();
  const labels1 = { region: "r1", zone: "z11" };
  const podLabel2 = { security: "S1" };
  const node1 = node("node1", labels1);

  const tests: {
    name: string;
    pod: Pod;
    pods?: Pod[];
    node: Node;
    wantPreFilterStatus?: StatusSummary;
    wantFilterStatus?: StatusSummary;
  }[] = [
    {
      name: "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
      pod: { metadata: {}, spec: { containers: [] } },
      node: node1,
      wantPreFilterStatus: skip,
    },
    {
      name: "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel2)
        .podAffinityIn("service", "region", ["securityscan", "value2"], affReq)
        .obj(),
      pods: [pod],
      node: node1,
    },
    {
      name: "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel2)
        .podAffinityNotIn("service", "region", ["securityscan3", "value3"], affReq)
        .obj(),
      pods: [pod],
      node: node1,
    },
    {
      name: "Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
      pod: createPodWithAffinityTerms(
        defaultNamespace,
        "",
        podLabel2,
        [
          {
            labelSelector: exprs({ key: "service", operator: "In", values: ["securityscan", "value2"] }),
            namespaces: ["DiffNameSpace"],
            topologyKey: "",
          },
        ],
        null,
      ),
      pods: [makePod().namespace("ns").label("service", "securityscan").node("node1").obj()],
      node: node1,
      wantFilterStatus: affinityFail,
    },
    {
      name: "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel)
        .podAffinityIn("service", "", ["antivirusscan", "value2"], affReq)
        .obj(),
      pods: [pod],
      node: node1,
      wantFilterStatus: affinityFail,
    },
    {
      name: "satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ",
      pod: createPodWithAffinityTerms(
        defaultNamespace,
        "",
        podLabel2,
        [
          {
            labelSelector: exprs(
              { key: "service", operator: "Exists" },
              { key: "wrongkey", operator: "DoesNotExist" },
            ),
            topologyKey: "region",
          },
          {
            labelSelector: exprs(
              { key: "service", operator: "In", values: ["securityscan"] },
              { key: "service", operator: "NotIn", values: ["WrongValue"] },
            ),
            topologyKey: "region",
          },
        ],
        null,
      ),
      pods: [pod],
      node: node1,
    },
    {
      name: "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
      pod: createPodWithAffinityTerms(
        defaultNamespace,
        "",
        podLabel2,
        [
          {
            labelSelector: exprs(
              { key: "service", operator: "Exists" },
              { key: "wrongkey", operator: "DoesNotExist" },
            ),
            topologyKey: "region",
          },
          {
            labelSelector: exprs(
              { key: "service", operator: "In", values: ["securityscan2"] },
              { key: "service", operator: "NotIn", values: ["WrongValue"] },
            ),
            topologyKey: "region",
          },
        ],
        null,
      ),
      pods: [pod],
      node: node1,
      wantFilterStatus: affinityFail,
    },
    {
      name: "satisfies the PodAffinity and PodAntiAffinity with the existing pod",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel2)
        .podAffinityIn("service", "region", ["securityscan", "value2"], affReq)
        .podAntiAffinityIn("service", "node", ["antivirusscan", "value2"], antiReq)
        .obj(),
      pods: [pod],
      node: node1,
    },
    {
      name: "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel2)
        .podAffinityIn("service", "region", ["securityscan", "value2"], affReq)
        .podAntiAffinityIn("service", "node", ["antivirusscan", "value2"], antiReq)
        .obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .node("node1")
          .labels(podLabel)
          .podAntiAffinityIn("service", "node", ["antivirusscan", "value2"], antiReq)
          .obj(),
      ],
      node: node1,
    },
    {
      name: "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel2)
        .podAffinityIn("service", "region", ["securityscan", "value2"], affReq)
        .podAntiAffinityIn("service", "zone", ["securityscan", "value2"], antiReq)
        .obj(),
      pods: [pod],
      node: node1,
      wantFilterStatus: antiFail,
    },
    {
      name: "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel)
        .podAffinityIn("service", "region", ["securityscan", "value2"], affReq)
        .podAntiAffinityIn("service", "node", ["antivirusscan", "value2"], antiReq)
        .obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .labels(podLabel)
          .node("node1")
          .podAntiAffinityIn("service", "zone", ["securityscan", "value2"], antiReq)
          .obj(),
      ],
      node: node1,
      wantFilterStatus: existingFail,
    },
    {
      name: "pod matches its own Label in PodAffinity and that matches the existing pod Labels",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel)
        .podAffinityNotIn("service", "region", ["securityscan", "value2"], affReq)
        .obj(),
      pods: [makePod().label("service", "securityscan").node("node2").obj()],
      node: node1,
      wantFilterStatus: affinityFail,
    },
    {
      name: "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
      pod: makePod().labels(podLabel).obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .node("node1")
          .labels(podLabel)
          .podAntiAffinityIn("service", "zone", ["securityscan", "value2"], antiReq)
          .obj(),
      ],
      node: node1,
      wantFilterStatus: existingFail,
    },
    {
      name: "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod",
      pod: makePod().labels(podLabel).obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .node("node1")
          .labels(podLabel)
          .podAntiAffinityNotIn("service", "zone", ["securityscan", "value2"], antiReq)
          .obj(),
      ],
      node: node1,
      wantPreFilterStatus: skip,
    },
    {
      name: "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel)
        .podAntiAffinityExists("service", "region", antiReq)
        .podAntiAffinityExists("security", "region", antiReq)
        .obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .node("node1")
          .labels(podLabel2)
          .podAntiAffinityExists("security", "zone", antiReq)
          .obj(),
      ],
      node: node1,
      wantFilterStatus: antiFail,
    },
    {
      name: "PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel)
        .podAntiAffinityExists("service", "zone", antiReq)
        .podAntiAffinityExists("security", "zone", antiReq)
        .obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .node("node1")
          .labels(podLabel2)
          .podAntiAffinityExists("security", "zone", antiReq)
          .obj(),
      ],
      node: node1,
      wantFilterStatus: antiFail,
    },
    {
      name: "PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel2)
        .podAntiAffinityExists("security", "zone", antiReq)
        .obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .node("node1")
          .labels(podLabel)
          .podAntiAffinityExists("service", "zone", antiReq)
          .podAntiAffinityExists("security", "zone", antiReq)
          .obj(),
      ],
      node: node1,
      wantFilterStatus: existingFail,
    },
    {
      name: "PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels({ abc: "", xyz: "" })
        .podAntiAffinityExists("abc", "zone", antiReq)
        .podAntiAffinityExists("def", "zone", antiReq)
        .obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .node("node1")
          .labels({ def: "", xyz: "" })
          .podAntiAffinityExists("abc", "zone", antiReq)
          .podAntiAffinityExists("def", "zone", antiReq)
          .obj(),
      ],
      node: node1,
      wantFilterStatus: antiFail,
    },
    {
      name: "PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels({ def: "", xyz: "" })
        .podAntiAffinityExists("abc", "zone", antiReq)
        .podAntiAffinityExists("def", "zone", antiReq)
        .obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .node("node1")
          .labels({ abc: "", xyz: "" })
          .podAntiAffinityExists("abc", "zone", antiReq)
          .podAntiAffinityExists("def", "zone", antiReq)
          .obj(),
      ],
      node: node1,
      wantFilterStatus: antiFail,
    },
    {
      name: "PodAffinity fails PreFilter with an invalid affinity label syntax",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel)
        .podAffinityIn("service", "region", ["{{.bad-value.}}"], affReq)
        .podAffinityIn("service", "node", ["antivirusscan", "value2"], affReq)
        .obj(),
      node: node1,
      wantPreFilterStatus: { code: "UnschedulableAndUnresolvable", reasons: [badLabelMessage] },
    },
    {
      name: "PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax",
      pod: makePod()
        .namespace(defaultNamespace)
        .labels(podLabel)
        .podAffinityIn("service", "region", ["foo"], affReq)
        .podAffinityIn("service", "node", ["{{.bad-value.}}"], affReq)
        .obj(),
      node: node1,
      wantPreFilterStatus: { code: "UnschedulableAndUnresolvable", reasons: [badLabelMessage] },
    },
    {
      name: "affinity with NamespaceSelector",
      pod: createPodWithAffinityTerms(
        defaultNamespace,
        "",
        podLabel2,
        [
          {
            labelSelector: exprs({ key: "service", operator: "In", values: ["securityscan", "value2"] }),
            namespaceSelector: exprs({ key: "team", operator: "In", values: ["team1"] }),
            topologyKey: "region",
          },
        ],
        null,
      ),
      pods: [rawPod("node1", "subteam1.team1", podLabel)],
      node: node1,
    },
    {
      name: "affinity with non-matching NamespaceSelector",
      pod: createPodWithAffinityTerms(
        defaultNamespace,
        "",
        podLabel2,
        [
          {
            labelSelector: exprs({ key: "service", operator: "In", values: ["securityscan", "value2"] }),
            namespaceSelector: exprs({ key: "team", operator: "In", values: ["team1"] }),
            topologyKey: "region",
          },
        ],
        null,
      ),
      pods: [rawPod("node1", "subteam1.team2", podLabel)],
      node: node1,
      wantFilterStatus: affinityFail,
    },
    {
      name: "anti-affinity with matching NamespaceSelector",
      pod: createPodWithAffinityTerms("subteam1.team1", "", podLabel2, null, [
        {
          labelSelector: exprs({ key: "service", operator: "In", values: ["securityscan", "value2"] }),
          namespaceSelector: exprs({ key: "team", operator: "In", values: ["team1"] }),
          topologyKey: "zone",
        },
      ]),
      pods: [rawPod("node1", "subteam2.team1", podLabel)],
      node: node1,
      wantFilterStatus: antiFail,
    },
    {
      name: "anti-affinity with matching all NamespaceSelector",
      pod: createPodWithAffinityTerms("subteam1.team1", "", podLabel2, null, [
        {
          labelSelector: exprs({ key: "service", operator: "In", values: ["securityscan", "value2"] }),
          namespaceSelector: {},
          topologyKey: "zone",
        },
      ]),
      pods: [rawPod("node1", "subteam2.team1", podLabel)],
      node: node1,
      wantFilterStatus: antiFail,
    },
    {
      name: "anti-affinity with non-matching NamespaceSelector",
      pod: createPodWithAffinityTerms("subteam1.team1", "", podLabel2, null, [
        {
          labelSelector: exprs({ key: "service", operator: "In", values: ["securityscan", "value2"] }),
          namespaceSelector: exprs({ key: "team", operator: "In", values: ["team1"] }),
          topologyKey: "zone",
        },
      ]),
      pods: [rawPod("node1", "subteam1.team2", podLabel)],
      node: node1,
    },
  ];

  for (const test of tests) {
    it(test.name, async () => {
      const s = await setup({ nodes: [test.node], pods: test.pods ?? [], namespaces });
      const got = runPreFilterFilter(s, test.pod);
      expect(statusSummary(got.preFilter)).toEqual(test.wantPreFilterStatus ?? success);
      if (got.preFilter !== null) return;
      expect(statusSummary(got.filter[0])).toEqual(test.wantFilterStatus ?? success);
    });
  }
});

describe("TestRequiredAffinityMultipleNodes", () => {
  const podLabelA = { foo: "bar" };
  const labelRgChina = { region: "China" };
  const labelRgChinaAzAz1 = { region: "China", az: "az1" };
  const labelRgIndia = { region: "India" };
  const abc = (name: string, zone: string) => node(name, { region: "r1", zone, hostname: name });

  const tests: {
    name: string;
    pod: Pod;
    pods: Pod[];
    nodes: Node[];
    wantFilterStatuses: (StatusSummary | null)[];
    wantPreFilterStatus?: StatusSummary;
  }[] = [
    {
      pod: makePod().namespace(defaultNamespace).podAffinityIn("foo", "region", ["bar"], affReq).obj(),
      pods: [makePod().name("p1").node("node1").labels(podLabelA).obj()],
      nodes: [node("node1", labelRgChina), node("node2", labelRgChinaAzAz1), node("node3", labelRgIndia)],
      wantFilterStatuses: [null, null, affinityFail],
      name: "A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules",
    },
    {
      pod: makePod()
        .namespace(defaultNamespace)
        .labels({ foo: "bar", service: "securityscan" })
        .podAffinityIn("foo", "zone", ["bar"], affReq)
        .podAffinityIn("service", "zone", ["securityscan"], affReq)
        .obj(),
      pods: [makePod().name("p1").node("nodeA").labels({ foo: "bar" }).obj()],
      nodes: [node("nodeA", { zone: "az1", hostname: "h1" }), node("nodeB", { zone: "az2", hostname: "h2" })],
      wantFilterStatuses: [null, null],
      name:
        "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection " +
        "should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere.",
    },
    {
      pod: makePod()
        .namespace(defaultNamespace)
        .labels({ foo: "bar", service: "securityscan" })
        .podAffinityIn("foo", "zone", ["bar"], affReq)
        .podAffinityIn("service", "zone", ["securityscan"], affReq)
        .obj(),
      pods: [makePod().name("p1").node("nodeA").labels({ foo: "bar" }).obj()],
      nodes: [
        node("nodeA", { zoneLabel: "az1", hostname: "h1" }),
        node("nodeB", { zoneLabel: "az2", hostname: "h2" }),
      ],
      wantFilterStatuses: [affinityFail, affinityFail],
      name: "The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
    },
    {
      pod: makePod().namespace(defaultNamespace).podAntiAffinityIn("foo", "region", ["abc"], antiReq).obj(),
      pods: [makePod().node("nodeA").labels({ foo: "abc" }).obj()],
      nodes: [
        node("nodeA", { region: "r1", hostname: "nodeA" }),
        node("nodeB", { region: "r1", hostname: "nodeB" }),
      ],
      wantFilterStatuses: [antiFail, antiFail],
      name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
    },
    {
      pod: makePod()
        .namespace(defaultNamespace)
        .podAntiAffinityIn("foo", "region", ["abc"], antiReq)
        .podAntiAffinityIn("service", "zone", ["securityscan"], antiReq)
        .obj(),
      pods: [makePod().node("nodeA").labels({ foo: "abc", service: "securityscan" }).obj()],
      nodes: [
        node("nodeA", { region: "r1", zone: "z1", hostname: "nodeA" }),
        node("nodeB", { region: "r1", zone: "z2", hostname: "nodeB" }),
      ],
      wantFilterStatuses: [antiFail, antiFail],
      name: "This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
    },
    {
      pod: makePod().namespace(defaultNamespace).podAntiAffinityIn("foo", "region", ["abc"], antiReq).obj(),
      pods: [makePod().node("nodeA").labels({ foo: "abc" }).obj()],
      nodes: [node("nodeA", labelRgChina), node("nodeB", labelRgChinaAzAz1), node("nodeC", labelRgIndia)],
      wantFilterStatuses: [antiFail, antiFail, null],
      name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
    },
    {
      pod: makePod()
        .namespace("NS1")
        .labels({ foo: "123" })
        .podAntiAffinityIn("foo", "region", ["bar"], antiReq)
        .obj(),
      pods: [
        makePod().node("nodeA").namespace("NS1").labels({ foo: "bar" }).obj(),
        makePod().node("nodeC").namespace("NS2").podAntiAffinityIn("foo", "region", ["123"], antiReq).obj(),
      ],
      nodes: [node("nodeA", labelRgChina), node("nodeB", labelRgChinaAzAz1), node("nodeC", labelRgIndia)],
      wantFilterStatuses: [antiFail, antiFail, null],
      name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)",
    },
    {
      pod: makePod().label("foo", "").obj(),
      pods: [
        makePod()
          .node("nodeA")
          .namespace(defaultNamespace)
          .podAntiAffinityExists("foo", "invalid-node-label", antiReq)
          .obj(),
      ],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z1")],
      wantPreFilterStatus: skip,
      wantFilterStatuses: [null, null],
      name: "Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
    },
    {
      pod: makePod()
        .node("nodeA")
        .namespace(defaultNamespace)
        .podAntiAffinityExists("foo", "invalid-node-label", antiReq)
        .obj(),
      pods: [makePod().node("nodeA").labels({ foo: "" }).obj()],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z1")],
      wantFilterStatuses: [null, null],
      name: "Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
    },
    {
      pod: makePod().label("foo", "").label("bar", "").obj(),
      pods: [
        makePod()
          .node("nodeA")
          .namespace(defaultNamespace)
          .podAntiAffinityExists("foo", "zone", antiReq)
          .obj(),
        makePod()
          .node("nodeA")
          .namespace(defaultNamespace)
          .podAntiAffinityExists("bar", "region", antiReq)
          .obj(),
      ],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z2")],
      wantFilterStatuses: [existingFail, existingFail],
      name: "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's terms on all nodes",
    },
    {
      pod: makePod()
        .namespace(defaultNamespace)
        .podAntiAffinityExists("foo", "zone", antiReq)
        .podAntiAffinityExists("bar", "region", antiReq)
        .obj(),
      pods: [
        makePod().node("nodeA").labels({ foo: "" }).obj(),
        makePod().node("nodeB").labels({ bar: "" }).obj(),
      ],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z2")],
      wantFilterStatuses: [antiFail, antiFail],
      name: "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
    },
    {
      pod: makePod().label("foo", "").label("bar", "").obj(),
      pods: [
        makePod()
          .node("nodeA")
          .namespace(defaultNamespace)
          .podAntiAffinityExists("foo", "invalid-node-label", antiReq)
          .podAntiAffinityExists("bar", "zone", antiReq)
          .obj(),
      ],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z2")],
      wantFilterStatuses: [existingFail, null],
      name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
    },
    {
      pod: makePod()
        .namespace(defaultNamespace)
        .podAntiAffinityExists("foo", "invalid-node-label", antiReq)
        .podAntiAffinityExists("bar", "zone", antiReq)
        .obj(),
      pods: [makePod().name("podA").node("nodeA").labels({ foo: "", bar: "" }).obj()],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z2")],
      wantFilterStatuses: [antiFail, null],
      name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
    },
    {
      pod: makePod().label("foo", "").label("bar", "").obj(),
      pods: [
        makePod()
          .namespace(defaultNamespace)
          .node("nodeA")
          .podAntiAffinityExists("foo", "region", antiReq)
          .podAntiAffinityExists("bar", "zone", antiReq)
          .obj(),
      ],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z2")],
      wantFilterStatuses: [existingFail, existingFail],
      name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
    },
    {
      pod: makePod()
        .namespace(defaultNamespace)
        .podAntiAffinityExists("foo", "region", antiReq)
        .podAntiAffinityExists("bar", "zone", antiReq)
        .obj(),
      pods: [makePod().node("nodeA").labels({ foo: "", bar: "" }).obj()],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z2")],
      wantFilterStatuses: [antiFail, antiFail],
      name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
    },
    {
      pod: makePod().label("foo", "").label("bar", "").obj(),
      pods: [
        makePod()
          .node("nodeA")
          .namespace(defaultNamespace)
          .podAntiAffinityExists("foo", "zone", antiReq)
          .podAntiAffinityExists("labelA", "zone", antiReq)
          .obj(),
        makePod()
          .node("nodeB")
          .namespace(defaultNamespace)
          .podAntiAffinityExists("bar", "zone", antiReq)
          .podAntiAffinityExists("labelB", "zone", antiReq)
          .obj(),
      ],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z2"), abc("nodeC", "z3")],
      wantFilterStatuses: [existingFail, existingFail, null],
      name: "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
    },
    {
      pod: makePod()
        .namespace(defaultNamespace)
        .podAffinityExists("foo", "region", affReq)
        .podAffinityExists("bar", "zone", affReq)
        .obj(),
      pods: [makePod().name("pod1").labels({ foo: "", bar: "" }).node("nodeA").obj()],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z1")],
      wantFilterStatuses: [null, null],
      name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match",
    },
    {
      pod: makePod()
        .namespace(defaultNamespace)
        .podAffinityExists("foo", "region", affReq)
        .podAffinityExists("bar", "zone", affReq)
        .obj(),
      pods: [
        makePod().node("nodeA").name("pod1").namespace(defaultNamespace).labels({ foo: "" }).obj(),
        makePod().node("nodeB").name("pod2").namespace(defaultNamespace).labels({ bar: "" }).obj(),
      ],
      nodes: [abc("nodeA", "z1"), abc("nodeB", "z2")],
      wantFilterStatuses: [affinityFail, affinityFail],
      name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match, and the match logic should be satisfied on the same pod",
    },
  ];

  for (const test of tests) {
    it(test.name, async () => {
      const s = await setup({ nodes: test.nodes, pods: test.pods, namespaces: [ns("NS1")] });
      const got = runPreFilterFilter(s, test.pod);
      expect(statusSummary(got.preFilter)).toEqual(test.wantPreFilterStatus ?? success);
      if (got.preFilter?.isSkip()) return;
      expect(got.filter.map(statusSummary)).toEqual(test.wantFilterStatuses.map((w) => w ?? success));
    });
  }
});

describe("TestPreFilterDisabled", () => {
  it("Filter without PreFilter state is an error", async () => {
    const s = await setup({ nodes: [{ metadata: {} }], pods: [] });
    const ni = s.nodeInfo("");
    const got = s.plugin.filter(new CycleState(), { metadata: {} }, ni);
    expect(statusSummary(got)).toEqual({
      code: "Error",
      reasons: [`error reading "PreFilterInterPodAffinity" from cycleState: not found`],
    });
  });
});

function counts(state: PreFilterState) {
  return {
    existingAntiAffinity: state.existingAntiAffinityCounts.counts.toRecord(),
    affinity: state.affinityCounts.counts.toRecord(),
    antiAffinity: state.antiAffinityCounts.counts.toRecord(),
  };
}

const pair = (key: string, value: string): string => `${key}\u0000${value}`;

describe("TestPreFilterStateAddRemovePod", () => {
  const label1 = { region: "r1", zone: "z11" };
  const label2 = { region: "r1", zone: "z12" };
  const label3 = { region: "r2", zone: "z21" };
  const selector1 = { foo: "bar" };
  const fooBar = {
    labelSelector: exprs({ key: "foo", operator: "In", values: ["bar"] }),
    topologyKey: "region",
  };
  const complexTerms: PodAffinityTerm[] = [
    { labelSelector: exprs({ key: "foo", operator: "In", values: ["bar", "buzz"] }), topologyKey: "region" },
    {
      labelSelector: exprs({ key: "service", operator: "NotIn", values: ["bar", "security", "test"] }),
      topologyKey: "zone",
    },
  ];
  const antiAffinityFooBar = { requiredDuringSchedulingIgnoredDuringExecution: [fooBar] };
  const antiAffinityComplex = { requiredDuringSchedulingIgnoredDuringExecution: complexTerms };
  const affinityComplex = { requiredDuringSchedulingIgnoredDuringExecution: complexTerms };
  const nodes = [node("nodeA", label1), node("nodeB", label2), node("nodeC", label3)];
  const pod = (
    name: string,
    labels: Record<string, string> | undefined,
    spec: Omit<NonNullable<Pod["spec"]>, "containers">,
  ): Pod => ({
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { containers: [], ...spec },
  });

  const tests: {
    name: string;
    pendingPod: Pod;
    addedPod: Pod;
    existingPods: Pod[];
    expectedAntiAffinity: Record<string, number>;
    expectedAffinity: Record<string, number>;
  }[] = [
    {
      name: "preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
      pendingPod: pod("pending", selector1, { affinity: { podAntiAffinity: antiAffinityFooBar } }),
      existingPods: [
        pod("p1", selector1, { nodeName: "nodeA" }),
        pod("p2", undefined, { nodeName: "nodeC", affinity: { podAntiAffinity: antiAffinityFooBar } }),
      ],
      addedPod: pod("addedPod", selector1, {
        nodeName: "nodeB",
        affinity: { podAntiAffinity: antiAffinityFooBar },
      }),
      expectedAntiAffinity: { [pair("region", "r1")]: 2 },
      expectedAffinity: {},
    },
    {
      name: "preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
      pendingPod: pod("pending", selector1, { affinity: { podAntiAffinity: antiAffinityComplex } }),
      existingPods: [
        pod("p1", selector1, { nodeName: "nodeA" }),
        pod("p2", undefined, { nodeName: "nodeC", affinity: { podAntiAffinity: antiAffinityFooBar } }),
      ],
      addedPod: pod("addedPod", selector1, {
        nodeName: "nodeA",
        affinity: { podAntiAffinity: antiAffinityComplex },
      }),
      expectedAntiAffinity: { [pair("region", "r1")]: 2, [pair("zone", "z11")]: 2, [pair("zone", "z21")]: 1 },
      expectedAffinity: {},
    },
    {
      name: "preFilterState matching pod affinity and anti-affinity are updated correctly after adding and removing a pod",
      pendingPod: pod("pending", selector1, { affinity: { podAffinity: affinityComplex } }),
      existingPods: [
        pod("p1", selector1, { nodeName: "nodeA" }),
        pod("p2", undefined, {
          nodeName: "nodeC",
          affinity: { podAntiAffinity: antiAffinityFooBar, podAffinity: affinityComplex },
        }),
      ],
      addedPod: pod("addedPod", selector1, {
        nodeName: "nodeA",
        affinity: { podAntiAffinity: antiAffinityComplex },
      }),
      expectedAntiAffinity: {},
      expectedAffinity: { [pair("region", "r1")]: 2, [pair("zone", "z11")]: 2 },
    },
  ];

  for (const [i, test] of tests.entries()) {
    it(`${test.name} #${i}`, async () => {
      const getState = async (pods: Pod[]) => {
        const s = await setup({ nodes, pods });
        const got = runPreFilterFilter(s, test.pendingPod);
        expect(statusSummary(got.preFilter)).toEqual(success);
        const state = got.state.read(preFilterStateKey);
        if (!state) throw new Error("no preFilterState");
        return { s, cycleState: got.state, state };
      };
      // allPodsState is the state produced when all pods, including addedPod, are given to PreFilter.
      const allPodsState = (await getState([...test.existingPods, test.addedPod])).state;
      const { s, cycleState, state } = await getState(test.existingPods);
      const originalCounts = counts(state.clone());

      const nodeInfo = s.nodeInfo(test.addedPod.spec?.nodeName ?? "");
      expect(s.plugin.addPod(cycleState, test.pendingPod, new PodInfo(test.addedPod), nodeInfo)).toBeNull();
      const newState = cycleState.read(preFilterStateKey)!;
      expect(newState.antiAffinityCounts.counts.toRecord()).toEqual(test.expectedAntiAffinity);
      expect(newState.affinityCounts.counts.toRecord()).toEqual(test.expectedAffinity);
      expect(counts(state)).toEqual(counts(allPodsState));

      expect(
        s.plugin.removePod(cycleState, test.pendingPod, new PodInfo(test.addedPod), nodeInfo),
      ).toBeNull();
      expect(counts(state)).toEqual(originalCounts);
    });
  }
});

describe("TestGetTPMapMatchingIncomingAffinityAntiAffinity", () => {
  const newPod = (...labels: string[]): Pod => {
    const p = makePod().name("normal").node("nodeA");
    for (const l of labels) p.label(l, "");
    return p.obj();
  };
  const normalPodA = newPod("aaa");
  const normalPodB = newPod("bbb");
  const normalPodAB = newPod("aaa", "bbb");
  const nodeA = node("nodeA", { hostname: "nodeA" });
  const one = { [pair("hostname", "nodeA")]: 1 };

  const tests: {
    name: string;
    existingPods?: Pod[];
    nodes: Node[];
    pod: Pod;
    wantAffinityPodsMap: Record<string, number>;
    wantAntiAffinityPodsMap: Record<string, number>;
  }[] = [
    {
      name: "nil test",
      nodes: [nodeA],
      pod: makePod().name("aaa-normal").obj(),
      wantAffinityPodsMap: {},
      wantAntiAffinityPodsMap: {},
    },
    {
      name: "incoming pod without affinity/anti-affinity causes a no-op",
      existingPods: [normalPodA],
      nodes: [nodeA],
      pod: makePod().name("aaa-normal").obj(),
      wantAffinityPodsMap: {},
      wantAntiAffinityPodsMap: {},
    },
    {
      name: "no pod has label that violates incoming pod's affinity and anti-affinity",
      existingPods: [normalPodB],
      nodes: [nodeA],
      pod: makePod()
        .name("aaa-anti")
        .podAffinityExists("aaa", "hostname", affReq)
        .podAntiAffinityExists("aaa", "hostname", antiReq)
        .obj(),
      wantAffinityPodsMap: {},
      wantAntiAffinityPodsMap: {},
    },
    {
      name: "existing pod matches incoming pod's affinity and anti-affinity - single term case",
      existingPods: [normalPodA],
      nodes: [nodeA],
      pod: makePod()
        .name("affi-antiaffi")
        .podAffinityExists("aaa", "hostname", affReq)
        .podAntiAffinityExists("aaa", "hostname", antiReq)
        .obj(),
      wantAffinityPodsMap: one,
      wantAntiAffinityPodsMap: one,
    },
    {
      name: "existing pod matches incoming pod's affinity and anti-affinity - multiple terms case",
      existingPods: [normalPodAB],
      nodes: [nodeA],
      pod: makePod()
        .name("affi-antiaffi")
        .podAffinityExists("aaa", "hostname", affReq)
        .podAffinityExists("bbb", "hostname", affReq)
        .podAntiAffinityExists("aaa", "hostname", antiReq)
        .obj(),
      wantAffinityPodsMap: { [pair("hostname", "nodeA")]: 2 }, // 2 one for each term.
      wantAntiAffinityPodsMap: one,
    },
    {
      name: "existing pod not match incoming pod's affinity but matches anti-affinity",
      existingPods: [normalPodA],
      nodes: [nodeA],
      pod: makePod()
        .name("affi-antiaffi")
        .podAffinityExists("aaa", "hostname", affReq)
        .podAffinityExists("bbb", "hostname", affReq)
        .podAntiAffinityExists("aaa", "hostname", antiReq)
        .podAntiAffinityExists("bbb", "hostname", antiReq)
        .obj(),
      wantAffinityPodsMap: {},
      wantAntiAffinityPodsMap: one,
    },
    {
      name: "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 1",
      existingPods: [normalPodAB],
      nodes: [nodeA],
      pod: makePod()
        .name("anaffi-antiaffiti")
        .podAffinityExists("aaa", "hostname", affReq)
        .podAffinityExists("ccc", "hostname", affReq)
        .podAntiAffinityExists("aaa", "hostname", antiReq)
        .podAntiAffinityExists("ccc", "hostname", antiReq)
        .obj(),
      wantAffinityPodsMap: {},
      wantAntiAffinityPodsMap: one,
    },
    {
      name: "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 2",
      existingPods: [normalPodB],
      nodes: [nodeA],
      pod: makePod()
        .name("affi-antiaffi")
        .podAffinityExists("aaa", "hostname", affReq)
        .podAffinityExists("bbb", "hostname", affReq)
        .podAntiAffinityExists("aaa", "hostname", antiReq)
        .podAntiAffinityExists("bbb", "hostname", antiReq)
        .obj(),
      wantAffinityPodsMap: {},
      wantAntiAffinityPodsMap: one,
    },
  ];

  for (const test of tests) {
    it(test.name, async () => {
      const s = await setup({ nodes: test.nodes, pods: test.existingPods ?? [] });
      const got = runPreFilterFilter(s, test.pod);
      const state = got.state.read(preFilterStateKey);
      // A pod without terms of its own and no existing anti-affinity skips: nothing was counted.
      expect(state?.affinityCounts.counts.toRecord() ?? {}).toEqual(test.wantAffinityPodsMap);
      expect(state?.antiAffinityCounts.counts.toRecord() ?? {}).toEqual(test.wantAntiAffinityPodsMap);
    });
  }
});
