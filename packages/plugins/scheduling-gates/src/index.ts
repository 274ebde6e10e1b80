// @kubesched/plugin-scheduling-gates — upstream pkg/scheduler/framework/plugins/schedulinggates
import { definePlugin } from "@kubesched/framework";
import { name, SchedulingGates } from "./scheduling-gates";

export { isSchedulableAfterUpdatePodSchedulingGatesEliminated } from "./events";
export { waitingForSchedulingGatesReason } from "./reasons";
export { name, SchedulingGates } from "./scheduling-gates";

/** The SchedulingGates PreEnqueue plugin (no args). */
export const schedulingGatesPlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) => new SchedulingGates(handle.features()),
});
