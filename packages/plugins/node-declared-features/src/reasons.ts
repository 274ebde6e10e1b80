// upstream: pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures.go

/** The node does not declare (node.status.declaredFeatures) every feature the pod requires. */
export const ErrReasonUnsatisfiedRequirements = "node(s) didn't match Pod's required features";
