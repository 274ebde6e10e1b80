// upstream: pkg/scheduler/framework/plugins/nodeports/node_ports.go

/** A host port the pod asks for is already used on the node. */
export const ErrReason = "node(s) didn't have free ports for the requested pod ports";
