// upstream: pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (EventsToRegister and hints)
import type { StorageClass } from "@kubesched/api";
import {
  ActionType,
  as,
  type ClusterEventWithHint,
  CSINodeKind,
  EventResource,
  hintObjectKind,
  PersistentVolumeClaimKind,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";

const StorageClassKind = hintObjectKind<StorageClass>("*storagev1.StorageClass", "StorageClass");

// As upstream, the hints dereference the converted objects without a nil check (`x!`): a missing
// object throws, like Go's nil-pointer panic, and the queue counts a throw as Queue.

/** Queue when the added or updated PVC is one of the pod's (directly or its ephemeral volume). */
export const isSchedulableAfterPersistentVolumeClaimChange: QueueingHintFn = (pod, oldObj, newObj) => {
  const [, pvc] = as(oldObj, newObj, PersistentVolumeClaimKind);
  if ((pvc!.metadata?.namespace ?? "") !== (pod.metadata?.namespace ?? "")) return QueueingHint.QueueSkip;
  for (const v of pod.spec?.volumes ?? []) {
    const claim = v.persistentVolumeClaim
      ? v.persistentVolumeClaim.claimName
      : v.ephemeral
        ? `${pod.metadata?.name ?? ""}-${v.name}`
        : undefined;
    if (claim === pvc!.metadata?.name) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
};

/** Queue on a new StorageClass, or an update that changed its allowed topologies. */
export const isSchedulableAfterStorageClassChange: QueueingHintFn = (_pod, oldObj, newObj) => {
  const [old, sc] = as(oldObj, newObj, StorageClassKind);
  if (old === undefined) return QueueingHint.Queue;
  return JSON.stringify(old.allowedTopologies ?? []) !== JSON.stringify(sc!.allowedTopologies ?? [])
    ? QueueingHint.Queue
    : QueueingHint.QueueSkip;
};

const migratedPluginsAnnotation = "storage.alpha.kubernetes.io/migrated-plugins";

/** Queue on a new CSINode, or when its migrated-plugins annotation changed (in-tree PV translation). */
export const isSchedulableAfterCSINodeChange: QueueingHintFn = (_pod, oldObj, newObj) => {
  if (oldObj === undefined || oldObj === null) return QueueingHint.Queue;
  const [o, n] = as(oldObj, newObj, CSINodeKind);
  return o!.metadata?.annotations?.[migratedPluginsAnnotation] !==
    n!.metadata?.annotations?.[migratedPluginsAnnotation]
    ? QueueingHint.Queue
    : QueueingHint.QueueSkip;
};

export function eventsToRegister(enableSchedulingQueueHint: boolean): ClusterEventWithHint[] {
  // Without QueueingHints, preCheck may drop Node/Add, so taint updates are registered too (#109437).
  const nodeActionType = enableSchedulingQueueHint
    ? ActionType.Add | ActionType.UpdateNodeLabel
    : ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint;
  const addOrUpdate = ActionType.Add | ActionType.Update;
  return [
    // A missing or mis-configured class (allowedTopologies, volumeBindingMode).
    {
      event: { resource: EventResource.StorageClass, actionType: addOrUpdate },
      queueingHintFn: isSchedulableAfterStorageClassChange,
    },
    // Claims are bound to volumes: any change may help.
    {
      event: { resource: EventResource.PersistentVolumeClaim, actionType: addOrUpdate },
      queueingHintFn: isSchedulableAfterPersistentVolumeClaimChange,
    },
    { event: { resource: EventResource.PersistentVolume, actionType: addOrUpdate } },
    // Node labels decide PV node affinity and allowed topologies.
    { event: { resource: EventResource.Node, actionType: nodeActionType } },
    {
      event: { resource: EventResource.CSINode, actionType: addOrUpdate },
      queueingHintFn: isSchedulableAfterCSINodeChange,
    },
    // Storage capacity tracking.
    { event: { resource: EventResource.CSIDriver, actionType: ActionType.Update } },
    { event: { resource: EventResource.CSIStorageCapacity, actionType: addOrUpdate } },
  ];
}
