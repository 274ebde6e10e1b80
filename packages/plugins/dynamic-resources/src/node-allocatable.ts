// upstream: pkg/scheduler/framework/plugins/dynamicresources/nodeallocatabledynamicresources.go at
// kubernetes/kubernetes@0411cc70 (KEP-5517 DRANodeAllocatableResources, the 1.37 shape: a device's
// `nodeAllocatableResources[resource].mapping` / `.overhead`, the pod's
// `status.nodeAllocatableResourceClaimStatuses[].mapping` / `.overhead`): the node allocatable
// resources (cpu, memory, hugepages) a pod's allocated devices stand for, the pod's total demand
// with them, and whether the node has room for it.
import {
  type AllocationResult,
  type Device,
  type DeviceRequestAllocationResult,
  getContainerDRAAllocations,
  isHugePageResourceName,
  isSupportedPodLevelResource,
  type Node,
  type NodeAllocatableResourceClaimStatus,
  type Pod,
  podLimits,
  podRequests,
  Quantity,
  type ResourceAmounts,
  type ResourceClaim,
  ResourceCPU,
  ResourceEphemeralStorage,
  ResourceMemory,
  type ResourceSlice,
  resourceListToAmounts,
} from "@kubesched/api";
import { NodeSelectorCache, nodeMatches } from "@kubesched/dynamic-resource-allocation/structured";
import { Code, type NodeInfo, Status } from "@kubesched/framework";
import { isReservedForPod } from "./resource-claim";

/** A claim of the pod with the allocation Filter found for it or the one it already has. */
export interface ClaimAllocation {
  namespace: string;
  name: string;
  uid: string;
  allocation: AllocationResult;
}

/** Every device of the slices, by driver, pool and name (several slices may list one name). */
export class SliceDevices {
  private readonly byKey = new Map<string, { slice: ResourceSlice; device: Device }[]>();

  constructor(slices: readonly ResourceSlice[]) {
    for (const slice of slices) {
      const spec = slice.spec;
      for (const device of spec.devices ?? []) {
        const key = deviceKey(spec.driver, spec.pool.name, device.name);
        let list = this.byKey.get(key);
        if (!list) {
          list = [];
          this.byKey.set(key, list);
        }
        list.push({ slice, device });
      }
    }
  }

  /**
   * upstream getDeviceFromSlices over filterSlicesForNode: the device of a result among the
   * slices available on `node` (any slice without a node). Throws when there is none.
   */
  find(result: DeviceRequestAllocationResult, node: Node | null): Device {
    for (const { slice, device } of this.byKey.get(deviceKey(result.driver, result.pool, result.device)) ??
      []) {
      if (!sliceMatchesNode(slice, node)) continue;
      if (slice.spec.perDeviceNodeSelection === true && !deviceMatchesNode(device, node)) {
        throw new Error(`device ${result.device} does not match node`);
      }
      return device;
    }
    throw new Error(`device ${result.device} not found in pool ${result.pool} for driver ${result.driver}`);
  }
}

function deviceKey(driver: string, pool: string, device: string): string {
  return `${driver}\0${pool}\0${device}`;
}

/** The node selectors of slices and devices, parsed once (an invalid one matches no node here). */
const selectors = new NodeSelectorCache();

/**
 * upstream filterSlicesForNode's test for one slice: its node name, all nodes or node selector
 * (the allocator's nodeMatches), else whether its devices select nodes one by one.
 */
function sliceMatchesNode(slice: ResourceSlice, node: Node | null): boolean {
  if (node === null) return true;
  const { nodeName = "", allNodes = false, nodeSelector } = slice.spec;
  if (nodeName !== "" || allNodes || nodeSelector !== undefined) {
    return matchesOrFalse(() => nodeMatches(node, nodeName, allNodes, nodeSelector, selectors));
  }
  return slice.spec.perDeviceNodeSelection === true;
}

/** upstream deviceMatchesNode (its node name, else all nodes, else its node selector). */
function deviceMatchesNode(device: Device, node: Node | null): boolean {
  if (node === null) return true;
  if (device.nodeName !== undefined && device.nodeName === node.metadata?.name) return true;
  if (device.allNodes === true) return true;
  const nodeSelector = device.nodeSelector;
  return nodeSelector !== undefined && matchesOrFalse(() => selectors.matches(nodeSelector, node));
}

function matchesOrFalse(match: () => boolean): boolean {
  try {
    return match();
  } catch {
    return false;
  }
}

/** Whether the device maps to or costs node allocatable resources. */
export function hasNodeAllocatableResources(device: Device): boolean {
  return (
    device.nodeAllocatableResources !== undefined && Object.keys(device.nodeAllocatableResources).length > 0
  );
}

/** Whether one of the device's node allocatable resources has a `mapping` (not overhead only). */
export function hasNodeAllocatableMapping(device: Device): boolean {
  for (const r of Object.values(device.nodeAllocatableResources ?? {})) if (r.mapping) return true;
  return false;
}

/**
 * upstream validateNodeAllocatableDRAClaimSharing: an allocated claim with a device that maps to
 * node allocatable resources (not overhead only) serves one pod: reserved for another, the pod
 * cannot use it. (Pod groups' pending allocations, DRAWorkloadResourceClaims, are not modelled.)
 */
export function validateNodeAllocatableDRAClaimSharing(
  pod: Pod,
  claim: ResourceClaim | null,
  devices: SliceDevices,
): Status | null {
  if (!claim) return null;
  const mapped = (claim.status?.allocation?.devices?.results ?? []).some((r) => {
    try {
      return hasNodeAllocatableMapping(devices.find(r, null));
    } catch {
      return false;
    }
  });
  // Overhead-only claims may be shared.
  if (!mapped) return null;
  if ((claim.status?.reservedFor?.length ?? 0) > 0 && !isReservedForPod(pod, claim)) {
    return new Status(
      Code.UnschedulableAndUnresolvable,
      `node allocatable resource claim ${claim.metadata?.name ?? ""} has a mapped device and cannot be shared across pods`,
    );
  }
  return null;
}

/**
 * upstream draapi.LookupByQualifiedName: a consumed capacity by its qualified name; a name without
 * a domain is the driver's.
 */
function lookupByQualifiedName(
  m: { [name: string]: string },
  name: string,
  driver: string,
): string | undefined {
  const direct = m[name];
  if (direct !== undefined) return direct;
  const slash = name.indexOf("/");
  if (slash < 0) return m[`${driver}/${name}`];
  if (name.slice(0, slash) === driver) return m[name.slice(slash + 1)];
  return undefined;
}

/** upstream addDeviceMapping: a device's mapped quantity for one resource, added to `totals`. */
function addDeviceMapping(
  resourceName: string,
  mapping: NonNullable<NonNullable<Device["nodeAllocatableResources"]>[string]["mapping"]>,
  result: DeviceRequestAllocationResult,
  claim: ClaimAllocation,
  totals: Map<string, Quantity>,
): void {
  const capacityKey = mapping.capacityKey;
  if (capacityKey !== undefined && capacityKey !== "") {
    if (result.consumedCapacity === undefined) {
      throw new Error(
        `claim ${claim.namespace}/${claim.name}, device ${result.device}: ConsumedCapacity is nil, but Capacity key '${capacityKey}' is set in NodeAllocatableResources for resource ${resourceName}`,
      );
    }
    const consumed = lookupByQualifiedName(result.consumedCapacity, capacityKey, result.driver);
    // Not consumed by this allocation: the mapping does not apply.
    if (consumed === undefined) return;
    let quantity = Quantity.parse(consumed);
    if (mapping.capacityMultiplier !== undefined) {
      const multiplier = Quantity.parse(mapping.capacityMultiplier);
      if (multiplier.cmp(Quantity.of(1)) !== 0) quantity = quantity.mul(multiplier);
    }
    totals.set(resourceName, (totals.get(resourceName) ?? Quantity.of(0)).add(quantity));
    return;
  }
  // deviceMultiplier and capacityKey exclude each other (API validation).
  if (mapping.deviceMultiplier !== undefined) {
    const q = Quantity.parse(mapping.deviceMultiplier);
    totals.set(resourceName, (totals.get(resourceName) ?? Quantity.of(0)).add(q));
  }
}

/** upstream addDeviceOverhead: per-pod and per-container overheads summed per resource. */
function addDeviceOverhead(
  resourceName: string,
  overhead: NonNullable<NonNullable<Device["nodeAllocatableResources"]>[string]["overhead"]>,
  totals: Map<string, { perPod?: Quantity; perContainer?: Quantity }>,
): void {
  if (overhead.perPod === undefined && overhead.perContainer === undefined) return;
  const cur = totals.get(resourceName) ?? {};
  if (overhead.perPod !== undefined) {
    const q = Quantity.parse(overhead.perPod);
    cur.perPod = cur.perPod ? cur.perPod.add(q) : q;
  }
  if (overhead.perContainer !== undefined) {
    const q = Quantity.parse(overhead.perContainer);
    cur.perContainer = cur.perContainer ? cur.perContainer.add(q) : q;
  }
  totals.set(resourceName, cur);
}

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * upstream buildNodeAllocatableDRAInfo: one status per claim whose allocated devices map to or
 * cost node allocatable resources, with the containers referencing it, sorted by claim name.
 * `claimUIDOfPodClaim`: the pod's claim entry names (`spec.resourceClaims[].name`) → claim UID.
 * Throws (with the claim, device and driver named) when a device is not found or a mapping
 * cannot be applied.
 */
export function buildNodeAllocatableDRAInfo(
  pod: Pod,
  claims: readonly ClaimAllocation[],
  claimUIDOfPodClaim: ReadonlyMap<string, string>,
  devices: SliceDevices,
  node: Node | null,
): NodeAllocatableResourceClaimStatus[] {
  const byUID = new Map<string, NodeAllocatableResourceClaimStatus>();
  for (const claim of claims) {
    const mapped = new Map<string, Quantity>();
    const overheads = new Map<string, { perPod?: Quantity; perContainer?: Quantity }>();
    for (const result of claim.allocation.devices?.results ?? []) {
      let device: Device;
      try {
        device = devices.find(result, node);
      } catch (e) {
        throw new Error(
          `claim ${claim.namespace}/${claim.name}, device ${result.device}, driver ${result.driver}: ${(e as Error).message}`,
        );
      }
      for (const [resourceName, r] of Object.entries(device.nodeAllocatableResources ?? {})) {
        if (r.mapping) addDeviceMapping(resourceName, r.mapping, result, claim, mapped);
        if (r.overhead) addDeviceOverhead(resourceName, r.overhead, overheads);
      }
    }
    if (mapped.size === 0 && overheads.size === 0) continue;
    const status: NodeAllocatableResourceClaimStatus = { resourceClaimName: claim.name, containers: [] };
    if (mapped.size > 0) {
      status.mapping = [...mapped].map(([name, q]) => ({ name, quantity: q.toString() })).sort(byName);
    }
    if (overheads.size > 0) {
      status.overhead = [...overheads]
        .map(([name, o]) => ({
          name,
          ...(o.perPod ? { perPod: o.perPod.toString() } : {}),
          ...(o.perContainer ? { perContainer: o.perContainer.toString() } : {}),
        }))
        .sort(byName);
    }
    byUID.set(claim.uid, status);
  }
  for (const containers of [pod.spec?.initContainers ?? [], pod.spec?.containers ?? []]) {
    for (const container of containers) {
      for (const ref of container.resources?.claims ?? []) {
        const uid = claimUIDOfPodClaim.get(ref.name);
        const status = uid === undefined ? undefined : byUID.get(uid);
        status?.containers?.push(container.name);
      }
    }
  }
  return [...byUID.values()].sort((a, b) =>
    a.resourceClaimName < b.resourceClaimName ? -1 : a.resourceClaimName > b.resourceClaimName ? 1 : 0,
  );
}

/**
 * upstream validatePodLevelResourcesCoverDRA: with pod-level resources, the pod-level requests
 * must cover the containers' plus the DRA-mapped requests, the pod-level hugepages limits the
 * containers' plus the DRA limits, and each pod-level limit every container's limit plus the
 * DRA resources of the claims it references. `pod` carries the claim statuses.
 */
export function validatePodLevelResourcesCoverDRA(pod: Pod, enablePodLevelResources: boolean): Status | null {
  const podResources = pod.spec?.resources;
  if (!enablePodLevelResources || !podResources) return null;
  if ((pod.status?.nodeAllocatableResourceClaimStatuses?.length ?? 0) === 0) return null;
  // upstream AggregateContainerRequests / AggregateContainerLimits: no pod-level, no overhead.
  const aggregate = {
    skipPodLevelResources: true,
    excludeOverhead: true,
    useDRANodeAllocatableResourceClaimStatus: true,
  };
  const requestShort =
    podResources.requests &&
    exceeding(
      podRequests(pod, aggregate),
      resourceListToAmounts(podResources.requests),
      isSupportedPodLevelResource,
    );
  if (requestShort) {
    return new Status(
      Code.UnschedulableAndUnresolvable,
      `pod level request for ${requestShort} is insufficient to cover the aggregated container and node-allocatable DRA requests`,
    );
  }
  if (podResources.limits) {
    const podLevelLimits = resourceListToAmounts(podResources.limits);
    const limitShort = exceeding(podLimits(pod, aggregate), podLevelLimits, isHugePageResourceName);
    if (limitShort) {
      return new Status(
        Code.UnschedulableAndUnresolvable,
        `pod level limit for ${limitShort} is insufficient to cover the aggregated container and node-allocatable DRA limits`,
      );
    }
    for (const c of pod.spec?.containers ?? []) {
      const dra = getContainerDRAAllocations(pod, c.name);
      for (const [name, limit] of resourceListToAmounts(c.resources?.limits)) {
        if (isHugePageResourceName(name)) continue;
        const podLevel = podLevelLimits.get(name);
        if (podLevel === undefined) continue;
        if (limit + (dra.get(name) ?? 0) > podLevel) {
          return new Status(
            Code.UnschedulableAndUnresolvable,
            `pod level limit for ${name} is insufficient to cover the limit and DRA overhead for container ${c.name}`,
          );
        }
      }
    }
  }
  return null;
}

/** The first resource `pick` selects whose aggregate exceeds the pod-level amount set for it. */
function exceeding(
  aggregate: ResourceAmounts,
  podLevel: ResourceAmounts,
  pick: (name: string) => boolean,
): string | undefined {
  for (const [name, v] of aggregate) {
    if (!pick(name)) continue;
    const limit = podLevel.get(name);
    if (limit !== undefined && v > limit) return name;
  }
  return undefined;
}

/**
 * upstream getPodNodeAllocatableResourceFootprint's demand: the pod's requests with its claim
 * statuses (pod-level resources when enabled and set win for cpu, memory and hugepages).
 */
export function podDemandWithDRA(pod: Pod, enablePodLevelResources: boolean): ResourceAmounts {
  return podRequests(pod, {
    skipPodLevelResources: !enablePodLevelResources,
    useDRANodeAllocatableResourceClaimStatus: true,
  });
}

/**
 * upstream nodeFitsResources (of DynamicResources): cpu, memory, ephemeral-storage and hugepages
 * of the demand against the node's allocatable minus what its pods request; Unschedulable with
 * one reason per resource short, UnschedulableAndUnresolvable when the node could never hold it.
 */
export function nodeFitsResources(nodeInfo: NodeInfo, demand: ResourceAmounts): Status | null {
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  const reasons: string[] = [];
  let unresolvable = false;
  const check = (name: string, requested: number, capacity: number, inUse: number) => {
    if (requested > 0 && requested > capacity - inUse) {
      reasons.push(`Insufficient ${name}`);
      if (requested > capacity) unresolvable = true;
    }
  };
  check(ResourceCPU, demand.get(ResourceCPU) ?? 0, alloc.milliCPU, used.milliCPU);
  check(ResourceMemory, demand.get(ResourceMemory) ?? 0, alloc.memory, used.memory);
  check(
    ResourceEphemeralStorage,
    demand.get(ResourceEphemeralStorage) ?? 0,
    alloc.ephemeralStorage,
    used.ephemeralStorage,
  );
  for (const [name, v] of demand) {
    if (!isHugePageResourceName(name)) continue;
    const capacity = alloc.scalar(name);
    const inUse = used.scalar(name);
    if (v > capacity - inUse) {
      reasons.push(`Insufficient ${name}`);
      if (v > capacity) unresolvable = true;
    }
  }
  if (reasons.length === 0) return null;
  return new Status(unresolvable ? Code.UnschedulableAndUnresolvable : Code.Unschedulable, ...reasons);
}

/** A status in a canonical form: absent and empty lists alike, quantities by value. */
function canonical(st: NodeAllocatableResourceClaimStatus): string {
  const q = (v: string | undefined) => (v === undefined ? null : Quantity.parse(v).toString());
  return JSON.stringify([
    st.resourceClaimName,
    st.containers ?? [],
    (st.mapping ?? []).map((m) => [m.name, q(m.quantity)]),
    (st.overhead ?? []).map((o) => [o.name, q(o.perPod), q(o.perContainer)]),
  ]);
}

/**
 * upstream apiequality.Semantic.DeepEqual of two status lists: nil and empty lists are equal,
 * quantities compare by value.
 */
export function sameNodeAllocatableStatuses(
  a: readonly NodeAllocatableResourceClaimStatus[],
  b: readonly NodeAllocatableResourceClaimStatus[],
): boolean {
  if (a.length !== b.length) return false;
  try {
    return a.every((st, i) => canonical(st) === canonical(b[i] as NodeAllocatableResourceClaimStatus));
  } catch {
    return false;
  }
}
