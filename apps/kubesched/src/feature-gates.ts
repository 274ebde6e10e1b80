// kube-scheduler's --feature-gates (component-base featuregate): "Name=true,Other=false" over
// the release's defaults. The gates the plugins read (pkg/scheduler/framework/plugins/feature)
// feed `Features`; other scheduler gates of v1.37 are accepted and have no effect here (a
// warning says so); GA gates locked to their default refuse the other value; unknown names are
// an error, as upstream's.
import { defaultFeatures, type Features } from "@kubesched/framework";

/**
 * Upstream gate name → the Features field it sets (every field but enableSchedulingQueueHint,
 * whose gate upstream removed when it went GA).
 */
export const featureGateNames: Readonly<Record<string, keyof Features>> = {
  DRAPrioritizedList: "enableDRAPrioritizedList",
  DRAAdminAccess: "enableDRAAdminAccess",
  DRADeviceTaints: "enableDRADeviceTaints",
  DRAExtendedResource: "enableDRAExtendedResource",
  DynamicResourceAllocation: "enableDynamicResourceAllocation",
  VolumeAttributesClass: "enableVolumeAttributesClass",
  CSIMigrationPortworx: "enableCSIMigrationPortworx",
  NodeInclusionPolicyInPodTopologySpread: "enableNodeInclusionPolicyInPodTopologySpread",
  MatchLabelKeysInPodTopologySpread: "enableMatchLabelKeysInPodTopologySpread",
  InPlacePodVerticalScaling: "enableInPlacePodVerticalScaling",
  InPlacePodLevelResourcesVerticalScaling: "enableInPlacePodLevelResourcesVerticalScaling",
  SidecarContainers: "enableSidecarContainers",
  SchedulerAsyncPreemption: "enableAsyncPreemption",
  PodLevelResources: "enablePodLevelResources",
  StorageCapacityScoring: "enableStorageCapacityScoring",
  NodeDeclaredFeatures: "enableNodeDeclaredFeatures",
  TaintTolerationComparisonOperators: "enableTaintTolerationComparisonOperators",
  VolumeLimitScaling: "enableVolumeLimitScaling",
};

/** GA gates locked to their default in v1.37. */
export const lockedFeatureGates: ReadonlySet<string> = new Set([
  "DynamicResourceAllocation",
  "NodeDeclaredFeatures",
]);

/** v1.37 scheduler gates kubesched accepts without modelling them. */
export const inertFeatureGates: ReadonlySet<string> = new Set([
  "SchedulerPopFromBackoffQ",
  "NominatedNodeNameForExpectation",
  "OpportunisticBatching",
  "SchedulerAsyncAPICalls",
  "GenericWorkload",
  "GangScheduling",
  "CompositePodGroup",
  "TopologyAwareWorkloadScheduling",
  "PodGroupPreemptionPolicy",
  "SchedulerPreQueueingHints",
  "InterPodAffinityHostnameFastPath",
  "InPlacePodVerticalScalingSchedulerPreemption",
  "DRASchedulerFilterTimeout",
  "DRADeviceBindingConditions",
  "DRAConsumableCapacity",
  "DRAPartitionableDevices",
  "DRAResourceClaimDeviceStatus",
  "DRAWorkloadResourceClaims",
  "CoordinatedLeaderElection",
  "AllAlpha",
  "AllBeta",
]);

export interface ParsedFeatureGates {
  features: Partial<Features>;
  /** Gates accepted without effect. */
  warnings: string[];
}

/** Parses --feature-gates; throws an Error with upstream's wording on a bad entry. */
export function parseFeatureGates(spec: string): ParsedFeatureGates {
  const features: Partial<Features> = {};
  const warnings: string[] = [];
  for (const raw of spec.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const eq = entry.indexOf("=");
    if (eq < 0) throw new Error(`missing bool value for ${entry}`);
    const name = entry.slice(0, eq).trim();
    const text = entry.slice(eq + 1).trim();
    const value = text === "true" ? true : text === "false" ? false : null;
    if (value === null) {
      throw new Error(`invalid value of ${name}=${text}: must be true or false`);
    }
    const field = featureGateNames[name];
    if (field) {
      if (lockedFeatureGates.has(name) && value !== defaultFeatures[field]) {
        throw new Error(
          `cannot set feature gate ${name} to ${value}, feature is locked to ${defaultFeatures[field]}`,
        );
      }
      features[field] = value;
    } else if (inertFeatureGates.has(name)) {
      warnings.push(`feature gate ${name}=${value} has no effect in kubesched`);
    } else {
      throw new Error(`unrecognized feature gate: ${name}`);
    }
  }
  return { features, warnings };
}
