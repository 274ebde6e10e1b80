// @kubesched/plugin-node-resources-allocatable — kubernetes-sigs/scheduler-plugins pkg/noderesources
import { definePlugin } from "@kubesched/framework";
import {
  decodeNodeResourcesAllocatableArgs,
  encodeNodeResourcesAllocatableArgs,
  type NodeResourcesAllocatableArgs,
  nodeResourcesAllocatableArgsSchema,
  validateNodeResourcesAllocatableArgs,
} from "./args";
import { NodeResourcesAllocatable, name } from "./node-resources-allocatable";

export {
  decodeNodeResourcesAllocatableArgs,
  defaultAllocatableResources,
  defaultNodeResourcesAllocatableArgs,
  encodeNodeResourcesAllocatableArgs,
  type ModeType,
  type NodeResourcesAllocatableArgs,
  nodeResourcesAllocatableArgsSchema,
  supportedModes,
  validateNodeResourcesAllocatableArgs,
} from "./args";
export { NodeResourcesAllocatable, name } from "./node-resources-allocatable";

/** The NodeResourcesAllocatable score plugin with its NodeResourcesAllocatableArgs. */
export const nodeResourcesAllocatablePlugin = definePlugin<NodeResourcesAllocatableArgs>({
  name,
  factory: (args) => new NodeResourcesAllocatable(args),
  args: {
    kind: "NodeResourcesAllocatableArgs",
    decode: (raw, path) => decodeNodeResourcesAllocatableArgs(raw, path),
    validate: (args, path) => validateNodeResourcesAllocatableArgs(args, path),
    encode: encodeNodeResourcesAllocatableArgs,
    schema: nodeResourcesAllocatableArgsSchema,
  },
});

/** The package's default export: what `kubesched --plugin @kubesched/plugin-node-resources-allocatable` loads. */
export default nodeResourcesAllocatablePlugin;
