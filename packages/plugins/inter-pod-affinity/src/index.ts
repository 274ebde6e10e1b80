// @kubesched/plugin-inter-pod-affinity — the InterPodAffinity plugin (upstream
// pkg/scheduler/framework/plugins/interpodaffinity).
import { definePlugin } from "@kubesched/framework";
import { type InterPodAffinityArgs, interPodAffinityArgsSpec } from "./args";
import { InterPodAffinity, Name } from "./plugin";

export {
  DefaultHardPodAffinityWeight,
  decodeInterPodAffinityArgs,
  defaultInterPodAffinityArgs,
  type InterPodAffinityArgs,
  MaxHardPodAffinityWeight,
  MinHardPodAffinityWeight,
  validateInterPodAffinityArgs,
} from "./args";
export { InterPodAffinity, type InterPodAffinityOptions } from "./plugin";
export {
  ErrReasonAffinityRulesNotMatch,
  ErrReasonAntiAffinityRulesNotMatch,
  ErrReasonExistingAntiAffinityRulesNotMatch,
} from "./reasons";

/** The plugin's registered name. */
export const name = Name;

export const interPodAffinityPlugin = definePlugin<InterPodAffinityArgs>({
  name: Name,
  factory: (args, handle) => new InterPodAffinity(args, handle),
  args: interPodAffinityArgsSpec,
});
