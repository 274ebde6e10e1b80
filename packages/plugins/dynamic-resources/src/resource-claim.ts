// upstream: staging/src/k8s.io/dynamic-resource-allocation/resourceclaim/resourceclaim.go
// (Name, IsForPod, IsReservedForPod, CanBeReserved)
import { type Pod, type ResourceClaim, ResourceClaimReservedForMaxSize } from "@kubesched/api";
import { ErrAPIUnsupported, ErrClaimNotFound } from "./reasons";

/** A pod's `spec.resourceClaims[]` entry (core/v1 PodResourceClaim, 1.31+ fields). */
export type PodResourceClaim = NonNullable<NonNullable<Pod["spec"]>["resourceClaims"]>[number];

/** `namespace/name` as klog.KObj prints an object. */
export function kObj(o: { metadata?: { namespace?: string; name?: string } }): string {
  const ns = o.metadata?.namespace ?? "";
  const name = o.metadata?.name ?? "";
  return ns ? `${ns}/${name}` : name;
}

/**
 * upstream resourceclaim.Name: the ResourceClaim a pod resource claim refers to (null when the
 * claim generated from a template was deliberately not created) and whether the claim must be
 * owned by the pod (generated claims). Throws the upstream message when the claim cannot be named.
 */
export function claimName(
  pod: Pod,
  podClaim: PodResourceClaim,
): { name: string | null; mustCheckOwner: boolean } {
  const ns = pod.metadata?.namespace ?? "";
  const podName = pod.metadata?.name ?? "";
  if (podClaim.resourceClaimName) return { name: podClaim.resourceClaimName, mustCheckOwner: false };
  if (podClaim.resourceClaimTemplateName) {
    for (const s of pod.status?.resourceClaimStatuses ?? []) {
      if (s.name === podClaim.name) return { name: s.resourceClaimName ?? null, mustCheckOwner: true };
    }
    throw new Error(`pod "${ns}/${podName}": ${ErrClaimNotFound}`);
  }
  throw new Error(`pod "${ns}/${podName}", spec.resourceClaim "${podClaim.name}": ${ErrAPIUnsupported}`);
}

/** upstream resourceclaim.IsForPod: a generated claim must be controlled by the pod. */
export function checkIsForPod(pod: Pod, claim: ResourceClaim): void {
  const uid = pod.metadata?.uid;
  const controlled = (claim.metadata?.ownerReferences ?? []).some(
    (o) => o.controller === true && o.uid === uid,
  );
  if (!controlled) {
    throw new Error(`ResourceClaim ${kObj(claim)} was not created for pod ${kObj(pod)} (pod is not owner)`);
  }
}

/** upstream resourceclaim.IsReservedForPod. */
export function isReservedForPod(pod: Pod, claim: ResourceClaim): boolean {
  const uid = pod.metadata?.uid;
  return (claim.status?.reservedFor ?? []).some((r) => r.uid === uid);
}

/** upstream resourceclaim.CanBeReserved: reservedFor has room (ResourceClaimReservedForMaxSize). */
export function canBeReserved(claim: ResourceClaim): boolean {
  return (claim.status?.reservedFor?.length ?? 0) < ResourceClaimReservedForMaxSize;
}
