// upstream: volume_zone.go (EventsToRegister and the isSchedulableAfter* hints)
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from "@kubesched/api";
import {
  ActionType,
  as,
  type ClusterEventWithHint,
  EventResource,
  hintObjectKind,
  PersistentVolumeClaimKind,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";
import { getPVTopologies, type PVTopology } from "./topology";

const StorageClassKind = hintObjectKind<StorageClass>("*v1.StorageClass", "StorageClass");
const PersistentVolumeKind = hintObjectKind<PersistentVolume>("*v1.PersistentVolume", "PersistentVolume");

// Where upstream dereferences a converted object without a nil check, so does this (`x!`): a
// missing object throws, like Go's nil-pointer panic, and the queue counts a throw as Queue.

function isPVCRequestedFromPod(pvc: PersistentVolumeClaim | undefined, pod: Pod): boolean {
  if (pvc === undefined || (pod.metadata?.namespace ?? "") !== (pvc.metadata?.namespace ?? "")) return false;
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim && v.persistentVolumeClaim.claimName === pvc.metadata?.name) return true;
  }
  return false;
}

/** Queue when the added or updated PVC is one the pod uses (e.g. it just got bound). */
export const isSchedulableAfterPersistentVolumeClaimChange: QueueingHintFn = (pod, oldObj, newObj) => {
  const [, pvc] = as(oldObj, newObj, PersistentVolumeClaimKind);
  return isPVCRequestedFromPod(pvc, pod) ? QueueingHint.Queue : QueueingHint.QueueSkip;
};

/** Queue only for a new StorageClass with WaitForFirstConsumer (its unbound PVCs are skipped). */
export const isSchedulableAfterStorageClassAdded: QueueingHintFn = (_pod, _oldObj, newObj) => {
  const [, sc] = as(undefined, newObj, StorageClassKind);
  return sc!.volumeBindingMode === "WaitForFirstConsumer" ? QueueingHint.Queue : QueueingHint.QueueSkip;
};

function sameTopologies(a: readonly PVTopology[], b: readonly PVTopology[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.pvName !== y.pvName || x.key !== y.key || x.values.size !== y.values.size) return false;
    for (const v of x.values) if (!y.values.has(v)) return false;
  }
  return true;
}

/** Queue for a new PV, or an updated PV whose topology labels changed. */
export const isSchedulableAfterPersistentVolumeChange: QueueingHintFn = (_pod, oldObj, newObj) => {
  const [original, modified] = as(oldObj, newObj, PersistentVolumeKind);
  if (original === undefined) return QueueingHint.Queue;
  return sameTopologies(getPVTopologies(original), getPVTopologies(modified!))
    ? QueueingHint.QueueSkip
    : QueueingHint.Queue;
};

export function eventsToRegister(enableSchedulingQueueHint: boolean): ClusterEventWithHint[] {
  // Without QueueingHints, preCheck may drop Node/Add, so taint updates are registered too (#109437).
  const nodeActionType = enableSchedulingQueueHint
    ? ActionType.Add | ActionType.UpdateNodeLabel
    : ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint;
  return [
    // volumeBindingMode is immutable: StorageClass updates are ignored.
    {
      event: { resource: EventResource.StorageClass, actionType: ActionType.Add },
      queueingHintFn: isSchedulableAfterStorageClassAdded,
    },
    { event: { resource: EventResource.Node, actionType: nodeActionType } },
    {
      event: {
        resource: EventResource.PersistentVolumeClaim,
        actionType: ActionType.Add | ActionType.Update,
      },
      queueingHintFn: isSchedulableAfterPersistentVolumeClaimChange,
    },
    {
      event: { resource: EventResource.PersistentVolume, actionType: ActionType.Add | ActionType.Update },
      queueingHintFn: isSchedulableAfterPersistentVolumeChange,
    },
  ];
}
