// The v1 JSON form of a configuration, as kube-scheduler's --write-config-to writes it, from the
// one declaration (types.ts): durations as Go strings, Go's omitempty fields left out when zero,
// plugin args with apiVersion/kind, keys sorted in YAML.
import type { Registry } from "@kubesched/framework";
import { stringify } from "yaml";
import { isPlainObject, type JsonObject } from "./decode";
import { APIVersion, configuration, type KubeSchedulerConfiguration, type PluginConfigEntry } from "./types";

/** A pluginConfig entry's args: the plugin's args spec encodes them and names their kind. */
function encodeArgs(entry: PluginConfigEntry, encoded: unknown, registry: Registry | undefined): unknown {
  const spec = registry?.get(entry.name)?.args;
  if (!spec) return encoded;
  const body = spec.encode ? spec.encode(entry.args) : isPlainObject(entry.args) ? entry.args : {};
  return { apiVersion: APIVersion, kind: spec.kind, ...body };
}

/**
 * Renders a configuration back to kubescheduler.config.k8s.io/v1 JSON. With a registry, plugin
 * args are encoded by their spec (`encode`, else as-is) and carry apiVersion/kind; args of
 * plugins the registry does not know are written as they are.
 */
export function encodeConfig(cfg: KubeSchedulerConfiguration, registry?: Registry): Record<string, unknown> {
  const out = configuration.encode(cfg) as JsonObject;
  const profiles = out.profiles as { pluginConfig: JsonObject[] }[];
  cfg.profiles.forEach((p, i) => {
    profiles[i]!.pluginConfig.forEach((entry, j) => {
      const args = encodeArgs(p.pluginConfig[j]!, entry.args, registry);
      if (args !== undefined) entry.args = args;
    });
  });
  return out;
}

/** YAML of encodeConfig, keys sorted as upstream's encoder writes them. */
export function configToYAML(cfg: KubeSchedulerConfiguration, registry?: Registry): string {
  return stringify(encodeConfig(cfg, registry), {
    sortMapEntries: true,
    lineWidth: 0,
    indentSeq: false,
    aliasDuplicateObjects: false,
  });
}
