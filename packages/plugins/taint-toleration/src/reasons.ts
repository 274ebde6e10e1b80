// upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go

/**
 * The Filter reason when a node has a NoSchedule/NoExecute taint the pod does not tolerate.
 * Since Kubernetes 1.30 the taint itself is no longer part of the message (it is logged instead).
 */
export const ErrReasonUntoleratedTaint = "node(s) had untolerated taint(s)";
