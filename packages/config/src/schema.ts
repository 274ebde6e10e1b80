// JSON Schema of kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration, for editors
// (e.g. `# yaml-language-server: $schema=...`). Plugin names and args schemas come from the
// registry when one is given.
import type { Registry } from "@kubesched/framework";
import { pluginSetNames } from "./default-plugins";
import { APIVersion, Kind } from "./types";

type Schema = Record<string, unknown>;

const duration: Schema = {
  type: "string",
  description: 'A Go duration, e.g. "15s", "1m30s", "500ms".',
  pattern: "^[-+]?(0|((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+)$",
};

const int32: Schema = { type: "integer", minimum: -2147483648, maximum: 2147483647 };

function object(properties: Record<string, Schema>, extra: Schema = {}): Schema {
  return { type: "object", properties, additionalProperties: false, ...extra };
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
  const names = registry ? [...registry.keys()].sort() : [];
  const pluginName: Schema = names.length > 0 ? { type: "string", enum: names } : { type: "string" };
  const plugin = object({ name: pluginName, weight: int32 }, { required: ["name"] });
  const disabledPlugin = object(
    {
      name: names.length > 0 ? { type: "string", enum: ["*", ...names] } : { type: "string" },
      weight: int32,
    },
    { required: ["name"] },
  );
  const pluginSet = object({
    enabled: { type: "array", items: { $ref: "#/$defs/Plugin" } },
    disabled: { type: "array", items: { $ref: "#/$defs/DisabledPlugin" } },
  });
  const plugins = object(Object.fromEntries(pluginSetNames.map((p) => [p, { $ref: "#/$defs/PluginSet" }])));
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
  const pluginConfig = object(
    { name: pluginName, args: { type: ["object", "null"] } },
    argsRules.length > 0 ? { required: ["name"], allOf: argsRules } : { required: ["name"] },
  );
  const percentage = { type: "integer", minimum: 0, maximum: 100 };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://kubesched.dev/schemas/kubescheduler.config.k8s.io/v1/KubeSchedulerConfiguration.json",
    title: "KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)",
    type: "object",
    required: ["apiVersion", "kind"],
    additionalProperties: false,
    properties: {
      apiVersion: { const: APIVersion },
      kind: { const: Kind },
      parallelism: { type: "integer", minimum: 1, maximum: 2147483647, default: 16 },
      percentageOfNodesToScore: { ...percentage, default: 0 },
      podInitialBackoffSeconds: { type: "integer", minimum: 1, default: 1 },
      podMaxBackoffSeconds: { type: "integer", minimum: 1, default: 10 },
      enableProfiling: { type: "boolean", default: true },
      enableContentionProfiling: { type: "boolean", default: true },
      delayCacheUntilActive: { type: "boolean", default: false },
      leaderElection: object({
        leaderElect: { type: "boolean", default: true },
        leaseDuration: { ...duration, default: "15s" },
        renewDeadline: { ...duration, default: "10s" },
        retryPeriod: { ...duration, default: "2s" },
        resourceLock: { type: "string", enum: ["leases"], default: "leases" },
        resourceName: { type: "string", default: "kube-scheduler" },
        resourceNamespace: { type: "string", default: "kube-system" },
      }),
      clientConnection: object({
        kubeconfig: { type: "string" },
        acceptContentTypes: { type: "string" },
        contentType: { type: "string", default: "application/vnd.kubernetes.protobuf" },
        qps: { type: "number", default: 50 },
        burst: { type: "integer", minimum: 0, default: 100 },
      }),
      profiles: { type: "array", items: { $ref: "#/$defs/KubeSchedulerProfile" } },
      extenders: { type: "array", items: { $ref: "#/$defs/Extender" } },
    },
    $defs: {
      Plugin: plugin,
      DisabledPlugin: disabledPlugin,
      PluginSet: pluginSet,
      Plugins: plugins,
      PluginConfig: pluginConfig,
      KubeSchedulerProfile: object({
        schedulerName: { type: "string", minLength: 1 },
        percentageOfNodesToScore: percentage,
        plugins: { $ref: "#/$defs/Plugins" },
        pluginConfig: { type: "array", items: { $ref: "#/$defs/PluginConfig" } },
      }),
      Extender: object(
        {
          urlPrefix: { type: "string" },
          filterVerb: { type: "string" },
          preemptVerb: { type: "string" },
          prioritizeVerb: { type: "string" },
          weight: { type: "integer" },
          bindVerb: { type: "string" },
          enableHTTPS: { type: "boolean" },
          tlsConfig: object({
            insecure: { type: "boolean" },
            serverName: { type: "string" },
            certFile: { type: "string" },
            keyFile: { type: "string" },
            caFile: { type: "string" },
            certData: { type: "string", contentEncoding: "base64" },
            keyData: { type: "string", contentEncoding: "base64" },
            caData: { type: "string", contentEncoding: "base64" },
          }),
          httpTimeout: { ...duration, default: "5s" },
          nodeCacheCapable: { type: "boolean" },
          managedResources: {
            type: "array",
            items: object(
              { name: { type: "string" }, ignoredByScheduler: { type: "boolean" } },
              { required: ["name"] },
            ),
          },
          ignorable: { type: "boolean" },
        },
        { required: ["urlPrefix"] },
      ),
    },
  };
}

/** The schema without registry knowledge (any plugin name, args as free objects). */
export const configJSONSchema: Record<string, unknown> = buildConfigJSONSchema();
