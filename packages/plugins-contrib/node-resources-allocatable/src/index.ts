// @kubesched/plugin-node-resources-allocatable — kubernetes-sigs/scheduler-plugins pkg/noderesources
import { definePlugin } from "@kubesched/framework";
import { type NodeResourcesAllocatableArgs, nodeResourcesAllocatableArgsSpec } from "./args";
import { NodeResourcesAllocatable, name } from "./node-resources-allocatable";

export {
  defaultAllocatableResources,
  defaultNodeResourcesAllocatableArgs,
  type ModeType,
  type NodeResourcesAllocatableArgs,
  supportedModes,
  validateNodeResourcesAllocatableArgs,
} from "./args";
export { NodeResourcesAllocatable, name } from "./node-resources-allocatable";

/** The NodeResourcesAllocatable score plugin with its NodeResourcesAllocatableArgs. */
export const nodeResourcesAllocatablePlugin = definePlugin<NodeResourcesAllocatableArgs>({
  name,
  factory: (args) => new NodeResourcesAllocatable(args),
  args: nodeResourcesAllocatableArgsSpec,
});

/** The package's default export: what `kubesched --plugin @kubesched/plugin-node-resources-allocatable` loads. */
export default nodeResourcesAllocatablePlugin;
