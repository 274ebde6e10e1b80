// upstream: pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go
// (EventsToRegister, isSchedulableAfterPodDeleted, isSchedulableAfterPersistentVolumeClaimAdded)
import {
  ActionType,
  as,
  asPod,
  type ClusterEventWithHint,
  EventResource,
  PersistentVolumeClaimKind,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";
import { isVolumeConflict, restrictedVolumes } from "./conflicts";

/**
 * Queue when the deleted pod (same namespace) held an in-line volume that conflicts with the
 * pod's, or used one of the pod's PVCs (it may have blocked a ReadWriteOncePod claim).
 */
export const isSchedulableAfterPodDeleted: QueueingHintFn = (pod, oldObj) => {
  const deletedPod = asPod(oldObj)!;
  if ((deletedPod.metadata?.namespace ?? "") !== (pod.metadata?.namespace ?? "")) {
    return QueueingHint.QueueSkip;
  }
  for (const v of restrictedVolumes(pod)) {
    if (isVolumeConflict(v, deletedPod)) return QueueingHint.Queue;
  }
  // The PVC's access mode is not fetched here (upstream: it could be expensive), so any shared
  // claim queues the pod.
  const claims = new Set<string>();
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim) claims.add(v.persistentVolumeClaim.claimName);
  }
  for (const v of deletedPod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim && claims.has(v.persistentVolumeClaim.claimName)) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
};

/** Queue when the added PVC (same namespace) is one the pod uses: its access mode must be read. */
export const isSchedulableAfterPersistentVolumeClaimAdded: QueueingHintFn = (pod, _oldObj, newObj) => {
  const pvc = as(undefined, newObj, PersistentVolumeClaimKind)[1]!;
  if ((pvc.metadata?.namespace ?? "") !== (pod.metadata?.namespace ?? "")) return QueueingHint.QueueSkip;
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim && v.persistentVolumeClaim.claimName === pvc.metadata?.name) {
      return QueueingHint.Queue;
    }
  }
  return QueueingHint.QueueSkip;
};

export function eventsToRegister(enableSchedulingQueueHint: boolean): ClusterEventWithHint[] {
  // Without QueueingHints, preCheck may drop Node/Add, so taint and label updates are registered too (#109437).
  const nodeActionType = enableSchedulingQueueHint
    ? ActionType.Add
    : ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel;
  return [
    // Deleting a pod releases its volumes; spec.volumes is immutable, so pod updates are ignored.
    {
      event: { resource: EventResource.Pod, actionType: ActionType.Delete },
      queueingHintFn: isSchedulableAfterPodDeleted,
    },
    // Any new node may fit.
    { event: { resource: EventResource.Node, actionType: nodeActionType } },
    // The PVC must exist to read its access modes.
    {
      event: { resource: EventResource.PersistentVolumeClaim, actionType: ActionType.Add },
      queueingHintFn: isSchedulableAfterPersistentVolumeClaimAdded,
    },
  ];
}
