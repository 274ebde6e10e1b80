// upstream: pkg/scheduler/framework/plugins/feature/feature.go — the gates plugins read,
// with their v1.37 defaults.

export interface Features {
  enableDRAPrioritizedList: boolean;
  enableDRAAdminAccess: boolean;
  enableDRADeviceTaints: boolean;
  enableDRAExtendedResource: boolean;
  enableDynamicResourceAllocation: boolean;
  enableVolumeAttributesClass: boolean;
  enableCSIMigrationPortworx: boolean;
  enableNodeInclusionPolicyInPodTopologySpread: boolean;
  enableMatchLabelKeysInPodTopologySpread: boolean;
  enableInPlacePodVerticalScaling: boolean;
  enableInPlacePodLevelResourcesVerticalScaling: boolean;
  enableSidecarContainers: boolean;
  enableSchedulingQueueHint: boolean;
  enableAsyncPreemption: boolean;
  enablePodLevelResources: boolean;
  enableStorageCapacityScoring: boolean;
  enableNodeDeclaredFeatures: boolean;
  enableTaintTolerationComparisonOperators: boolean;
  enableVolumeLimitScaling: boolean;
}

export const defaultFeatures: Readonly<Features> = Object.freeze({
  enableDRAPrioritizedList: true,
  enableDRAAdminAccess: true,
  enableDRADeviceTaints: true,
  enableDRAExtendedResource: true,
  enableDynamicResourceAllocation: true,
  enableVolumeAttributesClass: true,
  enableCSIMigrationPortworx: true,
  enableNodeInclusionPolicyInPodTopologySpread: true,
  enableMatchLabelKeysInPodTopologySpread: true,
  enableInPlacePodVerticalScaling: true,
  enableInPlacePodLevelResourcesVerticalScaling: true,
  enableSidecarContainers: true,
  enableSchedulingQueueHint: true,
  enableAsyncPreemption: true,
  enablePodLevelResources: true,
  enableStorageCapacityScoring: true,
  enableNodeDeclaredFeatures: true,
  enableTaintTolerationComparisonOperators: false,
  enableVolumeLimitScaling: true,
});
