// upstream: pkg/scheduler/apis/config/v1/default_plugins.go (getDefaultPlugins,
// applyFeatureGates, mergePlugins, mergePluginSet).
import type { Features } from "@kubesched/framework";
import { defaultFeatures } from "@kubesched/framework";
import type { CustomPlugins } from "./decode";
import { type PluginEntry, type PluginSet, type Plugins, pluginSetNames } from "./types";

export function emptyPluginSet(): PluginSet {
  return { enabled: [], disabled: [] };
}

export function emptyPlugins(): Plugins {
  return {
    preEnqueue: emptyPluginSet(),
    queueSort: emptyPluginSet(),
    preFilter: emptyPluginSet(),
    filter: emptyPluginSet(),
    postFilter: emptyPluginSet(),
    preScore: emptyPluginSet(),
    score: emptyPluginSet(),
    reserve: emptyPluginSet(),
    permit: emptyPluginSet(),
    preBind: emptyPluginSet(),
    bind: emptyPluginSet(),
    postBind: emptyPluginSet(),
    multiPoint: emptyPluginSet(),
  };
}

function entry(name: string, weight?: number): PluginEntry {
  return weight === undefined ? { name } : { name, weight };
}

/**
 * The default plugins for the given feature gates (upstream getDefaultPlugins at 1.37). Every
 * default lives in multiPoint; the specific extension points are empty.
 */
export function getDefaultPlugins(features: Features = defaultFeatures): Plugins {
  const enabled: PluginEntry[] = [
    entry("SchedulingGates"),
    entry("PrioritySort"),
    entry("NodeUnschedulable"),
    entry("NodeName"),
    entry("TaintToleration", 3),
    entry("NodeAffinity", 2),
    entry("NodePorts"),
    entry("NodeResourcesFit", 1),
    entry("VolumeRestrictions"),
    entry("NodeVolumeLimits"),
    entry("VolumeBinding"),
    entry("VolumeZone"),
    entry("PodTopologySpread", 2),
    entry("InterPodAffinity", 2),
    entry("DefaultPreemption"),
    entry("NodeResourcesBalancedAllocation", 1),
    entry("ImageLocality", 1),
    entry("DefaultBinder"),
  ];
  // applyFeatureGates, in upstream's order.
  if (features.enableNodeDeclaredFeatures) enabled.push(entry("NodeDeclaredFeatures"));
  if (features.enableDynamicResourceAllocation) {
    // Before DefaultPreemption: deallocating an idle ResourceClaim in PostFilter is better than
    // evicting a pod that might be doing useful work.
    const i = enabled.findIndex((p) => p.name === "DefaultPreemption");
    if (i >= 0) enabled.splice(i, 0, entry("DynamicResources", 2));
  }
  const plugins = emptyPlugins();
  plugins.multiPoint.enabled = enabled;
  return plugins;
}

/** upstream getDefaultPlugins() with the default feature gates of Kubernetes 1.37. */
export const defaultPlugins: Plugins = getDefaultPlugins(defaultFeatures);

function clonePluginEntry(p: PluginEntry): PluginEntry {
  return entry(p.name, p.weight);
}

/**
 * upstream mergePluginSet: a custom entry with the name of a default one replaces it in place
 * (so a weight can change without reordering); `"*"` in disabled drops every default; the
 * disabled list (custom first, then default) is kept for MultiPoint expansion; other custom
 * entries are appended in order (duplicates are left for the framework to reject).
 */
export function mergePluginSet(defaults: PluginSet, custom: Partial<PluginSet> | undefined): PluginSet {
  const disabledNames = new Set<string>();
  const disabled: PluginEntry[] = [];
  for (const p of custom?.disabled ?? []) {
    disabled.push({ name: p.name });
    disabledNames.add(p.name);
  }
  for (const p of defaults.disabled) {
    disabled.push({ name: p.name });
    disabledNames.add(p.name);
  }
  const customEnabled = custom?.enabled ?? [];
  // Last occurrence wins, as with upstream's map of name → (index, plugin).
  const byName = new Map<string, { index: number; plugin: PluginEntry }>();
  customEnabled.forEach((plugin, index) => {
    byName.set(plugin.name, { index, plugin });
  });
  const replaced = new Set<number>();
  const enabled: PluginEntry[] = [];
  if (!disabledNames.has("*")) {
    for (const def of defaults.enabled) {
      if (disabledNames.has(def.name)) continue;
      const c = byName.get(def.name);
      if (c) {
        enabled.push(clonePluginEntry(c.plugin));
        replaced.add(c.index);
      } else {
        enabled.push(clonePluginEntry(def));
      }
    }
  }
  customEnabled.forEach((plugin, index) => {
    if (!replaced.has(index)) enabled.push(clonePluginEntry(plugin));
  });
  return { enabled, disabled };
}

/** upstream mergePlugins: merges every extension point; no custom plugins → the defaults. */
export function mergePlugins(defaults: Plugins, custom: CustomPlugins | undefined): Plugins {
  const out = emptyPlugins();
  for (const point of pluginSetNames) {
    out[point] =
      custom === undefined
        ? {
            enabled: defaults[point].enabled.map(clonePluginEntry),
            disabled: defaults[point].disabled.map(clonePluginEntry),
          }
        : mergePluginSet(defaults[point], custom[point]);
  }
  return out;
}

/** Sorted union of the names enabled at any extension point (upstream pluginsNames). */
export function enabledPluginNames(plugins: Plugins): string[] {
  const names = new Set<string>();
  for (const point of pluginSetNames) for (const p of plugins[point].enabled) names.add(p.name);
  return [...names].sort();
}
