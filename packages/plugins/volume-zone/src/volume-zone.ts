// upstream: pkg/scheduler/framework/plugins/volumezone/volume_zone.go
import { getPersistentVolumeClaimClass, type Pod } from "@kubesched/api";
import {
  type ClusterEventWithHint,
  type ClusterListers,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type Features,
  type FilterPlugin,
  type Handle,
  type NodeInfo,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
  VolumesSignerName,
  volumesSigner,
} from "@kubesched/framework";
import { eventsToRegister } from "./events";
import { ErrReasonConflict } from "./reasons";
import { getPVTopologies, type PVTopology, topologyLabels, translateToGALabel } from "./topology";

export const name = "VolumeZone";

/** The topologies of the pod's bound PVs, computed once per cycle (not changed by AddPod/RemovePod). */
class VolumeZoneState implements StateData {
  constructor(readonly podPVTopologies: readonly PVTopology[]) {}
  clone(): StateData {
    return this;
  }
}

const preFilterStateKey = stateKey<VolumeZoneState>(`PreFilter${name}`);

const uau = (msg: string): Status => new Status(Code.UnschedulableAndUnresolvable, msg);

/**
 * Checks that the zone/region labels of the PVs a pod's PVCs are bound to match the node's
 * labels (a node without any topology label fits).
 */
export class VolumeZone implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, SignPlugin {
  private readonly listers: ClusterListers;
  private readonly enableSchedulingQueueHint: boolean;

  constructor(handle: Handle, features: Features) {
    this.listers = handle.listers();
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
    const r = this.getPVbyPod(pod);
    if (r instanceof Status) return r;
    if (r.length === 0) return new Status(Code.Skip);
    state.write(preFilterStateKey, new VolumeZoneState(r));
    return null;
  }

  /** The topologies of the PVs bound to the pod's PVCs; unbound WaitForFirstConsumer claims are skipped. */
  private getPVbyPod(pod: Pod): PVTopology[] | Status {
    const out: PVTopology[] = [];
    const ns = pod.metadata?.namespace ?? "";
    for (const v of pod.spec?.volumes ?? []) {
      if (!v.persistentVolumeClaim) continue;
      const pvcName = v.persistentVolumeClaim.claimName;
      if (!pvcName) return uau("PersistentVolumeClaim had no name");
      const pvc = this.listers.persistentVolumeClaims.get(ns, pvcName);
      if (!pvc) return uau(`persistentvolumeclaim "${pvcName}" not found`);
      const pvName = pvc.spec?.volumeName ?? "";
      if (pvName === "") {
        const scName = getPersistentVolumeClaimClass(pvc);
        if (scName === "") return uau("PersistentVolumeClaim had no pv name and storageClass name");
        const sc = this.listers.storageClasses.get(scName);
        if (!sc) return uau(`storageclass.storage.k8s.io "${scName}" not found`);
        if (sc.volumeBindingMode == null)
          return uau(`VolumeBindingMode not set for StorageClass "${scName}"`);
        // Unbound volumes are bound later, on the chosen node.
        if (sc.volumeBindingMode === "WaitForFirstConsumer") continue;
        return uau("PersistentVolume had no name");
      }
      const pv = this.listers.persistentVolumes.get(pvName);
      if (!pv) return uau(`persistentvolume "${pvName}" not found`);
      for (const t of getPVTopologies(pv)) out.push(t);
    }
    return out;
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    // A pod without volumes always fits.
    if ((pod.spec?.volumes?.length ?? 0) === 0) return null;
    let topologies: readonly PVTopology[];
    const s = state.read(preFilterStateKey);
    if (s) {
      topologies = s.podPVTopologies;
    } else {
      // No PreFilter state: compute here, as upstream does.
      const r = this.getPVbyPod(pod);
      if (r instanceof Status) return r;
      topologies = r;
    }
    const labels = nodeInfo.node?.metadata?.labels;
    if (!labels) return null;
    let hasAnyNodeConstraint = false;
    for (const l of topologyLabels) {
      if (labels[l] !== undefined) {
        hasAnyNodeConstraint = true;
        break;
      }
    }
    // A node without topology labels (single-zone cluster) fits.
    if (!hasAnyNodeConstraint) return null;
    for (const t of topologies) {
      // A PV's beta label also matches the node's GA label.
      const v = labels[t.key] ?? labels[translateToGALabel(t.key)];
      if (v === undefined || !t.values.has(v)) {
        return new Status(Code.UnschedulableAndUnresolvable, ErrReasonConflict);
      }
    }
    return null;
  }
}
