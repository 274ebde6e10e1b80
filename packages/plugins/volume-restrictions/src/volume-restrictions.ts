// upstream: pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go
import type { PersistentVolumeClaim, Pod } from "@kubesched/api";
import {
  asStatus,
  type ClusterEventWithHint,
  type ClusterListers,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type Features,
  type FilterPlugin,
  type Handle,
  type NodeInfo,
  type PodInfo,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type SharedLister,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
  VolumesSignerName,
  volumesSigner,
} from "@kubesched/framework";
import { restrictedVolumes, satisfyVolumeConflicts, type Volume } from "./conflicts";
import { eventsToRegister } from "./events";
import { ErrReasonDiskConflict, ErrReasonReadWriteOncePodConflict } from "./reasons";

export const name = "VolumeRestrictions";

/** Computed at PreFilter, updated by AddPod/RemovePod, read by Filter. */
class PreFilterState implements StateData {
  constructor(
    /** The pod's volumes that need the in-line conflict check. */
    readonly volumes: readonly Volume[],
    /** Names of the pod's PVCs with the ReadWriteOncePod access mode. */
    readonly readWriteOncePodPVCs: ReadonlySet<string>,
    /** References to those PVCs by scheduled pods. */
    public conflictingPVCRefCount: number,
  ) {}

  updateWithPod(podInfo: PodInfo, multiplier: 1 | -1): void {
    let conflicts = 0;
    for (const v of podInfo.pod.spec?.volumes ?? []) {
      if (v.persistentVolumeClaim && this.readWriteOncePodPVCs.has(v.persistentVolumeClaim.claimName)) {
        conflicts++;
      }
    }
    this.conflictingPVCRefCount += multiplier * conflicts;
  }

  clone(): StateData {
    return new PreFilterState(this.volumes, this.readWriteOncePodPVCs, this.conflictingPVCRefCount);
  }
}

const preFilterStateKey = stateKey<PreFilterState>(`PreFilter${name}`);

/** A lister miss, reported like the API's NotFound (`persistentvolumeclaim "x" not found`). */
class NotFoundError extends Error {}

/**
 * Checks volume restrictions: conflicting in-line GCE PD / AWS EBS / ISCSI / Ceph RBD volumes
 * on the node, and PVCs with the ReadWriteOncePod access mode already in use.
 */
export class VolumeRestrictions
  implements PreFilterPlugin, FilterPlugin, PreFilterExtensions, EnqueueExtensions, SignPlugin
{
  private readonly listers: ClusterListers;
  private readonly sharedLister: SharedLister;
  private readonly enableSchedulingQueueHint: boolean;

  constructor(handle: Handle, features: Features) {
    this.listers = handle.listers();
    this.sharedLister = handle.snapshotSharedLister();
    this.enableSchedulingQueueHint = features.enableSchedulingQueueHint;
  }

  name(): string {
    return name;
  }

  /** Feasibility depends on the pod's volume sources, config maps and secrets aside (upstream SignPod). */
  signPod(pod: Pod): SignPodResult {
    return { fragments: [{ key: VolumesSignerName, value: volumesSigner(pod) }], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.enableSchedulingQueueHint);
  }

  preFilter(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    const volumes = restrictedVolumes(pod);
    let pvcs: Set<string>;
    try {
      pvcs = this.readWriteOncePodPVCsForPod(pod);
    } catch (e) {
      if (e instanceof NotFoundError) return new Status(Code.UnschedulableAndUnresolvable, e.message);
      return asStatus(e);
    }
    let conflictingPVCRefCount = 0;
    const ns = pod.metadata?.namespace ?? "";
    for (const pvc of pvcs) {
      // At most one pod can use a ReadWriteOncePod PVC.
      if (this.sharedLister.storageInfos().isPVCUsedByPods(`${ns}/${pvc}`)) conflictingPVCRefCount++;
    }
    if (volumes.length === 0 && conflictingPVCRefCount === 0) return new Status(Code.Skip);
    state.write(preFilterStateKey, new PreFilterState(volumes, pvcs, conflictingPVCRefCount));
    return null;
  }

  private readWriteOncePodPVCsForPod(pod: Pod): Set<string> {
    const out = new Set<string>();
    const ns = pod.metadata?.namespace ?? "";
    for (const v of pod.spec?.volumes ?? []) {
      if (!v.persistentVolumeClaim) continue;
      const claimName = v.persistentVolumeClaim.claimName;
      const pvc: PersistentVolumeClaim | undefined = this.listers.persistentVolumeClaims.get(ns, claimName);
      if (!pvc) throw new NotFoundError(`persistentvolumeclaim "${claimName}" not found`);
      if (!(pvc.spec?.accessModes ?? []).includes("ReadWriteOncePod")) continue;
      out.add(pvc.metadata?.name ?? claimName);
    }
    return out;
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return this;
  }

  addPod(state: CycleState, _podToSchedule: Pod, podInfoToAdd: PodInfo, _nodeInfo: NodeInfo): Status | null {
    const s = state.read(preFilterStateKey);
    if (!s) return asStatus(new Error(`cannot read "${preFilterStateKey}" from cycleState`));
    s.updateWithPod(podInfoToAdd, 1);
    return null;
  }

  removePod(
    state: CycleState,
    _podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    _nodeInfo: NodeInfo,
  ): Status | null {
    const s = state.read(preFilterStateKey);
    if (!s) return asStatus(new Error(`cannot read "${preFilterStateKey}" from cycleState`));
    s.updateWithPod(podInfoToRemove, -1);
    return null;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    const s = state.read(preFilterStateKey);
    // upstream checks the in-line volumes from the pod before reading the state.
    const volumes = s ? s.volumes : restrictedVolumes(pod);
    if (!satisfyVolumeConflicts(volumes, nodeInfo))
      return new Status(Code.Unschedulable, ErrReasonDiskConflict);
    if (!s) return asStatus(new Error(`cannot read "${preFilterStateKey}" from cycleState`));
    if (s.conflictingPVCRefCount > 0)
      return new Status(Code.Unschedulable, ErrReasonReadWriteOncePodConflict);
    return null;
  }
}
