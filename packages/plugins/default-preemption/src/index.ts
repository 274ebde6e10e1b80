// @kubesched/plugin-default-preemption — upstream pkg/scheduler/framework/plugins/defaultpreemption.
// The Evaluator it runs (upstream pkg/scheduler/framework/preemption) is @kubesched/preemption.
import { definePlugin } from "@kubesched/framework";
import { type DefaultPreemptionArgs, defaultPreemptionArgsSpec } from "./args";
import { DefaultPreemption, name } from "./default-preemption";

export {
  DefaultMinCandidateNodesAbsolute,
  DefaultMinCandidateNodesPercentage,
  type DefaultPreemptionArgs,
  defaultDefaultPreemptionArgs,
  validateDefaultPreemptionArgs,
} from "./args";
export {
  DefaultPreemption,
  type IsEligiblePodFunc,
  type MoreImportantPodFunc,
  name,
} from "./default-preemption";
export { eventsToRegister, isPodSchedulableAfterPodDeletion } from "./events";
export {
  ErrReasonNoVictims,
  ErrReasonPreemptionInProgress,
  ErrReasonPreemptionPolicyNever,
  ErrReasonTerminatingPodOnNominatedNode,
  MessagePrefix,
} from "./reasons";

/** The DefaultPreemption plugin, with DefaultPreemptionArgs. */
export const defaultPreemptionPlugin = definePlugin<DefaultPreemptionArgs>({
  name,
  factory: (args, handle) => new DefaultPreemption(args, handle, handle.features()),
  args: defaultPreemptionArgsSpec,
});
