// The JSON Schema of `kubesched why -o json|yaml` (WhyReport in why.ts, the details from
// @kubesched/framework's FilterDetail), as `kubesched why --schema` prints it. The CLI's tests
// validate their outputs against it; `additionalProperties: false` everywhere makes an added
// field a schema change. `fixes` and `fixSearch` (verified fixes, why-fixes.ts) and
// `summary.gated` (a pod held back at PreEnqueue) are optional additions to v1alpha1: reports
// without them stay valid.

const codes = {
  enum: ["Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip", "Pending"],
};
const strings = { type: "array", items: { type: "string" } };
const nullableInt = { type: ["integer", "null"] };

/** An object schema whose every property is required. */
function object(properties: Record<string, unknown>, optional: readonly string[] = []) {
  return {
    type: "object",
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
    properties,
  };
}

const taint = object(
  {
    key: { type: "string" },
    value: { type: "string" },
    effect: { type: "string" },
    timeAdded: { type: "string" },
  },
  ["value", "timeAdded"],
);

const details = [
  object({
    kind: { const: "InsufficientResource" },
    resource: { type: "string" },
    requested: { type: "number" },
    used: { type: "number" },
    capacity: { type: "number" },
    short: { type: "number" },
  }),
  object({
    kind: { const: "UntoleratedTaint" },
    taint,
  }),
  object({ kind: { const: "Cordoned" } }),
  object({
    kind: { const: "NodeLabelMismatch" },
    source: { type: "string" },
    requirement: { type: "string" },
    key: { type: "string" },
    nodeValue: { type: ["string", "null"] },
  }),
  object({
    kind: { const: "HostPortConflict" },
    protocol: { type: "string" },
    hostIP: { type: "string" },
    hostPort: { type: "integer" },
  }),
  object({
    kind: { const: "TopologySpread" },
    topologyKey: { type: "string" },
    domain: { type: ["string", "null"] },
    matchingPods: nullableInt,
    minMatchingPods: nullableInt,
    skew: nullableInt,
    maxSkew: { type: "integer" },
  }),
  object({
    kind: { const: "PodAffinity" },
    rule: { enum: ["affinity", "antiAffinity", "existingAntiAffinity"] },
    topologyKey: { type: "string" },
    domain: { type: ["string", "null"] },
    pods: strings,
  }),
];

const str = { type: "string" };
const podRef = str;
const quantities = { type: "object", additionalProperties: { type: "string" } };

/** ClusterChange (counterfactual.ts): one schema per kind. */
const changes = [
  object({
    kind: { const: "SetContainerRequests" },
    pod: podRef,
    container: { type: "integer" },
    requests: quantities,
  }),
  object({
    kind: { const: "AddToleration" },
    pod: podRef,
    toleration: object(
      {
        key: str,
        operator: { enum: ["Equal", "Exists"] },
        value: str,
        effect: str,
        tolerationSeconds: { type: "integer" },
      },
      ["key", "operator", "value", "effect", "tolerationSeconds"],
    ),
  }),
  object({ kind: { const: "RemoveNodeSelectorKey" }, pod: podRef, key: str }),
  object({
    kind: { const: "RemoveNodeAffinityRequirement" },
    pod: podRef,
    term: { type: "integer" },
    key: str,
  }),
  object({
    kind: { const: "SetMaxSkew" },
    pod: podRef,
    constraint: { type: "integer" },
    maxSkew: { type: "integer" },
  }),
  object({
    kind: { const: "RemovePodAffinityTerm" },
    pod: podRef,
    rule: { enum: ["affinity", "antiAffinity"] },
    topologyKey: str,
  }),
  object({ kind: { const: "SetPriorityClass" }, pod: podRef, priorityClassName: str }),
  object({ kind: { const: "Uncordon" }, node: str }),
  object({ kind: { const: "RemoveTaint" }, node: str, taint }),
  object({ kind: { const: "SetTaintEffect" }, node: str, taint, effect: str }),
  object({ kind: { const: "SetNodeLabel" }, node: str, key: str, value: str }),
  // `like` is a node's name in why's fixes (the engine also takes a Node template).
  object({ kind: { const: "AddNodes" }, like: str, count: { type: "integer" } }),
  object({ kind: { const: "MovePods" }, pods: strings }),
  object({ kind: { const: "RemovePods" }, pods: strings }),
];

/** The version of the WhyReport contract (its apiVersion and the schema's `$id`). */
export const whyReportSchemaVersion = "v1alpha1";

/** The JSON Schema (draft 2020-12) of WhyReport. */
export const whyReportSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: `https://kubesched.io/schemas/${whyReportSchemaVersion}/why-report.json`,
  title: "WhyReport",
  ...object(
    {
      apiVersion: { const: `kubesched.io/${whyReportSchemaVersion}` },
      kind: { const: "WhyReport" },
      pod: object({
        namespace: { type: "string" },
        name: { type: "string" },
        schedulerName: { type: "string" },
      }),
      summary: object(
        {
          nodes: { type: "integer" },
          feasible: { type: "integer" },
          preFilterRejection: object({
            plugin: { type: "string" },
            code: codes,
            message: { type: "string" },
          }),
          gated: object({
            plugin: { type: "string" },
            code: codes,
            message: { type: "string" },
          }),
        },
        ["preFilterRejection", "gated"],
      ),
      preFilter: {
        type: "array",
        items: object({ plugin: { type: "string" }, code: codes, reasons: strings, nodeNames: strings }, [
          "nodeNames",
        ]),
      },
      groups: {
        type: "array",
        items: object({
          plugin: { type: "string" },
          reason: { type: "string" },
          detail: { type: "string" },
          count: { type: "integer" },
          nodes: strings,
        }),
      },
      nodes: {
        type: "array",
        items: object({
          name: { type: "string" },
          excludedBy: strings,
          withNominatedPods: { type: "boolean" },
          rejections: {
            type: "array",
            items: object({
              plugin: { type: "string" },
              code: codes,
              reasons: strings,
              details: { type: "array", items: { oneOf: details } },
            }),
          },
        }),
      },
      preemption: object({
        plugin: { type: ["string", "null"] },
        eligible: { type: "boolean" },
        reason: { type: "string" },
        candidates: {
          type: "array",
          items: object({ node: { type: "string" }, victims: strings, pdbViolations: { type: "integer" } }),
        },
        selected: { type: ["string", "null"] },
        notHelpful: {
          type: "array",
          items: object({ node: { type: "string" }, code: codes, reasons: strings }),
        },
      }),
      fixes: {
        type: "array",
        items: object({
          kind: str,
          target: { enum: ["pod", "cluster"] },
          description: str,
          size: { type: "integer" },
          node: str,
          displaces: strings,
          kubectl: strings,
          changes: { type: "array", items: { oneOf: changes } },
          moved: { type: "array", items: object({ pod: str, node: { type: ["string", "null"] } }) },
        }),
      },
      fixSearch: object(
        {
          budgetSeconds: { type: "integer" },
          exhausted: { type: "boolean" },
          tried: { type: "integer" },
          withPendingPods: { type: "boolean" },
          note: str,
        },
        ["note"],
      ),
    },
    ["fixes", "fixSearch"],
  ),
} as const;
