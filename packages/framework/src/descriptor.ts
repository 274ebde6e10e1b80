// upstream: pkg/scheduler/framework/runtime/registry.go (PluginFactory, Registry) and the
// per-plugin args types with their defaulting (v1/defaults.go) and validation
// (validation/validation_pluginargs.go), which here each plugin package owns.

import type { CustomResource } from "./custom-resources";
import type { Features } from "./features";
import type { FieldError } from "./field-errors";
import type { Handle } from "./handle";
import type { Plugin } from "./interface";

/** Builds a plugin from its (decoded, defaulted, validated) args. May throw: the profile fails. */
export type PluginFactory<A = unknown> = (args: A, handle: Handle) => Plugin | Promise<Plugin>;

export interface DecodeResult<A> {
  args: A;
  errors: FieldError[];
}

/** How a plugin's args are decoded, defaulted and validated (the `<Name>Args` kind). */
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

/** Everything the runtime and config need to know about a plugin. */
export interface PluginDescriptor<A = unknown> {
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

/** name → descriptor. */
export type Registry = ReadonlyMap<string, PluginDescriptor<unknown>>;

/** Typed identity helper: `export const descriptor = definePlugin({...})`. */
export function definePlugin<A>(d: PluginDescriptor<A>): PluginDescriptor<A> {
  return d;
}

/**
 * A descriptor as a Registry entry. Since `factory` is a method, any `PluginDescriptor<A>` already
 * is a `PluginDescriptor<unknown>`; this stays for code written before that.
 */
export function registryEntry<A>(d: PluginDescriptor<A>): PluginDescriptor<unknown> {
  return d;
}

/** A registry from descriptors (a repeated name is an error, as upstream's Register). */
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
