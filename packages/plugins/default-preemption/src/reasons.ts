// upstream: pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go — the messages
// users see after `preemption: ` (the Evaluator's own are @kubesched/preemption's).

/** The preemptor has `preemptionPolicy: Never`. */
export const ErrReasonPreemptionPolicyNever = "not eligible due to preemptionPolicy=Never.";

/** A lower-priority pod on the preemptor's nominated node is still terminating after an earlier preemption. */
export const ErrReasonTerminatingPodOnNominatedNode =
  "not eligible due to a terminating pod on the nominated node.";

/** No pod on the node has a lower priority than the preemptor (newest upstream wording). */
export const ErrReasonNoVictims = "No preemption victims found for incoming pod";

/** PreEnqueue: the pod's asynchronous preemption is still deleting its victims. */
export const ErrReasonPreemptionInProgress = "waiting for the preemption for this pod to be finished";

/** The message prefixed to every status DefaultPreemption returns. */
export const MessagePrefix = "preemption: ";
