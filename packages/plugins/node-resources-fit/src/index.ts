// @kubesched/plugin-node-resources-fit — upstream pkg/scheduler/framework/plugins/noderesources (Fit)
import { definePlugin } from "@kubesched/framework";
import { type NodeResourcesFitArgs, nodeResourcesFitArgsSpec } from "./args";
import { NodeResourcesFit, name } from "./node-resources-fit";

export {
  defaultNodeResourcesFitArgs,
  LeastAllocated,
  MostAllocated,
  type NodeResourcesFitArgs,
  RequestedToCapacityRatio,
  type RequestedToCapacityRatioParam,
  type ScoringStrategy,
  type ScoringStrategyType,
  type UtilizationShapePoint,
  validateNodeResourcesFitArgs,
} from "./args";
export { type InsufficientResource, isFit, type ResourceRequestsOptions } from "./fits";
export { NodeResourcesFit, name } from "./node-resources-fit";
export {
  ErrReasonInsufficientCPU,
  ErrReasonInsufficientEphemeralStorage,
  ErrReasonInsufficientMemory,
  ErrReasonSidecarContainersDisabled,
  ErrReasonTooManyPods,
  insufficientResourceReason,
} from "./reasons";

/** The NodeResourcesFit plugin with its NodeResourcesFitArgs. */
export const nodeResourcesFitPlugin = definePlugin<NodeResourcesFitArgs>({
  name,
  factory: (args, handle) => {
    const draManager = handle.sharedDRAManager();
    if (handle.features().enableDRAExtendedResource && draManager === null) {
      throw new Error(
        `${name}: DRAExtendedResource needs the scheduler's shared DRA manager (handle.sharedDRAManager() is null: DynamicResourceAllocation is off or the profiles were not built with newProfileMap)`,
      );
    }
    return new NodeResourcesFit(args, handle.features(), handle.kubernetesVersion(), draManager);
  },
  args: nodeResourcesFitArgsSpec,
});
