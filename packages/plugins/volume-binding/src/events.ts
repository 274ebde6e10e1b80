// upstream: pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (EventsToRegister and hints)
import type { CSINode, PersistentVolumeClaim, StorageClass } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";

function asObject<T>(v: unknown, what: string, fn: string): T {
  if (v === undefined || v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new TypeError(
      `unexpected objects in ${fn}: expected ${what}, got ${Array.isArray(v) ? "array" : typeof v}`,
    );
  }
  return v as T;
}

/** Queue when the added or updated PVC is one of the pod's (directly or its ephemeral volume). */
export const isSchedulableAfterPersistentVolumeClaimChange: QueueingHintFn = (pod, _oldObj, newObj) => {
  const pvc = asObject<PersistentVolumeClaim>(
    newObj,
    "*v1.PersistentVolumeClaim",
    "isSchedulableAfterPersistentVolumeClaimChange",
  );
  if ((pvc.metadata?.namespace ?? "") !== (pod.metadata?.namespace ?? "")) return QueueingHint.QueueSkip;
  for (const v of pod.spec?.volumes ?? []) {
    const claim = v.persistentVolumeClaim
      ? v.persistentVolumeClaim.claimName
      : v.ephemeral
        ? `${pod.metadata?.name ?? ""}-${v.name}`
        : undefined;
    if (claim === pvc.metadata?.name) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
};

/** Queue on a new StorageClass, or an update that changed its allowed topologies. */
export const isSchedulableAfterStorageClassChange: QueueingHintFn = (_pod, oldObj, newObj) => {
  const fn = "isSchedulableAfterStorageClassChange";
  const sc = asObject<StorageClass>(newObj, "*storagev1.StorageClass", fn);
  if (oldObj === undefined || oldObj === null) return QueueingHint.Queue;
  const old = asObject<StorageClass>(oldObj, "*storagev1.StorageClass", fn);
  return JSON.stringify(old.allowedTopologies ?? []) !== JSON.stringify(sc.allowedTopologies ?? [])
    ? QueueingHint.Queue
    : QueueingHint.QueueSkip;
};

const migratedPluginsAnnotation = "storage.alpha.kubernetes.io/migrated-plugins";

/** Queue on a new CSINode, or when its migrated-plugins annotation changed (in-tree PV translation). */
export const isSchedulableAfterCSINodeChange: QueueingHintFn = (_pod, oldObj, newObj) => {
  const fn = "isSchedulableAfterCSINodeChange";
  const n = asObject<CSINode>(newObj, "*storagev1.CSINode", fn);
  if (oldObj === undefined || oldObj === null) return QueueingHint.Queue;
  const o = asObject<CSINode>(oldObj, "*storagev1.CSINode", fn);
  return o.metadata?.annotations?.[migratedPluginsAnnotation] !==
    n.metadata?.annotations?.[migratedPluginsAnnotation]
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
