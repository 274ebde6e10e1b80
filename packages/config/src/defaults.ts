// upstream: pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_KubeSchedulerConfiguration,
// setDefaults_KubeSchedulerProfile) and component-base RecommendedDefaultLeaderElectionConfiguration.
// Plugin args are decoded and defaulted by each plugin's own args spec from the registry.
import {
  defaultFeatures,
  type Features,
  type FieldError,
  fieldErrors,
  type Registry,
} from "@kubesched/framework";
import type { V1Configuration, V1Extender, V1PluginConfig, V1Profile } from "./decode";
import { enabledPluginNames, getDefaultPlugins, mergePlugins } from "./default-plugins";
import { isPlainObject } from "./object-decoder";
import type { PluginConfigEntry, ProfileConfig } from "./profile-types";
import {
  APIVersion,
  DefaultExtenderTimeoutMs,
  DefaultPercentageOfNodesToScore,
  DefaultSchedulerName,
  type Extender,
  GroupName,
  Kind,
  type KubeSchedulerConfiguration,
} from "./types";

export interface DefaultingOptions {
  registry: Registry;
  features?: Features | undefined;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/**
 * Decodes one pluginConfig entry's args with the plugin's args spec (upstream
 * PluginConfig.decodeNestedObjects + scheme defaulting). Plugins without a spec, and plugins the
 * registry does not know (out-of-tree pass-through), keep their raw args.
 */
function decodePluginArgs(
  entry: V1PluginConfig,
  path: string,
  opts: DefaultingOptions,
  features: Features,
  errors: FieldError[],
): unknown {
  const spec = opts.registry.get(entry.name)?.args;
  if (!spec) return entry.args;
  let raw = entry.args;
  if (raw !== undefined && !isPlainObject(raw)) {
    errors.push(fieldErrors.invalid(path, raw, `args for plugin ${entry.name} must be an object`));
    return spec.decode(undefined, path, features).args;
  }
  if (isPlainObject(raw)) {
    const { apiVersion, kind, ...rest } = raw;
    if (apiVersion !== undefined || kind !== undefined) {
      const gotKind = typeof kind === "string" ? kind : spec.kind;
      const gotGroup = typeof apiVersion === "string" ? groupOf(apiVersion) : GroupName;
      if (gotKind !== spec.kind || gotGroup !== GroupName) {
        errors.push(
          fieldErrors.invalid(
            path,
            kind ?? apiVersion,
            `args for plugin ${entry.name} were not of type ${spec.kind}.${GroupName}, got ${gotKind}.${gotGroup}`,
          ),
        );
        return spec.decode(undefined, path, features).args;
      }
      if (apiVersion !== undefined && apiVersion !== APIVersion) {
        errors.push(
          fieldErrors.invalid(`${path}.apiVersion`, apiVersion, `args must be ${APIVersion} ${spec.kind}`),
        );
      }
    }
    raw = rest;
  }
  const res = spec.decode(raw, path, features);
  errors.push(...res.errors);
  return res.args;
}

function defaultProfile(
  prof: V1Profile,
  index: number,
  opts: DefaultingOptions,
  features: Features,
  errors: FieldError[],
): ProfileConfig {
  const plugins = mergePlugins(getDefaultPlugins(features), prof.plugins);
  const pluginConfig: PluginConfigEntry[] = [];
  const configured = new Set<string>();
  (prof.pluginConfig ?? []).forEach((entry, j) => {
    configured.add(entry.name);
    const path = `profiles[${index}].pluginConfig[${j}].args`;
    pluginConfig.push({ name: entry.name, args: decodePluginArgs(entry, path, opts, features, errors) });
  });
  // Append defaulted args for every enabled plugin with an args kind and no explicit entry.
  for (const name of enabledPluginNames(plugins)) {
    if (configured.has(name)) continue;
    const spec = opts.registry.get(name)?.args;
    if (!spec) continue;
    const path = `profiles[${index}].pluginConfig[${pluginConfig.length}].args`;
    const res = spec.decode(undefined, path, features);
    errors.push(...res.errors);
    pluginConfig.push({ name, args: res.args });
  }
  const out: ProfileConfig = { schedulerName: prof.schedulerName ?? "", plugins, pluginConfig };
  if (prof.percentageOfNodesToScore !== undefined)
    out.percentageOfNodesToScore = prof.percentageOfNodesToScore;
  return out;
}

function defaultExtender(e: V1Extender): Extender {
  const out: Extender = {
    urlPrefix: e.urlPrefix ?? "",
    filterVerb: e.filterVerb ?? "",
    preemptVerb: e.preemptVerb ?? "",
    prioritizeVerb: e.prioritizeVerb ?? "",
    weight: e.weight ?? 0,
    bindVerb: e.bindVerb ?? "",
    enableHTTPS: e.enableHTTPS ?? false,
    httpTimeout: e.httpTimeout ? e.httpTimeout : DefaultExtenderTimeoutMs,
    nodeCacheCapable: e.nodeCacheCapable ?? false,
    managedResources: e.managedResources ?? [],
    ignorable: e.ignorable ?? false,
  };
  if (e.tlsConfig) out.tlsConfig = e.tlsConfig;
  return out;
}

/**
 * Applies upstream's v1 defaults. Errors from decoding plugin args are appended to `errors`.
 */
export function setDefaults(
  v1: V1Configuration,
  opts: DefaultingOptions,
  errors: FieldError[] = [],
): KubeSchedulerConfiguration {
  const features = opts.features ?? defaultFeatures;
  let profiles = v1.profiles ?? [];
  if (profiles.length === 0) profiles = [{}];
  // Only a single profile gets the default scheduler name; validation rejects empty names.
  if (profiles.length === 1 && profiles[0]?.schedulerName === undefined) {
    profiles = [{ ...profiles[0], schedulerName: DefaultSchedulerName }];
  }
  const le = v1.leaderElection ?? {};
  const cc = v1.clientConnection ?? {};
  const enableProfiling = v1.enableProfiling ?? true;
  return {
    apiVersion: APIVersion,
    kind: Kind,
    parallelism: v1.parallelism ?? 16,
    percentageOfNodesToScore: v1.percentageOfNodesToScore ?? DefaultPercentageOfNodesToScore,
    podInitialBackoffSeconds: v1.podInitialBackoffSeconds ?? 1,
    podMaxBackoffSeconds: v1.podMaxBackoffSeconds ?? 10,
    leaderElection: {
      leaderElect: le.leaderElect ?? true,
      // Zero means unset, as with Go's zero-valued metav1.Duration.
      leaseDuration: le.leaseDuration || 15_000,
      renewDeadline: le.renewDeadline || 10_000,
      retryPeriod: le.retryPeriod || 2_000,
      resourceLock: le.resourceLock || "leases",
      resourceName: le.resourceName || "kube-scheduler",
      resourceNamespace: le.resourceNamespace || "kube-system",
    },
    clientConnection: {
      kubeconfig: cc.kubeconfig ?? "",
      acceptContentTypes: cc.acceptContentTypes ?? "",
      contentType: cc.contentType || "application/vnd.kubernetes.protobuf",
      qps: cc.qps || 50,
      burst: cc.burst || 100,
    },
    enableProfiling,
    // Contention profiling defaults to on only when profiling is on.
    enableContentionProfiling: v1.enableContentionProfiling ?? enableProfiling,
    delayCacheUntilActive: v1.delayCacheUntilActive ?? false,
    profiles: profiles.map((p, i) => defaultProfile(p, i, opts, features, errors)),
    extenders: (v1.extenders ?? []).map(defaultExtender),
  };
}
