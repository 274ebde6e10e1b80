// @kubesched/plugin-node-volume-limits — upstream pkg/scheduler/framework/plugins/nodevolumelimits (CSI)
import { definePlugin } from "@kubesched/framework";
import { CSILimits, name } from "./node-volume-limits";

export { CSILimits, name } from "./node-volume-limits";
export { ErrReasonMaxVolumeCountExceeded } from "./reasons";

/** The NodeVolumeLimits plugin (CSI attach limits; no args). */
export const nodeVolumeLimitsPlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) => new CSILimits(handle, handle.features()),
});
