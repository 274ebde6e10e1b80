// @kubesched/plugin-volume-zone — upstream pkg/scheduler/framework/plugins/volumezone
import { definePlugin } from "@kubesched/framework";
import { name, VolumeZone } from "./volume-zone";

export { ErrReasonConflict } from "./reasons";
export { name, VolumeZone } from "./volume-zone";

/** The VolumeZone plugin (no args). */
export const volumeZonePlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) => new VolumeZone(handle, handle.features()),
});
