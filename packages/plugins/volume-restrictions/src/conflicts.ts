// upstream: pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go
// (isVolumeConflict, haveOverlap, needsRestrictionsCheck, satisfyVolumeConflicts)
import type { Pod, PodSpec } from "@kubesched/api";
import type { NodeInfo } from "@kubesched/framework";

export type Volume = NonNullable<PodSpec["volumes"]>[number];

/** Whether the volume is one of the in-line kinds checked for conflicts. */
export function needsRestrictionsCheck(v: Volume): boolean {
  return v.gcePersistentDisk != null || v.awsElasticBlockStore != null || v.rbd != null || v.iscsi != null;
}

function haveOverlap(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b) return false;
  for (const x of a) if (b.includes(x)) return true;
  return false;
}

/**
 * Whether `volume` conflicts with a volume of `pod`:
 * - GCE PD: same pdName unless both read-only;
 * - AWS EBS: same volumeID;
 * - ISCSI: same IQN unless both read-only;
 * - RBD: a shared monitor, same pool and image, unless both read-only.
 */
export function isVolumeConflict(volume: Volume, pod: Pod): boolean {
  for (const ev of pod.spec?.volumes ?? []) {
    const d = volume.gcePersistentDisk;
    const ed = ev.gcePersistentDisk;
    if (d && ed && d.pdName === ed.pdName && !(d.readOnly && ed.readOnly)) return true;

    const e = volume.awsElasticBlockStore;
    const ee = ev.awsElasticBlockStore;
    if (e && ee && e.volumeID === ee.volumeID) return true;

    const i = volume.iscsi;
    const ei = ev.iscsi;
    if (i && ei && i.iqn === ei.iqn && !(i.readOnly && ei.readOnly)) return true;

    const r = volume.rbd;
    const er = ev.rbd;
    if (
      r &&
      er &&
      haveOverlap(r.monitors, er.monitors) &&
      (r.pool ?? "") === (er.pool ?? "") &&
      r.image === er.image &&
      !(r.readOnly && er.readOnly)
    ) {
      return true;
    }
  }
  return false;
}

/** Whether placing a pod with these (restriction-checked) volumes on the node causes no conflict. */
export function satisfyVolumeConflicts(volumes: readonly Volume[], nodeInfo: NodeInfo): boolean {
  for (const v of volumes) {
    for (const ev of nodeInfo.pods) {
      if (isVolumeConflict(v, ev.pod)) return false;
    }
  }
  return true;
}

/** The pod's volumes that need the in-line conflict check. */
export function restrictedVolumes(pod: Pod): Volume[] {
  const out: Volume[] = [];
  for (const v of pod.spec?.volumes ?? []) if (needsRestrictionsCheck(v)) out.push(v);
  return out;
}
