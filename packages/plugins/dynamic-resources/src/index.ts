// @kubesched/plugin-dynamic-resources — upstream pkg/scheduler/framework/plugins/dynamicresources
import { definePlugin, type PluginDescriptor } from "@kubesched/framework";
import { type DynamicResourcesArgs, dynamicResourcesArgsSpec } from "./args";
import { DynamicResources, name } from "./dynamic-resources";

export {
  DefaultBindingTimeoutMs,
  DefaultFilterTimeoutMs,
  type DynamicResourcesArgs,
  defaultDynamicResourcesArgs,
  validateDynamicResourcesArgs,
} from "./args";
export { DynamicResources, name } from "./dynamic-resources";
export {
  ErrAPIUnsupported,
  ErrClaimNotFound,
  ErrReasonCannotAllocateAllClaims,
  ErrReasonClaimNotAvailable,
  ErrReasonDeallocationCompleted,
  ErrReasonDeletionCompleted,
  ErrReasonNoNewClaimsToDeallocate,
  ErrReasonOptionalNodeOperationsUnsupported,
  ErrReasonResourceClaimInUse,
  ErrReasonStillNotSchedulable,
  ErrReasonTimedOut,
} from "./reasons";

/** The DynamicResources plugin descriptor (args kind `DynamicResourcesArgs`). */
export const dynamicResourcesPlugin: PluginDescriptor<DynamicResourcesArgs> =
  definePlugin<DynamicResourcesArgs>({
    name,
    factory: (args, handle) => new DynamicResources(args, handle, handle.kubernetesVersion()),
    args: dynamicResourcesArgsSpec,
  });
