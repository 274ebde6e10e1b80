// The kinds the scheduler watches (upstream: the shared informers kube-scheduler starts), with
// their collection paths. Pods use upstream's field selector (pkg/scheduler/scheduler.go
// newPodInformer): one informer over every non-terminal pod; the event handlers split assigned
// and unassigned pods, as upstream's FilteringResourceEventHandlers do.

import { type CustomResource, customResourceAPIVersion } from "@kubesched/framework";
import type { ClusterObjectKind } from "@kubesched/scheduler";

/**
 * Not DeviceTaintRule: upstream starts its informer only with DRADeviceTaintRules on, in the
 * release's version (deviceTaintRuleAPIVersionAt); the live source watches it when asked
 * (KubeClusterSourceOptions.deviceTaintRuleAPIVersion).
 */
export type WatchedKind = Exclude<ClusterObjectKind, "DeviceTaintRule">;

export interface ResourceSpec {
  /** The kind (a WatchedKind, or a declared custom resource's kind). */
  kind: string;
  apiVersion: string;
  /** The collection across all namespaces, e.g. /api/v1/pods. */
  path: string;
  namespaced: boolean;
  fieldSelector?: string;
}

/** upstream newPodInformer: `status.phase!=Succeeded,status.phase!=Failed`. */
export const podFieldSelector = "status.phase!=Succeeded,status.phase!=Failed";

export const resources: Readonly<Record<WatchedKind, ResourceSpec>> = {
  Node: { kind: "Node", apiVersion: "v1", path: "/api/v1/nodes", namespaced: false },
  Pod: {
    kind: "Pod",
    apiVersion: "v1",
    path: "/api/v1/pods",
    namespaced: true,
    fieldSelector: podFieldSelector,
  },
  Namespace: { kind: "Namespace", apiVersion: "v1", path: "/api/v1/namespaces", namespaced: false },
  PersistentVolume: {
    kind: "PersistentVolume",
    apiVersion: "v1",
    path: "/api/v1/persistentvolumes",
    namespaced: false,
  },
  PersistentVolumeClaim: {
    kind: "PersistentVolumeClaim",
    apiVersion: "v1",
    path: "/api/v1/persistentvolumeclaims",
    namespaced: true,
  },
  StorageClass: {
    kind: "StorageClass",
    apiVersion: "storage.k8s.io/v1",
    path: "/apis/storage.k8s.io/v1/storageclasses",
    namespaced: false,
  },
  CSINode: {
    kind: "CSINode",
    apiVersion: "storage.k8s.io/v1",
    path: "/apis/storage.k8s.io/v1/csinodes",
    namespaced: false,
  },
  PodDisruptionBudget: {
    kind: "PodDisruptionBudget",
    apiVersion: "policy/v1",
    path: "/apis/policy/v1/poddisruptionbudgets",
    namespaced: true,
  },
  Service: { kind: "Service", apiVersion: "v1", path: "/api/v1/services", namespaced: true },
  ReplicaSet: {
    kind: "ReplicaSet",
    apiVersion: "apps/v1",
    path: "/apis/apps/v1/replicasets",
    namespaced: true,
  },
  StatefulSet: {
    kind: "StatefulSet",
    apiVersion: "apps/v1",
    path: "/apis/apps/v1/statefulsets",
    namespaced: true,
  },
  ReplicationController: {
    kind: "ReplicationController",
    apiVersion: "v1",
    path: "/api/v1/replicationcontrollers",
    namespaced: true,
  },
  PriorityClass: {
    kind: "PriorityClass",
    apiVersion: "scheduling.k8s.io/v1",
    path: "/apis/scheduling.k8s.io/v1/priorityclasses",
    namespaced: false,
  },
  // DRA (upstream starts these informers since DynamicResourceAllocation is GA, 1.34).
  ResourceClaim: {
    kind: "ResourceClaim",
    apiVersion: "resource.k8s.io/v1",
    path: "/apis/resource.k8s.io/v1/resourceclaims",
    namespaced: true,
  },
  // Not watched by upstream's scheduler: kubesched plays the resourceclaim controller when it
  // simulates, so snapshots and live sources carry the templates pods name.
  ResourceClaimTemplate: {
    kind: "ResourceClaimTemplate",
    apiVersion: "resource.k8s.io/v1",
    path: "/apis/resource.k8s.io/v1/resourceclaimtemplates",
    namespaced: true,
  },
  ResourceSlice: {
    kind: "ResourceSlice",
    apiVersion: "resource.k8s.io/v1",
    path: "/apis/resource.k8s.io/v1/resourceslices",
    namespaced: false,
  },
  DeviceClass: {
    kind: "DeviceClass",
    apiVersion: "resource.k8s.io/v1",
    path: "/apis/resource.k8s.io/v1/deviceclasses",
    namespaced: false,
  },
};

/** The collection of DeviceTaintRules in one served version. */
export function deviceTaintRuleResource(apiVersion: string): ResourceSpec {
  return {
    kind: "DeviceTaintRule",
    apiVersion,
    path: `/apis/${apiVersion}/devicetaintrules`,
    namespaced: false,
  };
}

/**
 * The version upstream's scheduler watches DeviceTaintRules in (with DRADeviceTaintRules on): v1
 * from 1.37 (GA), v1beta2 in 1.36 (beta), v1alpha3 before.
 */
export function deviceTaintRuleAPIVersionAt(kubernetesVersion: string): string {
  const minor = Number(kubernetesVersion.split(".")[1]);
  return minor >= 37
    ? "resource.k8s.io/v1"
    : minor === 36
      ? "resource.k8s.io/v1beta2"
      : "resource.k8s.io/v1alpha3";
}

/**
 * Not watched by the scheduler: what the API server's LimitRanger and ResourceQuota admission
 * read. A snapshot (`readCluster`) lists them, so that the pods kubesched creates offline (a
 * workload's pods, capacity's replicas) are admitted as the cluster would admit them.
 */
export const admissionResources: readonly ResourceSpec[] = [
  { kind: "LimitRange", apiVersion: "v1", path: "/api/v1/limitranges", namespaced: true },
  { kind: "ResourceQuota", apiVersion: "v1", path: "/api/v1/resourcequotas", namespaced: true },
];

/** Every watched kind, nodes and pods first. */
export const watchedKinds: readonly WatchedKind[] = Object.keys(resources) as WatchedKind[];

/** A declared custom resource's collection (all namespaces), as its informer and a snapshot list it. */
export function customResourceSpec(r: CustomResource): ResourceSpec {
  return {
    kind: r.kind,
    apiVersion: customResourceAPIVersion(r),
    path: `/apis/${r.group}/${r.version}/${r.resource}`,
    namespaced: r.namespaced,
  };
}
