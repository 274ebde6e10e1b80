// @kubesched/plugin-pod-topology-spread — the PodTopologySpread plugin (upstream
// pkg/scheduler/framework/plugins/podtopologyspread).
import { definePlugin, type PluginDescriptor } from "@kubesched/framework";
import { type PodTopologySpreadArgs, podTopologySpreadArgsSpec } from "./args";
import { name, PodTopologySpread } from "./pod-topology-spread";

export {
  defaultPodTopologySpreadArgs,
  ListDefaulting,
  type PodTopologySpreadArgs,
  type PodTopologySpreadConstraintsDefaulting,
  SystemDefaulting,
  validatePodTopologySpreadArgs,
} from "./args";
export { defaultSelector, getPodServices } from "./default-selector";
export { name, PodTopologySpread } from "./pod-topology-spread";
export { ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch } from "./reasons";

/** The PodTopologySpread plugin descriptor (args kind `PodTopologySpreadArgs`). */
export const podTopologySpreadPlugin: PluginDescriptor<PodTopologySpreadArgs> =
  definePlugin<PodTopologySpreadArgs>({
    name,
    factory: (args, handle) => new PodTopologySpread(args, handle),
    args: podTopologySpreadArgsSpec,
  });
