// Device taints and the tolerations of a request. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/resourceclaim/toleration.go (ToleratesTaint) and
// structured/internal/incubating/allocator_incubating.go (taintPreventsAllocation).
import type { Device, DeviceTaint, DeviceToleration } from "@kubesched/api";

/** Whether the toleration tolerates the taint (upstream resourceclaim.ToleratesTaint). */
export function toleratesTaint(toleration: DeviceToleration, taint: DeviceTaint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? "") {
    // An empty operator means Equal.
    case "":
    case "Equal":
      return (toleration.value ?? "") === (taint.value ?? "");
    case "Exists":
      return true;
    default:
      return false;
  }
}

/**
 * Whether an untolerated taint keeps the device from being allocated. Only the known effects
 * NoSchedule and NoExecute do; others (including None) are ignored.
 */
export function taintPreventsAllocation(
  device: Device,
  tolerations: readonly DeviceToleration[] | undefined,
): boolean {
  for (const taint of device.taints ?? []) {
    if (taint.effect !== "NoSchedule" && taint.effect !== "NoExecute") continue;
    if (!(tolerations ?? []).some((toleration) => toleratesTaint(toleration, taint))) return true;
  }
  return false;
}
