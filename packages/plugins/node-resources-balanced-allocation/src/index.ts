// @kubesched/plugin-node-resources-balanced-allocation — upstream
// pkg/scheduler/framework/plugins/noderesources (BalancedAllocation)
import { definePlugin } from "@kubesched/framework";
import { type NodeResourcesBalancedAllocationArgs, nodeResourcesBalancedAllocationArgsSpec } from "./args";
import { NodeResourcesBalancedAllocation, name } from "./node-resources-balanced-allocation";

export {
  defaultNodeResourcesBalancedAllocationArgs,
  type NodeResourcesBalancedAllocationArgs,
  validateNodeResourcesBalancedAllocationArgs,
} from "./args";
export {
  balancedResourceScore,
  balancedResourceScorer,
  balancedResourceScorerBefore136,
  balancedResourceScorerFor,
} from "./balanced-allocation";
export { NodeResourcesBalancedAllocation, name } from "./node-resources-balanced-allocation";

/** The NodeResourcesBalancedAllocation plugin with its NodeResourcesBalancedAllocationArgs. */
export const nodeResourcesBalancedAllocationPlugin = definePlugin<NodeResourcesBalancedAllocationArgs>({
  name,
  factory: (args, handle) =>
    new NodeResourcesBalancedAllocation(
      args,
      handle.features(),
      handle.kubernetesVersion(),
      handle.listers().deviceClasses,
    ),
  args: nodeResourcesBalancedAllocationArgsSpec,
});
