// upstream: pkg/scheduler/apis/config/scheme (strict decoding of kubescheduler.config.k8s.io/v1).
// Reads the v1 document into a "not yet defaulted" shape with the one declaration (types.ts):
// absent fields stay undefined, every unknown field and wrong type is an error with its field
// path.
import { type DecodedJSON, decodeJSON, formatJSONPath, jsonDepth } from "@kubesched/api";
import type { FieldError, Undefaulted } from "@kubesched/framework";
import { parseAllDocuments } from "yaml";
import {
  APIVersion,
  configuration,
  GroupName,
  Kind,
  type KubeSchedulerConfiguration,
  type PluginConfigEntry,
  type PluginSet,
  type PluginSetName,
  type ProfileConfig,
} from "./types";

export type JsonObject = Record<string, unknown>;

export function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A profile's plugins as the file gives them: the extension points it names, each as written. */
export type CustomPlugins = { [P in PluginSetName]?: Partial<PluginSet> };

/** A decoded, not yet defaulted v1 profile (its plugin entries and pluginConfig names are given). */
export type V1Profile = Omit<Undefaulted<ProfileConfig>, "plugins" | "pluginConfig"> & {
  plugins?: CustomPlugins;
  /** Args as written (undefined when absent). */
  pluginConfig?: PluginConfigEntry[];
};

/** A decoded, not yet defaulted v1 KubeSchedulerConfiguration. */
export type V1Configuration = Omit<Undefaulted<KubeSchedulerConfiguration>, "profiles"> & {
  profiles?: V1Profile[];
};

/** Errors before field paths exist (YAML syntax, apiVersion, kind): already-rendered lines. */
export class DocumentError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join("\n"));
    this.name = "DocumentError";
  }
}

/** The first line of a YAML error; the stack overflow of the YAML library's recursion said plainly. */
function yamlMessage(message: string): string {
  return message.replace(
    /^Maximum call stack size exceeded/,
    "nested too deeply (JSON text may nest deeper)",
  );
}

/**
 * Parses YAML (or JSON) text into one JSON value; syntax errors carry line and column. Text that
 * is JSON is read as JSON (at any depth); a field given twice is an error in either, as upstream's
 * strict decoding has it.
 */
export function parseDocumentText(text: string): unknown {
  if (/^\s*[[{]/.test(text)) {
    let json: DecodedJSON | undefined;
    try {
      json = decodeJSON(text);
    } catch {
      // YAML flow style (`{kind: X}`) is not JSON: read below as YAML.
    }
    if (json) {
      if (json.duplicateFields.length > 0) {
        throw new DocumentError(json.duplicateFields.map((p) => `${formatJSONPath(p)}: duplicate field`));
      }
      return shallow(json.value, json.depth);
    }
  }
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true });
  const errors: string[] = [];
  const list = Array.isArray(docs) ? docs : [];
  for (const doc of list) {
    for (const e of doc.errors) {
      const pos = e.linePos?.[0];
      const msg = yamlMessage(e.message.split(" at line ")[0] ?? e.message);
      errors.push(pos ? `yaml: line ${pos.line}, column ${pos.col}: ${msg}` : `yaml: ${msg}`);
    }
  }
  if (errors.length > 0) throw new DocumentError(errors);
  if (list.length > 1) {
    throw new DocumentError([
      `yaml: the file holds ${list.length} documents: a KubeSchedulerConfiguration file holds exactly one`,
    ]);
  }
  let value: unknown;
  try {
    value = list[0]?.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // "Excessive alias count indicates a resource exhaustion attack" (a billion laughs), or a
    // value nested deeper than the YAML library's recursion reaches.
    throw new DocumentError([`yaml: ${yamlMessage((e as Error).message)}`]);
  }
  if (value === undefined || value === null) {
    throw new DocumentError(["the configuration is empty: expected a KubeSchedulerConfiguration object"]);
  }
  return shallow(value, jsonDepth(value));
}

/**
 * How deep a configuration may nest. The deepest field of a KubeSchedulerConfiguration (a
 * plugin's args: pod affinity terms in InterPodAffinityArgs and the like) is about 15 levels
 * down; the decoder recurses, so a deeper value (only ever wrong) is refused before it.
 */
const maxConfigDepth = 100;

/** `value` when it nests at most maxConfigDepth levels, else a DocumentError saying so. */
function shallow(value: unknown, depth: number): unknown {
  if (depth <= maxConfigDepth) return value;
  throw new DocumentError([
    `the configuration nests ${depth} levels deep: no field of a KubeSchedulerConfiguration is deeper than ${maxConfigDepth}`,
  ]);
}

/**
 * Checks apiVersion and kind, then strictly decodes the rest. Throws DocumentError when the
 * object is not a v1 KubeSchedulerConfiguration; field errors are appended to `errors`.
 */
export function decodeConfiguration(raw: unknown, errors: FieldError[]): V1Configuration {
  if (!isPlainObject(raw)) {
    const got = Array.isArray(raw) ? "a list" : `a ${typeof raw}`;
    throw new DocumentError([`the configuration must be a KubeSchedulerConfiguration object, got ${got}`]);
  }
  const head: string[] = [];
  const apiVersion = raw.apiVersion;
  if (apiVersion === undefined || apiVersion === null || apiVersion === "") {
    head.push(`apiVersion: Required value: use ${APIVersion}`);
  } else if (apiVersion !== APIVersion) {
    const shown = typeof apiVersion === "string" ? apiVersion : JSON.stringify(apiVersion);
    head.push(`apiVersion "${shown}" is not supported: use ${APIVersion}`);
  }
  const kind = raw.kind;
  if (kind === undefined || kind === null || kind === "") {
    head.push(`kind: Required value: use ${Kind}`);
  } else if (kind !== Kind) {
    const shown = typeof kind === "string" ? kind : JSON.stringify(kind);
    head.push(`kind "${shown}" is not supported: use ${Kind} (group ${GroupName})`);
  }
  if (head.length > 0) throw new DocumentError(head);
  // The declaration's Plugin and PluginConfig entries drop an entry without a name (an error), so
  // every decoded entry has one.
  return (configuration.decode(raw, "", errors) ?? {}) as V1Configuration;
}
