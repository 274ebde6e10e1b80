export {
  defaultPlugins,
  emptyPluginSet,
  emptyPlugins,
  enabledPluginNames,
  getDefaultPlugins,
  mergePluginSet,
  mergePlugins,
  type PluginSetName,
  pluginSetNames,
} from "./default-plugins";
export { formatDuration, parseDuration } from "./duration";
export { configToYAML, encodeConfig } from "./encode";
export { ConfigError, defaultConfig, type LoadOptions, loadConfig, loadConfigFile } from "./load";
export type {
  PluginConfigEntry,
  PluginEntry,
  PluginSet,
  Plugins,
  ProfileConfig,
} from "./profile-types";
export { buildConfigJSONSchema, configJSONSchema } from "./schema";
export {
  APIVersion,
  type ClientConnectionConfiguration,
  DefaultExtenderTimeoutMs,
  DefaultPercentageOfNodesToScore,
  DefaultSchedulerName,
  type Extender,
  type ExtenderManagedResource,
  type ExtenderTLSConfig,
  GroupName,
  Kind,
  type KubeSchedulerConfiguration,
  type LeaderElectionConfiguration,
  MaxCustomPriorityScore,
  MaxTotalScore,
  MaxWeight,
} from "./types";
export { removedPlugins, validateConfig } from "./validation";
