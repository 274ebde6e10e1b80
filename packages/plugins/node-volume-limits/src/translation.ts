// The part of k8s.io/csi-translation-lib the scheduler needs: which in-tree volumes migrate to
// which CSI driver, and the CSI volume handle they get. Only the volume handles are computed
// (the limit check counts `<driver>/<handle>`), not full translated PersistentVolumes.
import {
  type CSINode,
  LabelFailureDomainBetaZone,
  LabelTopologyZone,
  type PersistentVolume,
  type PodSpec,
} from "@kubesched/api";

export type Volume = NonNullable<PodSpec["volumes"]>[number];

export const AWSEBSInTreePluginName = "kubernetes.io/aws-ebs";
export const AWSEBSDriverName = "ebs.csi.aws.com";
export const GCEPDInTreePluginName = "kubernetes.io/gce-pd";
export const GCEPDDriverName = "pd.csi.storage.gke.io";
export const AzureDiskInTreePluginName = "kubernetes.io/azure-disk";
export const AzureDiskDriverName = "disk.csi.azure.com";
export const CinderInTreePluginName = "kubernetes.io/cinder";
export const CinderDriverName = "cinder.csi.openstack.org";
export const PortworxVolumePluginName = "kubernetes.io/portworx-volume";
export const PortworxDriverName = "pxd.portworx.com";

const csiNameByInTree: ReadonlyMap<string, string> = new Map([
  [AWSEBSInTreePluginName, AWSEBSDriverName],
  [GCEPDInTreePluginName, GCEPDDriverName],
  [AzureDiskInTreePluginName, AzureDiskDriverName],
  [CinderInTreePluginName, CinderDriverName],
  [PortworxVolumePluginName, PortworxDriverName],
]);

/** The CSINode annotation listing the in-tree plugins migrated on the node. */
export const MigratedPluginsAnnotationKey = "storage.alpha.kubernetes.io/migrated-plugins";

export function isMigratableIntreePluginByName(name: string): boolean {
  return csiNameByInTree.has(name);
}

export function getCSINameFromInTreeName(pluginName: string): string | undefined {
  return csiNameByInTree.get(pluginName);
}

/** An in-tree volume source: the plugin name and the CSI handle it migrates to. */
interface InTreeSource {
  plugin: string;
  handle: string;
}

type Sources = Pick<
  NonNullable<PersistentVolume["spec"]>,
  "awsElasticBlockStore" | "gcePersistentDisk" | "azureDisk" | "cinder" | "portworxVolume"
>;

const awsVolumeRe = /^vol-[^/]*$/;

/** csi-translation-lib KubernetesVolumeIDToEBSVolumeID: `aws://zone/vol-x` → `vol-x`. */
function ebsVolumeID(id: string): string | undefined {
  if (!id.startsWith("aws://")) return id;
  const path = id
    .slice("aws://".length)
    .split("/")
    .slice(1)
    .join("/")
    .replace(/^\/+|\/+$/g, "");
  return awsVolumeRe.test(path) ? path : undefined;
}

/** The handle translated GCE PDs get; the zone comes from the PV's labels when known. */
function gcePDHandle(pdName: string, zone: string | undefined): string {
  return `projects/UNSPECIFIED/zones/${zone ?? "UNSPECIFIED"}/disks/${pdName}`;
}

function inTreeSource(src: Sources, zone: string | undefined): InTreeSource | undefined | null {
  if (src.awsElasticBlockStore) {
    const h = ebsVolumeID(src.awsElasticBlockStore.volumeID);
    return h === undefined ? null : { plugin: AWSEBSInTreePluginName, handle: h };
  }
  if (src.gcePersistentDisk) {
    return { plugin: GCEPDInTreePluginName, handle: gcePDHandle(src.gcePersistentDisk.pdName, zone) };
  }
  if (src.azureDisk) return { plugin: AzureDiskInTreePluginName, handle: src.azureDisk.diskURI };
  if (src.cinder) return { plugin: CinderInTreePluginName, handle: src.cinder.volumeID };
  if (src.portworxVolume) return { plugin: PortworxVolumePluginName, handle: src.portworxVolume.volumeID };
  return undefined;
}

/** Whether an in-line pod volume is of a kind that migrates to CSI. */
export function isInlineMigratable(v: Volume): boolean {
  return (
    v.awsElasticBlockStore != null ||
    v.gcePersistentDisk != null ||
    v.azureDisk != null ||
    v.cinder != null ||
    v.portworxVolume != null
  );
}

/** The in-tree plugin and CSI handle of an in-line volume; null when the source is malformed. */
export function translateInlineVolume(v: Volume): InTreeSource | undefined | null {
  return inTreeSource(v, undefined);
}

/** The in-tree plugin and CSI handle of a PV; undefined when it is not migratable. */
export function translatePV(pv: PersistentVolume): InTreeSource | undefined | null {
  const labels = pv.metadata?.labels;
  const zone = labels?.[LabelTopologyZone] ?? labels?.[LabelFailureDomainBetaZone];
  return inTreeSource(pv.spec ?? {}, zone !== undefined && !zone.includes("__") ? zone : undefined);
}

/**
 * upstream isCSIMigrationOn: AWS EBS, GCE PD, Azure Disk and Cinder are always migrated (GA);
 * Portworx needs its gate and the plugin listed in the CSINode's migrated-plugins annotation.
 * Never with no CSINode.
 */
export function isCSIMigrationOn(
  csiNode: CSINode | undefined,
  pluginName: string,
  enableCSIMigrationPortworx: boolean,
): boolean {
  if (!csiNode || pluginName === "") return false;
  switch (pluginName) {
    case AWSEBSInTreePluginName:
    case GCEPDInTreePluginName:
    case AzureDiskInTreePluginName:
    case CinderInTreePluginName:
      return true;
    case PortworxVolumePluginName:
      if (!enableCSIMigrationPortworx) return false;
      break;
    default:
      return false;
  }
  const mpa = csiNode.metadata?.annotations?.[MigratedPluginsAnnotationKey] ?? "";
  return mpa !== "" && mpa.split(",").includes(pluginName);
}
