// What the scheduler needs from a cluster: informer-like event delivery, listers and writes.
// @kubesched/cluster (in-memory, simulation) implements it; a source over a real API server
// (live mode) implements the same interface.
// It lives here rather than in @kubesched/cluster because the engine consumes it and the
// dependency direction is scheduler <- {cluster, kube}; @kubesched/cluster re-exports it.
import type { Node, Pod } from "@kubesched/api";
import type { ClusterClient, ClusterListers, CustomResource, EventRecorder } from "@kubesched/framework";

/** Kinds other than Pod and Node whose changes can make pods schedulable. */
export type OtherResourceKind =
  | "PersistentVolume"
  | "PersistentVolumeClaim"
  | "StorageClass"
  | "CSINode"
  | "CSIDriver"
  | "CSIStorageCapacity"
  | "Namespace"
  | "Service"
  | "ReplicaSet"
  | "StatefulSet"
  | "ReplicationController"
  | "PodDisruptionBudget"
  | "PriorityClass"
  | "ResourceClaim"
  | "ResourceClaimTemplate"
  | "ResourceSlice"
  | "DeviceClass"
  | "DeviceTaintRule";

/** The kinds a cluster source holds: what the scheduler and its in-tree plugins read. */
export type ClusterObjectKind =
  | "Node"
  | "Pod"
  | "Namespace"
  | "PriorityClass"
  | "PersistentVolume"
  | "PersistentVolumeClaim"
  | "StorageClass"
  | "CSINode"
  | "PodDisruptionBudget"
  | "Service"
  | "ReplicaSet"
  | "StatefulSet"
  | "ReplicationController"
  | "ResourceClaim"
  | "ResourceClaimTemplate"
  | "ResourceSlice"
  | "DeviceClass"
  | "DeviceTaintRule";

/** Informer-style callbacks. A source replays existing objects as adds on subscribe. */
export interface ClusterEventHandlers {
  onNodeAdd(node: Node): void;
  onNodeUpdate(oldNode: Node, newNode: Node): void;
  onNodeDelete(node: Node): void;
  onPodAdd(pod: Pod): void;
  onPodUpdate(oldPod: Pod, newPod: Pod): void;
  onPodDelete(pod: Pod): void;
  onOtherEvent(
    kind: OtherResourceKind,
    action: "Add" | "Update" | "Delete",
    oldObj: unknown,
    newObj: unknown,
  ): void;
  /** An object of a declared custom resource changed (sources without any never call it). */
  onCustomResourceEvent?(
    resource: CustomResource,
    action: "Add" | "Update" | "Delete",
    oldObj: unknown,
    newObj: unknown,
  ): void;
}

export interface ClusterSource {
  listers(): ClusterListers;
  client(): ClusterClient;
  eventRecorder(): EventRecorder;
  /** Registers the handlers and delivers the current objects as adds (nodes before pods). */
  subscribe(handlers: ClusterEventHandlers): void;
}
