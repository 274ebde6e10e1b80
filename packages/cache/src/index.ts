// @kubesched/cache — the scheduler cache (upstream pkg/scheduler/backend/cache).
export { CacheCorruptionError, type CacheOptions, newCache } from "./cache";
export type { Cache, CacheDump } from "./interface";
export { getZoneKey } from "./node-tree";
export { newSnapshot, nodeColumnsOf, Snapshot } from "./snapshot";
