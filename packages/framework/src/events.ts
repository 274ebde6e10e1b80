// upstream: staging/src/k8s.io/kube-scheduler/framework/types.go (ActionType, EventResource, ClusterEvent)
import type { Pod } from "@kubesched/api";

/** Bit flags, in upstream's exact order. */
export const ActionType = {
  Add: 1 << 0,
  Delete: 1 << 1,
  UpdateNodeAllocatable: 1 << 2,
  UpdateNodeLabel: 1 << 3,
  UpdateNodeTaint: 1 << 4,
  UpdateNodeCondition: 1 << 5,
  UpdateNodeAnnotation: 1 << 6,
  UpdateNodeDeclaredFeature: 1 << 7,
  UpdateNodePreemptionPolicy: 1 << 8,
  UpdatePodLabel: 1 << 9,
  UpdatePodScaleDown: 1 << 10,
  UpdatePodScaleUp: 1 << 11,
  UpdatePodToleration: 1 << 12,
  UpdatePodSchedulingGatesEliminated: 1 << 13,
  UpdatePodGeneratedResourceClaim: 1 << 14,
  /** Any update (all Update* bits). */
  Update: 0,
  /** Everything. */
  All: (1 << 15) - 1,
  None: 0,
};
ActionType.Update = ActionType.All & ~(ActionType.Add | ActionType.Delete);
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

/** Upstream ActionType.String(): "All", "Update", or the names joined with "|". */
export function actionTypeString(a: number): string {
  if (a === ActionType.All) return "All";
  if (a === ActionType.Update) return "Update";
  const parts: string[] = [];
  for (const [bit, name] of actionNames) if ((a & bit) !== 0) parts.push(name);
  return parts.length ? parts.join("|") : "None";
}

/** Resources cluster events are about, with upstream's exact strings. */
export const EventResource = {
  /** Matches AssignedPod, UnscheduledPod and TargetPod. */
  Pod: "Pod",
  AssignedPod: "AssignedPod",
  UnscheduledPod: "UnscheduledPod",
  /** The pod being requeued itself. */
  TargetPod: "TargetPod",
  Node: "Node",
  PersistentVolume: "PersistentVolume",
  PersistentVolumeClaim: "PersistentVolumeClaim",
  CSINode: "storage.k8s.io/CSINode",
  CSIDriver: "storage.k8s.io/CSIDriver",
  VolumeAttachment: "storage.k8s.io/VolumeAttachment",
  CSIStorageCapacity: "storage.k8s.io/CSIStorageCapacity",
  StorageClass: "storage.k8s.io/StorageClass",
  ResourceClaim: "resource.k8s.io/ResourceClaim",
  ResourceSlice: "resource.k8s.io/ResourceSlice",
  DeviceClass: "resource.k8s.io/DeviceClass",
  WildCard: "*",
} as const;
export type EventResource = (typeof EventResource)[keyof typeof EventResource] | (string & {});

export interface ClusterEvent {
  resource: EventResource;
  actionType: number;
  /** Overrides the label (used by special events such as ScheduleAttemptFailure). */
  customLabel?: string;
}

/** `<Resource><ActionType>` (e.g. NodeAdd, AssignedPodDelete) or the custom label. */
export function clusterEventLabel(e: ClusterEvent): string {
  return e.customLabel ?? `${e.resource}${actionTypeString(e.actionType)}`;
}

/** Whether a registered event matches an incoming one (upstream ClusterEvent.Match). */
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

/** QueueingHint: whether an event may make a rejected pod schedulable. */
export const QueueingHint = { QueueSkip: 0, Queue: 1 } as const;
export type QueueingHint = (typeof QueueingHint)[keyof typeof QueueingHint];

/**
 * Decides whether `event` may make `pod` (rejected by the plugin) schedulable.
 * oldObj/newObj are the changed object's versions (undefined for add/delete respectively).
 * Throwing counts as Queue, as an error does upstream.
 */
export type QueueingHintFn = (pod: Pod, oldObj: unknown, newObj: unknown) => QueueingHint;

export interface ClusterEventWithHint {
  event: ClusterEvent;
  /** Absent: always Queue. */
  queueingHintFn?: QueueingHintFn;
}

/** Special events the queue emits (upstream's labels). */
export const SpecialEvents = {
  ScheduleAttemptFailure: "ScheduleAttemptFailure",
  BackoffComplete: "BackoffComplete",
  PopFromBackoffQ: "PopFromBackoffQ",
  ForceActivate: "ForceActivate",
  UnschedulableTimeout: "UnschedulableTimeout",
  UnscheduledPodAdd: "UnscheduledPodAdd",
  UnscheduledPodUpdate: "UnscheduledPodUpdate",
  AssignedPodAdd: "AssignedPodAdd",
  AssignedPodDelete: "AssignedPodDelete",
} as const;
