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
  factory: (args, handle) =>
    new NodeResourcesFit(args, handle.features(), handle.kubernetesVersion(), handle.listers()),
  args: nodeResourcesFitArgsSpec,
});
