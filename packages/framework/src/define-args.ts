// One declaration per plugin's args: a TypeBox schema of the v1 JSON gives the TypeScript type,
// strict decoding with field paths, defaults, validation with upstream's messages and the JSON
// Schema editors use. The adapter reads the schema the way upstream's machinery reads a v1 args
// struct: strict decoding (sigs.k8s.io/json), SetDefaults_<Kind> (`default` keywords, Go's zero
// values, `defaultWhenZero`), Validate<Kind> (keywords with upstream's wording, `argRules` checks
// and the definition's cross-field `validate`). `defineV1Object` hands the same adapter to any
// other v1 object (@kubesched/config declares KubeSchedulerConfiguration with it).
import {
  OptionalKind,
  type Static,
  type StaticDecode,
  TransformKind,
  type TSchema,
  type TUnsafe,
  Type,
} from "@sinclair/typebox";
import type { DecodeResult, PluginArgsSpec } from "./descriptor";
import { defaultFeatures, type Features } from "./features";
import { type FieldError, type FieldErrorType, fieldErrors, fieldPath } from "./field-errors";

export { type Static, type StaticDecode, type TObject, type TSchema, Type } from "@sinclair/typebox";

/**
 * A plugin's args declared once: what {@link defineArgs} takes.
 * @public
 */
export interface ArgsDefinition<S extends TSchema> {
  /** The args kind in kubescheduler.config.k8s.io/v1, e.g. "InterPodAffinityArgs". */
  kind: string;
  /**
   * The v1 fields (apiVersion and kind are added): an object schema, or a `Type.Transform` of one
   * when the args' TypeScript form differs from their JSON (renamed fields, durations in ms).
   */
  schema: S;
  /**
   * Defaulting the schema cannot state (upstream SetDefaults_<Kind>: defaults that depend on other
   * fields). Runs after the schema's defaults, on decoded args.
   */
  defaults?: (args: StaticDecode<S>, features: Features) => StaticDecode<S>;
  /**
   * Rules across fields (upstream Validate<Kind>), with field paths under `path` and upstream's
   * messages. Runs first; the schema's keywords and `argRules` checks follow in field order.
   */
  validate?: (args: StaticDecode<S>, path: string, features: Features) => FieldError[];
}

/**
 * What a rule's `check` and `message` see besides the value.
 * @public
 */
export interface ArgRuleContext {
  /** The value's field path. */
  path: string;
  /** The object or list holding the value (undefined at the root). */
  parent: unknown;
  /** The value's index when `parent` is a list. */
  index: number | undefined;
  /** The profile's feature gates. */
  features: Features;
}

/**
 * Upstream's rules for one field of an args schema, beyond what JSON Schema keywords state.
 * @public
 */
export interface ArgRules<V = unknown> {
  /**
   * The detail of a failed keyword check, in upstream's words (default: `not in valid range
   * [0, 100]` for ranges, `can not be empty` for an empty required string, the supported values
   * for an enum).
   */
  message?: string | ((value: V, ctx: ArgRuleContext) => string);
  /** The error type of a failed keyword check (default Invalid; NotSupported for an enum; Required when empty). */
  type?: FieldErrorType;
  /**
   * Upstream's checks a keyword cannot state (qualified names, uniqueness, order). Runs when the
   * keywords passed, before the value's own fields.
   */
  check?: (value: V, ctx: ArgRuleContext) => FieldError[];
  /** The fields below are validated by `check` alone (their keywords only describe them to editors). */
  opaque?: boolean;
  /**
   * A non-pointer Go field: upstream's SetDefaults also replaces its zero value ("", 0, an empty
   * list) with the default.
   */
  defaultWhenZero?: boolean;
  /**
   * A field behind a feature gate: defaulted only with the gate on, and an error when set with the
   * gate off (upstream: "unexpected field `shape`, remove it or turn on the feature gate ...").
   */
  featureGate?: keyof Features;
  /** Errors below this field are reported under its parent's path (upstream's quirk for a few fields). */
  reportUnderParent?: boolean;
  /**
   * Go's `omitempty` on a field that is always present once defaulted: encoding leaves its zero
   * value ("", 0, false, an empty list) out, and the JSON Schema does not require it.
   */
  omitEmpty?: boolean;
  /**
   * Whether the JSON Schema lists the field as required. By default a field is required when it
   * is neither `Type.Optional` nor has a default (nor `omitEmpty`); `required: false` suits a field
   * the v1 JSON may leave out although decoding always gives it a value (its Go zero value, or one
   * the definition's defaulting code sets).
   */
  required?: boolean;
  /**
   * A value of the wrong type is reported and decoded as `{}` instead of being left out, so a list
   * keeps its indices and later errors point at the file's items (an object schema's rule).
   */
  emptyWhenInvalid?: boolean;
}

const rulesKey = Symbol.for("kubesched.argRules");

/**
 * `schema` with upstream's rules for its field (merged with rules it already has).
 * @public
 */
export function argRules<T extends TSchema>(schema: T, rules: ArgRules<Static<T>>): T {
  const previous = (schema as unknown as Record<symbol, ArgRules | undefined>)[rulesKey];
  return { ...schema, [rulesKey]: { ...previous, ...rules } };
}

/**
 * A string field with a fixed set of values (an upstream enum-like string type). Decoding accepts
 * any string, as upstream does; validation reports others as NotSupported, listing `values`.
 * @public
 */
export function ArgsEnum<const V extends readonly string[]>(
  values: V,
  options: Record<string, unknown> = {},
): TUnsafe<V[number] | (string & {})> {
  return Type.Unsafe<V[number] | (string & {})>({ ...options, type: "string", enum: [...values] });
}

/**
 * The spec of a plugin's args from their one declaration: strict decoding with field paths,
 * defaults, validation with upstream's messages, encoding and the JSON Schema editors use.
 * @public
 */
export function defineArgs<S extends TSchema>(def: ArgsDefinition<S>): PluginArgsSpec<StaticDecode<S>> {
  const schema = def.schema;
  if (jsonType(schema) !== "object" || !schema.properties) {
    throw new Error(`defineArgs(${def.kind}): the schema must be an object with properties`);
  }
  const ignored = ["apiVersion", "kind"];
  const json = jsonSchema(schema);
  return {
    kind: def.kind,
    decode(raw: unknown, path: string, features: Features): DecodeResult<StaticDecode<S>> {
      const errors: FieldError[] = [];
      const ctx: WalkContext = { errors, features, defaults: true };
      let args = (decodeValue(schema, raw ?? {}, path, ctx, ignored) ??
        decodeValue(schema, {}, path, ctx)) as StaticDecode<S>;
      if (def.defaults) args = def.defaults(args, features);
      return { args, errors };
    },
    validate(args: StaticDecode<S>, path: string, features: Features): FieldError[] {
      const errors = def.validate?.(args, path, features) ?? [];
      walk(
        schema,
        encodeValue(schema, args, false),
        { path, parentPath: path, key: "", parent: undefined, index: undefined },
        { errors, features, defaults: true },
      );
      return errors;
    },
    encode: (args) => encodeValue(schema, args, true) as Record<string, unknown>,
    schema: {
      ...json,
      properties: {
        apiVersion: { type: "string" },
        kind: { type: "string", const: def.kind },
        ...(json.properties as Record<string, unknown>),
      },
      additionalProperties: false,
    },
  };
}

/**
 * A value as decoded but not yet defaulted: every field may be absent (upstream's v1 struct
 * before SetDefaults, where unset pointers are nil).
 * @internal Used by \@kubesched/config's KubeSchedulerConfiguration declaration.
 */
export type Undefaulted<T> = T extends readonly (infer E)[]
  ? Undefaulted<E>[]
  : T extends object
    ? { [K in keyof T]?: Undefaulted<T[K]> }
    : T;

/**
 * The adapter behind `defineArgs` for any v1 object declared with TypeBox: the declaration's
 * strict decoding, defaulting, validation, encoding and JSON Schema, as separate steps (a
 * configuration decodes strictly, then runs its own defaulting code around the declared
 * defaults, then its own validation function using the declared field rules).
 * @internal Used by \@kubesched/config's KubeSchedulerConfiguration declaration.
 */
export interface V1ObjectSpec<S extends TSchema> {
  /** The declaration. */
  readonly schema: S;
  /**
   * Strict decoding without defaults: unknown fields and wrong types are appended to `errors`
   * with their field paths under `path`; absent fields stay absent. Undefined when `raw` is
   * absent or of the wrong type. `features` (default: the release's defaults) decide
   * `featureGate` fields.
   */
  decode(
    raw: unknown,
    path: string,
    errors: FieldError[],
    features?: Features,
  ): Undefaulted<StaticDecode<S>> | undefined;
  /**
   * upstream SetDefaults from the declaration: absent fields (and zero ones with
   * `defaultWhenZero`) take their `default`, other fields their Go zero value; `Type.Optional`
   * fields without a default stay absent. The values of `Type.Transform` schemas are kept as they
   * are (their absence is defaulted).
   */
  withDefaults(value: Undefaulted<StaticDecode<S>> | undefined, features?: Features): StaticDecode<S>;
  /** The declared rules (keywords in upstream's words, `argRules` checks), every error with its path. */
  validate(value: StaticDecode<S>, path: string, features?: Features): FieldError[];
  /** The v1 JSON of a decoded value: transforms reversed, `omitEmpty` fields left out when zero. */
  encode(value: StaticDecode<S>): unknown;
  /**
   * The JSON Schema: strict objects at every level, required fields as the rules say; schemas
   * with an `$id` below the root become `$defs` entries referenced by `$ref`.
   */
  jsonSchema(): Record<string, unknown>;
}

/**
 * The adapter for one v1 object declared with TypeBox (see `V1ObjectSpec`).
 * @internal Used by \@kubesched/config's KubeSchedulerConfiguration declaration.
 */
export function defineV1Object<S extends TSchema>(schema: S): V1ObjectSpec<S> {
  return {
    schema,
    decode(raw, path, errors, features = defaultFeatures) {
      const ctx: WalkContext = { errors, features, defaults: false };
      return decodeValue(schema, raw, path, ctx) as Undefaulted<StaticDecode<S>> | undefined;
    },
    withDefaults(value, features = defaultFeatures) {
      const ctx: WalkContext = { errors: [], features, defaults: true };
      return withDefault(schema, defaultValue(schema, value, ctx), ctx) as StaticDecode<S>;
    },
    validate(value, path, features = defaultFeatures) {
      const ctx: WalkContext = { errors: [], features, defaults: true };
      const at: Position = { path, parentPath: path, key: "", parent: undefined, index: undefined };
      walk(schema, encodeValue(schema, value, false), at, ctx);
      return ctx.errors;
    },
    encode: (value) => encodeValue(schema, value, false),
    jsonSchema: () => jsonSchema(schema),
  };
}

interface WalkContext {
  errors: FieldError[];
  features: Features;
  /** Apply defaults while decoding (defineArgs) or leave absent fields absent (V1ObjectSpec.decode). */
  defaults: boolean;
}

type Json = Record<string, unknown>;

function rulesOf(s: TSchema): ArgRules | undefined {
  return (s as unknown as Record<symbol, ArgRules | undefined>)[rulesKey];
}

function isOptional(s: TSchema): boolean {
  return (s as unknown as Record<symbol, unknown>)[OptionalKind] === "Optional";
}

interface Transform {
  Decode(v: unknown): unknown;
  Encode(v: unknown): unknown;
}

function transformOf(s: TSchema): Transform | undefined {
  return (s as unknown as Record<symbol, Transform | undefined>)[TransformKind];
}

function gateOn(rules: ArgRules | undefined, features: Features | undefined): boolean {
  return rules?.featureGate === undefined || features?.[rules.featureGate] === true;
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function isPlainObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A FieldError thrown by a transform's Decode (its `field` relative to the value). */
function isFieldError(e: unknown): e is FieldError {
  return (
    isPlainObject(e) && typeof (e as { type?: unknown }).type === "string" && typeof e.field === "string"
  );
}

/** The literal values of an enum: `enum`, or a union of `const`s (Type.Union of Type.Literal). */
function enumValues(s: TSchema): unknown[] | undefined {
  if (Array.isArray(s.enum)) return s.enum;
  const alternatives = s.anyOf as TSchema[] | undefined;
  if (alternatives?.length && alternatives.every((a) => a.const !== undefined)) {
    return alternatives.map((a) => a.const);
  }
  return undefined;
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

/** The value schema of a map (Type.Record), if `s` is one. */
function recordValues(s: TSchema): TSchema | undefined {
  const patterns = s.patternProperties as Record<string, TSchema> | undefined;
  return patterns ? Object.values(patterns)[0] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Decoding: strict (unknown fields and wrong types are errors with their paths), then defaults.

/**
 * A value of `schema` (null and absent are absent); wrong types are errors and absent. Objects
 * report their unknown fields after their known fields' errors, as a strict decoder that reads
 * the declared fields first.
 */
function decodeValue(
  schema: TSchema,
  v: unknown,
  path: string,
  ctx: WalkContext,
  ignored: readonly string[] = [],
): unknown {
  if (v === undefined || v === null) return undefined;
  const wrong = (what: string) => {
    ctx.errors.push(fieldErrors.invalid(path, v, `must be ${what}, got ${typeName(v)}`));
    return undefined;
  };
  let out: unknown;
  switch (jsonType(schema)) {
    case "object": {
      let obj: Json;
      if (isPlainObject(v)) obj = v;
      else {
        wrong("an object");
        if (!rulesOf(schema)?.emptyWhenInvalid) return undefined;
        obj = {};
      }
      const values = recordValues(schema);
      if (schema.properties) out = decodeObject(schema, obj, path, ctx, ignored);
      else if (values) {
        const m: Json = {};
        for (const [k, e] of Object.entries(obj)) {
          const d = decodeValue(values, e, fieldPath.key(path, k), ctx);
          if (d !== undefined) setOwn(m, k, d);
        }
        out = m;
      } else out = obj;
      break;
    }
    case "array": {
      if (!Array.isArray(v)) return wrong("a list");
      const items = schema.items as TSchema | undefined;
      if (!items) {
        out = v;
        break;
      }
      const list: unknown[] = [];
      v.forEach((e, i) => {
        const d = decodeValue(items, e, fieldPath.index(path, i), ctx);
        if (d !== undefined) list.push(d);
      });
      out = list;
      break;
    }
    case "integer":
      if (typeof v !== "number" || !Number.isInteger(v)) return wrong("an integer");
      out = v;
      break;
    case "number":
      if (typeof v !== "number") return wrong("a number");
      out = v;
      break;
    case "string":
      if (typeof v !== "string") return wrong("a string");
      out = v;
      break;
    case "boolean":
      if (typeof v !== "boolean") return wrong("a boolean");
      out = v;
      break;
    default:
      out = v;
  }
  const transform = transformOf(schema);
  if (!transform) return out;
  try {
    return transform.Decode(out);
  } catch (e) {
    // An Error is the value's Invalid detail (e.g. a malformed duration); a thrown FieldError is
    // reported as it is, its field under the value's path (e.g. a missing required name).
    ctx.errors.push(
      isFieldError(e)
        ? { ...e, field: e.field ? fieldPath.child(path, e.field) : path }
        : fieldErrors.invalid(path, v, e instanceof Error ? e.message : String(e)),
    );
    return undefined;
  }
}

function decodeObject(
  schema: TSchema,
  raw: Json,
  path: string,
  ctx: WalkContext,
  ignored: readonly string[],
) {
  const properties = schema.properties as Record<string, TSchema>;
  const out: Json = {};
  for (const [k, prop] of Object.entries(properties)) {
    const decoded = decodeValue(prop, raw[k], fieldPath.child(path, k), ctx);
    const d = ctx.defaults ? withDefault(prop, decoded, ctx) : decoded;
    if (d !== undefined) out[k] = d;
  }
  for (const k of Object.keys(raw)) {
    // Strict decoding, as upstream's: an unknown field is an error (apiVersion/kind excepted).
    // Own properties only: `constructor` or `__proto__` is no field of any declaration.
    if (!Object.hasOwn(properties, k) && !ignored.includes(k)) {
      ctx.errors.push(fieldErrors.unknownField(fieldPath.child(path, k)));
    }
  }
  return out;
}

/** `obj[k] = v` as a data property, also for the key `__proto__` (whose setter would replace the prototype). */
function setOwn(obj: Json, k: string, v: unknown): void {
  if (k === "__proto__")
    Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  else obj[k] = v;
}

function isZero(v: unknown): boolean {
  return v === "" || v === 0 || v === false || (Array.isArray(v) && v.length === 0);
}

/** The JSON zero value of a required field that has no default (Go's zero value). */
function zeroOf(s: TSchema): unknown {
  switch (jsonType(s)) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return undefined;
  }
}

/** upstream SetDefaults: an absent field (or a zero one, with defaultWhenZero) gets its default. */
function withDefault(prop: TSchema, decoded: unknown, ctx: WalkContext): unknown {
  const rules = rulesOf(prop);
  if (decoded !== undefined && !(rules?.defaultWhenZero && isZero(decoded))) return decoded;
  const json = { errors: [], features: ctx.features, defaults: true };
  if (prop.default !== undefined && gateOn(rules, ctx.features)) {
    // The default is v1 JSON too: decoding it applies nested defaults and transforms.
    return decodeValue(prop, structuredClone(prop.default), "", json);
  }
  if (decoded !== undefined || isOptional(prop)) return decoded;
  const zero = zeroOf(prop);
  return zero === undefined ? undefined : decodeValue(prop, zero, "", json);
}

/**
 * The defaults of an already decoded value's fields, nested objects, list items and map values
 * (V1ObjectSpec.withDefaults). A transform's value is kept as it is: its TypeScript form need not
 * follow the schema's fields.
 */
function defaultValue(schema: TSchema, v: unknown, ctx: WalkContext): unknown {
  if (v === undefined || v === null) return undefined;
  if (transformOf(schema)) return v;
  if (isPlainObject(v) && schema.properties) {
    const out: Json = {};
    for (const [k, prop] of Object.entries(schema.properties as Record<string, TSchema>)) {
      const d = withDefault(prop, defaultValue(prop, v[k], ctx), ctx);
      if (d !== undefined) out[k] = d;
    }
    return out;
  }
  const values = recordValues(schema);
  if (isPlainObject(v) && values) {
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, defaultValue(values, e, ctx)]));
  }
  const items = schema.items as TSchema | undefined;
  if (Array.isArray(v) && items) return v.map((e) => defaultValue(items, e, ctx));
  return v;
}

// ---------------------------------------------------------------------------------------------
// Encoding: decoded args back to v1 JSON (transforms reversed; empty lists omitted, as Go's
// omitempty does, when printing args; `omitEmpty` fields' zero values omitted).

function encodeValue(schema: TSchema, v: unknown, omitEmpty: boolean): unknown {
  if (v === undefined || v === null) return undefined;
  const transform = transformOf(schema);
  const value = transform ? transform.Encode(v) : v;
  if (isPlainObject(value) && schema.properties) {
    const out: Json = {};
    for (const [k, prop] of Object.entries(schema.properties as Record<string, TSchema>)) {
      const e = encodeValue(prop, value[k], omitEmpty);
      if (e === undefined || (omitEmpty && Array.isArray(e) && e.length === 0)) continue;
      if (rulesOf(prop)?.omitEmpty && isZero(e)) continue;
      out[k] = e;
    }
    return out;
  }
  const values = recordValues(schema);
  if (isPlainObject(value) && values) {
    return Object.fromEntries(Object.entries(value).map(([k, e]) => [k, encodeValue(values, e, omitEmpty)]));
  }
  if (Array.isArray(value)) {
    const items = schema.items as TSchema | undefined;
    return value.map((e) => (items ? encodeValue(items, e, omitEmpty) : structuredClone(e)));
  }
  return typeof value === "object" ? structuredClone(value) : value;
}

// ---------------------------------------------------------------------------------------------
// Validation: the v1 form walked in field order; per field: feature gate, keywords, rules' check,
// then its own fields.

/** Where a value sits: its path, its parent's path, its field name and its container. */
interface Position {
  path: string;
  parentPath: string;
  key: string;
  parent: unknown;
  index: number | undefined;
}

function walk(schema: TSchema, v: unknown, at: Position, ctx: WalkContext): void {
  if (v === undefined || v === null) return;
  const { path, key } = at;
  const rules = rulesOf(schema);
  if (!gateOn(rules, ctx.features)) {
    const gate = String(rules?.featureGate).replace(/^enable/, "");
    ctx.errors.push(
      fieldErrors.invalid(
        path,
        v,
        `unexpected field \`${key}\`, remove it or turn on the feature gate ${gate}`,
      ),
    );
    return;
  }
  const rc: ArgRuleContext = { path, parent: at.parent, index: at.index, features: ctx.features };
  const failed = keywordError(schema, v, rules, rc);
  if (failed) {
    ctx.errors.push(failed);
    return;
  }
  if (rules?.check) ctx.errors.push(...rules.check(v, rc));
  if (rules?.opaque) return;
  const base = rules?.reportUnderParent ? at.parentPath : path;
  const child = (p: string, k: string, index?: number): Position => ({
    path: p,
    parentPath: base,
    key: k,
    parent: v,
    index,
  });
  const values = recordValues(schema);
  if (isPlainObject(v) && schema.properties) {
    for (const [k, prop] of Object.entries(schema.properties as Record<string, TSchema>)) {
      walk(prop, v[k], child(fieldPath.child(base, k), k), ctx);
    }
  } else if (isPlainObject(v) && values) {
    for (const [k, e] of Object.entries(v)) walk(values, e, child(fieldPath.key(base, k), k), ctx);
  } else if (Array.isArray(v) && schema.items) {
    v.forEach((e, i) => {
      walk(schema.items as TSchema, e, child(fieldPath.index(base, i), key, i), ctx);
    });
  }
}

/** upstream's interval notation: [0, 100], (0, inf), [0, inf). */
function interval(s: TSchema): string {
  const lo =
    s.exclusiveMinimum !== undefined
      ? `(${s.exclusiveMinimum}`
      : s.minimum !== undefined
        ? `[${s.minimum}`
        : "(-inf";
  const hi =
    s.exclusiveMaximum !== undefined
      ? `${s.exclusiveMaximum})`
      : s.maximum !== undefined
        ? `${s.maximum}]`
        : "inf)";
  return `${lo}, ${hi}`;
}

/** The first keyword the value breaks, as upstream words it (or as the field's rules say). */
function keywordError(
  s: TSchema,
  v: unknown,
  rules: ArgRules | undefined,
  rc: ArgRuleContext,
): FieldError | undefined {
  const custom = (fallback: string) =>
    rules?.message === undefined
      ? fallback
      : typeof rules.message === "string"
        ? rules.message
        : rules.message(v, rc);
  const path = rc.path;
  if (typeof v === "string") {
    if (typeof s.minLength === "number" && v.length < s.minLength) {
      if (v !== "") return fieldErrors.invalid(path, v, custom(`must be at least ${s.minLength} characters`));
      const detail = custom("can not be empty");
      return { type: rules?.type ?? "Required", field: path, ...(detail ? { detail } : {}) };
    }
  }
  const values = enumValues(s);
  if (values && !values.includes(v)) {
    if (rules?.message === undefined && rules?.type === undefined) {
      return fieldErrors.notSupported(path, v, values.map(String));
    }
    return { type: rules?.type ?? "NotSupported", field: path, badValue: v, detail: custom("") };
  }
  if (typeof v === "number") {
    const below =
      (typeof s.minimum === "number" && v < s.minimum) ||
      (typeof s.exclusiveMinimum === "number" && v <= s.exclusiveMinimum);
    const above =
      (typeof s.maximum === "number" && v > s.maximum) ||
      (typeof s.exclusiveMaximum === "number" && v >= s.exclusiveMaximum);
    if (below || above) {
      return {
        type: rules?.type ?? "Invalid",
        field: path,
        badValue: v,
        detail: custom(`not in valid range ${interval(s)}`),
      };
    }
  }
  if (Array.isArray(v) && typeof s.minItems === "number" && v.length < s.minItems) {
    return {
      type: rules?.type ?? "Required",
      field: path,
      detail: custom(`must have at least ${s.minItems} ${s.minItems === 1 ? "item" : "items"}`),
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// JSON Schema: the declaration without TypeBox's symbols; unknown fields rejected at every level
// (strict decoding); fields with defaults are not required (see ArgRules.required); schemas with
// an `$id` below the root are written once under `$defs` and referenced.

function jsonSchema(s: TSchema): Json {
  const defs: Json = {};
  const out = tidy(JSON.parse(JSON.stringify(s)) as Json, s, defs, true);
  if (Object.keys(defs).length > 0) out.$defs = defs;
  return out;
}

/** Whether the JSON Schema requires `key` of the object schema `s`. */
function jsonRequired(s: TSchema, key: string, prop: TSchema): boolean {
  const rules = rulesOf(prop);
  if (rules?.required !== undefined) return rules.required;
  if (rules?.omitEmpty) return false;
  return ((s.required as string[] | undefined) ?? []).includes(key) && prop.default === undefined;
}

/** Tidies `json`, the JSON copy of the TypeBox schema `s` (walked alongside for its rules). */
function tidy(json: Json, s: TSchema, defs: Json, root = false): Json {
  const properties = json.properties as Record<string, Json> | undefined;
  if (properties) {
    const declared = s.properties as Record<string, TSchema>;
    for (const [k, p] of Object.entries(properties)) properties[k] = tidy(p, declared[k]!, defs);
    json.additionalProperties = false;
    const required = Object.keys(declared).filter((k) => jsonRequired(s, k, declared[k]!));
    if (required.length) json.required = required;
    else delete json.required;
  }
  if (isPlainObject(json.items)) json.items = tidy(json.items, s.items as TSchema, defs);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const alternatives = s[key] as TSchema[] | undefined;
    if (Array.isArray(json[key]))
      json[key] = (json[key] as Json[]).map((a, i) => tidy(a, alternatives![i]!, defs));
  }
  const patterns = json.patternProperties as Record<string, Json> | undefined;
  if (patterns) {
    const declared = s.patternProperties as Record<string, TSchema>;
    for (const [k, p] of Object.entries(patterns)) patterns[k] = tidy(p, declared[k]!, defs);
  }
  const id = json.$id;
  if (root || typeof id !== "string") return json;
  delete json.$id;
  defs[id] ??= json;
  return { $ref: `#/$defs/${id}` };
}
