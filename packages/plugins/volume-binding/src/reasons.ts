// upstream: pkg/scheduler/framework/plugins/volumebinding/binder.go (ConflictReasons) and
// volume_binding.go (PreFilter)

/** No PV matches an unbound WaitForFirstConsumer claim on the node (and it cannot be provisioned there). */
export const ErrReasonBindConflict = "node(s) didn't find available persistent volumes to bind";
/**
 * A bound PV's node affinity does not match the node. Kubernetes 1.33 reworded it (from `node(s)
 * had volume node affinity conflict`, kubernetes/kubernetes#129887), so every release kubesched
 * emulates says this.
 */
export const ErrReasonNodeConflict = "node(s) didn't match PersistentVolume's node affinity";
/** Not enough storage capacity on the node to provision a claim. */
export const ErrReasonNotEnoughSpace = "node(s) did not have enough free storage";
/** A claim is bound to a PV that does not exist. */
export const ErrReasonPVNotExist =
  "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
/** PreFilter: a claim with Immediate binding is not bound yet (the PV controller binds it). */
export const ErrReasonUnboundImmediatePVC = "pod has unbound immediate PersistentVolumeClaims";
