// upstream: interpodaffinity/filtering.go — byte-identical failure reasons.

/** An existing pod's required anti-affinity term matches the incoming pod (Unschedulable). */
export const ErrReasonExistingAntiAffinityRulesNotMatch =
  "node(s) didn't satisfy existing pods anti-affinity rules";
/** The incoming pod's required affinity is not satisfied (UnschedulableAndUnresolvable). */
export const ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
/** The incoming pod's required anti-affinity is violated (Unschedulable). */
export const ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";
