// Feature-gate dependencies: a gate may be enabled only while every gate it depends on is enabled.
// component-base checks them since 1.35 (kubernetes/kubernetes#133697 added
// `MutableVersionedFeatureGate.AddDependencies` and the check in `unsafeSetFromMap`;
// kubernetes/kubernetes#133912 declared the dependencies of every Kubernetes gate), with the message
// `%s is enabled, but depends on features that are disabled: %v` (featuregate/feature_gate.go, read
// at kubernetes/kubernetes@00c2fffd238f216a4f8820f27fa47c3a6a86c1be). Kubernetes 1.33 and 1.34 accept
// any combination.
//
// DATA — the non-empty entries of `defaultKubernetesFeatureGateDependencies` in
// pkg/features/kube_features.go (gate names as their strings; an empty entry checks nothing):
//  - 1.35: the stored kube_features.go of the 1.35 development cycle (GangScheduling and
//    OpportunisticBatching present, ComponentFlagz still alpha; code-search index id 378079260,
//    commit not shown by the index).
//  - 1.37: omeryahud/kubernetes@52e01d7b86800c17c63e6a38f1a0ce689eefcdf8 (1.37 development, July
//    2026; the commit the gate table reads).
//  - 1.36: no 1.36 version of the file is stored. kubesched takes the 1.37 list plus the 1.35
//    pairs that involve a gate the 1.37 binary no longer has (removed together with the gate after
//    1.36, e.g. PodLifecycleSleepActionAllowZero → PodLifecycleSleepAction).
import type { Release } from "./feature-gates";

/** A gate and the gates it depends on, as declared. */
export type DependencyRow = readonly [gate: string, ...dependencies: string[]];

/** pkg/features/kube_features.go, 1.35 development. */
export const dependencyRows135: readonly DependencyRow[] = [
  ["AuthorizeNodeWithSelectors", "AuthorizeWithSelectors"],
  ["ClusterTrustBundleProjection", "ClusterTrustBundle"],
  ["DRAAdminAccess", "DynamicResourceAllocation"],
  ["DRAConsumableCapacity", "DynamicResourceAllocation"],
  ["DRADeviceBindingConditions", "DynamicResourceAllocation", "DRAResourceClaimDeviceStatus"],
  ["DRADeviceTaintRules", "DRADeviceTaints"],
  ["DRADeviceTaints", "DynamicResourceAllocation"],
  ["DRAExtendedResource", "DynamicResourceAllocation"],
  ["DRAPartitionableDevices", "DynamicResourceAllocation"],
  ["DRAPrioritizedList", "DynamicResourceAllocation"],
  ["DRASchedulerFilterTimeout", "DynamicResourceAllocation"],
  ["DisableAllocatorDualWrite", "MultiCIDRServiceAllocator"],
  ["GangScheduling", "GenericWorkload"],
  ["GracefulNodeShutdownBasedOnPodPriority", "GracefulNodeShutdown"],
  ["ImageVolumeWithDigest", "ImageVolume"],
  [
    "InPlacePodLevelResourcesVerticalScaling",
    "InPlacePodVerticalScaling",
    "PodLevelResources",
    "NodeDeclaredFeatures",
  ],
  ["InPlacePodVerticalScalingAllocatedStatus", "InPlacePodVerticalScaling"],
  ["InPlacePodVerticalScalingExclusiveCPUs", "InPlacePodVerticalScaling"],
  ["InPlacePodVerticalScalingExclusiveMemory", "InPlacePodVerticalScaling", "MemoryManager"],
  ["MatchLabelKeysInPodTopologySpreadSelectorMerge", "MatchLabelKeysInPodTopologySpread"],
  ["PodCertificateRequest", "AuthorizeNodeWithSelectors"],
  ["PodLifecycleSleepActionAllowZero", "PodLifecycleSleepAction"],
  ["ProcMountType", "UserNamespacesSupport"],
  ["ResourceHealthStatus", "DynamicResourceAllocation"],
  ["RestartAllContainersOnContainerExits", "ContainerRestartRules", "NodeDeclaredFeatures"],
  ["ServiceAccountTokenNodeBinding", "ServiceAccountTokenNodeBindingValidation"],
  ["UserNamespacesHostNetworkSupport", "UserNamespacesSupport"],
  ["WindowsCPUAndMemoryAffinity", "MemoryManager"],
  ["WindowsGracefulNodeShutdown", "GracefulNodeShutdown"],
  ["DeclarativeValidationTakeover", "DeclarativeValidation"],
  ["StorageVersionAPI", "APIServerIdentity"],
  ["StructuredAuthenticationConfigurationEgressSelector", "StructuredAuthenticationConfiguration"],
  ["StructuredAuthenticationConfigurationJWKSMetrics", "StructuredAuthenticationConfiguration"],
  ["UnknownVersionInteroperabilityProxy", "APIServerIdentity"],
];

/** pkg/features/kube_features.go, 1.37 development. */
export const dependencyRows137: readonly DependencyRow[] = [
  ["ClusterTrustBundleProjection", "ClusterTrustBundle"],
  ["CompositePodGroup", "GenericWorkload", "TopologyAwareWorkloadScheduling"],
  ["DRAAdminAccess", "DynamicResourceAllocation"],
  ["DRAConsumableCapacity", "DynamicResourceAllocation"],
  ["DRADeviceBindingConditions", "DynamicResourceAllocation", "DRAResourceClaimDeviceStatus"],
  ["DRADeviceCompatibilityGroups", "DynamicResourceAllocation", "DRAPartitionableDevices"],
  ["DRADeviceTaintRules", "DRADeviceTaints"],
  ["DRADeviceTaints", "DynamicResourceAllocation"],
  ["DRAExtendedResource", "DynamicResourceAllocation"],
  ["DRAFractionalCapacityRange", "DRAConsumableCapacity"],
  ["DRAListTypeAttributes", "DynamicResourceAllocation"],
  ["DRANodeAllocatableResources", "DynamicResourceAllocation"],
  ["DRAOptionalNodeOperations", "DynamicResourceAllocation", "NodeDeclaredFeatures"],
  ["DRAPartitionableDevices", "DynamicResourceAllocation"],
  [
    "DRAPartitionableDevicesType",
    "DynamicResourceAllocation",
    "DRAPartitionableDevices",
    "DRAResourcePoolStatus",
  ],
  ["DRAPrioritizedList", "DynamicResourceAllocation"],
  [
    "DRAResourceClaimGranularStatusAuthorization",
    "DynamicResourceAllocation",
    "DRAResourceClaimDeviceStatus",
  ],
  ["DRAResourcePoolStatus", "DynamicResourceAllocation"],
  ["DRASchedulerFilterTimeout", "DynamicResourceAllocation"],
  ["DRAWorkloadResourceClaims", "DynamicResourceAllocation", "GenericWorkload"],
  ["DisableAllocatorDualWrite", "MultiCIDRServiceAllocator"],
  ["EventedPLEG", "PLEGOnDemandRelist"],
  ["ExtendWebSocketsToKubelet", "NodeDeclaredFeatures"],
  ["GracefulNodeShutdownBasedOnPodPriority", "GracefulNodeShutdown"],
  ["H2CContainerProbe", "NodeDeclaredFeatures"],
  ["ImageVolumeWithDigest", "ImageVolume"],
  [
    "InPlacePodLevelResourcesVerticalScaling",
    "InPlacePodVerticalScaling",
    "PodLevelResources",
    "NodeDeclaredFeatures",
  ],
  ["InPlacePodVerticalScalingExclusiveCPUs", "InPlacePodVerticalScaling"],
  ["InPlacePodVerticalScalingExclusiveMemory", "InPlacePodVerticalScaling"],
  ["InPlacePodVerticalScalingInitContainers", "InPlacePodVerticalScaling", "NodeDeclaredFeatures"],
  ["InPlacePodVerticalScalingMemoryBackedVolumes", "InPlacePodVerticalScaling", "NodeDeclaredFeatures"],
  ["InPlacePodVerticalScalingSchedulerPreemption", "InPlacePodVerticalScaling"],
  ["KubeletAllocatedPodsEndpoint", "InPlacePodVerticalScaling"],
  ["MatchLabelKeysInPodTopologySpreadSelectorMerge", "MatchLabelKeysInPodTopologySpread"],
  ["NodeControllerLeaseCircuitBreaker", "AtomicFIFO"],
  ["PodGroupPreemptionPolicy", "GenericWorkload"],
  ["PodLevelResourceManagers", "PodLevelResources"],
  ["PodLevelResourcesFixDefaulting", "PodLevelResources"],
  ["PodLevelResourcesFixKubeletQOSClass", "PodLevelResources"],
  ["ProcMountType", "UserNamespacesSupport"],
  ["ResourceHealthStatus", "DynamicResourceAllocation"],
  ["ResourceHealthStatusMessage", "ResourceHealthStatus"],
  ["RestartAllContainersOnContainerExits", "ContainerRestartRules", "NodeDeclaredFeatures"],
  ["ServiceAccountTokenNodeBinding", "ServiceAccountTokenNodeBindingValidation"],
  ["StaleControllerConsistencyDaemonSet", "AtomicFIFO"],
  ["StaleControllerConsistencyHPA", "AtomicFIFO"],
  ["StaleControllerConsistencyJob", "AtomicFIFO"],
  ["StaleControllerConsistencyReplicaSet", "AtomicFIFO"],
  ["StaleControllerConsistencyStatefulSet", "AtomicFIFO"],
  ["TopologyAwareWorkloadScheduling", "GenericWorkload"],
  ["UserNamespacesHostNetworkSupport", "UserNamespacesSupport", "NodeDeclaredFeatures"],
  ["WindowsGracefulNodeShutdown", "GracefulNodeShutdown"],
  ["WorkloadWithJob", "GenericWorkload"],
  ["DeclarativeValidationBeta", "DeclarativeValidation"],
  ["DeclarativeValidationTakeover", "DeclarativeValidation"],
  ["StorageVersionAPI", "APIServerIdentity"],
  ["UnknownVersionInteroperabilityProxy", "APIServerIdentity"],
];

/** Gate → the gates it depends on, sorted as component-base sorts them (`slices.Sort`). */
export type Dependencies = ReadonlyMap<string, readonly string[]>;

function collect(pairs: Iterable<readonly [string, string]>): Dependencies {
  const out = new Map<string, string[]>();
  for (const [gate, dep] of pairs) {
    const deps = out.get(gate) ?? [];
    if (!deps.includes(dep)) deps.push(dep);
    out.set(gate, deps);
  }
  for (const deps of out.values()) deps.sort();
  return out;
}

const pairsOf = (rows: readonly DependencyRow[]): [string, string][] =>
  rows.flatMap(([gate, ...deps]) => deps.map((d): [string, string] => [gate, d]));

/**
 * The dependencies kube-scheduler of `release` checks; empty before 1.35. `knownAt137` tells
 * whether the 1.37 binary still has a gate (for 1.36, see the header).
 */
export function dependenciesAt(release: Release, knownAt137: (gate: string) => boolean): Dependencies {
  switch (release) {
    case "1.33":
    case "1.34":
      return new Map();
    case "1.35":
      return collect(pairsOf(dependencyRows135));
    case "1.36":
      return collect([
        ...pairsOf(dependencyRows137),
        ...pairsOf(dependencyRows135).filter(([gate, dep]) => !knownAt137(gate) || !knownAt137(dep)),
      ]);
    case "1.37":
      return collect(pairsOf(dependencyRows137));
  }
}
