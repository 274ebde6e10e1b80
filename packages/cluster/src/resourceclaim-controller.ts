// kube-controller-manager's resourceclaim controller, as the simulator runs it: a pod whose
// spec.resourceClaims names a ResourceClaimTemplate, and whose status.resourceClaimStatuses has
// no entry for it, gets the ResourceClaim the controller would create from the template, and the
// entry is written to the pod's status. The simulator runs it when a pod is created (before the
// scheduler sees it), where kube-controller-manager reacts to the pod's add event: the claim and
// the status are the same, the pod just never waits in PreEnqueue for them.
// upstream: pkg/controller/resourceclaim/controller.go (syncPod, handleClaim, findPodResourceClaim)
// and controller_test.go TestSyncHandler, read at 003e86297d18 (the index holds no newer copy);
// k8s.io/dynamic-resource-allocation/resourceclaim Name, IsForPod.
import type { Pod, ResourceClaim, ResourceClaimTemplate } from "@kubesched/api";
import {
  formatTime,
  PodResourceClaimAnnotation,
  ResourceAPIVersion,
  ResourceClaimFinalizer,
} from "@kubesched/api";
import type { Logger } from "@kubesched/framework";
import type { ClusterEventHandlers } from "@kubesched/scheduler";
import type { InMemoryCluster } from "./in-memory-cluster";
import { generatedName } from "./workloads";

/** The event the controller records on the pod when a claim cannot be created. */
export const FailedResourceClaimCreation = "FailedResourceClaimCreation";

type PodResourceClaim = NonNullable<NonNullable<Pod["spec"]>["resourceClaims"]>[number];
type PodResourceClaimStatus = NonNullable<NonNullable<Pod["status"]>["resourceClaimStatuses"]>[number];

/**
 * The generateName of a pod's claim: `<pod>-<podClaim>-`; over 57 characters both names are cut
 * in proportion to their lengths (and the trailing hyphen is lost, as upstream's code does).
 */
export function claimGenerateName(podName: string, podClaimName: string): string {
  const generateName = `${podName}-${podClaimName}-`;
  const maxBaseLen = 57; // Leaves room for a hyphen and 5 random characters in 63.
  if (generateName.length <= maxBaseLen) return generateName;
  const len = generateName.length;
  return `${podName.slice(0, Math.floor((podName.length * maxBaseLen) / len))}-${podClaimName.slice(
    0,
    Math.floor((podClaimName.length * maxBaseLen) / len),
  )}`;
}

/** upstream resourceclaim.IsForPod: the claim's controller owner reference is the pod. */
function isForPod(pod: Pod, claim: ResourceClaim): boolean {
  return ownedBy(claim, pod.metadata?.uid ?? "");
}

/**
 * upstream findPodResourceClaim: a claim the pod owns, created for this pod claim (annotation) or,
 * without the annotation, named `<pod>-<podClaim>` (Kubernetes <= 1.27).
 */
function findPodResourceClaim(
  cluster: InMemoryCluster,
  pod: Pod,
  podClaim: PodResourceClaim,
): ResourceClaim | undefined {
  const uid = pod.metadata?.uid;
  if (!uid) return undefined;
  const deterministicName = `${pod.metadata?.name ?? ""}-${podClaim.name}`;
  return claimsOfPod(cluster, uid).find((c) => {
    if (c.metadata?.namespace !== pod.metadata?.namespace || !ownedBy(c, uid)) return false;
    const annotated = c.metadata?.annotations?.[PodResourceClaimAnnotation];
    return annotated !== undefined ? annotated === podClaim.name : c.metadata?.name === deterministicName;
  });
}

/** upstream claimPodOwnerIndexFunc: the claim's controller owner reference is a pod with this uid. */
function ownedBy(claim: ResourceClaim, podUID: string): boolean {
  return (claim.metadata?.ownerReferences ?? []).some((r) => isPodController(r) && r.uid === podUID);
}

type OwnerReference = NonNullable<NonNullable<ResourceClaim["metadata"]>["ownerReferences"]>[number];
type ReservedFor = NonNullable<NonNullable<ResourceClaim["status"]>["reservedFor"]>[number];

function isPodController(r: OwnerReference): boolean {
  return r.controller === true && r.apiVersion === "v1" && r.kind === "Pod";
}

function isPodReference(r: ReservedFor): boolean {
  return r.resource === "pods" && !r.apiGroup;
}

/**
 * The index the controller finds a pod's claims by (upstream's informer has claimPodOwnerIndex;
 * the reservations are the simulator's, for podDeleted): the uids of the pod owning the claim
 * and of the pods it is reserved for.
 */
const claimPodIndex = "claim-pod-index";
function claimPodUIDs(claim: ResourceClaim): string[] {
  const uids: string[] = [];
  for (const r of claim.metadata?.ownerReferences ?? []) if (isPodController(r)) uids.push(r.uid);
  for (const r of claim.status?.reservedFor ?? []) if (isPodReference(r)) uids.push(r.uid);
  return uids;
}

/** The claims the pod owns or is reserved in, in the cluster's order (all namespaces). */
function claimsOfPod(cluster: InMemoryCluster, podUID: string): ResourceClaim[] {
  cluster.resourceClaims.ensureIndex(claimPodIndex, claimPodUIDs);
  return cluster.resourceClaims.byIndex(claimPodIndex, podUID);
}

/**
 * The pod after the controller's syncPod: claims generated from templates are created in the
 * cluster and named in the returned pod's status.resourceClaimStatuses (the pod itself is not
 * written: the caller creates or updates it). A claim that cannot be created (its template is
 * missing) is recorded as upstream's `FailedResourceClaimCreation` event and returned in `error`;
 * then, as upstream's syncPod, no status is written and the pod waits for its claim.
 */
export function syncPodResourceClaims(cluster: InMemoryCluster, pod: Pod): { pod: Pod; error?: string } {
  const podClaims = pod.spec?.resourceClaims ?? [];
  if (podClaims.length === 0 || pod.metadata?.deletionTimestamp) return { pod };
  const ns = pod.metadata?.namespace ?? "default";
  const podName = pod.metadata?.name ?? "";
  const statuses = pod.status?.resourceClaimStatuses ?? [];
  const created: PodResourceClaimStatus[] = [];
  for (const podClaim of podClaims) {
    const error = handleClaim(cluster, pod, podClaim, statuses, created);
    if (error === null) continue;
    const note = `PodResourceClaim ${podClaim.name}: ${error}`;
    cluster.eventRecorder().eventf(pod, null, "Warning", FailedResourceClaimCreation, "", note);
    return { pod, error: `pod ${ns}/${podName}, ${note}` };
  }
  if (created.length === 0) return { pod };
  // Server-side apply of the statuses: entries are merged by name.
  const merged = [...statuses.filter((s) => !created.some((c) => c.name === s.name)), ...created];
  return { pod: { ...pod, status: { ...pod.status, resourceClaimStatuses: merged } } };
}

/** upstream handleClaim: null when done (created or nothing to do), else the error. */
function handleClaim(
  cluster: InMemoryCluster,
  pod: Pod,
  podClaim: PodResourceClaim,
  statuses: readonly PodResourceClaimStatus[],
  created: PodResourceClaimStatus[],
): string | null {
  const ns = pod.metadata?.namespace ?? "default";
  const podName = pod.metadata?.name ?? "";
  const templateName = podClaim.resourceClaimTemplateName;
  if (podClaim.resourceClaimName) return null;
  if (!templateName) {
    return `checking for claim before creating it: pod "${ns}/${podName}", spec.resourceClaim "${podClaim.name}": API unsupported`;
  }
  const status = statuses.find((s) => s.name === podClaim.name);
  if (status) {
    // No name: it was decided that the claim is not needed.
    if (!status.resourceClaimName) return null;
    const claim = cluster.resourceClaims.get(ns, status.resourceClaimName);
    // Recorded in the status but gone (deleted by accident) or not the pod's: created anew.
    if (claim && isForPod(pod, claim)) return null;
  }
  let claim = findPodResourceClaim(cluster, pod, podClaim);
  if (!claim) {
    const template: ResourceClaimTemplate | undefined = cluster.resourceClaimTemplates.get(ns, templateName);
    if (!template) {
      return `resource claim template "${templateName}": resourceclaimtemplate.resource.k8s.io "${templateName}" not found`;
    }
    const tmd = template.spec?.metadata ?? {};
    const generateName = claimGenerateName(podName, podClaim.name);
    // The API server's generateName: a name taken makes the create fail and the controller try
    // again with new random characters; here, the next name of the pod's sequence.
    const key = pod.metadata?.uid || `Pod/${ns}/${podName}`;
    let name = generatedName(generateName, key, 0);
    for (let i = 1; cluster.resourceClaims.get(ns, name); i++) name = generatedName(generateName, key, i);
    claim = {
      apiVersion: ResourceAPIVersion,
      kind: "ResourceClaim",
      metadata: {
        name,
        generateName,
        namespace: ns,
        uid: `${ns}/${name}`,
        creationTimestamp: formatTime(cluster.clock.now()),
        ownerReferences: [
          {
            apiVersion: "v1",
            kind: "Pod",
            name: podName,
            uid: pod.metadata?.uid ?? "",
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
        annotations: { ...tmd.annotations, [PodResourceClaimAnnotation]: podClaim.name },
        ...(tmd.labels ? { labels: { ...tmd.labels } } : {}),
      },
      spec: structuredClone(template.spec?.spec ?? {}),
    };
    cluster.apply("ResourceClaim", claim);
  }
  created.push({ name: podClaim.name, resourceClaimName: claim.metadata?.name ?? "" });
  return null;
}

/**
 * What the controller's syncClaim (and the garbage collector) do when a pod is deleted: the pod
 * leaves the reservedFor of every claim; a claim the scheduler allocated (it holds the
 * delete-protection finalizer) that no pod uses any more is deallocated; the claims generated
 * for the pod (and the one the scheduler created for its extended resources) are deleted, after
 * that update when they were reserved for it. Their devices are free again.
 */
export function podDeleted(cluster: InMemoryCluster, pod: Pod): void {
  const uid = pod.metadata?.uid;
  // The claim the scheduler created for extended resources backed by DeviceClasses is owned by
  // the pod too (DRAExtendedResource): the garbage collector deletes it with the pod.
  const hasClaims =
    (pod.spec?.resourceClaims?.length ?? 0) > 0 || pod.status?.extendedResourceClaimStatus !== undefined;
  if (!uid || !hasClaims) return;
  const ns = pod.metadata?.namespace ?? "default";
  for (const c of claimsOfPod(cluster, uid)) {
    if (c.metadata?.namespace !== ns) continue;
    const owned = ownedBy(c, uid);
    const reservedFor = c.status?.reservedFor ?? [];
    if (!reservedFor.some((r) => isPodReference(r) && r.uid === uid)) {
      if (owned) cluster.delete("ResourceClaim", c);
      continue;
    }
    const valid = reservedFor.filter((r) => !(isPodReference(r) && r.uid === uid));
    const { reservedFor: _, allocation, ...status } = c.status ?? {};
    const finalizers = c.metadata?.finalizers ?? [];
    const deallocate = valid.length === 0 && finalizers.includes(ResourceClaimFinalizer);
    const next: ResourceClaim = {
      ...c,
      metadata: deallocate
        ? { ...c.metadata, finalizers: finalizers.filter((f) => f !== ResourceClaimFinalizer) }
        : c.metadata,
      status: {
        ...status,
        ...(valid.length > 0 ? { reservedFor: valid } : {}),
        ...(allocation && !deallocate ? { allocation } : {}),
      },
    };
    cluster.apply("ResourceClaim", next);
    // The garbage collector deletes the pod's generated claim after the controller released it:
    // the scheduler sees the deallocation (a ResourceClaim update its queueing hint reacts to).
    if (owned) cluster.delete("ResourceClaim", next);
  }
}

/**
 * What the controller does before a pod enters the cluster: the pod with its generated claims'
 * statuses (the claims are created); a failure is logged (upstream: the controller's
 * runtime.HandleError line for the failed sync).
 */
export function podCreated(cluster: InMemoryCluster, logger: Logger, pod: Pod): Pod {
  const synced = syncPodResourceClaims(cluster, pod);
  if (synced.error) logger.warn(synced.error);
  return synced.pod;
}

/**
 * The controller as the simulation runs it: `podCreated` before a pod enters the cluster, and
 * `podDeleted` on the cluster's pod delete events (it subscribes as an informer would). The
 * simulation constructs it after the scheduler, so that the scheduler sees a pod's deletion before
 * the claims the controller releases for it, as with upstream's asynchronous controller (a
 * preemptor waiting for its last victim is let go by the deletion, then requeued by the claim).
 */
export class ResourceClaimController implements ClusterEventHandlers {
  constructor(
    private readonly cluster: InMemoryCluster,
    private readonly logger: Logger,
  ) {
    cluster.subscribe(this);
  }

  /** The pod with its generated claims' statuses (the claims are created); a failure is logged. */
  podCreated(pod: Pod): Pod {
    return podCreated(this.cluster, this.logger, pod);
  }

  onPodDelete(pod: Pod): void {
    podDeleted(this.cluster, pod);
  }
  onNodeAdd(): void {}
  onNodeUpdate(): void {}
  onNodeDelete(): void {}
  onPodAdd(): void {}
  onPodUpdate(): void {}
  onOtherEvent(): void {}
}
