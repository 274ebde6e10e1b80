// upstream: pkg/scheduler/framework/runtime/registry.go (PluginFactory, Registry) and the
// per-plugin args types with their defaulting (v1/defaults.go) and validation
// (validation/validation_pluginargs.go), which here each plugin package owns.

import { type CustomResource, customResourceKey } from "./custom-resources";
import type { Features } from "./features";
import type { FieldError } from "./field-errors";
import type { Handle } from "./handle";
import type { Plugin } from "./interface";

/**
 * Builds a plugin from its (decoded, defaulted, validated) args. May throw: the profile fails.
 * @public
 */
export type PluginFactory<A = unknown> = (args: A, handle: Handle) => Plugin | Promise<Plugin>;

/**
 * What {@link PluginArgsSpec.decode} returns: the args (defaults applied) and every decoding error.
 * @public
 */
export interface DecodeResult<A> {
  /** The decoded args; meaningful only when `errors` is empty. */
  args: A;
  /** Unknown fields and wrong types, each with its field path. */
  errors: FieldError[];
}

/**
 * How a plugin's args are decoded, defaulted and validated (the `<Name>Args` kind).
 * {@link defineArgs} returns one from a single declaration.
 * @public
 */
export interface PluginArgsSpec<A> {
  /** The args kind in kubescheduler.config.k8s.io/v1, e.g. "NodeResourcesFitArgs". */
  kind: string;
  /**
   * Strictly decodes raw args (undefined when the profile has no pluginConfig entry) and
   * applies defaults. Unknown fields and wrong types are errors under `path`.
   */
  decode(raw: unknown, path: string, features: Features): DecodeResult<A>;
  /** Validates decoded args; every error with its field path under `path`. */
  validate(args: A, path: string, features: Features): FieldError[];
  /** Renders decoded args back to their v1 JSON form (for print-defaults). */
  encode?(args: A): Record<string, unknown>;
  /** JSON Schema of the args object, for editors. */
  schema?: Record<string, unknown>;
}

/**
 * Everything the runtime and config need to know about a plugin: what a plugin package exports
 * (its default export, for `--plugin`) and what a {@link Registry} holds.
 * @public
 */
export interface PluginDescriptor<A = unknown> {
  /** The plugin's registered name, as profiles enable it ("TaintToleration"). */
  name: string;
  /**
   * Builds the plugin from its args (upstream PluginFactory). Declared as a method so that a
   * `PluginDescriptor<MyArgs>` is also a `PluginDescriptor<unknown>` and fits a `Registry` or a
   * runner's `registry` as it is: the runtime only ever passes the args its own `args.decode`
   * produced.
   */
  factory(args: A, handle: Handle): Plugin | Promise<Plugin>;
  /** Absent for plugins without args. */
  args?: PluginArgsSpec<A>;
  /**
   * Custom resources the plugin reads through `handle.listers().custom(...)`: snapshots may
   * contain their objects and live mode watches them.
   */
  customResources?: readonly CustomResource[];
}

/**
 * Plugin name → descriptor (upstream `runtime.Registry`).
 * @public
 */
export type Registry = ReadonlyMap<string, PluginDescriptor<unknown>>;

/**
 * Typed identity helper: `export const descriptor = definePlugin({...})`.
 * @public
 */
export function definePlugin<A>(d: PluginDescriptor<A>): PluginDescriptor<A> {
  return d;
}

/**
 * A descriptor as a Registry entry. Since `factory` is a method, any `PluginDescriptor<A>` already
 * is a `PluginDescriptor<unknown>`; this stays for code written before that.
 * @public
 */
export function registryEntry<A>(d: PluginDescriptor<A>): PluginDescriptor<unknown> {
  return d;
}

/**
 * A registry from descriptors (a repeated name is an error, as upstream's Register).
 * @public
 */
export function registryOf(
  ...descriptors: PluginDescriptor<unknown>[]
): Map<string, PluginDescriptor<unknown>> {
  const r = new Map<string, PluginDescriptor<unknown>>();
  for (const d of descriptors) {
    if (r.has(d.name)) throw new Error(`a plugin named ${d.name} already exists`);
    r.set(d.name, d);
  }
  return r;
}

/**
 * Every custom resource the registry's plugins declare, once each, in registry order. Throws
 * when two plugins declare the same group/version/resource with a different kind or scope.
 * @public
 */
export function customResourcesOf(registry: Registry): CustomResource[] {
  const byKey = new Map<string, { r: CustomResource; plugin: string }>();
  for (const d of registry.values()) {
    for (const r of d.customResources ?? []) {
      const key = customResourceKey(r);
      const prev = byKey.get(key);
      if (!prev) byKey.set(key, { r, plugin: d.name });
      else if (prev.r.kind !== r.kind || prev.r.namespaced !== r.namespaced) {
        throw new Error(
          `plugins ${prev.plugin} and ${d.name} declare the custom resource ${key} differently (kind ${prev.r.kind} vs ${r.kind}, namespaced ${prev.r.namespaced} vs ${r.namespaced})`,
        );
      }
    }
  }
  return [...byKey.values()].map((e) => e.r);
}
