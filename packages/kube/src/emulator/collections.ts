// The collections the emulator serves (the kinds the scheduler lists and watches, LimitRanges and
// ResourceQuotas a snapshot reads, Leases, Events and scheduler-plugins' CRDs), and the key an object is stored under.

export interface KindInfo {
  kind: string;
  apiVersion: string;
  namespaced: boolean;
}

/** The collections served, by "<group-version path>/<resource>". */
export const collections: Record<string, KindInfo> = {
  "api/v1/nodes": { kind: "Node", apiVersion: "v1", namespaced: false },
  "api/v1/pods": { kind: "Pod", apiVersion: "v1", namespaced: true },
  "api/v1/namespaces": { kind: "Namespace", apiVersion: "v1", namespaced: false },
  "api/v1/persistentvolumes": { kind: "PersistentVolume", apiVersion: "v1", namespaced: false },
  "api/v1/persistentvolumeclaims": { kind: "PersistentVolumeClaim", apiVersion: "v1", namespaced: true },
  "api/v1/services": { kind: "Service", apiVersion: "v1", namespaced: true },
  "api/v1/replicationcontrollers": { kind: "ReplicationController", apiVersion: "v1", namespaced: true },
  "api/v1/limitranges": { kind: "LimitRange", apiVersion: "v1", namespaced: true },
  "api/v1/resourcequotas": { kind: "ResourceQuota", apiVersion: "v1", namespaced: true },
  "apis/storage.k8s.io/v1/storageclasses": {
    kind: "StorageClass",
    apiVersion: "storage.k8s.io/v1",
    namespaced: false,
  },
  "apis/storage.k8s.io/v1/csinodes": { kind: "CSINode", apiVersion: "storage.k8s.io/v1", namespaced: false },
  "apis/policy/v1/poddisruptionbudgets": {
    kind: "PodDisruptionBudget",
    apiVersion: "policy/v1",
    namespaced: true,
  },
  "apis/apps/v1/replicasets": { kind: "ReplicaSet", apiVersion: "apps/v1", namespaced: true },
  "apis/apps/v1/statefulsets": { kind: "StatefulSet", apiVersion: "apps/v1", namespaced: true },
  "apis/scheduling.k8s.io/v1/priorityclasses": {
    kind: "PriorityClass",
    apiVersion: "scheduling.k8s.io/v1",
    namespaced: false,
  },
  "apis/resource.k8s.io/v1/resourceclaims": {
    kind: "ResourceClaim",
    apiVersion: "resource.k8s.io/v1",
    namespaced: true,
  },
  "apis/resource.k8s.io/v1/resourceclaimtemplates": {
    kind: "ResourceClaimTemplate",
    apiVersion: "resource.k8s.io/v1",
    namespaced: true,
  },
  "apis/resource.k8s.io/v1/resourceslices": {
    kind: "ResourceSlice",
    apiVersion: "resource.k8s.io/v1",
    namespaced: false,
  },
  "apis/resource.k8s.io/v1/deviceclasses": {
    kind: "DeviceClass",
    apiVersion: "resource.k8s.io/v1",
    namespaced: false,
  },
  // 1.37: DRADeviceTaintRules is GA, the API served in v1.
  "apis/resource.k8s.io/v1/devicetaintrules": {
    kind: "DeviceTaintRule",
    apiVersion: "resource.k8s.io/v1",
    namespaced: false,
  },
  "apis/coordination.k8s.io/v1/leases": {
    kind: "Lease",
    apiVersion: "coordination.k8s.io/v1",
    namespaced: true,
  },
  "apis/events.k8s.io/v1/events": { kind: "Event", apiVersion: "events.k8s.io/v1", namespaced: true },
  // scheduler-plugins' CRDs, as if installed, for the informers of plugins' custom resources
  "apis/scheduling.x-k8s.io/v1alpha1/podgroups": {
    kind: "PodGroup",
    apiVersion: "scheduling.x-k8s.io/v1alpha1",
    namespaced: true,
  },
  "apis/scheduling.x-k8s.io/v1alpha1/elasticquotas": {
    kind: "ElasticQuota",
    apiVersion: "scheduling.x-k8s.io/v1alpha1",
    namespaced: true,
  },
};

/**
 * Collections known but off unless turned on (`FakeApiServerOptions.runtimeConfig`), as an API
 * server serves beta and alpha APIs only with --runtime-config: DeviceTaintRules in the versions
 * of 1.36 (v1beta2) and 1.35 (v1alpha3).
 */
export const optionalCollections: Record<string, KindInfo> = {
  "apis/resource.k8s.io/v1beta2/devicetaintrules": {
    kind: "DeviceTaintRule",
    apiVersion: "resource.k8s.io/v1beta2",
    namespaced: false,
  },
  "apis/resource.k8s.io/v1alpha3/devicetaintrules": {
    kind: "DeviceTaintRule",
    apiVersion: "resource.k8s.io/v1alpha3",
    namespaced: false,
  },
};

/** The collection of a kind; throws for a kind the emulator does not serve. */
export function kindInfo(kind: string): KindInfo {
  const info = Object.values(collections).find((c) => c.kind === kind);
  if (!info) throw new Error(`the fake API server does not serve ${kind}`);
  return info;
}

/** "namespace/name" for namespaced kinds, "/name" for cluster-scoped ones. */
export function keyOf(info: KindInfo, namespace: string | undefined, name: string): string {
  return `${info.namespaced ? (namespace ?? "") : ""}/${name}`;
}
