// @kubesched/plugin-default-preemption — upstream pkg/scheduler/framework/plugins/defaultpreemption
// and pkg/scheduler/framework/preemption (the Evaluator, exported for other PostFilter plugins).
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
  filterPodsWithPDBViolation,
  type IsEligiblePodFunc,
  type MoreImportantPodFunc,
  name,
} from "./default-preemption";
export { eventsToRegister, isPodSchedulableAfterPodDeletion } from "./events";
export {
  type Candidate,
  type CandidateScoreFunc,
  type DryRunResult,
  Evaluator,
  getEarliestPodStartTime,
  getLowerPriorityNominatedPods,
  getPodStartTime,
  moreImportantPod,
  type PreemptionInterface,
  type PreemptPodFunc,
  pickOneNodeForPreemption,
  postFilterResultWithNominatedNode,
  type SelectVictimsResult,
} from "./preemption";
export {
  ErrReasonNoCandidate,
  ErrReasonNoVictims,
  ErrReasonPreemptionNotHelpful,
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
