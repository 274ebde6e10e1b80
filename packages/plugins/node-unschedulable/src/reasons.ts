// upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go

/** The node has spec.unschedulable set and the pod does not tolerate it. */
export const ErrReasonUnschedulable = "node(s) were unschedulable";
