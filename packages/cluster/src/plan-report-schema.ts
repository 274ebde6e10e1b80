// The JSON Schema of `kubesched plan -o json|yaml` (PlanReport in plan.ts), as `kubesched plan
// --schema` prints it. `additionalProperties: false` everywhere makes an added field a schema change.

function object(properties: Record<string, unknown>, optional: readonly string[] = []) {
  const required = Object.keys(properties).filter((k) => !optional.includes(k));
  return { type: "object", required, additionalProperties: false, properties };
}

const nullableNumber = { type: ["number", "null"] };
const nullableString = { type: ["string", "null"] };
const count = { type: "integer", minimum: 0 };
const fraction = { type: "number", minimum: 0 };
const utilisation = object({ cpu: fraction, memory: fraction, nodes: count });

export const planReportSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "PlanReport",
  description:
    "kubesched plan's answer: the nodes to add from each pool so that every pending pod schedules, and the simulate that proves it.",
  ...object({
    apiVersion: { const: "kubesched.io/v1alpha1" },
    kind: { const: "PlanReport" },
    spec: object({
      optimize: { enum: ["count", "cost"] },
      expander: { enum: ["least-waste", "price", "most-pods", "priority", null] },
      pools: {
        type: "array",
        items: object({
          name: { type: "string" },
          minCount: count,
          maxCount: count,
          price: nullableNumber,
          priority: nullableNumber,
        }),
      },
      pendingPods: count,
    }),
    status: object(
      {
        found: { type: "boolean" },
        minimal: { type: "boolean" },
        message: { type: "string" },
        additions: {
          type: "array",
          items: object({
            pool: { type: "string" },
            count,
            nodes: { type: "array", items: { type: "string" } },
            price: nullableNumber,
          }),
        },
        nodes: count,
        cost: nullableNumber,
        excluded: {
          type: "array",
          items: object({
            pod: { type: "string" },
            reasons: {
              type: "array",
              items: object({ pool: { type: "string" }, reason: { type: "string" } }),
            },
          }),
        },
        search: object({
          simulations: count,
          pruned: count,
          exhausted: { type: "boolean" },
          lowerBound: nullableNumber,
        }),
        pods: {
          type: "array",
          items: object({
            pod: { type: "string" },
            node: nullableString,
            pool: nullableString,
            outcome: { enum: ["Scheduled", "Unschedulable", "Error", "Gated", "Skipped"] },
            message: nullableString,
          }),
        },
        utilisation: object({ before: utilisation, after: utilisation }),
        devices: object({
          pools: {
            type: "array",
            items: object({ pool: { type: "string" }, published: count, allocated: count }),
          },
          classes: {
            type: "array",
            items: object({ name: { type: "string" }, published: count, allocated: count, added: count }),
          },
        }),
      },
      ["devices"],
    ),
  }),
} as const;
