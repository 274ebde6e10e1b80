// @kubesched/plugin-volume-binding — upstream pkg/scheduler/framework/plugins/volumebinding
import { definePlugin, type PluginDescriptor } from "@kubesched/framework";
import { type VolumeBindingArgs, volumeBindingArgsSpec } from "./args";
import { name, VolumeBinding } from "./volume-binding";

export {
  DefaultBindTimeoutSeconds,
  defaultShape,
  defaultVolumeBindingArgs,
  type UtilizationShapePoint,
  type VolumeBindingArgs,
  validateVolumeBindingArgs,
} from "./args";
export {
  ErrReasonBindConflict,
  ErrReasonNodeConflict,
  ErrReasonNotEnoughSpace,
  ErrReasonPVNotExist,
  ErrReasonUnboundImmediatePVC,
} from "./reasons";
export { name, VolumeBinding } from "./volume-binding";

/** The VolumeBinding plugin descriptor (args kind `VolumeBindingArgs`). */
export const volumeBindingPlugin: PluginDescriptor<VolumeBindingArgs> = definePlugin<VolumeBindingArgs>({
  name,
  factory: (args, handle) => new VolumeBinding(args, handle, handle.features()),
  args: volumeBindingArgsSpec,
});
