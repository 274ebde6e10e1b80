// upstream: pkg/scheduler/framework/plugins/feature/feature.go — the gates plugins read,
// with their v1.37 defaults.

/**
 * The feature gates plugins read (upstream `feature.Features`), as `handle.features()` and the
 * args specs receive them. Gates are added as new members when a release brings them.
 * @public
 */
export interface Features {
  /** Gate DRAPrioritizedList. */
  enableDRAPrioritizedList: boolean;
  /** Gate DRAAdminAccess. */
  enableDRAAdminAccess: boolean;
  /** Gate DRADeviceTaints. */
  enableDRADeviceTaints: boolean;
  /**
   * Gate DRADeviceTaintRules (alpha 1.35, beta off 1.36, GA 1.37): DeviceTaintRules' taints are
   * added to the devices they select before allocation.
   */
  enableDRADeviceTaintRules: boolean;
  /** Gate DRAExtendedResource. */
  enableDRAExtendedResource: boolean;
  /** Gate DRAPartitionableDevices: devices that consume counters of shared counter sets. */
  enableDRAPartitionableDevices: boolean;
  /** Gate DRAConsumableCapacity: devices shared by several allocations, capacity consumed. */
  enableConsumableCapacity: boolean;
  /** Gate DRADeviceBindingConditions: PreBind waits for the devices' binding conditions. */
  enableDRADeviceBindingConditions: boolean;
  /** Gate DRAResourceClaimDeviceStatus (binding conditions need it too). */
  enableDRAResourceClaimDeviceStatus: boolean;
  /**
   * Gate DRAListTypeAttributes (alpha from 1.36): list-valued device attributes, compared as sets
   * by `matchAttribute` / `distinctAttribute` constraints.
   */
  enableDRAListTypeAttributes: boolean;
  /**
   * Gate DRADeviceCompatibilityGroups (alpha in 1.37): devices drawing from one counter set are
   * allocated together only while the `compatibilityGroups` they declare there intersect.
   */
  enableDRADeviceCompatibilityGroups: boolean;
  /**
   * Gate DRADerivedAttributes (alpha in 1.37): a request's `derivedAttributes`, values computed by
   * CEL per device, compared by the claim's constraints.
   */
  enableDRADerivedAttributes: boolean;
  /**
   * Gate DRAOptionalNodeOperations (alpha in 1.37): devices of slices with `skipNodeOperations`
   * go only to nodes that declare the feature (`status.declaredFeatures`); off, they are not
   * allocated.
   */
  enableDRAOptionalNodeOperations: boolean;
  /**
   * Gate DRAFractionalCapacityRange (beta in 1.37, off by default): consumable capacity request
   * policy ranges computed in milli units, so fractional min/step/max round requests exactly.
   */
  enableDRAFractionalCapacityRange: boolean;
  /**
   * Gate DRAPreemption (KEP-5690, alpha, off by default): the preemption dry run sees the devices
   * of claims that only victims use as freed (DynamicResources' AddPod/RemovePod).
   */
  enableDRAPreemption: boolean;
  /**
   * Gate DRASchedulerFilterTimeout (beta from 1.34, on by default): DynamicResources' Filter stops
   * the allocator after its `filterTimeout` arg; off, it runs unbounded.
   */
  enableDRASchedulerFilterTimeout: boolean;
  /**
   * Gate DRANodeAllocatableResources (KEP-5517, alpha from 1.36, off by default): devices whose
   * `nodeAllocatableResources` map to cpu, memory or hugepages count against the node's
   * allocatable (DynamicResources' Filter), the pod's `status.nodeAllocatableResourceClaimStatuses`
   * is written at assume and PreBind, and NodeResourcesFit counts it in the pod's request.
   */
  enableDRANodeAllocatableResources: boolean;
  /** Gate DynamicResourceAllocation. */
  enableDynamicResourceAllocation: boolean;
  /** Gate VolumeAttributesClass. */
  enableVolumeAttributesClass: boolean;
  /** Gate CSIMigrationPortworx. */
  enableCSIMigrationPortworx: boolean;
  /** Gate NodeInclusionPolicyInPodTopologySpread. */
  enableNodeInclusionPolicyInPodTopologySpread: boolean;
  /** Gate MatchLabelKeysInPodTopologySpread. */
  enableMatchLabelKeysInPodTopologySpread: boolean;
  /** Gate InPlacePodVerticalScaling. */
  enableInPlacePodVerticalScaling: boolean;
  /** Gate InPlacePodLevelResourcesVerticalScaling. */
  enableInPlacePodLevelResourcesVerticalScaling: boolean;
  /** Gate SidecarContainers. */
  enableSidecarContainers: boolean;
  /** Gate SchedulerQueueingHints. */
  enableSchedulingQueueHint: boolean;
  /** Gate SchedulerAsyncPreemption. */
  enableAsyncPreemption: boolean;
  /** Gate PodLevelResources. */
  enablePodLevelResources: boolean;
  /** Gate StorageCapacityScoring. */
  enableStorageCapacityScoring: boolean;
  /** Gate NodeDeclaredFeatures. */
  enableNodeDeclaredFeatures: boolean;
  /** Gate TaintTolerationComparisonOperators. */
  enableTaintTolerationComparisonOperators: boolean;
  /** Gate VolumeLimitScaling. */
  enableVolumeLimitScaling: boolean;
  /**
   * Gate OpportunisticBatching (KEP-5598): the scheduler reuses a cycle's sorted nodes for the
   * next pods with the same signature. Read by the scheduler, not by plugins.
   */
  enableOpportunisticBatching: boolean;
}

/**
 * The Kubernetes release the framework's behaviour tracks (`major.minor`), and what
 * `handle.kubernetesVersion()` returns unless the scheduler emulates an older one.
 * @public
 */
export const defaultKubernetesVersion = "1.37";

/**
 * The minor of a `major.minor` Kubernetes release (`"1.35"` → 35), for plugins whose behaviour
 * changed between releases (`minorOf(handle.kubernetesVersion()) < 36`).
 * @public
 */
export function minorOf(release: string): number {
  return Number(release.split(".")[1] ?? Number.NaN);
}

/**
 * The gates' Kubernetes 1.37 defaults.
 * @public
 */
export const defaultFeatures: Readonly<Features> = Object.freeze({
  enableDRAPrioritizedList: true,
  enableDRAAdminAccess: true,
  enableDRADeviceTaints: true,
  enableDRADeviceTaintRules: true,
  enableDRAExtendedResource: true,
  enableDRAPartitionableDevices: true,
  enableConsumableCapacity: true,
  enableDRADeviceBindingConditions: true,
  enableDRAResourceClaimDeviceStatus: true,
  enableDRAListTypeAttributes: false,
  enableDRADeviceCompatibilityGroups: false,
  enableDRADerivedAttributes: false,
  enableDRAOptionalNodeOperations: false,
  enableDRAFractionalCapacityRange: false,
  enableDRAPreemption: false,
  enableDRASchedulerFilterTimeout: true,
  enableDRANodeAllocatableResources: false,
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
  enableOpportunisticBatching: true,
});
