// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types.go (KubeSchedulerProfile, Plugins,
// PluginSet, Plugin, PluginConfig): the v1 profile shapes the runtime
// (@kubesched/runtime) builds a framework from; this package decodes, defaults and validates them.

export interface PluginEntry {
  name: string;
  /** Only meaningful for Score plugins. */
  weight?: number;
}

export interface PluginSet {
  enabled: PluginEntry[];
  disabled: PluginEntry[];
}

export interface Plugins {
  preEnqueue: PluginSet;
  queueSort: PluginSet;
  preFilter: PluginSet;
  filter: PluginSet;
  postFilter: PluginSet;
  preScore: PluginSet;
  score: PluginSet;
  reserve: PluginSet;
  permit: PluginSet;
  preBind: PluginSet;
  bind: PluginSet;
  postBind: PluginSet;
  multiPoint: PluginSet;
}

/** A pluginConfig entry whose args are already decoded and defaulted. */
export interface PluginConfigEntry {
  name: string;
  args: unknown;
}

export interface ProfileConfig {
  schedulerName: string;
  percentageOfNodesToScore?: number | null;
  plugins: Plugins;
  pluginConfig: PluginConfigEntry[];
}
