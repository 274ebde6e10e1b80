// @kubesched/plugin-node-affinity — upstream pkg/scheduler/framework/plugins/nodeaffinity
import { definePlugin } from "@kubesched/framework";
import {
  decodeNodeAffinityArgs,
  encodeNodeAffinityArgs,
  type NodeAffinityArgs,
  nodeAffinityArgsSchema,
  validateNodeAffinityArgs,
} from "./args";
import { NodeAffinity, name } from "./node-affinity";

export {
  decodeNodeAffinityArgs,
  type NodeAffinityArgs,
  nodeAffinityArgsSchema,
  validateNodeAffinityArgs,
} from "./args";
export { NodeAffinity, name } from "./node-affinity";
export { ErrReasonConflict, ErrReasonEnforced, ErrReasonPod } from "./reasons";

/** The NodeAffinity plugin, with NodeAffinityArgs. */
export const nodeAffinityPlugin = definePlugin<NodeAffinityArgs>({
  name,
  factory: (args, handle) => new NodeAffinity(args, handle.features()),
  args: {
    kind: "NodeAffinityArgs",
    decode: (raw, path) => decodeNodeAffinityArgs(raw, path),
    validate: (args, path) => validateNodeAffinityArgs(args, path),
    encode: encodeNodeAffinityArgs,
    schema: nodeAffinityArgsSchema,
  },
});
