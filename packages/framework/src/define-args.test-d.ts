// What a plugin's one declaration infers: the API report pins defineArgs' signature, these pin
// the args types plugin code compiles against. Imports the package by name, as tooling/type-tests
// compiles it against the built .d.ts.
import {
  ArgsEnum,
  argRules,
  defineArgs,
  defineV1Object,
  type PluginArgsSpec,
  type Static,
  Type,
  type UtilizationShape,
  type UtilizationShapePoint,
} from "@kubesched/framework";
import { describe, expectTypeOf, it } from "vitest";

describe("defineArgs", () => {
  it("infers the args type: defaulted fields required, Optional ones optional", () => {
    const spec = defineArgs({
      kind: "ExampleArgs",
      schema: Type.Object({
        weight: Type.Integer({ default: 1 }),
        names: Type.Array(Type.String(), { default: [] }),
        ratio: Type.Optional(Type.Number()),
      }),
    });
    expectTypeOf(spec).toEqualTypeOf<PluginArgsSpec<{ weight: number; names: string[]; ratio?: number }>>();
  });

  it("a Transform gives the TypeScript form, the schema the JSON form", () => {
    const spec = defineArgs({
      kind: "DurationArgs",
      schema: Type.Transform(Type.Object({ timeout: Type.String({ default: "10s" }) }))
        .Decode((v) => ({ timeoutMs: v.timeout.length }))
        .Encode((a) => ({ timeout: `${a.timeoutMs}s` })),
      validate: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ timeoutMs: number }>();
        return [];
      },
    });
    expectTypeOf(spec).toEqualTypeOf<PluginArgsSpec<{ timeoutMs: number }>>();
  });

  it("ArgsEnum is its values or any string (decoding accepts any; validation judges)", () => {
    const schema = Type.Object({ mode: ArgsEnum(["Least", "Most"]) });
    expectTypeOf<Static<typeof schema>["mode"]>().toEqualTypeOf<"Least" | "Most" | (string & {})>();
  });

  it("argRules keeps the schema's type and types its rules by the field's value", () => {
    const weight = argRules(Type.Integer({ minimum: 0 }), {
      check: (w) => {
        expectTypeOf(w).toEqualTypeOf<number>();
        return [];
      },
    });
    expectTypeOf(weight).toEqualTypeOf<ReturnType<typeof Type.Integer>>();
    // @ts-expect-error: a rule's check sees the field's type
    argRules(Type.String(), { check: (s: number) => (s > 0 ? [] : []) });
  });

  it("UtilizationShape holds UtilizationShapePoints", () => {
    expectTypeOf<Static<ReturnType<typeof UtilizationShape>>>().toEqualTypeOf<UtilizationShapePoint[]>();
  });

  it("defineV1Object: withDefaults gives the declaration's type, decode its Undefaulted form", () => {
    const spec = defineV1Object(
      Type.Object({
        n: Type.Integer({ default: 1 }),
        o: Type.Optional(Type.Object({ s: Type.String(), l: Type.Array(Type.String()) })),
      }),
    );
    expectTypeOf(spec.withDefaults({})).toEqualTypeOf<{ n: number; o?: { s: string; l: string[] } }>();
    expectTypeOf(spec.decode({}, "", [])).toEqualTypeOf<
      { n?: number; o?: { s?: string; l?: string[] } } | undefined
    >();
  });
});
