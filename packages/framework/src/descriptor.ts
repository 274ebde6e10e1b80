// upstream: pkg/scheduler/framework/runtime/registry.go (PluginFactory, Registry) and the
// per-plugin args types with their defaulting (v1/defaults.go) and validation
// (validation/validation_pluginargs.go), which here each plugin package owns.

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
  factory: PluginFactory<A>;
  /** Absent for plugins without args. */
  args?: PluginArgsSpec<A>;
}

/** name → descriptor. */
export type Registry = ReadonlyMap<string, PluginDescriptor<unknown>>;

/** Typed identity helper: `export const descriptor = definePlugin({...})`. */
export function definePlugin<A>(d: PluginDescriptor<A>): PluginDescriptor<A> {
  return d;
}
