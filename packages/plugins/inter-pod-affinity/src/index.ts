// @kubesched/plugin-inter-pod-affinity — the InterPodAffinity plugin (upstream
// pkg/scheduler/framework/plugins/interpodaffinity).
import { definePlugin } from "@kubesched/framework";
import { type InterPodAffinityArgs, interPodAffinityArgsSpec } from "./args";
import { InterPodAffinity, name } from "./inter-pod-affinity";

export {
  DefaultHardPodAffinityWeight,
  defaultInterPodAffinityArgs,
  type InterPodAffinityArgs,
  MaxHardPodAffinityWeight,
  MinHardPodAffinityWeight,
  validateInterPodAffinityArgs,
} from "./args";
export { InterPodAffinity, type InterPodAffinityOptions, name } from "./inter-pod-affinity";
export {
  ErrReasonAffinityRulesNotMatch,
  ErrReasonAntiAffinityRulesNotMatch,
  ErrReasonExistingAntiAffinityRulesNotMatch,
} from "./reasons";

export const interPodAffinityPlugin = definePlugin<InterPodAffinityArgs>({
  name,
  factory: (args, handle) => new InterPodAffinity(args, handle),
  args: interPodAffinityArgsSpec,
});
