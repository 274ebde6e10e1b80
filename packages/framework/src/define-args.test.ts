import { describe, expect, it } from "vitest";
import { defineArgs, Type } from "./define-args";
import { defaultFeatures } from "./features";
import { formatFieldErrors } from "./field-errors";

const spec = defineArgs({
  kind: "ExampleArgs",
  schema: Type.Object({
    weight: Type.Integer({ default: 1 }),
    mode: Type.Union([Type.Literal("Least"), Type.Literal("Most")], { default: "Least" }),
    resources: Type.Array(Type.Object({ name: Type.String(), weight: Type.Integer({ default: 1 }) }), {
      default: [{ name: "cpu", weight: 1 }],
    }),
    strategy: Type.Object(
      { type: Type.String({ default: "A" }), ratio: Type.Optional(Type.Number()) },
      { default: {} },
    ),
    optional: Type.Optional(Type.Boolean()),
  }),
  defaults: (args) => (args.mode === "Most" ? { ...args, weight: 5 } : args),
  validate: (args, path) =>
    args.weight < 0
      ? [{ type: "Invalid", field: `${path}.weight`, value: args.weight, detail: "must be non-negative" }]
      : [],
});

const decode = (raw: unknown) => spec.decode(raw, "args", defaultFeatures);

describe("defineArgs", () => {
  it("no pluginConfig: every default, nested ones too", () => {
    expect(decode(undefined)).toEqual({
      args: { weight: 1, mode: "Least", resources: [{ name: "cpu", weight: 1 }], strategy: { type: "A" } },
      errors: [],
    });
  });

  it("defaults inside given objects and array items; the defaults hook after the keywords", () => {
    const { args, errors } = decode({
      apiVersion: "kubescheduler.config.k8s.io/v1",
      kind: "ExampleArgs",
      mode: "Most",
      resources: [{ name: "memory" }],
      strategy: { ratio: 0.5 },
    });
    expect(errors).toEqual([]);
    expect(args).toEqual({
      weight: 5,
      mode: "Most",
      resources: [{ name: "memory", weight: 1 }],
      strategy: { type: "A", ratio: 0.5 },
    });
  });

  it("strict: unknown fields and wrong types are errors with their field paths", () => {
    const { errors } = decode({
      weight: "1",
      extra: true,
      resources: [{ name: 3, x: 1 }],
      strategy: [],
      optional: "yes",
    });
    expect(formatFieldErrors(errors).split("\n")).toEqual([
      'args.weight: Invalid value: "1": must be an integer, got string',
      "args.extra: unknown field",
      "args.resources[0].name: Invalid value: 3: must be a string, got number",
      "args.resources[0].x: unknown field",
      "args.strategy: Invalid value: []: must be an object, got array",
      'args.optional: Invalid value: "yes": must be a boolean, got string',
    ]);
  });

  it("a literal union decodes as a string; validation judges the value", () => {
    expect(decode({ mode: "Other" }).args.mode).toBe("Other");
    expect(spec.validate({ ...decode({}).args, weight: -1 }, "args", defaultFeatures)).toHaveLength(1);
  });

  it("JSON Schema: the declaration plus apiVersion and kind, no unknown properties", () => {
    expect(spec.schema).toMatchObject({
      type: "object",
      additionalProperties: false,
      properties: {
        apiVersion: { type: "string" },
        kind: { type: "string", const: "ExampleArgs" },
        weight: { type: "integer", default: 1 },
        mode: { anyOf: [{ const: "Least" }, { const: "Most" }], default: "Least" },
      },
    });
    expect(JSON.stringify(spec.schema)).not.toContain("Symbol");
  });

  it("encode gives the v1 JSON of decoded args", () => {
    expect(spec.encode?.(decode({ weight: 3 }).args)).toEqual({
      weight: 3,
      mode: "Least",
      resources: [{ name: "cpu", weight: 1 }],
      strategy: { type: "A" },
    });
  });
});
