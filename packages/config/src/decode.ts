// upstream: pkg/scheduler/apis/config/scheme (strict decoding of kubescheduler.config.k8s.io/v1)
// and staging/src/k8s.io/kube-scheduler/config/v1/types.go. Reads the v1 document into a
// "not yet defaulted" shape: absent fields stay undefined, every unknown field and wrong type is
// an error with its field path.
import { type FieldError, fieldErrors, fieldPath } from "@kubesched/framework";
import { parseAllDocuments } from "yaml";
import { pluginSetNames } from "./default-plugins";
import { parseDuration } from "./duration";
import { isPlainObject, ObjectDecoder } from "./object-decoder";
import type { PluginEntry, PluginSet, Plugins } from "./profile-types";
import type {
  ClientConnectionConfiguration,
  Extender,
  ExtenderManagedResource,
  ExtenderTLSConfig,
  LeaderElectionConfiguration,
} from "./types";
import { APIVersion, GroupName, Kind } from "./types";

export interface V1PluginConfig {
  name: string;
  /** The raw args as written (undefined when absent). */
  args: unknown;
}

export interface V1Profile {
  schedulerName?: string;
  percentageOfNodesToScore?: number;
  plugins?: Partial<Plugins>;
  pluginConfig?: V1PluginConfig[];
}

export interface V1Extender extends Partial<Omit<Extender, "managedResources">> {
  managedResources?: ExtenderManagedResource[];
}

/** A decoded, not yet defaulted v1 KubeSchedulerConfiguration. */
export interface V1Configuration {
  parallelism?: number;
  leaderElection?: Partial<LeaderElectionConfiguration>;
  clientConnection?: Partial<ClientConnectionConfiguration>;
  enableProfiling?: boolean;
  enableContentionProfiling?: boolean;
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  profiles?: V1Profile[];
  extenders?: V1Extender[];
  delayCacheUntilActive?: boolean;
}

/** Errors before field paths exist (YAML syntax, apiVersion, kind): already-rendered lines. */
export class DocumentError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join("\n"));
    this.name = "DocumentError";
  }
}

/** Parses YAML (or JSON) text into one JSON value; syntax errors carry line and column. */
export function parseDocumentText(text: string): unknown {
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true });
  const errors: string[] = [];
  const list = Array.isArray(docs) ? docs : [];
  for (const doc of list) {
    for (const e of doc.errors) {
      const pos = e.linePos?.[0];
      const msg = e.message.split(" at line ")[0] ?? e.message;
      errors.push(pos ? `yaml: line ${pos.line}, column ${pos.col}: ${msg}` : `yaml: ${msg}`);
    }
  }
  if (errors.length > 0) throw new DocumentError(errors);
  if (list.length > 1) {
    throw new DocumentError([
      `yaml: the file holds ${list.length} documents: a KubeSchedulerConfiguration file holds exactly one`,
    ]);
  }
  const value = list[0]?.toJS({ maxAliasCount: 100 });
  if (value === undefined || value === null) {
    throw new DocumentError(["the configuration is empty: expected a KubeSchedulerConfiguration object"]);
  }
  return value;
}

const int32Max = 2147483647;
const int32Min = -2147483648;

function int32(d: ObjectDecoder, name: string): number | undefined {
  const v = d.int(name);
  if (v !== undefined && (v > int32Max || v < int32Min)) {
    d.errors.push(fieldErrors.invalid(d.child(name), v, "must fit in a 32-bit integer"));
    return undefined;
  }
  return v;
}

function duration(d: ObjectDecoder, name: string): number | undefined {
  const s = d.string(name);
  if (s === undefined) return undefined;
  const ms = parseDuration(s);
  if (ms === undefined) {
    d.errors.push(
      fieldErrors.invalid(d.child(name), s, 'must be a duration such as "15s", "1m30s" or "500ms"'),
    );
  }
  return ms;
}

function setIfDefined<T extends object, K extends keyof T>(obj: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) obj[key] = value;
}

function decodeLeaderElection(d: ObjectDecoder): Partial<LeaderElectionConfiguration> {
  const out: Partial<LeaderElectionConfiguration> = {};
  setIfDefined(out, "leaderElect", d.bool("leaderElect"));
  setIfDefined(out, "leaseDuration", duration(d, "leaseDuration"));
  setIfDefined(out, "renewDeadline", duration(d, "renewDeadline"));
  setIfDefined(out, "retryPeriod", duration(d, "retryPeriod"));
  setIfDefined(out, "resourceLock", d.string("resourceLock"));
  setIfDefined(out, "resourceName", d.string("resourceName"));
  setIfDefined(out, "resourceNamespace", d.string("resourceNamespace"));
  return out;
}

function decodeClientConnection(d: ObjectDecoder): Partial<ClientConnectionConfiguration> {
  const out: Partial<ClientConnectionConfiguration> = {};
  setIfDefined(out, "kubeconfig", d.string("kubeconfig"));
  setIfDefined(out, "acceptContentTypes", d.string("acceptContentTypes"));
  setIfDefined(out, "contentType", d.string("contentType"));
  setIfDefined(out, "qps", d.number("qps"));
  setIfDefined(out, "burst", int32(d, "burst"));
  return out;
}

function decodePluginEntry(v: unknown, path: string, errors: FieldError[]): PluginEntry | undefined {
  const d = ObjectDecoder.of(v, path, errors);
  const name = d.string("name");
  const weight = int32(d, "weight");
  d.finish();
  if (name === undefined) {
    if (isPlainObject(v)) errors.push(fieldErrors.required(fieldPath.child(path, "name")));
    return undefined;
  }
  return weight === undefined ? { name } : { name, weight };
}

function decodePluginSet(d: ObjectDecoder): Partial<PluginSet> {
  const out: Partial<PluginSet> = {};
  const errors = d.errors;
  setIfDefined(
    out,
    "enabled",
    d.array("enabled", (v, p) => decodePluginEntry(v, p, errors)),
  );
  setIfDefined(
    out,
    "disabled",
    d.array("disabled", (v, p) => decodePluginEntry(v, p, errors)),
  );
  return out;
}

/** Workload-aware scheduling points (1.36+, alpha/beta-off in 1.37) that kubesched does not run. */
const unsupportedPluginSets = ["placementGenerate", "placementScore", "podGroupPostFilter"] as const;

function decodePlugins(d: ObjectDecoder): Partial<Plugins> {
  const out: Partial<Plugins> = {};
  for (const point of pluginSetNames) {
    const set = d.object(point, decodePluginSet);
    if (set !== undefined) out[point] = { enabled: set.enabled ?? [], disabled: set.disabled ?? [] };
  }
  for (const point of unsupportedPluginSets) {
    const set = d.object(point, decodePluginSet);
    if (set?.enabled && set.enabled.length > 0) {
      d.errors.push(
        fieldErrors.forbidden(
          d.child(point),
          "workload-aware scheduling extension points are not supported by kubesched",
        ),
      );
    }
  }
  return out;
}

function decodePluginConfig(v: unknown, path: string, errors: FieldError[]): V1PluginConfig | undefined {
  const d = ObjectDecoder.of(v, path, errors);
  const name = d.string("name");
  const args = d.raw("args");
  d.finish();
  if (name === undefined) {
    if (isPlainObject(v)) errors.push(fieldErrors.required(fieldPath.child(path, "name")));
    return undefined;
  }
  return { name, args: args === null ? undefined : args };
}

function decodeProfile(v: unknown, path: string, errors: FieldError[]): V1Profile {
  const d = ObjectDecoder.of(v, path, errors);
  const out: V1Profile = {};
  setIfDefined(out, "schedulerName", d.string("schedulerName"));
  setIfDefined(out, "percentageOfNodesToScore", int32(d, "percentageOfNodesToScore"));
  setIfDefined(out, "plugins", d.object("plugins", decodePlugins));
  setIfDefined(
    out,
    "pluginConfig",
    d.array("pluginConfig", (e, p) => decodePluginConfig(e, p, errors)),
  );
  d.finish();
  return out;
}

function decodeTLSConfig(d: ObjectDecoder): ExtenderTLSConfig {
  const out: ExtenderTLSConfig = {};
  setIfDefined(out, "insecure", d.bool("insecure"));
  for (const k of ["serverName", "certFile", "keyFile", "caFile", "certData", "keyData", "caData"] as const) {
    setIfDefined(out, k, d.string(k));
  }
  return out;
}

function decodeManagedResource(v: unknown, path: string, errors: FieldError[]): ExtenderManagedResource {
  const d = ObjectDecoder.of(v, path, errors);
  const name = d.string("name") ?? "";
  const ignoredByScheduler = d.bool("ignoredByScheduler") ?? false;
  d.finish();
  return { name, ignoredByScheduler };
}

function decodeExtender(v: unknown, path: string, errors: FieldError[]): V1Extender {
  const d = ObjectDecoder.of(v, path, errors);
  const out: V1Extender = {};
  for (const k of ["urlPrefix", "filterVerb", "preemptVerb", "prioritizeVerb", "bindVerb"] as const) {
    setIfDefined(out, k, d.string(k));
  }
  setIfDefined(out, "weight", d.int("weight"));
  setIfDefined(out, "enableHTTPS", d.bool("enableHTTPS"));
  setIfDefined(out, "tlsConfig", d.object("tlsConfig", decodeTLSConfig));
  setIfDefined(out, "httpTimeout", duration(d, "httpTimeout"));
  setIfDefined(out, "nodeCacheCapable", d.bool("nodeCacheCapable"));
  setIfDefined(
    out,
    "managedResources",
    d.array("managedResources", (e, p) => decodeManagedResource(e, p, errors)),
  );
  setIfDefined(out, "ignorable", d.bool("ignorable"));
  d.finish();
  return out;
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

  const d = new ObjectDecoder(raw, "", errors, ["apiVersion", "kind"]);
  const out: V1Configuration = {};
  setIfDefined(out, "parallelism", int32(d, "parallelism"));
  setIfDefined(out, "leaderElection", d.object("leaderElection", decodeLeaderElection));
  setIfDefined(out, "clientConnection", d.object("clientConnection", decodeClientConnection));
  setIfDefined(out, "enableProfiling", d.bool("enableProfiling"));
  setIfDefined(out, "enableContentionProfiling", d.bool("enableContentionProfiling"));
  setIfDefined(out, "percentageOfNodesToScore", int32(d, "percentageOfNodesToScore"));
  setIfDefined(out, "podInitialBackoffSeconds", d.int("podInitialBackoffSeconds"));
  setIfDefined(out, "podMaxBackoffSeconds", d.int("podMaxBackoffSeconds"));
  setIfDefined(
    out,
    "profiles",
    d.array("profiles", (v, p) => decodeProfile(v, p, errors)),
  );
  setIfDefined(
    out,
    "extenders",
    d.array("extenders", (v, p) => decodeExtender(v, p, errors)),
  );
  setIfDefined(out, "delayCacheUntilActive", d.bool("delayCacheUntilActive"));
  d.finish();
  return out;
}
