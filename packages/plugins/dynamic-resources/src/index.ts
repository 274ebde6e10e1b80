// @kubesched/plugin-dynamic-resources — upstream pkg/scheduler/framework/plugins/dynamicresources
import { definePlugin, formatFieldErrors, type PluginDescriptor } from "@kubesched/framework";
import {
  type DynamicResourcesArgs,
  decodeDynamicResourcesArgs,
  dynamicResourcesArgsSchema,
  encodeDynamicResourcesArgs,
  validateDynamicResourcesArgs,
} from "./args";
import { DynamicResources, name } from "./dynamic-resources";

export {
  DefaultBindingTimeoutMs,
  DefaultFilterTimeoutMs,
  type DynamicResourcesArgs,
  validateDynamicResourcesArgs,
} from "./args";
export { DynamicResources, name } from "./dynamic-resources";
export { ErrAPIUnsupported, ErrClaimNotFound, ErrReasonNoNewClaimsToDeallocate } from "./reasons";

/** The DynamicResources plugin descriptor (args kind `DynamicResourcesArgs`). */
export const dynamicResourcesPlugin: PluginDescriptor<DynamicResourcesArgs> =
  definePlugin<DynamicResourcesArgs>({
    name,
    factory: (args) => {
      const errs = validateDynamicResourcesArgs(args);
      if (errs.length > 0) throw new Error(formatFieldErrors(errs));
      return new DynamicResources(args);
    },
    args: {
      kind: "DynamicResourcesArgs",
      decode: (raw, path) => decodeDynamicResourcesArgs(raw, path),
      validate: (args, path) => validateDynamicResourcesArgs(args, path),
      encode: encodeDynamicResourcesArgs,
      schema: dynamicResourcesArgsSchema,
    },
  });
