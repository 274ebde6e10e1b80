// upstream: pkg/scheduler/framework/plugins/nodevolumelimits/csi.go

/** Attaching the pod's volumes would exceed a CSI driver's attach limit on the node. */
export const ErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count";
