// @kubesched/preemption — the preemption Evaluator (upstream pkg/scheduler/framework/preemption),
// for PostFilter plugins: DefaultPreemption, and out-of-tree ones such as CapacityScheduling.
export {
  type Candidate,
  Executor,
  getLowerPriorityNominatedPods,
  type PreemptPodFunc,
} from "./executor";
export {
  type CandidateScoreFunc,
  type DryRunResult,
  Evaluator,
  type PreemptionInterface,
  pickOneNodeForPreemption,
  postFilterResultWithNominatedNode,
  type SelectVictimsResult,
} from "./preemption";
export { ErrReasonNoCandidate, ErrReasonPreemptionNotHelpful, foundPlacementMessage } from "./reasons";
export {
  filterPodsWithPDBViolation,
  getEarliestPodStartTime,
  getPodStartTime,
  moreImportantPod,
  podTerminatingByPreemption,
} from "./util";
