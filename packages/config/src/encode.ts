// The v1 JSON form of a configuration, as kube-scheduler's --write-config-to writes it: durations
// as Go strings, plugin args with apiVersion/kind, keys sorted in YAML.
import type { Registry } from "@kubesched/framework";
import { stringify } from "yaml";
import { pluginSetNames } from "./default-plugins";
import { formatDuration } from "./duration";
import { isPlainObject } from "./object-decoder";
import type { PluginEntry, PluginSet, Plugins, ProfileConfig } from "./profile-types";
import { APIVersion, type Extender, type KubeSchedulerConfiguration } from "./types";

type Json = Record<string, unknown>;

function encodeEntry(p: PluginEntry): Json {
  return p.weight === undefined ? { name: p.name } : { name: p.name, weight: p.weight };
}

function encodePluginSet(set: PluginSet): Json {
  const out: Json = {};
  if (set.enabled.length > 0) out.enabled = set.enabled.map(encodeEntry);
  if (set.disabled.length > 0) out.disabled = set.disabled.map(encodeEntry);
  return out;
}

function encodePlugins(plugins: Plugins): Json {
  const out: Json = {};
  for (const point of pluginSetNames) out[point] = encodePluginSet(plugins[point]);
  return out;
}

function encodeArgs(name: string, args: unknown, registry: Registry | undefined): unknown {
  const spec = registry?.get(name)?.args;
  if (!spec) return args;
  const body = spec.encode ? spec.encode(args) : isPlainObject(args) ? args : {};
  return { apiVersion: APIVersion, kind: spec.kind, ...body };
}

function encodeProfile(p: ProfileConfig, registry: Registry | undefined): Json {
  const out: Json = { schedulerName: p.schedulerName };
  if (p.percentageOfNodesToScore !== undefined && p.percentageOfNodesToScore !== null) {
    out.percentageOfNodesToScore = p.percentageOfNodesToScore;
  }
  out.plugins = encodePlugins(p.plugins);
  out.pluginConfig = p.pluginConfig.map((c) => {
    const args = encodeArgs(c.name, c.args, registry);
    return args === undefined ? { name: c.name } : { name: c.name, args };
  });
  return out;
}

function encodeExtender(e: Extender): Json {
  // Go omitempty: empty strings, false and 0 are left out; urlPrefix and httpTimeout are not.
  const out: Json = { urlPrefix: e.urlPrefix };
  if (e.filterVerb) out.filterVerb = e.filterVerb;
  if (e.preemptVerb) out.preemptVerb = e.preemptVerb;
  if (e.prioritizeVerb) out.prioritizeVerb = e.prioritizeVerb;
  if (e.weight) out.weight = e.weight;
  if (e.bindVerb) out.bindVerb = e.bindVerb;
  if (e.enableHTTPS) out.enableHTTPS = true;
  if (e.tlsConfig) out.tlsConfig = { ...e.tlsConfig };
  out.httpTimeout = formatDuration(e.httpTimeout);
  if (e.nodeCacheCapable) out.nodeCacheCapable = true;
  if (e.managedResources.length > 0) {
    out.managedResources = e.managedResources.map((r) =>
      r.ignoredByScheduler ? { name: r.name, ignoredByScheduler: true } : { name: r.name },
    );
  }
  if (e.ignorable) out.ignorable = true;
  return out;
}

/**
 * Renders a configuration back to kubescheduler.config.k8s.io/v1 JSON. With a registry, plugin
 * args are encoded by their spec (`encode`, else as-is) and carry apiVersion/kind; args of
 * plugins the registry does not know are written as they are.
 */
export function encodeConfig(cfg: KubeSchedulerConfiguration, registry?: Registry): Record<string, unknown> {
  const le = cfg.leaderElection;
  const out: Json = {
    apiVersion: cfg.apiVersion,
    kind: cfg.kind,
    parallelism: cfg.parallelism,
    leaderElection: {
      leaderElect: le.leaderElect,
      leaseDuration: formatDuration(le.leaseDuration),
      renewDeadline: formatDuration(le.renewDeadline),
      retryPeriod: formatDuration(le.retryPeriod),
      resourceLock: le.resourceLock,
      resourceName: le.resourceName,
      resourceNamespace: le.resourceNamespace,
    },
    clientConnection: { ...cfg.clientConnection },
    enableProfiling: cfg.enableProfiling,
    enableContentionProfiling: cfg.enableContentionProfiling,
    percentageOfNodesToScore: cfg.percentageOfNodesToScore,
    podInitialBackoffSeconds: cfg.podInitialBackoffSeconds,
    podMaxBackoffSeconds: cfg.podMaxBackoffSeconds,
    profiles: cfg.profiles.map((p) => encodeProfile(p, registry)),
  };
  if (cfg.extenders.length > 0) out.extenders = cfg.extenders.map(encodeExtender);
  if (cfg.delayCacheUntilActive) out.delayCacheUntilActive = true;
  return out;
}

/** YAML of encodeConfig, keys sorted as upstream's encoder writes them. */
export function configToYAML(cfg: KubeSchedulerConfiguration, registry?: Registry): string {
  return stringify(encodeConfig(cfg, registry), { sortMapEntries: true, lineWidth: 0, indentSeq: false });
}
