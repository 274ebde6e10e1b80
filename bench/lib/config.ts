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
import { extendedResourceScoringConfig } from "./dra-extendedresource";

export interface BenchConfig {
  config: KubeSchedulerConfiguration;
  registry: Registry;
  /** Default plugins left out because the registry does not have them yet. */
  missingPlugins: string[];
}

/**
 * upstream test/integration/scheduler_perf/batching/scheduler-config-no-topology.yaml: the default
 * profile without default topology spread (pods are then signed: opportunistic batching applies).
 */
const noTopology = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints: []
`;

/** A workload's own scheduler configuration (upstream's schedulerConfigPath). */
export type WorkloadProfile = "no-topology" | "dra-extended-resource-scoring";

/**
 * Upstream's default profile, the configuration in `file` (to run a workload with another
 * profile), or the workload's own (`profile`).
 */
export function benchConfig(
  file?: string,
  registry: Registry = inTreeRegistry,
  profile?: WorkloadProfile,
): BenchConfig {
  if (file) return { config: loadConfigFile(file, { registry }), registry, missingPlugins: [] };
  if (profile === "no-topology")
    return { config: loadConfig(noTopology, { registry }), registry, missingPlugins: [] };
  if (profile === "dra-extended-resource-scoring")
    return { config: loadConfig(extendedResourceScoringConfig, { registry }), registry, missingPlugins: [] };
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
