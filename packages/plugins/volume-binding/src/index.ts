// @kubesched/plugin-volume-binding — upstream pkg/scheduler/framework/plugins/volumebinding
import { definePlugin, formatFieldErrors, type PluginDescriptor } from "@kubesched/framework";
import {
  decodeVolumeBindingArgs,
  encodeVolumeBindingArgs,
  type VolumeBindingArgs,
  validateVolumeBindingArgs,
  volumeBindingArgsSchema,
} from "./args";
import { name, VolumeBinding } from "./volume-binding";

export {
  DefaultBindTimeoutSeconds,
  defaultShape,
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
  factory: (args, handle) => {
    const errs = validateVolumeBindingArgs(args, "", handle.features());
    if (errs.length > 0) throw new Error(formatFieldErrors(errs));
    return new VolumeBinding(args, handle, handle.features());
  },
  args: {
    kind: "VolumeBindingArgs",
    decode: (raw, path, features) => decodeVolumeBindingArgs(raw, path, features),
    validate: (args, path, features) => validateVolumeBindingArgs(args, path, features),
    encode: encodeVolumeBindingArgs,
    schema: volumeBindingArgsSchema,
  },
});
