// @kubesched/plugin-volume-restrictions — upstream pkg/scheduler/framework/plugins/volumerestrictions
import { definePlugin } from "@kubesched/framework";
import { name, VolumeRestrictions } from "./volume-restrictions";

export { ErrReasonDiskConflict, ErrReasonReadWriteOncePodConflict } from "./reasons";
export { name, VolumeRestrictions } from "./volume-restrictions";

/** The VolumeRestrictions plugin (no args). */
export const volumeRestrictionsPlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) => new VolumeRestrictions(handle, handle.features()),
});
