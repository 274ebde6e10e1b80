// @kubesched/cache — the scheduler cache (upstream pkg/scheduler/backend/cache).
export { Cache, CacheCorruptionError, type CacheDump, type CacheOptions } from "./cache";
export { getZoneKey } from "./node-tree";
export { newSnapshot, nodeColumnsOf, Snapshot } from "./snapshot";
