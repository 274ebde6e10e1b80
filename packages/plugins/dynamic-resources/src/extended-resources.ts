// upstream: pkg/scheduler/framework/plugins/dynamicresources/extendeddynamicresources.go at
// 16913111deb1a4c4ff76f4ba7ffd9ebef397a303 (hasDeviceClassMappedExtendedResource,
// findExtendedResourceClaim, preFilterExtendedResources, filterExtendedResources,
// createRequestsAndMappings, createResourceRequestAndMappings, partitionContainerIndices,
// deleteClaim) — extended resources backed by DeviceClasses (DRAExtendedResource):
//
// - PreFilter: a pod requesting an extended resource some DeviceClass backs gets one special
//   claim, found from an earlier cycle (annotation + owner) or made in memory with the name
//   `<extended-resources>` and no requests;
// - Filter: per node, the requests the node's allocatable (device plugin) does not cover become
//   the requests of a node-specific copy of the claim, which the allocator allocates;
// - PreBind: the claim is created (`<pod>-extended-resources-<suffix>`), allocated, reserved, and
//   the pod's status.extendedResourceClaimStatus says which request serves which container;
// - PostFilter / Unreserve: a claim left from an earlier cycle, or created by a failed binding,
//   is deleted.
import {
  type Container,
  ExtendedResourceClaimAnnotation,
  type Pod,
  podRequests,
  type ResourceClaim,
  ResourceClaimFinalizer,
  resourceListToAmounts,
} from "@kubesched/api";
import {
  type ClusterClient,
  Code,
  type DeviceClassResolver,
  type NodeInfo,
  Status,
} from "@kubesched/framework";
import { isDRAExtendedResourceName } from "@kubesched/plugin-helpers";

/**
 * The name of the special claim while it exists only in memory (not a valid object name, so it
 * cannot clash with a real claim); the API server names it from `<pod>-extended-resources-`.
 */
export const specialClaimInMemName = "<extended-resources>";

/** One container's extended resource served by a request of the special claim (core/v1). */
export type ContainerExtendedResourceRequest = NonNullable<
  NonNullable<Pod["status"]>["extendedResourceClaimStatus"]
>["requestMappings"][number];

/** Filter's node-specific special claim and the container → request mappings PreBind writes. */
export interface NodeExtendedResourceClaim {
  claim: ResourceClaim;
  mappings: ContainerExtendedResourceRequest[];
}

type DeviceRequest = NonNullable<NonNullable<ResourceClaim["spec"]>["devices"]>["requests"] extends
  | (infer R)[]
  | undefined
  ? R
  : never;

/** upstream isSpecialClaimName. */
export function isSpecialClaimName(name: string | undefined): boolean {
  return name === specialClaimInMemName;
}

/** The pod's requests for extended resources (explicit or implicit names), non-zero ones only. */
export function podDRAExtendedResources(pod: Pod): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, v] of podRequests(pod)) {
    if (v !== 0 && isDRAExtendedResourceName(name)) out.set(name, v);
  }
  return out;
}

/** Whether a container of the pod names a resource that could be backed by a DeviceClass. */
function mayRequestDRAExtendedResource(pod: Pod): boolean {
  const spec = pod.spec;
  for (const list of [spec?.initContainers, spec?.containers]) {
    for (const c of list ?? []) {
      for (const name in c.resources?.requests ?? {}) if (isDRAExtendedResourceName(name)) return true;
    }
  }
  return false;
}

/**
 * upstream findExtendedResourceClaim: the claim carrying the extended-resource annotation whose
 * controller owner is the pod.
 */
export function findExtendedResourceClaim(
  pod: Pod,
  claims: readonly ResourceClaim[],
): ResourceClaim | undefined {
  const ns = pod.metadata?.namespace ?? "";
  for (const c of claims) {
    if (c.metadata?.annotations?.[ExtendedResourceClaimAnnotation] !== "true") continue;
    if (c.metadata?.namespace !== ns) continue;
    for (const o of c.metadata?.ownerReferences ?? []) {
      if (o.name === pod.metadata?.name && o.controller === true && o.uid === pod.metadata?.uid) return c;
    }
  }
  return undefined;
}

/**
 * What PreFilter reads once per pod for Filter: none of it depends on the node (upstream reads
 * the requests' classes per node in filterExtendedResources).
 */
export class PodExtendedResources {
  /** The pod's non-zero extended resource requests and whether a DeviceClass backs each. */
  readonly resources: readonly {
    readonly name: string;
    readonly quantity: number;
    readonly backed: boolean;
  }[];
  /**
   * Filter's node variants of the special claim by the resources DRA provides on the node: nodes
   * needing the same ones share one (read-only; Reserve and PreBind copy it before changing it).
   */
  readonly nodeClaims = new Map<string, NodeExtendedResourceClaim>();
  /**
   * filterExtendedResources' outcome on a node without scalar resources (the same on every such
   * node for the pod's claim) when it is not a status; undefined until a node asks.
   */
  onNodeWithoutScalars: NodeExtendedResourceClaim | null | undefined = undefined;

  constructor(
    /** upstream draExtendedResource.podScalarResources. */
    readonly podScalarResources: ReadonlyMap<string, number>,
    resolver: DeviceClassResolver,
  ) {
    this.resources = [...podScalarResources].map(([name, quantity]) => ({
      name,
      quantity,
      backed: resolver.getDeviceClass(name) !== undefined,
    }));
  }
}

/**
 * upstream preFilterExtendedResources: null when the pod requests no extended resource a
 * DeviceClass backs; else the special claim from an earlier cycle (`findClaim`: upstream
 * findExtendedResourceClaim), or a new one in memory (no requests, a temporary uid for the
 * in-flight bookkeeping), with the pod's non-zero extended resource requests.
 */
export function preFilterExtendedResources(
  pod: Pod,
  resolver: DeviceClassResolver,
  findClaim: (pod: Pod) => ResourceClaim | undefined,
): { claim: ResourceClaim; resources: PodExtendedResources } | null {
  if (!resolver.hasClasses() || !mayRequestDRAExtendedResource(pod)) return null;
  const resources = new PodExtendedResources(podDRAExtendedResources(pod), resolver);
  if (!resources.resources.some((r) => r.backed)) return null;
  const existing = findClaim(pod);
  if (existing) return { claim: existing, resources };
  const podName = pod.metadata?.name ?? "";
  return {
    claim: {
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: {
        namespace: pod.metadata?.namespace ?? "",
        name: specialClaimInMemName,
        // A temporary uid for SignalClaimPendingAllocation (upstream: a random UUID); one
        // attempt of the pod at a time, so the pod's uid makes it unique.
        uid: `${pod.metadata?.uid ?? `${pod.metadata?.namespace ?? ""}/${podName}`}/${specialClaimInMemName}`,
        generateName: `${podName}-extended-resources-`,
        ownerReferences: [
          { apiVersion: "v1", kind: "Pod", name: podName, uid: pod.metadata?.uid ?? "", controller: true },
        ],
        annotations: { [ExtendedResourceClaimAnnotation]: "true" },
      },
      spec: {},
    },
    resources,
  };
}

/**
 * upstream filterExtendedResources: the node's variant of the special claim, with a request for
 * each extended resource the node's allocatable does not provide (0 or absent) and a DeviceClass
 * backs; null when nothing is left for DRA (or the claim is already allocated); a status when the
 * claim comes from an earlier cycle (PostFilter deletes it) or a request is backed by neither.
 * Nodes needing the same resources from DRA get the same variant (made once per pod).
 */
export function filterExtendedResources(
  claim: ResourceClaim,
  podResources: PodExtendedResources,
  pod: Pod,
  nodeInfo: NodeInfo,
  resolver: DeviceClassResolver,
  noUserClaim: boolean,
): NodeExtendedResourceClaim | Status | null {
  // A claim from an earlier cycle: unschedulable, PostFilter deletes it and the pod tries anew.
  if (claim.spec?.devices?.requests) {
    return new Status(Code.UnschedulableAndUnresolvable, "cannot schedule extended resource claim");
  }
  const scalars = nodeInfo.allocatable.scalarResources;
  // Without scalar resources the outcome depends on the pod alone: worked out once per cycle (a
  // status, a node's own object, is made per node).
  if (scalars === null || scalars.size === 0) {
    let kept = podResources.onNodeWithoutScalars;
    if (kept !== undefined) return kept;
    const r = nodeExtendedClaim(claim, podResources, pod, null, resolver, noUserClaim);
    if (r instanceof Status) return r;
    kept = r;
    podResources.onNodeWithoutScalars = kept;
    return kept;
  }
  return nodeExtendedClaim(claim, podResources, pod, scalars, resolver, noUserClaim);
}

/** filterExtendedResources for a node with these scalar resources (null: none). */
function nodeExtendedClaim(
  claim: ResourceClaim,
  podResources: PodExtendedResources,
  pod: Pod,
  scalars: ReadonlyMap<string, number> | null,
  resolver: DeviceClassResolver,
  noUserClaim: boolean,
): NodeExtendedResourceClaim | Status | null {
  // The names of the resources the node has to provide through DRA, joined (names have no "\n").
  let key = "";
  let count = 0;
  for (const { name, quantity, backed } of podResources.resources) {
    if (quantity === 0) continue;
    const allocatable = scalars?.get(name);
    if (backed && !allocatable) {
      // The node has to provide the resource through DRA.
      key = count++ === 0 ? name : `${key}\n${name}`;
    } else if (allocatable === undefined) {
      // Neither a device plugin nor a DeviceClass provides it: the pod does not fit.
      return new Status(Code.UnschedulableAndUnresolvable, "cannot fit resource");
    }
  }
  // Everything through device plugins: NodeResourcesFit checked it, nothing left to do here.
  if (noUserClaim && count === 0) return null;
  // Already allocated: it cannot be allocated again (a claim from an earlier cycle returned above).
  if (claim.status?.allocation) return null;
  const cached = podResources.nodeClaims.get(key);
  if (cached) return cached;
  const extendedResources = new Map<string, number>();
  if (count > 0) {
    for (const name of key.split("\n")) {
      extendedResources.set(name, podResources.podScalarResources.get(name) ?? 0);
    }
  }
  const { requests, mappings } = createRequestsAndMappings(pod, extendedResources, resolver);
  // A new object over the claim's parts, which stay unchanged (claims are never changed in place).
  const nodeClaim: ResourceClaim = {
    ...claim,
    spec: { ...claim.spec, devices: { ...claim.spec?.devices, requests } },
  };
  if (requests.length === 0) delete nodeClaim.spec?.devices;
  const made = { claim: nodeClaim, mappings };
  podResources.nodeClaims.set(key, made);
  return made;
}

/** upstream partitionContainerIndices: long-lived (containers, sidecars) and short-lived init containers. */
function partitionContainerIndices(containers: readonly Container[], numInit: number): [number[], number[]] {
  const longLived: number[] = [];
  const shortLived: number[] = [];
  containers.forEach((c, i) => {
    if (i < numInit && c.restartPolicy !== "Always") shortLived.push(i);
    else longLived.push(i);
  });
  return [longLived, shortLived];
}

/**
 * upstream createResourceRequestAndMappings: the request `container-<i>-request-<j>` (j: the
 * resource's index among the container's sorted request names) for what the container needs
 * beyond `reusable` (later long-lived containers' requests an init container can use first).
 */
function createResourceRequestAndMappings(
  containerIndex: number,
  container: Container,
  resourceName: string,
  className: string,
  reusable: readonly (DeviceRequest | null)[],
): { request: DeviceRequest | null; mappings: ContainerExtendedResourceRequest[] } {
  const mappings: ContainerExtendedResourceRequest[] = [];
  const creqs = container.resources?.requests;
  if (!creqs || creqs[resourceName] === undefined) return { request: null, mappings };
  const crq = resourceListToAmounts({ [resourceName]: creqs[resourceName] }).get(resourceName) ?? 0;
  if (!Number.isInteger(crq) || crq === 0) return { request: null, mappings };
  let sum = 0;
  for (const r of reusable) {
    if (!r) continue;
    sum += r.exactly?.count ?? 0;
    mappings.push({ containerName: container.name, resourceName, requestName: r.name });
    if (sum >= crq) return { request: null, mappings };
  }
  const ridx = Object.keys(creqs).sort().indexOf(resourceName);
  const requestName = `container-${containerIndex}-request-${Math.max(ridx, 0)}`;
  mappings.push({ containerName: container.name, resourceName, requestName });
  return {
    request: {
      name: requestName,
      exactly: { deviceClassName: className, allocationMode: "ExactCount", count: crq - sum },
    },
    mappings,
  };
}

/**
 * upstream createRequestsAndMappings: the special claim's requests for the resources DRA must
 * provide on the node (sorted by request name) and which request serves which container. An init
 * container (not a sidecar) first reuses the requests of the long-lived containers after it; of
 * the init containers' own requests only the largest is kept and the others map to it.
 */
export function createRequestsAndMappings(
  pod: Pod,
  extendedResources: ReadonlyMap<string, number>,
  resolver: DeviceClassResolver,
): { requests: DeviceRequest[]; mappings: ContainerExtendedResourceRequest[] } {
  const init = pod.spec?.initContainers ?? [];
  const containers = [...init, ...(pod.spec?.containers ?? [])];
  const [longLived, shortLived] = partitionContainerIndices(containers, init.length);
  const requests: DeviceRequest[] = [];
  const mappings: ContainerExtendedResourceRequest[] = [];
  for (const resource of [...extendedResources.keys()].sort()) {
    const className = resolver.getDeviceClass(resource)?.metadata?.name;
    if (className === undefined) continue;
    const longLivedRequests: (DeviceRequest | null)[] = containers.map(() => null);
    const longLivedMappings: ContainerExtendedResourceRequest[] = [];
    for (const i of longLived) {
      const r = createResourceRequestAndMappings(i, containers[i] as Container, resource, className, []);
      longLivedRequests[i] = r.request;
      longLivedMappings.push(...r.mappings);
    }
    let maxShortLived: DeviceRequest | null = null;
    const shortLivedNames = new Set<string>();
    const shortLivedMappings: ContainerExtendedResourceRequest[] = [];
    for (const i of shortLived) {
      const r = createResourceRequestAndMappings(
        i,
        containers[i] as Container,
        resource,
        className,
        longLivedRequests.slice(i),
      );
      if (r.request) {
        shortLivedNames.add(r.request.name);
        if (!maxShortLived || (maxShortLived.exactly?.count ?? 0) < (r.request.exactly?.count ?? 0)) {
          maxShortLived = r.request;
        }
      }
      shortLivedMappings.push(...r.mappings);
    }
    if (maxShortLived && shortLivedNames.size > 1) {
      shortLivedNames.delete(maxShortLived.name);
      for (const m of shortLivedMappings) {
        if (shortLivedNames.has(m.requestName)) m.requestName = maxShortLived.name;
      }
    }
    if (maxShortLived) requests.push(maxShortLived);
    for (const r of longLivedRequests) if (r) requests.push(r);
    mappings.push(...longLivedMappings, ...shortLivedMappings);
  }
  requests.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { requests, mappings };
}

/** The writes deleteClaim needs (a subset of ClusterClient). */
type ClaimWriter = Pick<ClusterClient, "updateResourceClaim" | "deleteResourceClaim">;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function isConflict(e: unknown): boolean {
  return (
    e !== null &&
    typeof e === "object" &&
    ((e as { reason?: unknown }).reason === "Conflict" || (e as { code?: unknown }).code === 409)
  );
}

/**
 * upstream deleteClaim: removes the delete-protection finalizer (an update, retried with the
 * current claim on a conflict) and deletes the claim; NotFound on delete is not an error.
 */
export async function deleteClaim(
  client: ClaimWriter,
  current: (namespace: string, name: string) => ResourceClaim | undefined,
  claim: ResourceClaim,
): Promise<void> {
  if (!client.updateResourceClaim || !client.deleteResourceClaim) {
    throw new Error("the cluster client cannot delete ResourceClaims");
  }
  const ns = claim.metadata?.namespace ?? "";
  const name = claim.metadata?.name ?? "";
  let cur = claim;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) {
      const fresh = current(ns, name);
      if (!fresh) {
        throw new Error(
          `get resourceclaim ${ns}/${name}: resourceclaims.resource.k8s.io "${name}" not found`,
        );
      }
      cur = fresh;
    }
    const finalizers = cur.metadata?.finalizers ?? [];
    const i = finalizers.indexOf(ResourceClaimFinalizer);
    // A new object over the claim's parts (claims are never changed in place).
    const next: ResourceClaim =
      i >= 0
        ? { ...cur, metadata: { ...cur.metadata, finalizers: finalizers.filter((_f, j) => j !== i) } }
        : cur;
    try {
      await client.updateResourceClaim.call(client, next);
      break;
    } catch (e) {
      if (!isConflict(e) || attempt + 1 >= 5)
        throw new Error(`update resourceclaim ${ns}/${name}: ${message(e)}`);
    }
  }
  await client.deleteResourceClaim.call(client, cur);
}
