// upstream: pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_KubeSchedulerConfiguration,
// setDefaults_KubeSchedulerProfile) and component-base RecommendedDefaultLeaderElectionConfiguration.
// The field defaults are the declaration's (types.ts); this file holds what it cannot state: the
// default profile, the default plugins merged per profile, plugin args (decoded and defaulted by
// each plugin's own args spec from the registry) and contention profiling following profiling.
import {
  defaultFeatures,
  type Features,
  type FieldError,
  fieldErrors,
  type Registry,
} from "@kubesched/framework";
import { isPlainObject, type V1Configuration, type V1Profile } from "./decode";
import { enabledPluginNames, getDefaultPlugins, mergePlugins } from "./default-plugins";
import {
  APIVersion,
  configuration,
  DefaultSchedulerName,
  GroupName,
  type KubeSchedulerConfiguration,
  type PluginConfigEntry,
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
  entry: PluginConfigEntry,
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
): V1Profile {
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
  return { ...prof, plugins, pluginConfig };
}

/**
 * Applies upstream's v1 defaults (SetDefaults_KubeSchedulerConfiguration): the profiles, their
 * plugins and plugin args here (they need the release's feature gates and the registry), every
 * other field from the declaration. Errors from decoding plugin args are appended to `errors`.
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
  return configuration.withDefaults(
    {
      ...v1,
      // Contention profiling defaults to on only when profiling is on.
      ...(v1.enableProfiling === false && v1.enableContentionProfiling === undefined
        ? { enableContentionProfiling: false }
        : {}),
      profiles: profiles.map((p, i) => defaultProfile(p, i, opts, features, errors)),
    },
    features,
  );
}
