// upstream: staging/src/k8s.io/kube-scheduler/framework/types.go (ActionType, EventResource, ClusterEvent)
import type { Pod } from "@kubesched/api";

/**
 * What happened to an object in a {@link ClusterEvent}: bit flags, in upstream's exact order
 * (`ActionType.Add | ActionType.UpdateNodeLabel`).
 * @public
 */
export const ActionType = {
  /** The object was added. */
  Add: 1 << 0,
  /** The object was deleted. */
  Delete: 1 << 1,
  /** A node's allocatable changed. */
  UpdateNodeAllocatable: 1 << 2,
  /** A node's labels changed. */
  UpdateNodeLabel: 1 << 3,
  /** A node's taints changed. */
  UpdateNodeTaint: 1 << 4,
  /** A node's conditions changed. */
  UpdateNodeCondition: 1 << 5,
  /** A node's annotations changed. */
  UpdateNodeAnnotation: 1 << 6,
  /** A node's declared features changed. */
  UpdateNodeDeclaredFeature: 1 << 7,
  /** A node's preemption policy changed. */
  UpdateNodePreemptionPolicy: 1 << 8,
  /** A pod's labels changed. */
  UpdatePodLabel: 1 << 9,
  /** A pod's requests went down (in-place resize). */
  UpdatePodScaleDown: 1 << 10,
  /** A pod's requests went up (in-place resize). */
  UpdatePodScaleUp: 1 << 11,
  /** A pod's tolerations changed. */
  UpdatePodToleration: 1 << 12,
  /** A pod's scheduling gates were all removed. */
  UpdatePodSchedulingGatesEliminated: 1 << 13,
  /** A pod's generated ResourceClaim names were set in its status. */
  UpdatePodGeneratedResourceClaim: 1 << 14,
  /** Any update (all Update* bits). */
  Update: 0,
  /** Everything. */
  All: (1 << 15) - 1,
  /** Nothing. */
  None: 0,
};
ActionType.Update = ActionType.All & ~(ActionType.Add | ActionType.Delete);
/**
 * A combination of {@link ActionType} bits.
 * @public
 */
export type ActionTypeValue = number;

const actionNames: ReadonlyArray<[number, string]> = [
  [ActionType.Add, "Add"],
  [ActionType.Delete, "Delete"],
  [ActionType.UpdateNodeAllocatable, "UpdateNodeAllocatable"],
  [ActionType.UpdateNodeLabel, "UpdateNodeLabel"],
  [ActionType.UpdateNodeTaint, "UpdateNodeTaint"],
  [ActionType.UpdateNodeCondition, "UpdateNodeCondition"],
  [ActionType.UpdateNodeAnnotation, "UpdateNodeAnnotation"],
  [ActionType.UpdateNodeDeclaredFeature, "UpdateNodeDeclaredFeature"],
  [ActionType.UpdateNodePreemptionPolicy, "UpdateNodePreemptionPolicy"],
  [ActionType.UpdatePodLabel, "UpdatePodLabel"],
  [ActionType.UpdatePodScaleDown, "UpdatePodScaleDown"],
  [ActionType.UpdatePodScaleUp, "UpdatePodScaleUp"],
  [ActionType.UpdatePodToleration, "UpdatePodToleration"],
  [ActionType.UpdatePodSchedulingGatesEliminated, "UpdatePodSchedulingGatesEliminated"],
  [ActionType.UpdatePodGeneratedResourceClaim, "UpdatePodGeneratedResourceClaim"],
];

/**
 * Upstream ActionType.String(): "All", "Update", or the names joined with "|".
 * @public
 */
export function actionTypeString(a: number): string {
  if (a === ActionType.All) return "All";
  if (a === ActionType.Update) return "Update";
  const parts: string[] = [];
  for (const [bit, name] of actionNames) if ((a & bit) !== 0) parts.push(name);
  return parts.length ? parts.join("|") : "None";
}

/**
 * Resources cluster events are about, with upstream's exact strings. Custom resources are named
 * by {@link customResourceEventName}.
 * @public
 */
export const EventResource = {
  /** Matches AssignedPod, UnscheduledPod and TargetPod. */
  Pod: "Pod",
  /** A pod bound to a node. */
  AssignedPod: "AssignedPod",
  /** A pod not bound to a node. */
  UnscheduledPod: "UnscheduledPod",
  /** The pod being requeued itself. */
  TargetPod: "TargetPod",
  /** Nodes. */
  Node: "Node",
  /** PersistentVolumes. */
  PersistentVolume: "PersistentVolume",
  /** PersistentVolumeClaims. */
  PersistentVolumeClaim: "PersistentVolumeClaim",
  /** CSINodes. */
  CSINode: "storage.k8s.io/CSINode",
  /** CSIDrivers. */
  CSIDriver: "storage.k8s.io/CSIDriver",
  /** VolumeAttachments. */
  VolumeAttachment: "storage.k8s.io/VolumeAttachment",
  /** CSIStorageCapacities. */
  CSIStorageCapacity: "storage.k8s.io/CSIStorageCapacity",
  /** StorageClasses. */
  StorageClass: "storage.k8s.io/StorageClass",
  /** DRA ResourceClaims. */
  ResourceClaim: "resource.k8s.io/ResourceClaim",
  /** DRA ResourceSlices. */
  ResourceSlice: "resource.k8s.io/ResourceSlice",
  /** DRA DeviceClasses. */
  DeviceClass: "resource.k8s.io/DeviceClass",
  /** Any resource. */
  WildCard: "*",
} as const;
/**
 * One of the {@link EventResource} strings, or a custom resource's event name.
 * @public
 */
export type EventResource = (typeof EventResource)[keyof typeof EventResource] | (string & {});

/**
 * A change in the cluster (upstream ClusterEvent): what a plugin registers in
 * `eventsToRegister()` and what the queue matches against it.
 * @public
 */
export interface ClusterEvent {
  /** The kind of object that changed. */
  resource: EventResource;
  /** What happened to it: {@link ActionType} bits. */
  actionType: number;
  /** Overrides the label (used by special events such as ScheduleAttemptFailure). */
  customLabel?: string;
}

/**
 * `<Resource><ActionType>` (e.g. NodeAdd, AssignedPodDelete) or the custom label.
 * @internal
 */
export function clusterEventLabel(e: ClusterEvent): string {
  return e.customLabel ?? `${e.resource}${actionTypeString(e.actionType)}`;
}

/**
 * Whether a registered event matches an incoming one (upstream ClusterEvent.Match).
 * @internal
 */
export function clusterEventMatch(registered: ClusterEvent, incoming: ClusterEvent): boolean {
  if (registered.resource === EventResource.WildCard && registered.actionType === ActionType.All) return true;
  const resourceMatch =
    registered.resource === incoming.resource ||
    registered.resource === EventResource.WildCard ||
    (registered.resource === EventResource.Pod &&
      (incoming.resource === EventResource.AssignedPod ||
        incoming.resource === EventResource.UnscheduledPod ||
        incoming.resource === EventResource.TargetPod));
  return (
    resourceMatch &&
    (registered.actionType & incoming.actionType) !== 0 &&
    incoming.actionType <= registered.actionType
  );
}

/**
 * QueueingHint: whether an event may make a rejected pod schedulable.
 * @public
 */
export const QueueingHint = {
  /** The event cannot make the pod schedulable: it stays where it is. */
  QueueSkip: 0,
  /** The event may make the pod schedulable: it is moved to activeQ or backoffQ. */
  Queue: 1,
} as const;
/**
 * {@link QueueingHint.Queue} or {@link QueueingHint.QueueSkip}.
 * @public
 */
export type QueueingHint = (typeof QueueingHint)[keyof typeof QueueingHint];

/**
 * Decides whether `event` may make `pod` (rejected by the plugin) schedulable.
 * oldObj/newObj are the changed object's versions (undefined for add/delete respectively).
 * Throwing counts as Queue, as an error does upstream.
 * @public
 */
export type QueueingHintFn = (pod: Pod, oldObj: unknown, newObj: unknown) => QueueingHint;

/**
 * An event a plugin registers, with the hint that decides per pod (upstream ClusterEventWithHint).
 * @public
 */
export interface ClusterEventWithHint {
  /** The event. */
  event: ClusterEvent;
  /** Absent: always Queue. */
  queueingHintFn?: QueueingHintFn;
}

/**
 * Special events the queue emits (upstream's labels).
 * @internal
 */
export const SpecialEvents = {
  /** A scheduling attempt failed. */
  ScheduleAttemptFailure: "ScheduleAttemptFailure",
  /** A pod's backoff ended. */
  BackoffComplete: "BackoffComplete",
  /** A pod was popped from backoffQ. */
  PopFromBackoffQ: "PopFromBackoffQ",
  /** A pod was activated (PodActivator). */
  ForceActivate: "ForceActivate",
  /** A pod stayed unschedulable past the flush interval. */
  UnschedulableTimeout: "UnschedulableTimeout",
  /** An unscheduled pod was added. */
  UnscheduledPodAdd: "UnscheduledPodAdd",
  /** An unscheduled pod was updated. */
  UnscheduledPodUpdate: "UnscheduledPodUpdate",
  /** An assigned pod was added. */
  AssignedPodAdd: "AssignedPodAdd",
  /** An assigned pod was deleted. */
  AssignedPodDelete: "AssignedPodDelete",
} as const;
