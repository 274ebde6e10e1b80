// The scheduler configuration the benchmarks run with: upstream's default profile. While some
// default plugins are not in the in-tree registry yet, they are disabled in multiPoint (and
// listed, so the table can say so); once every default is registered this is exactly
// defaultConfig({ registry: inTreeRegistry }).
import {
  defaultConfig,
  type KubeSchedulerConfiguration,
  loadConfig,
  loadConfigFile,
} from "@kubesched/config";
import type { Registry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";

export interface BenchConfig {
  config: KubeSchedulerConfiguration;
  registry: Registry;
  /** Default plugins left out because the registry does not have them yet. */
  missingPlugins: string[];
}

/** Upstream's default profile, or the configuration in `file` (to run a workload with another profile). */
export function benchConfig(file?: string, registry: Registry = inTreeRegistry): BenchConfig {
  if (file) return { config: loadConfigFile(file, { registry }), registry, missingPlugins: [] };
  const defaults = defaultConfig({ registry });
  const wanted = defaults.profiles[0]?.plugins.multiPoint.enabled.map((e) => e.name) ?? [];
  const missingPlugins = wanted.filter((n) => registry.get(n) === undefined);
  if (missingPlugins.length === 0) return { config: defaults, registry, missingPlugins };
  const text = JSON.stringify({
    apiVersion: "kubescheduler.config.k8s.io/v1",
    kind: "KubeSchedulerConfiguration",
    profiles: [
      {
        schedulerName: "default-scheduler",
        plugins: { multiPoint: { disabled: missingPlugins.map((name) => ({ name })) } },
      },
    ],
  });
  return { config: loadConfig(text, { registry }), registry, missingPlugins };
}
