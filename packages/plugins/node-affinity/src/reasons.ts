// upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go

/** The pod's nodeSelector or required node affinity does not match the node. */
export const ErrReasonPod = "node(s) didn't match Pod's node affinity/selector";

/** The node does not match the scheduler-enforced `addedAffinity` of the plugin args. */
export const ErrReasonEnforced = "node(s) didn't match scheduler-enforced node affinity";

/** The pod's required terms pin `metadata.name` to sets with an empty union (PreFilter). */
export const ErrReasonConflict = "pod affinity terms conflict";
