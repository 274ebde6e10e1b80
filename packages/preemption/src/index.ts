// @kubesched/preemption — the preemption Evaluator (upstream pkg/scheduler/framework/preemption),
// for PostFilter plugins: DefaultPreemption, and out-of-tree ones such as CapacityScheduling.
export {
  type Candidate,
  type CandidateScoreFunc,
  type DryRunResult,
  Evaluator,
  getLowerPriorityNominatedPods,
  type PreemptionInterface,
  type PreemptPodFunc,
  pickOneNodeForPreemption,
  postFilterResultWithNominatedNode,
  type SelectVictimsResult,
} from "./preemption";
export { ErrReasonNoCandidate, ErrReasonPreemptionNotHelpful } from "./reasons";
export {
  filterPodsWithPDBViolation,
  getEarliestPodStartTime,
  getPodStartTime,
  moreImportantPod,
  podTerminatingByPreemption,
} from "./util";
