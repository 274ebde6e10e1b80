// upstream: staging/src/k8s.io/component-helpers/storage/volume/helpers.go
// (GetPersistentVolumeClaimClass, GetPersistentVolumeClass) and v1.BetaStorageClassAnnotation.
import type { PersistentVolume, PersistentVolumeClaim } from "kubernetes-types/core/v1.js";

/** The deprecated beta annotation naming a claim's or volume's storage class (upstream v1.BetaStorageClassAnnotation). */
export const BetaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class";

/** The claim's storage class: the beta annotation when present (even empty), else spec.storageClassName, else "". */
export function getPersistentVolumeClaimClass(pvc: PersistentVolumeClaim): string {
  return pvc.metadata?.annotations?.[BetaStorageClassAnnotation] ?? pvc.spec?.storageClassName ?? "";
}

/** The volume's storage class: the beta annotation when present (even empty), else spec.storageClassName, else "". */
export function getPersistentVolumeClass(pv: PersistentVolume): string {
  return pv.metadata?.annotations?.[BetaStorageClassAnnotation] ?? pv.spec?.storageClassName ?? "";
}
