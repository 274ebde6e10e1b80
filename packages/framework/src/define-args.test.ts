import { describe, expect, it } from "vitest";
import { ArgsEnum, argRules, defineArgs, defineV1Object, Type } from "./define-args";
import { defaultFeatures } from "./features";
import { type FieldError, fieldErrors, formatFieldErrors } from "./field-errors";

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
      ? [{ type: "Invalid", field: `${path}.weight`, badValue: args.weight, detail: "must be non-negative" }]
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
    // Each object's declared fields first, then its unknown ones (as the plugins' decoders did).
    expect(formatFieldErrors(errors).split("\n")).toEqual([
      'args.weight: Invalid value: "1": must be an integer, got string',
      "args.resources[0].name: Invalid value: 3: must be a string, got number",
      "args.resources[0].x: unknown field",
      "args.strategy: Invalid value: []: must be an object, got array",
      'args.optional: Invalid value: "yes": must be a boolean, got string',
      "args.extra: unknown field",
    ]);
  });

  it("strict: keys of Object.prototype are unknown fields too", () => {
    const raw = JSON.parse(
      '{"constructor": 1, "toString": "x", "hasOwnProperty": {}, "__proto__": {"weight": 9}}',
    );
    const { args, errors } = decode(raw);
    expect(formatFieldErrors(errors).split("\n")).toEqual([
      "args.constructor: unknown field",
      "args.toString: unknown field",
      "args.hasOwnProperty: unknown field",
      "args.__proto__: unknown field",
    ]);
    expect(args.weight).toBe(1);
  });

  it("a map keeps a `__proto__` key as a key, not as the map's prototype", () => {
    const maps = defineV1Object(Type.Object({ m: Type.Record(Type.String(), Type.Integer()) }));
    const errors: FieldError[] = [];
    const v = maps.decode(JSON.parse('{"m": {"__proto__": 1, "a": 2}}'), "cfg", errors);
    expect(errors).toEqual([]);
    expect(Object.keys(v?.m ?? {})).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(v?.m)).toBe(Object.prototype);
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

describe("argRules", () => {
  const resource = argRules(
    Type.Object({
      name: Type.String(),
      weight: argRules(Type.Integer({ exclusiveMinimum: 0, maximum: 100, default: 1 }), {
        defaultWhenZero: true,
        message: (_w, { parent }) =>
          `resource weight of ${(parent as { name: string }).name} not in valid range (0, 100]`,
      }),
    }),
    {
      check: (r, { path, parent, index }) =>
        (parent as { name: string }[]).slice(0, index).some((o) => o.name === r.name)
          ? [fieldErrors.duplicate(`${path}.name`, r.name)]
          : [],
    },
  );
  const ruled = defineArgs({
    kind: "RuledArgs",
    schema: Type.Object({
      percentage: Type.Integer({ minimum: 0, maximum: 100, default: 10 }),
      absolute: Type.Integer({ minimum: 0, default: 100 }),
      ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
      mode: argRules(ArgsEnum(["System", "List"], { default: "System" }), { defaultWhenZero: true }),
      action: ArgsEnum(["DoNotSchedule", "ScheduleAnyway"], { minLength: 1 }),
      topologyKey: argRules(Type.String({ minLength: 1 }), {
        check: (k, { path }) => (k.includes("/") ? [fieldErrors.invalid(path, k, "no slash")] : []),
      }),
      resources: argRules(Type.Array(resource, { default: [{ name: "cpu" }] }), { defaultWhenZero: true }),
      nested: Type.Optional(
        argRules(Type.Object({ points: Type.Array(Type.Integer({ maximum: 10 }), { minItems: 1 }) }), {
          reportUnderParent: true,
        }),
      ),
      opaque: Type.Optional(
        argRules(Type.Object({ n: Type.Integer({ minimum: 5 }) }), {
          opaque: true,
          check: (o, { path }) => (o.n < 5 ? [fieldErrors.invalid(`${path}.n`, o.n, "checked once")] : []),
        }),
      ),
      gated: Type.Optional(
        argRules(Type.Array(Type.Integer(), { default: [1, 2] }), {
          featureGate: "enableStorageCapacityScoring",
        }),
      ),
    }),
    validate: (args, path) =>
      args.percentage === 0 && args.absolute === 0
        ? [fieldErrors.invalid(`${path}.percentage`, 0, "both zero")]
        : [],
  });
  const on = { ...defaultFeatures, enableStorageCapacityScoring: true };
  const off = { ...defaultFeatures, enableStorageCapacityScoring: false };
  const errorsOf = (raw: Record<string, unknown>, features = on) => {
    const d = ruled.decode(raw, "args", features);
    expect(d.errors).toEqual([]);
    return formatFieldErrors(ruled.validate(d.args, "args", features))
      .split("\n")
      .filter(Boolean);
  };

  it("decodes Go's zero values for required fields without a default; defaultWhenZero replaces zeros", () => {
    expect(ruled.decode({ mode: "", resources: [{ name: "gpu", weight: 0 }] }, "args", on).args).toEqual({
      percentage: 10,
      absolute: 100,
      mode: "System",
      action: "",
      topologyKey: "",
      resources: [{ name: "gpu", weight: 1 }],
      gated: [1, 2],
    });
    expect(ruled.decode({ resources: [] }, "args", off).args).toMatchObject({
      resources: [{ name: "cpu", weight: 1 }],
    });
    expect(ruled.decode({}, "args", off).args).not.toHaveProperty("gated");
  });

  it("validates: cross-field rules first, then every field in order with upstream's wording", () => {
    expect(
      errorsOf({
        percentage: 0,
        absolute: 0,
        ratio: 0,
        mode: "Other",
        action: "",
        topologyKey: "a/b",
        resources: [{ name: "cpu", weight: 101 }, { name: "cpu" }],
        nested: { points: [] },
      }),
    ).toEqual([
      "args.percentage: Invalid value: 0: both zero",
      "args.ratio: Invalid value: 0: not in valid range (0, inf)",
      'args.mode: Unsupported value: "Other": supported values: "System", "List"',
      "args.action: Required value: can not be empty",
      'args.topologyKey: Invalid value: "a/b": no slash',
      "args.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]",
      'args.resources[1].name: Duplicate value: "cpu"',
      "args.points: Required value: must have at least 1 item",
    ]);
    expect(errorsOf({ percentage: 101, absolute: -1, action: "Sometimes", topologyKey: "k" })).toEqual([
      "args.percentage: Invalid value: 101: not in valid range [0, 100]",
      "args.absolute: Invalid value: -1: not in valid range [0, inf)",
      'args.action: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"',
    ]);
  });

  it("reports under the parent's path, leaves opaque fields to their check, and gates fields", () => {
    expect(
      errorsOf({ action: "DoNotSchedule", topologyKey: "k", nested: { points: [11] }, opaque: { n: 1 } }),
    ).toEqual([
      "args.points[0]: Invalid value: 11: not in valid range (-inf, 10]",
      "args.opaque.n: Invalid value: 1: checked once",
    ]);
    expect(errorsOf({ action: "DoNotSchedule", topologyKey: "k", gated: [3] }, off)).toEqual([
      "args.gated: Invalid value: [3]: unexpected field `gated`, remove it or turn on the feature gate StorageCapacityScoring",
    ]);
  });

  it("JSON Schema: strict objects at every level; fields with defaults are not required", () => {
    const props = ruled.schema?.properties as Record<string, Record<string, unknown>>;
    expect(ruled.schema?.required).toEqual(["action", "topologyKey"]);
    expect(props.mode).toEqual({ default: "System", type: "string", enum: ["System", "List"] });
    expect((props.resources!.items as Record<string, unknown>).additionalProperties).toBe(false);
    expect((props.resources!.items as Record<string, unknown>).required).toEqual(["name"]);
    expect(JSON.stringify(ruled.schema)).not.toMatch(/Symbol|check|defaultWhenZero/);
  });
});

describe("Transform", () => {
  const renamed = defineArgs({
    kind: "RenamedArgs",
    schema: Type.Transform(
      Type.Object({
        timeout: Type.Transform(Type.String({ default: "10" }))
          .Decode((s) => {
            if (!/^\d+$/.test(s)) throw new Error("must be a number of seconds");
            return Number(s) * 1000;
          })
          .Encode((ms) => String(ms / 1000)),
      }),
    )
      .Decode((v) => ({ timeoutMs: v.timeout }))
      .Encode((a) => ({ timeout: a.timeoutMs })),
  });

  it("decodes and encodes through transforms, defaults included; a throwing Decode is a field error", () => {
    expect(renamed.decode(undefined, "args", defaultFeatures)).toEqual({
      args: { timeoutMs: 10_000 },
      errors: [],
    });
    expect(renamed.encode?.({ timeoutMs: 5000 })).toEqual({ timeout: "5" });
    const { args, errors } = renamed.decode({ timeout: "ten" }, "args", defaultFeatures);
    expect(args).toEqual({ timeoutMs: 10_000 });
    expect(errors.map((e) => formatFieldErrors([e]))).toEqual([
      'args.timeout: Invalid value: "ten": must be a number of seconds',
    ]);
  });
});

describe("defineV1Object", () => {
  const entry = Type.Transform(
    Type.Object({ name: Type.String(), weight: Type.Optional(Type.Integer()) }, { $id: "Entry" }),
  )
    .Decode((e) => {
      if (e.name === undefined) throw fieldErrors.required("name");
      return e;
    })
    .Encode((e) => e);
  const item = argRules(
    Type.Object({ id: Type.String(), on: argRules(Type.Boolean(), { omitEmpty: true }) }, { $id: "Item" }),
    { emptyWhenInvalid: true },
  );
  const spec = defineV1Object(
    Type.Object({
      name: argRules(Type.String(), { required: false }),
      count: argRules(Type.Integer({ minimum: 1, default: 3 }), {
        defaultWhenZero: true,
        message: "must be positive",
      }),
      note: argRules(Type.String(), { omitEmpty: true }),
      entries: argRules(Type.Array(entry), { omitEmpty: true }),
      items: Type.Array(item),
      more: Type.Optional(Type.Array(item)),
      extra: Type.Optional(Type.Object({ deep: Type.Integer({ default: 7 }) })),
    }),
  );

  it("decodes strictly without defaults: absent stays absent", () => {
    const errors: FieldError[] = [];
    expect(spec.decode({ count: 0, extra: {} }, "cfg", errors)).toEqual({ count: 0, extra: {} });
    expect(errors).toEqual([]);
  });

  it("drops an entry whose transform throws a FieldError, reported under the entry's path", () => {
    const errors: FieldError[] = [];
    const v = spec.decode({ entries: [{ weight: 1, x: 1 }, 3, { name: "a" }] }, "cfg", errors);
    expect(v?.entries).toEqual([{ name: "a" }]);
    expect(formatFieldErrors(errors).split("\n")).toEqual([
      "cfg.entries[0].x: unknown field",
      "cfg.entries[0].name: Required value",
      "cfg.entries[1]: Invalid value: 3: must be an object, got number",
    ]);
  });

  it("keeps an emptyWhenInvalid item of the wrong type as {} so later items keep their indices", () => {
    const errors: FieldError[] = [];
    expect(spec.decode({ items: [1, { id: "b", bad: true }] }, "cfg", errors)?.items).toEqual([
      {},
      { id: "b" },
    ]);
    expect(formatFieldErrors(errors).split("\n")).toEqual([
      "cfg.items[0]: Invalid value: 1: must be an object, got number",
      "cfg.items[1].bad: unknown field",
    ]);
  });

  it("applies the declared defaults to a decoded value: defaults, zero values, nested ones", () => {
    expect(spec.withDefaults({ count: 0, items: [{}], extra: {} })).toEqual({
      name: "",
      count: 3,
      note: "",
      entries: [],
      items: [{ id: "", on: false }],
      extra: { deep: 7 },
    });
    expect(spec.withDefaults(undefined)).toMatchObject({ name: "", count: 3, items: [] });
  });

  it("validates with the declared rules", () => {
    const value = spec.withDefaults({});
    expect(formatFieldErrors(spec.validate({ ...value, count: -1 }, "cfg"))).toBe(
      "cfg.count: Invalid value: -1: must be positive",
    );
  });

  it("encodes omitEmpty fields only when they are not zero", () => {
    const value = spec.withDefaults({ items: [{ id: "a" }, { id: "b", on: true }] });
    expect(spec.encode(value)).toEqual({ name: "", count: 3, items: [{ id: "a" }, { id: "b", on: true }] });
    expect(spec.encode({ ...value, note: "n", entries: [{ name: "e" }] })).toMatchObject({
      note: "n",
      entries: [{ name: "e" }],
    });
  });

  it("JSON Schema: required as the rules say, $id schemas under $defs", () => {
    expect(spec.jsonSchema()).toEqual({
      type: "object",
      properties: {
        name: { type: "string" },
        count: { minimum: 1, default: 3, type: "integer" },
        note: { type: "string" },
        entries: { type: "array", items: { $ref: "#/$defs/Entry" } },
        items: { type: "array", items: { $ref: "#/$defs/Item" } },
        more: { type: "array", items: { $ref: "#/$defs/Item" } },
        extra: {
          type: "object",
          properties: { deep: { default: 7, type: "integer" } },
          additionalProperties: false,
        },
      },
      required: ["items"],
      additionalProperties: false,
      $defs: {
        Entry: {
          type: "object",
          properties: { name: { type: "string" }, weight: { type: "integer" } },
          required: ["name"],
          additionalProperties: false,
        },
        Item: {
          type: "object",
          properties: { id: { type: "string" }, on: { type: "boolean" } },
          required: ["id"],
          additionalProperties: false,
        },
      },
    });
  });
});
