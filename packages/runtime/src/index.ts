// @kubesched/runtime — the framework runtime (upstream pkg/scheduler/framework/runtime).
export {
  ExtenderName,
  type ExtensionPointName,
  Framework,
  type FrameworkHooks,
  type FrameworkOptions,
  type FrameworkTracer,
  MaxPermitTimeoutMs,
  newFramework,
  type PluginEvents,
  type PreFilterOutput,
  type ScoreOutput,
} from "./framework";
export { chunkSizeFor, DefaultParallelism, Parallelizer } from "./parallelize";
export { newProfileMap, type ProfileMap, type ProfileMapOptions } from "./profile-map";
export { createRegistry, mergeRegistries } from "./registry";
export { WaitingPodImpl, WaitingPodsMap } from "./waiting-pods-map";
