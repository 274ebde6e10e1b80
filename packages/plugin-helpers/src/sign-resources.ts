// upstream: pkg/scheduler/framework/plugins/noderesources/fit.go and balanced_allocation.go,
// SignPod. Through 1.36 both refuse to sign any pod while DRAExtendedResource is on (the stored
// fit.go of the 1.36 cycle, with DeviceClassResolver, and the 1.35 documentation: "The
// DRAExtendedResource feature cannot be enabled"); 1.37 refuses only pods requesting an extended
// resource that a DeviceClass backs, which kubesched cannot tell yet (no DRA manager), so it signs.
import type { Pod } from "@kubesched/api";
import {
  Code,
  type Features,
  minorOf,
  podResourcesSigner,
  ResourcesSignerName,
  type SignPodResult,
  Status,
} from "@kubesched/framework";

/** Upstream's refusal message. */
export const signatureDisabledWithDRAExtendedResource =
  "signature disabled when dra extended resources enabled";

/**
 * NodeResourcesFit's and NodeResourcesBalancedAllocation's SignPod: the pod's requests and
 * overhead, or the refusal of releases up to 1.36 while DRAExtendedResource is on.
 */
export function signPodResources(pod: Pod, features: Features, kubernetesVersion: string): SignPodResult {
  if (features.enableDRAExtendedResource && minorOf(kubernetesVersion) <= 36) {
    return {
      fragments: [],
      status: new Status(Code.Unschedulable, signatureDisabledWithDRAExtendedResource),
    };
  }
  return {
    fragments: [
      { key: ResourcesSignerName, value: podResourcesSigner(pod, features.enablePodLevelResources) },
    ],
    status: null,
  };
}
