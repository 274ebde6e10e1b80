// upstream: pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (CSILimits)
import {
  type CSINode,
  getPersistentVolumeClaimClass,
  isAttachableVolumeResourceName,
  type PersistentVolumeClaim,
  type Pod,
} from "@kubesched/api";
import {
  asStatus,
  type ClusterEventWithHint,
  type ClusterListers,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type Features,
  type Handle,
  type NodeInfo,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type SignPlugin,
  type SignPodResult,
  Status,
  VolumesSignerName,
  volumesSigner,
} from "@kubesched/framework";
import type { ColumnarFilterPlugin, ColumnWindow } from "@kubesched/framework/columnar";
import { eventsToRegister } from "./events";
import { ErrReasonMaxVolumeCountExceeded } from "./reasons";
import {
  getCSINameFromInTreeName,
  isCSIMigrationOn,
  isInlineMigratable,
  isMigratableIntreePluginByName,
  translateInlineVolume,
  translatePV,
  type Volume,
} from "./translation";

export const name = "NodeVolumeLimits";

/** Node allocatable key of a CSI driver's attach limit (upstream GetCSIAttachLimitKey, short names). */
const CSIAttachLimitPrefix = "attachable-volumes-csi-";

/** A lookup failure that makes the pod unschedulable until the object exists. */
class NotFoundError extends Error {}

/** upstream ephemeral.VolumeClaimName. */
export function ephemeralVolumeClaimName(pod: Pod, v: Volume): string {
  return `${pod.metadata?.name ?? ""}-${v.name}`;
}

/** Whether the pod has a volume that may count against a CSI attach limit. */
export function hasAttachableVolume(pod: Pod): boolean {
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim || v.ephemeral || isInlineMigratable(v)) return true;
  }
  return false;
}

/**
 * Checks that attaching the pod's CSI volumes (PVCs, generic ephemeral volumes, and in-tree
 * volumes migrated to CSI) keeps every driver within the attach limit the node's CSINode reports.
 */
export class CSILimits implements PreFilterPlugin, ColumnarFilterPlugin, EnqueueExtensions, SignPlugin {
  private readonly listers: ClusterListers;
  private readonly randomVolumeIDPrefix: string;
  private readonly enableCSIMigrationPortworx: boolean;

  constructor(handle: Handle, features: Features) {
    this.listers = handle.listers();
    this.enableCSIMigrationPortworx = features.enableCSIMigrationPortworx;
    // Unbound claims get a synthetic handle that cannot collide with a real one.
    const r = handle.rand();
    let prefix = "";
    const alphabet = "bcdfghjklmnpqrstvwxz2456789";
    for (let i = 0; i < 32; i++) prefix += alphabet[r.intn(alphabet.length)];
    this.randomVolumeIDPrefix = prefix;
  }

  name(): string {
    return name;
  }

  /** Feasibility depends on the pod's volume sources, config maps and secrets aside (upstream SignPod). */
  signPod(pod: Pod): SignPodResult {
    return { fragments: [{ key: VolumesSignerName, value: volumesSigner(pod) }], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.listers);
  }

  /** Skip when the pod has no PVC, generic ephemeral or migratable in-line volume. */
  preFilter(_state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    return hasAttachableVolume(pod) ? null : new Status(Code.Skip);
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    if ((pod.spec?.volumes?.length ?? 0) === 0) return null;
    const node = nodeInfo.node;
    if (!node) return asStatus(new Error("node not found"));
    // Without a CSINode only in-tree migration is off; limits may still come from the node.
    const csiNode = this.listers.csiNodes.get(node.metadata?.name ?? "");
    const newVolumes = this.newVolumes(pod, csiNode);
    if (!(newVolumes instanceof Map)) return newVolumesFailure(newVolumes.thrown);
    return this.checkLimits(nodeInfo, csiNode, newVolumes);
  }

  /**
   * filter() over many nodes: the pod's own volumes are resolved once per CSINode (once for all
   * the nodes without one) instead of once per node; the node's limits and attached volumes are
   * checked per node as in filter().
   */
  filterColumns(_state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    if ((pod.spec?.volumes?.length ?? 0) === 0) {
      out.fill(null, 0, count);
      return;
    }
    const infos = columns.nodeInfos;
    // No CSINode objects at all (a common cluster): every node resolves as without one.
    const anyCSINode = this.listers.csiNodes.list().length > 0;
    if (!anyCSINode) {
      const newVolumes = this.newVolumes(pod, undefined);
      if (newVolumes instanceof Map && newVolumes.size === 0) {
        // Nothing the pod attaches counts on a node without a CSINode: every node passes.
        for (let k = 0; k < count; k++) {
          out[k] = infos[indices[k]!]!.node ? null : asStatus(new Error("node not found"));
        }
        return;
      }
    }
    const byCSINode = new Map<CSINode | undefined, Map<string, string> | Thrown>();
    for (let k = 0; k < count; k++) {
      const nodeInfo = infos[indices[k]!]!;
      const node = nodeInfo.node;
      if (!node) {
        out[k] = asStatus(new Error("node not found"));
        continue;
      }
      const csiNode = anyCSINode ? this.listers.csiNodes.get(node.metadata?.name ?? "") : undefined;
      let newVolumes = byCSINode.get(csiNode);
      if (newVolumes === undefined) {
        newVolumes = this.newVolumes(pod, csiNode);
        byCSINode.set(csiNode, newVolumes);
      }
      if (!(newVolumes instanceof Map)) {
        out[k] = newVolumesFailure(newVolumes.thrown);
        continue;
      }
      // checkLimits removes the volumes already attached: it gets a copy when it gets that far.
      out[k] = this.checkLimits(nodeInfo, csiNode, newVolumes, true);
    }
  }

  /** The pod's attachable volumes (`<driver>/<handle>` → driver) on a node with this CSINode, or what was thrown. */
  private newVolumes(pod: Pod, csiNode: CSINode | undefined): Map<string, string> | Thrown {
    const newVolumes = new Map<string, string>();
    try {
      this.filterAttachableVolumes(pod, csiNode, true, newVolumes);
    } catch (e) {
      return { thrown: e };
    }
    return newVolumes;
  }

  /** Whether the node's limits leave room for `newVolumes` (consumed unless `copy`). */
  private checkLimits(
    nodeInfo: NodeInfo,
    csiNode: CSINode | undefined,
    newVolumesIn: Map<string, string>,
    copy = false,
  ): Status | null {
    if (newVolumesIn.size === 0) return null;

    // VolumeLimitScaling (beta, on): upstream also rejects the node with
    // `<driver> CSI driver is not installed on the node` when the driver's CSIDriver object sets
    // spec.preventPodSchedulingIfMissing and the CSINode lacks the driver. CSIDriver objects are
    // not part of our cluster model, so no driver is ever required (as with no CSIDriver object).

    const nodeVolumeLimits = getVolumeLimits(nodeInfo, csiNode);
    if (nodeVolumeLimits.size === 0) return null;
    const newVolumes = copy ? new Map(newVolumesIn) : newVolumesIn;

    const attachedVolumes = new Map<string, string>();
    for (const existing of nodeInfo.pods) {
      try {
        this.filterAttachableVolumes(existing.pod, csiNode, false, attachedVolumes);
      } catch (e) {
        return asStatus(e);
      }
    }
    const attachedVolumeCount = new Map<string, number>();
    for (const [unique, driver] of attachedVolumes) {
      // A volume already attached for another pod is not attached again.
      newVolumes.delete(unique);
      attachedVolumeCount.set(driver, (attachedVolumeCount.get(driver) ?? 0) + 1);
    }
    const newVolumeCount = new Map<string, number>();
    for (const driver of newVolumes.values())
      newVolumeCount.set(driver, (newVolumeCount.get(driver) ?? 0) + 1);
    for (const [driver, count] of newVolumeCount) {
      const max = nodeVolumeLimits.get(driver);
      if (max !== undefined && (attachedVolumeCount.get(driver) ?? 0) + count > max) {
        return new Status(Code.Unschedulable, ErrReasonMaxVolumeCountExceeded);
      }
    }
    return null;
  }

  /** Adds `<driver>/<handle>` → driver for each attachable volume of the pod to `result`. */
  private filterAttachableVolumes(
    pod: Pod,
    csiNode: CSINode | undefined,
    newPod: boolean,
    result: Map<string, string>,
  ): void {
    const ns = pod.metadata?.namespace ?? "";
    for (const v of pod.spec?.volumes ?? []) {
      let pvcName: string;
      let isEphemeral = false;
      if (v.persistentVolumeClaim) {
        pvcName = v.persistentVolumeClaim.claimName;
      } else if (v.ephemeral) {
        pvcName = ephemeralVolumeClaimName(pod, v);
        isEphemeral = true;
      } else {
        this.checkAttachableInlineVolume(v, csiNode, result);
        continue;
      }
      if (pvcName === "") throw new Error("PersistentVolumeClaim had no name");
      const pvc = this.listers.persistentVolumeClaims.get(ns, pvcName);
      if (!pvc) {
        // A new pod cannot run without its PVC; an existing pod's unknown PVC is not counted.
        if (newPod)
          throw new NotFoundError(
            `looking up PVC ${ns}/${pvcName}: persistentvolumeclaim "${pvcName}" not found`,
          );
        continue;
      }
      if (isEphemeral) checkVolumeIsForPod(pod, pvc);
      const [driverName, volumeHandle] = this.getCSIDriverInfo(csiNode, pvc);
      if (driverName === "" || volumeHandle === "") continue;
      result.set(`${driverName}/${volumeHandle}`, driverName);
    }
  }

  private checkAttachableInlineVolume(
    v: Volume,
    csiNode: CSINode | undefined,
    result: Map<string, string>,
  ): void {
    if (!isInlineMigratable(v)) return;
    const t = translateInlineVolume(v);
    if (!t) throw new Error(`converting volume(${v.name}) from inline to csi: invalid volume source`);
    if (!isCSIMigrationOn(csiNode, t.plugin, this.enableCSIMigrationPortworx)) return;
    const driverName = getCSINameFromInTreeName(t.plugin) ?? "";
    result.set(`${driverName}/${t.handle}`, driverName);
  }

  /** The CSI driver and volume handle of a claim (of the driver an in-tree PV migrated to). */
  private getCSIDriverInfo(csiNode: CSINode | undefined, pvc: PersistentVolumeClaim): [string, string] {
    const pvName = pvc.spec?.volumeName ?? "";
    if (pvName === "") return this.getCSIDriverInfoFromSC(csiNode, pvc);
    const pv = this.listers.persistentVolumes.get(pvName);
    // A deleted PV, or a claim pre-bound to a PV not created yet: count by StorageClass.
    if (!pv) return this.getCSIDriverInfoFromSC(csiNode, pvc);
    const csi = pv.spec?.csi;
    if (csi) return [csi.driver, csi.volumeHandle];
    const t = translatePV(pv);
    if (!t || !isCSIMigrationOn(csiNode, t.plugin, this.enableCSIMigrationPortworx)) return ["", ""];
    return [getCSINameFromInTreeName(t.plugin) ?? "", t.handle];
  }

  /** The StorageClass's driver and a synthetic handle per claim (unbound claims). */
  private getCSIDriverInfoFromSC(csiNode: CSINode | undefined, pvc: PersistentVolumeClaim): [string, string] {
    const scName = getPersistentVolumeClaimClass(pvc);
    // No class: the claim uses immediate binding and must be bound before scheduling.
    if (scName === "") return ["", ""];
    const sc = this.listers.storageClasses.get(scName);
    if (!sc) return ["", ""];
    const volumeHandle = `${this.randomVolumeIDPrefix}-${pvc.metadata?.namespace ?? ""}/${pvc.metadata?.name ?? ""}`;
    const provisioner = sc.provisioner;
    if (isMigratableIntreePluginByName(provisioner)) {
      if (!isCSIMigrationOn(csiNode, provisioner, this.enableCSIMigrationPortworx)) return ["", ""];
      return [getCSINameFromInTreeName(provisioner) ?? "", volumeHandle];
    }
    return [provisioner, volumeHandle];
  }
}

/** What resolving the pod's own volumes threw. */
interface Thrown {
  thrown: unknown;
}

/** filter()'s status when resolving the pod's own volumes threw `e`. */
function newVolumesFailure(e: unknown): Status {
  // A missing PVC: the pod is unschedulable until it is created.
  if (e instanceof NotFoundError) return new Status(Code.UnschedulableAndUnresolvable, e.message);
  return asStatus(e);
}

/** upstream ephemeral.VolumeIsForPod: the claim must be controlled by the pod. */
function checkVolumeIsForPod(pod: Pod, pvc: PersistentVolumeClaim): void {
  const uid = pod.metadata?.uid ?? "";
  const owner = (pvc.metadata?.ownerReferences ?? []).find((o) => o.controller === true);
  if (!owner || owner.uid !== uid) {
    throw new Error(
      `PVC ${pvc.metadata?.namespace ?? ""}/${pvc.metadata?.name ?? ""} was not created for pod ${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""} (pod is not owner)`,
    );
  }
}

/** Per-driver attach limits: node allocatable `attachable-volumes-csi-<driver>`, overridden by CSINode counts. */
function getVolumeLimits(nodeInfo: NodeInfo, csiNode: CSINode | undefined): Map<string, number> {
  const limits = new Map<string, number>();
  const scalars = nodeInfo.allocatable.scalarResources;
  if (scalars) {
    for (const [k, v] of scalars) {
      if (isAttachableVolumeResourceName(k) && k.startsWith(CSIAttachLimitPrefix)) {
        limits.set(k.slice(CSIAttachLimitPrefix.length), v);
      }
    }
  }
  for (const d of csiNode?.spec.drivers ?? []) {
    const count = d.allocatable?.count;
    if (count !== undefined && count !== null) limits.set(d.name, count);
  }
  return limits;
}
