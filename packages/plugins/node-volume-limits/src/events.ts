// upstream: pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (EventsToRegister and hints)
import type { CSINode, PersistentVolume } from "@kubesched/api";
import {
  ActionType,
  as,
  type ClusterEventWithHint,
  type ClusterListers,
  CSINodeKind,
  EventResource,
  hintObjectKind,
  PersistentVolumeClaimKind,
  PodKind,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";
import { getCSINameFromInTreeName, isInlineMigratable, translateInlineVolume } from "./translation";

// As upstream, the hints dereference the converted objects without a nil check (`x!`): a missing
// object throws, like Go's nil-pointer panic, and the queue counts a throw as Queue.

/** Queue when the deleted pod was on a node and had a PVC, ephemeral or migratable in-line volume. */
export const isSchedulableAfterPodDeleted: QueueingHintFn = (_pod, oldObj, newObj) => {
  const [deleted] = as(oldObj, newObj, PodKind);
  const volumes = deleted!.spec?.volumes ?? [];
  if (volumes.length === 0) return QueueingHint.QueueSkip;
  if (!deleted!.spec?.nodeName) return QueueingHint.QueueSkip;
  for (const v of volumes) {
    if (v.persistentVolumeClaim || v.ephemeral || isInlineMigratable(v)) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
};

/** Queue when the added PVC is one the pod uses (directly or as its generic ephemeral volume). */
export const isSchedulableAfterPVCAdded: QueueingHintFn = (pod, oldObj, newObj) => {
  const [, pvc] = as(oldObj, newObj, PersistentVolumeClaimKind);
  if ((pvc!.metadata?.namespace ?? "") !== (pod.metadata?.namespace ?? "")) return QueueingHint.QueueSkip;
  for (const v of pod.spec?.volumes ?? []) {
    let claim: string;
    if (v.persistentVolumeClaim) claim = v.persistentVolumeClaim.claimName;
    else if (v.ephemeral) claim = `${pod.metadata?.name ?? ""}-${v.name}`;
    else continue;
    if (claim === pvc!.metadata?.name) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
};

function driverCounts(n: CSINode): Map<string, number | null> {
  const m = new Map<string, number | null>();
  for (const d of n.spec.drivers ?? []) m.set(d.name, d.allocatable?.count ?? null);
  return m;
}

/**
 * Queue when a CSINode update raised some driver's attach limit, removed it (no limit), or added
 * a driver.
 */
export const isSchedulableAfterCSINodeUpdated: QueueingHintFn = (_pod, oldObj, newObj) => {
  const [oldCSINode, newCSINode] = as(oldObj, newObj, CSINodeKind);
  const before = driverCounts(oldCSINode!);
  const after = driverCounts(newCSINode!);
  for (const [driver, count] of after) {
    if (!before.has(driver)) return QueueingHint.Queue;
    const old = before.get(driver) ?? null;
    if (old !== null && (count === null || count > old)) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
};

/** The parts of a storage.k8s.io/v1 VolumeAttachment the hint reads. */
interface VolumeAttachment {
  spec?: {
    attacher?: string;
    nodeName?: string;
    source?: { persistentVolumeName?: string; inlineVolumeSpec?: PersistentVolume["spec"] };
  };
}

const VolumeAttachmentKind = hintObjectKind<VolumeAttachment>(
  "*storagev1.VolumeAttachment",
  "VolumeAttachment",
);

/**
 * Queue when the deleted VolumeAttachment was for a PV one of the pod's claims is bound to, or
 * for an in-line volume of the CSI driver one of the pod's migratable in-line volumes uses.
 */
export function isSchedulableAfterVolumeAttachmentDeleted(listers: ClusterListers): QueueingHintFn {
  return (pod, oldObj, newObj) => {
    const [va] = as(oldObj, newObj, VolumeAttachmentKind);
    const ns = pod.metadata?.namespace ?? "";
    const pvName = va!.spec?.source?.persistentVolumeName;
    const inlineDriver = va!.spec?.source?.inlineVolumeSpec?.csi?.driver;
    for (const v of pod.spec?.volumes ?? []) {
      if (v.persistentVolumeClaim && pvName) {
        const pvc = listers.persistentVolumeClaims.get(ns, v.persistentVolumeClaim.claimName);
        if (pvc?.spec?.volumeName === pvName) return QueueingHint.Queue;
      } else if (inlineDriver && isInlineMigratable(v)) {
        const t = translateInlineVolume(v);
        if (t && getCSINameFromInTreeName(t.plugin) === inlineDriver) return QueueingHint.Queue;
      }
    }
    return QueueingHint.QueueSkip;
  };
}

export function eventsToRegister(listers: ClusterListers): ClusterEventWithHint[] {
  return [
    // Any new CSINode may report room for more volumes.
    { event: { resource: EventResource.CSINode, actionType: ActionType.Add } },
    {
      event: { resource: EventResource.CSINode, actionType: ActionType.Update },
      queueingHintFn: isSchedulableAfterCSINodeUpdated,
    },
    {
      event: { resource: EventResource.AssignedPod, actionType: ActionType.Delete },
      queueingHintFn: isSchedulableAfterPodDeleted,
    },
    {
      event: { resource: EventResource.PersistentVolumeClaim, actionType: ActionType.Add },
      queueingHintFn: isSchedulableAfterPVCAdded,
    },
    {
      event: { resource: EventResource.VolumeAttachment, actionType: ActionType.Delete },
      queueingHintFn: isSchedulableAfterVolumeAttachmentDeleted(listers),
    },
  ];
}
