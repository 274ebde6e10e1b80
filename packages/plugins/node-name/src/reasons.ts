// upstream: pkg/scheduler/framework/plugins/nodename/node_name.go

/** The pod's spec.nodeName names another node. */
export const ErrReason = "node(s) didn't match the requested node name";
