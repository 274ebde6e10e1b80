// upstream: pkg/scheduler/framework/plugins/podtopologyspread/plugin.go (ErrReason*)

/** Filter rejection: placing the pod on the node would exceed a constraint's maxSkew (Unschedulable). */
export const ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";

/** Filter rejection: the node lacks a constraint's topology key (UnschedulableAndUnresolvable). */
export const ErrReasonNodeLabelNotMatch = `${ErrReasonConstraintsNotMatch} (missing required label)`;
