// The writes the scheduler makes to the cluster (upstream: the clientset calls of kube-scheduler
// and its plugins: pods/binding, pod deletion, pods/status patches, the volume binder's PV/PVC
// updates). The in-memory cluster (simulation) and the API-server client (run) implement it.
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodCondition,
  ResourceClaim,
} from "@kubesched/api";

/**
 * A status patch the scheduler sends for a pod (a strategic merge of `status.conditions` by
 * type, as upstream's `util.PatchPodStatus`).
 * @public
 */
export interface PodStatusPatch {
  /** Conditions to set, merged by `type`. */
  conditions?: PodCondition[];
  /** A node name to nominate, or null to clear the nomination. */
  nominatedNodeName?: string | null;
  /**
   * The claim DynamicResources created for the pod's extended resources backed by DRA and which
   * request serves which container's resource (DRAExtendedResource; replaces the field).
   */
  extendedResourceClaimStatus?: NonNullable<Pod["status"]>["extendedResourceClaimStatus"];
  /**
   * The node allocatable resources of the pod's DRA claims (DRANodeAllocatableResources; an
   * atomic list: replaces the field, an empty list clears it).
   */
  nodeAllocatableResourceClaimStatuses?: NonNullable<Pod["status"]>["nodeAllocatableResourceClaimStatuses"];
}

/**
 * The writes the scheduler makes (upstream: clientset calls), through `handle.client()`. All are
 * asynchronous.
 * @public
 */
export interface ClusterClient {
  /** POST pods/binding: sets spec.nodeName (and PodScheduled=True). */
  bindPod(pod: Pod, nodeName: string): Promise<void>;
  /** DELETE the pod (preemption victims). NotFound is not an error. */
  deletePod(pod: Pod): Promise<void>;
  /** PATCH pods/status. */
  patchPodStatus(pod: Pod, patch: PodStatusPatch): Promise<void>;
  /**
   * VolumeBinding's PreBind (upstream SchedulerVolumeBinder.BindPodVolumes): bind each PV to
   * its claim (set `pv.spec.claimRef`; the `pv` given is already the updated object) and, for
   * each claim to provision, set the `volume.kubernetes.io/selected-node` annotation (already on
   * the given `pvc`) so the provisioner creates its volume there. Resolves once every claim is
   * bound; rejects on failure. Optional: without it, pods whose volumes still need binding fail
   * in PreBind with an Error.
   */
  bindVolumes?(
    bindings: ReadonlyArray<{ pvc: PersistentVolumeClaim; pv: PersistentVolume }>,
    provisions: ReadonlyArray<{ pvc: PersistentVolumeClaim; node: string }>,
  ): Promise<void>;
  /**
   * PUT a ResourceClaim (DynamicResources' PreBind adds its finalizer this way): replaces the
   * claim's metadata and spec, resolves with the object the server stored. Rejects with a
   * Conflict when `metadata.resourceVersion` is set and stale. Optional: without it and
   * `updateResourceClaimStatus`, pods with claims to allocate or reserve fail in PreBind.
   */
  updateResourceClaim?(claim: ResourceClaim): Promise<ResourceClaim>;
  /**
   * PUT resourceclaims/status (DynamicResources: the allocation and `reservedFor` in PreBind,
   * deallocation in PostFilter): replaces the claim's status, resolves with the stored object.
   */
  updateResourceClaimStatus?(claim: ResourceClaim): Promise<ResourceClaim>;
  /**
   * POST a ResourceClaim (DynamicResources' PreBind creates the claim for a pod's extended
   * resources backed by DRA): `metadata.name` is empty and `metadata.generateName` set, the server
   * picks the name; resolves with the stored object. Optional: without it, pods whose extended
   * resources need DRA fail in PreBind with an Error.
   */
  createResourceClaim?(claim: ResourceClaim): Promise<ResourceClaim>;
  /** DELETE a ResourceClaim (the extended-resource claim after a failed binding). NotFound is not an error. */
  deleteResourceClaim?(claim: ResourceClaim): Promise<void>;
}
