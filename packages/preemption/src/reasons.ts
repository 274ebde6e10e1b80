// upstream: pkg/scheduler/framework/preemption/preemption.go — the Evaluator's own messages, which
// a preemption plugin returns (DefaultPreemption after its `preemption: ` prefix).

/** The status of nodes preemption did not try (they failed with UnschedulableAndUnresolvable). */
export const ErrReasonPreemptionNotHelpful = "Preemption is not helpful for scheduling";

/** No candidate was left after extenders and candidate selection. */
export const ErrReasonNoCandidate = "no candidate node for preemption";

/**
 * The Success status of a preemption that chose a node (1.37+, kubernetes/kubernetes#140180):
 * FailedScheduling then reads `... preemption: found a potential placement for pod on node X,
 * preempting K victims`; before 1.37 a successful preemption adds nothing to the message.
 */
export function foundPlacementMessage(nodeName: string, victims: number): string {
  return `found a potential placement for pod on node ${nodeName}, preempting ${victims} victims`;
}
