// @kubesched/plugin-node-ports — upstream pkg/scheduler/framework/plugins/nodeports
import { definePlugin } from "@kubesched/framework";
import { NodePorts, name } from "./node-ports";

export { fits } from "./fits";
export { NodePorts, name } from "./node-ports";
export { ErrReason } from "./reasons";

/** The NodePorts plugin (no args). */
export const nodePortsPlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) => new NodePorts(handle.features()),
});
