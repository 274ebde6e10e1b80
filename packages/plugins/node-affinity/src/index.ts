// @kubesched/plugin-node-affinity — upstream pkg/scheduler/framework/plugins/nodeaffinity
import { definePlugin } from "@kubesched/framework";
import { type NodeAffinityArgs, nodeAffinityArgsSpec } from "./args";
import { NodeAffinity, name } from "./node-affinity";

export { defaultNodeAffinityArgs, type NodeAffinityArgs, validateNodeAffinityArgs } from "./args";
export { NodeAffinity, name } from "./node-affinity";
export { ErrReasonConflict, ErrReasonEnforced, ErrReasonPod } from "./reasons";

/** The NodeAffinity plugin, with NodeAffinityArgs. */
export const nodeAffinityPlugin = definePlugin<NodeAffinityArgs>({
  name,
  factory: (args, handle) => new NodeAffinity(args, handle.features()),
  args: nodeAffinityArgsSpec,
});
