// One declaration per plugin's args: a TypeBox schema gives the TypeScript type (Static), strict
// decoding with field paths, defaults (the schema's `default` keywords, plus a hook for upstream's
// conditional defaulting) and the JSON Schema editors use. Semantic validation keeps upstream's
// rules and messages in the plugin's `validate`.
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import type { DecodeResult, PluginArgsSpec } from "./descriptor";
import type { Features } from "./features";
import { type FieldError, fieldErrors, fieldPath } from "./field-errors";

export { type Static, type TObject, type TSchema, Type } from "@sinclair/typebox";

export interface ArgsDefinition<S extends TObject> {
  /** The args kind in kubescheduler.config.k8s.io/v1, e.g. "InterPodAffinityArgs". */
  kind: string;
  /** The v1 fields (apiVersion and kind are added). `default` keywords are applied on decode. */
  schema: S;
  /**
   * Defaulting a `default` keyword cannot state (upstream SetDefaults_<Kind>: defaults that
   * depend on other fields or on feature gates). Runs after the keywords, on decoded args.
   */
  defaults?: (args: Static<S>, features: Features) => Static<S>;
  /** upstream Validate<Kind>: every problem with its field path under `path`, upstream's messages. */
  validate?: (args: Static<S>, path: string, features: Features) => FieldError[];
}

/** The args spec of a plugin from its one declaration. */
export function defineArgs<S extends TObject>(def: ArgsDefinition<S>): PluginArgsSpec<Static<S>> {
  const schema = def.schema;
  return {
    kind: def.kind,
    decode(raw: unknown, path: string, features: Features): DecodeResult<Static<S>> {
      const errors: FieldError[] = [];
      const decoded = decodeObject(schema, raw ?? {}, path, errors, ["apiVersion", "kind"]) ?? {};
      let args = applyDefaults(schema, decoded) as Static<S>;
      if (def.defaults) args = def.defaults(args, features);
      return { args, errors };
    },
    validate: (args, path, features) => def.validate?.(args, path, features) ?? [],
    encode: (args) => JSON.parse(JSON.stringify(args)) as Record<string, unknown>,
    schema: {
      ...plainSchema(schema),
      properties: {
        apiVersion: { type: "string" },
        kind: { type: "string", const: def.kind },
        ...(plainSchema(schema).properties as Record<string, unknown>),
      },
      additionalProperties: false,
    },
  };
}

/** The JSON Schema without TypeBox's symbol keys. */
function plainSchema(s: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The JSON type a schema decodes as; literal unions (enums) decode as their literals' type. */
function jsonType(s: TSchema): string | undefined {
  if (typeof s.type === "string") return s.type;
  const alternatives = (s.anyOf ?? s.oneOf) as TSchema[] | undefined;
  if (alternatives?.length) {
    const types = new Set(alternatives.map(jsonType));
    if (types.size === 1) return [...types][0];
  }
  if (s.const !== undefined) return typeName(s.const);
  return undefined;
}

function decodeObject(
  schema: TSchema,
  raw: unknown,
  path: string,
  errors: FieldError[],
  ignored: readonly string[] = [],
): Record<string, unknown> | undefined {
  if (!isPlainObject(raw)) {
    errors.push(fieldErrors.invalid(path, raw, `must be an object, got ${typeName(raw)}`));
    return undefined;
  }
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const prop = properties[k];
    if (!prop) {
      // Strict decoding, as upstream's: an unknown field is an error (apiVersion/kind excepted).
      if (!ignored.includes(k)) errors.push(fieldErrors.unknownField(fieldPath.child(path, k)));
      continue;
    }
    const d = decodeValue(prop, v, fieldPath.child(path, k), errors);
    if (d !== undefined) out[k] = d;
  }
  return out;
}

/** A value of `schema` (null and absent are absent); wrong types are errors and absent. */
function decodeValue(schema: TSchema, v: unknown, path: string, errors: FieldError[]): unknown {
  if (v === undefined || v === null) return undefined;
  const wrong = (what: string) => {
    errors.push(fieldErrors.invalid(path, v, `must be ${what}, got ${typeName(v)}`));
    return undefined;
  };
  switch (jsonType(schema)) {
    case "object":
      return schema.properties
        ? decodeObject(schema, v, path, errors)
        : isPlainObject(v)
          ? v
          : wrong("an object");
    case "array": {
      if (!Array.isArray(v)) return wrong("a list");
      const items = schema.items as TSchema | undefined;
      if (!items) return v;
      const out: unknown[] = [];
      v.forEach((e, i) => {
        const d = decodeValue(items, e, fieldPath.index(path, i), errors);
        if (d !== undefined) out.push(d);
      });
      return out;
    }
    case "integer":
      return typeof v === "number" && Number.isInteger(v) ? v : wrong("an integer");
    case "number":
      return typeof v === "number" ? v : wrong("a number");
    case "string":
      return typeof v === "string" ? v : wrong("a string");
    case "boolean":
      return typeof v === "boolean" ? v : wrong("a boolean");
    default:
      return v;
  }
}

/** Fills absent properties that have a `default`, in nested objects and in array items too. */
function applyDefaults(schema: TSchema, v: unknown): unknown {
  const type = jsonType(schema);
  if (type === "object" && isPlainObject(v) && schema.properties) {
    const out: Record<string, unknown> = { ...v };
    for (const [k, prop] of Object.entries(schema.properties as Record<string, TSchema>)) {
      if (out[k] === undefined && prop.default !== undefined) out[k] = structuredClone(prop.default);
      if (out[k] !== undefined) out[k] = applyDefaults(prop, out[k]);
    }
    return out;
  }
  if (type === "array" && Array.isArray(v) && schema.items) {
    return v.map((e) => applyDefaults(schema.items as TSchema, e));
  }
  return v;
}
