export {
  defaultPlugins,
  emptyPluginSet,
  emptyPlugins,
  enabledPluginNames,
  getDefaultPlugins,
  mergePluginSet,
  mergePlugins,
} from "./default-plugins";
export { formatDuration, parseDuration } from "./duration";
export { configToYAML, encodeConfig } from "./encode";
export {
  emulatedReleaseOf,
  FeatureGateError,
  type FeatureGateSettings,
  type FeatureSpec,
  featureGateDependencies,
  featureGateEnabled,
  featureGateOfField,
  featureGateSpec,
  featureGateWarnings,
  featuresAt,
  featuresOf,
  knownFeatureGates,
  newestRelease,
  type PreRelease,
  parseEmulatedVersion,
  parseFeatureGates,
  type Release,
  supportedReleases,
} from "./feature-gates";
export { ConfigError, defaultConfig, type LoadOptions, loadConfig, loadConfigFile } from "./load";
export { type ReleaseDifference, releaseDifferences } from "./release-differences";
export { releaseInRange } from "./release-range";
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
  type PluginConfigEntry,
  type PluginEntry,
  type PluginSet,
  type PluginSetName,
  type Plugins,
  type ProfileConfig,
  pluginSetNames,
} from "./types";
export { removedPlugins, validateConfig } from "./validation";
