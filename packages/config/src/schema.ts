// JSON Schema of kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration, for editors
// (e.g. `# yaml-language-server: $schema=...`), from the one declaration (types.ts). Plugin names
// and args schemas come from the registry when one is given.
import type { Registry } from "@kubesched/framework";
import { isPlainObject, type JsonObject } from "./decode";
import { APIVersion, configuration, Kind, unsupportedPluginSets } from "./types";

type Schema = JsonObject;

/** Keywords in the order the schema is written: what a value is first, then its parts. */
const keywordOrder = [
  "$ref",
  "type",
  "enum",
  "const",
  "minimum",
  "maximum",
  "minLength",
  "description",
  "pattern",
  "default",
  "contentEncoding",
  "properties",
  "additionalProperties",
  "required",
  "items",
];

function rank(keyword: string): number {
  const i = keywordOrder.indexOf(keyword);
  return i < 0 ? keywordOrder.length : i;
}

/** `s` with its keywords (and those of its subschemas) in keywordOrder. */
function ordered(s: Schema): Schema {
  const out: Schema = {};
  for (const k of Object.keys(s).sort((a, b) => rank(a) - rank(b))) {
    const v = s[k];
    if ((k === "properties" || k === "$defs") && isPlainObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, ordered(p as Schema)]));
    } else if (k === "items" && isPlainObject(v)) out[k] = ordered(v);
    else out[k] = v;
  }
  return out;
}

function argsSchema(kind: string, schema: Schema | undefined): Schema {
  const base: Schema = schema ? { ...schema } : { type: "object" };
  const props = (base.properties as Record<string, Schema> | undefined) ?? {};
  return {
    ...base,
    properties: { apiVersion: { const: APIVersion }, kind: { const: kind }, ...props },
  };
}

/** Builds the schema; with a registry, plugin names are enumerated and args schemas attached. */
export function buildConfigJSONSchema(registry?: Registry): Record<string, unknown> {
  const declared = ordered(configuration.jsonSchema());
  const { apiVersion: _apiVersion, kind: _kind, ...fields } = declared.properties as Record<string, Schema>;
  const defs = declared.$defs as Record<string, Schema & { properties: Record<string, Schema> }>;
  for (const point of unsupportedPluginSets) delete defs.Plugins!.properties[point];

  const names = registry ? [...registry.keys()].sort() : [];
  if (names.length > 0) {
    defs.Plugin!.properties.name = { type: "string", enum: names };
    defs.DisabledPlugin!.properties.name = { type: "string", enum: ["*", ...names] };
    defs.PluginConfig!.properties.name = { type: "string", enum: names };
  }
  const argsRules: Schema[] = [];
  for (const name of names) {
    const spec = registry?.get(name)?.args;
    if (!spec) continue;
    argsRules.push({
      if: { properties: { name: { const: name } }, required: ["name"] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema if/then, not a promise.
      then: { properties: { args: argsSchema(spec.kind, spec.schema) } },
    });
  }
  if (argsRules.length > 0) defs.PluginConfig!.allOf = argsRules;

  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://kubesched.dev/schemas/kubescheduler.config.k8s.io/v1/KubeSchedulerConfiguration.json",
    title: "KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)",
    type: "object",
    required: ["apiVersion", "kind"],
    additionalProperties: false,
    properties: { apiVersion: { const: APIVersion }, kind: { const: Kind }, ...fields },
    $defs: defs,
  };
}

/** The schema without registry knowledge (any plugin name, args as free objects). */
export const configJSONSchema: Record<string, unknown> = buildConfigJSONSchema();
