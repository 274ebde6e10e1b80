// upstream: pkg/scheduler/framework/runtime/registry.go
import { type PluginDescriptor, type Registry, registryOf } from "@kubesched/framework";

/** Builds a registry from descriptors; a repeated name is an error, as upstream's Register. */
export function createRegistry(descriptors: readonly PluginDescriptor[]): Map<string, PluginDescriptor> {
  return registryOf(...descriptors);
}

/**
 * A new registry with the plugins of `a` then those of `b` (upstream Registry.Merge: in-tree
 * registry merged with out-of-tree plugins). A name present in both is an error.
 */
export function mergeRegistries(a: Registry, b: Registry): Map<string, PluginDescriptor> {
  const r = new Map<string, PluginDescriptor>(a);
  for (const [name, d] of b) {
    if (r.has(name)) throw new Error(`a plugin named ${name} already exists`);
    r.set(name, d);
  }
  return r;
}
