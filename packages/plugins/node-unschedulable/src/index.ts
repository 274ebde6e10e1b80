// @kubesched/plugin-node-unschedulable — upstream pkg/scheduler/framework/plugins/nodeunschedulable
import { definePlugin } from "@kubesched/framework";
import { NodeUnschedulable, name } from "./node-unschedulable";

export { TaintNodeUnschedulable } from "./events";
export { NodeUnschedulable, name } from "./node-unschedulable";
export { ErrReasonUnschedulable } from "./reasons";

/** The NodeUnschedulable plugin (no args). */
export const nodeUnschedulablePlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) => new NodeUnschedulable(handle.features()),
});
