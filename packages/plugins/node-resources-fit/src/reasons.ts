// upstream: pkg/scheduler/framework/plugins/noderesources/fit.go (failure reasons)

/** The node already runs as many pods as its `pods` allocatable allows. */
export const ErrReasonTooManyPods = "Too many pods";
export const ErrReasonInsufficientCPU = "Insufficient cpu";
export const ErrReasonInsufficientMemory = "Insufficient memory";
export const ErrReasonInsufficientEphemeralStorage = "Insufficient ephemeral-storage";

/** `Insufficient <resource>` for scalar resources (extended resources, hugepages, ...). */
export function insufficientResourceReason(resourceName: string): string {
  return `Insufficient ${resourceName}`;
}

/** PreFilter rejection of pods with sidecars when SidecarContainers is disabled. */
export const ErrReasonSidecarContainersDisabled =
  "Pod has a restartable init container and the SidecarContainers feature is disabled";
