// @kubesched/plugin-node-name — upstream pkg/scheduler/framework/plugins/nodename
import { definePlugin } from "@kubesched/framework";
import { NodeName, name } from "./node-name";

export { fits, NodeName, name } from "./node-name";
export { ErrReason } from "./reasons";

/** The NodeName plugin (no args). */
export const nodeNamePlugin = definePlugin<undefined>({
  name,
  factory: () => new NodeName(),
});
