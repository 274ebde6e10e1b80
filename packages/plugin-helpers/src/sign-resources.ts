// upstream: pkg/scheduler/framework/plugins/noderesources/fit.go and balanced_allocation.go,
// SignPod. Through 1.36 both refuse to sign any pod while DRAExtendedResource is on (the stored
// fit.go of the 1.36 cycle, with DeviceClassResolver, and the 1.35 documentation: "The
// DRAExtendedResource feature cannot be enabled"); 1.37 refuses only pods requesting an extended
// resource that a DeviceClass backs (the DeviceClassResolver over the DeviceClass lister; without
// one, as upstream without a DRA manager, it signs).
import { type Pod, podRequests } from "@kubesched/api";
import {
  Code,
  type DeviceClassResolver,
  type Features,
  minorOf,
  podResourcesSigner,
  ResourcesSignerName,
  type SignPodResult,
  Status,
} from "@kubesched/framework";
import { isDRAExtendedResourceName } from "./device-class-resolver";

/** Upstream's refusal message. */
export const signatureDisabledWithDRAExtendedResource =
  "signature disabled when dra extended resources enabled";

/** Whether the pod requests an extended resource some DeviceClass backs. */
function requestsDRAExtendedResource(pod: Pod, resolver: DeviceClassResolver): boolean {
  if (!resolver.hasClasses()) return false;
  for (const [name, v] of podRequests(pod)) {
    if (v !== 0 && isDRAExtendedResourceName(name) && resolver.getDeviceClass(name)) return true;
  }
  return false;
}

/**
 * NodeResourcesFit's and NodeResourcesBalancedAllocation's SignPod: the pod's requests and
 * overhead, or the refusal while DRAExtendedResource is on — of every pod up to 1.36, from 1.37 of
 * a pod requesting an extended resource a DeviceClass backs (`resolver`: the plugin's
 * DeviceClassResolver; absent, every pod is signed).
 */
export function signPodResources(
  pod: Pod,
  features: Features,
  kubernetesVersion: string,
  resolver?: DeviceClassResolver | null,
): SignPodResult {
  if (
    features.enableDRAExtendedResource &&
    (minorOf(kubernetesVersion) <= 36 || (resolver && requestsDRAExtendedResource(pod, resolver)))
  ) {
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
