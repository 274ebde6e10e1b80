// upstream: pkg/scheduler/framework/preemption/preemption.go — the Evaluator's own messages, which
// a preemption plugin returns (DefaultPreemption after its `preemption: ` prefix).

/** The status of nodes preemption did not try (they failed with UnschedulableAndUnresolvable). */
export const ErrReasonPreemptionNotHelpful = "Preemption is not helpful for scheduling";

/** No candidate was left after extenders and candidate selection. */
export const ErrReasonNoCandidate = "no candidate node for preemption";
