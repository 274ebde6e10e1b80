// upstream: staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests, PodLimits),
// staging/src/k8s.io/component-helpers/scheduling/corev1/resource_names.go and
// pkg/apis/core/v1/helper/helpers.go (resource name classes).
import type { Container, ContainerStatus, Pod } from "kubernetes-types/core/v1.js";
import { Quantity, quantityMilliValue, quantityValue } from "./quantity";
import type { NodeAllocatableResourceClaimStatus, ResourceList } from "./types";
import { isQualifiedName } from "./validation";

export const ResourceCPU = "cpu";
export const ResourceMemory = "memory";
export const ResourceEphemeralStorage = "ephemeral-storage";
export const ResourcePods = "pods";
/** Requests-per-container default used for scoring when a container requests no CPU (100m). */
export const DefaultMilliCPURequest = 100;
/** Requests-per-container default used for scoring when a container requests no memory (200Mi). */
export const DefaultMemoryRequest = 200 * 1024 * 1024;

const ResourceHugePagesPrefix = "hugepages-";
const ResourceAttachableVolumesPrefix = "attachable-volumes-";
const ResourceDefaultNamespacePrefix = "kubernetes.io/";
const DefaultResourceRequestsPrefix = "requests.";

/** True if the name is explicitly in the kubernetes.io domain. */
export function isPrefixedNativeResource(name: string): boolean {
  return name.includes(ResourceDefaultNamespacePrefix);
}

/** True if the name is in the kubernetes.io domain (unprefixed names implicitly are). */
export function isNativeResource(name: string): boolean {
  return !name.includes("/") || isPrefixedNativeResource(name);
}

const extendedCache = new Map<string, boolean>();

/** A fully-qualified name outside kubernetes.io that is also valid as a `requests.` quota name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(DefaultResourceRequestsPrefix)) return false;
  let ok = extendedCache.get(name);
  if (ok === undefined) {
    ok = isQualifiedName(DefaultResourceRequestsPrefix + name).length === 0;
    extendedCache.set(name, ok);
  }
  return ok;
}

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(ResourceHugePagesPrefix);
}

export function isAttachableVolumeResourceName(name: string): boolean {
  return name.startsWith(ResourceAttachableVolumesPrefix);
}

/** Resources the scheduler tracks in NodeInfo's scalar map (upstream IsScalarResourceName). */
export function isScalarResourceName(name: string): boolean {
  return (
    isExtendedResourceName(name) ||
    isHugePageResourceName(name) ||
    isPrefixedNativeResource(name) ||
    isAttachableVolumeResourceName(name)
  );
}

/** Resources that pod-level `spec.resources` may set: cpu, memory and hugepages-*. */
export function isSupportedPodLevelResource(name: string): boolean {
  return name === ResourceCPU || name === ResourceMemory || name.startsWith(ResourceHugePagesPrefix);
}

/**
 * Amounts in canonical integer units: `cpu` in millicores (MilliValue), everything else in
 * Value() units (bytes, counts).
 */
export type ResourceAmounts = Map<string, number>;

/** The canonical integer amount of one quantity string for a resource name. */
export function resourceAmount(name: string, quantity: string): number {
  return name === ResourceCPU ? quantityMilliValue(quantity) : quantityValue(quantity);
}

/**
 * The quantity string of a canonical amount (the inverse of {@link resourceAmount}): `cpu` from
 * millicores ("1500m"), memory, ephemeral-storage and hugepages-* as binary quantities ("2Gi"),
 * every other resource as a decimal count.
 */
export function formatResourceAmount(name: string, amount: number): string {
  if (name === ResourceCPU) return Quantity.of(amount, -3, "DecimalSI").toString();
  const binary =
    name === ResourceMemory || name === ResourceEphemeralStorage || name.startsWith(ResourceHugePagesPrefix);
  return Quantity.of(amount, 0, binary ? "BinarySI" : "DecimalSI").toString();
}

/** Converts a resource list (cpu → milli, others → value). Throws QuantityParseError. */
export function resourceListToAmounts(list: ResourceList | undefined): ResourceAmounts {
  const out: ResourceAmounts = new Map();
  if (list === undefined || list === null) return out;
  for (const name in list) {
    const q = list[name];
    if (q !== undefined) out.set(name, resourceAmount(name, q));
  }
  return out;
}

/** A container's resource list as the aggregation should see it (spec, allocated or actuated). */
export type ContainerResourcesFn = (
  container: Container,
  status: ContainerStatus | undefined,
  isResizeInfeasible: boolean,
) => ResourceList | undefined;

/** Mirrors upstream PodResourcesOptions. */
export interface PodResourcesOptions {
  /** Leave pod overhead out (default: overhead is added). */
  excludeOverhead?: boolean;
  /**
   * Per-container defaults for resources a container does not request at all (an explicit 0
   * is kept): the 100m / 200Mi "non-zero" requests used for scoring.
   */
  nonMissingContainerRequests?: ReadonlyMap<string, number>;
  /** Ignore pod-level `spec.resources` (it is used by default when set). */
  skipPodLevelResources?: boolean;
  /** Ignore container-level resources (only pod-level and overhead count). */
  skipContainerLevelResources?: boolean;
  /** Consider status resources (in-place resize): max of spec, allocated and actuated. */
  useStatusResources?: boolean;
  /** InPlacePodLevelResourcesVerticalScaling: also read pod-level status resources. */
  inPlacePodLevelResourcesVerticalScaling?: boolean;
  /** Overrides which container resource list is aggregated (default: spec requests/limits). */
  containerFn?: ContainerResourcesFn;
  /**
   * Add the node allocatable resources of the pod's DRA claims recorded in
   * `status.nodeAllocatableResourceClaimStatuses` (upstream UseDRANodeAllocatableResourceClaimStatus,
   * DRANodeAllocatableResources): each claim's mapped quantities plus its overheads (per pod,
   * and per container times the containers referencing the claim).
   */
  useDRANodeAllocatableResourceClaimStatus?: boolean;
}

function addAmounts(into: ResourceAmounts, from: ReadonlyMap<string, number>): void {
  for (const [name, v] of from) into.set(name, (into.get(name) ?? 0) + v);
}

function maxAmounts(into: ResourceAmounts, from: ReadonlyMap<string, number>): void {
  for (const [name, v] of from) {
    const cur = into.get(name);
    if (cur === undefined || v > cur) into.set(name, v);
  }
}

function maxOf(
  a: ReadonlyMap<string, number> | undefined,
  ...rest: ReadonlyMap<string, number>[]
): ResourceAmounts {
  const out: ResourceAmounts = new Map(a);
  for (const r of rest) maxAmounts(out, r);
  return out;
}

/** Subtracts, clamping at zero, only for names already present (upstream subtractResourceList). */
function subtractAmounts(into: ResourceAmounts, from: ReadonlyMap<string, number>): void {
  for (const [name, v] of from) {
    const cur = into.get(name);
    if (cur !== undefined) into.set(name, Math.max(0, cur - v));
  }
}

/** True when the PodResizePending condition says Infeasible. */
export function isPodResizeInfeasible(pod: Pod): boolean {
  for (const c of pod.status?.conditions ?? []) {
    if (c.type === "PodResizePending") return c.reason === "Infeasible";
  }
  return false;
}

function findContainerStatus(pod: Pod, name: string): ContainerStatus | undefined {
  const status = pod.status;
  if (status === undefined) return undefined;
  for (const cs of status.containerStatuses ?? []) if (cs.name === name) return cs;
  for (const cs of status.initContainerStatuses ?? []) if (cs.name === name) return cs;
  return undefined;
}

function isRestartableInitContainer(c: Container): boolean {
  return c.restartPolicy === "Always";
}

const containerSpecRequests: ContainerResourcesFn = (c) => c.resources?.requests;
const containerSpecLimits: ContainerResourcesFn = (c) => c.resources?.limits;

const containerAllocatedRequests: ContainerResourcesFn = (c, cs, infeasible) => {
  if (cs?.allocatedResources != null) return cs.allocatedResources;
  if (infeasible) return undefined;
  return c.resources?.requests;
};

const containerActuatedRequests: ContainerResourcesFn = (c, cs, infeasible) => {
  if (cs?.resources?.requests != null) return cs.resources.requests;
  if (cs?.allocatedResources != null) return cs.allocatedResources;
  if (infeasible) return undefined;
  return c.resources?.requests;
};

const containerActuatedLimits: ContainerResourcesFn = (c, cs, infeasible) => {
  if (cs?.resources?.limits != null) return cs.resources.limits;
  if (infeasible) return undefined;
  return c.resources?.limits;
};

function applyNonMissing(reqs: ResourceAmounts, nonMissing: ReadonlyMap<string, number>): void {
  for (const [name, v] of nonMissing) if (!reqs.has(name)) reqs.set(name, v);
}

// upstream: aggregateContainerResourcesByFn — sum of regular containers, sidecars (restartable
// init containers) added to the sum and carried into every later init container, then
// max(sum, max over init containers).
function aggregateByFn(
  pod: Pod,
  opts: PodResourcesOptions,
  fn: ContainerResourcesFn,
  nonMissing: ReadonlyMap<string, number> | undefined,
): ResourceAmounts {
  const useStatus = opts.useStatusResources === true;
  const infeasible = useStatus ? isPodResizeInfeasible(pod) : false;
  const spec = pod.spec;
  const result: ResourceAmounts = new Map();
  for (const c of spec?.containers ?? []) {
    addAmounts(result, containerAmounts(pod, c, useStatus, infeasible, fn, nonMissing));
  }

  const sidecars: ResourceAmounts = new Map();
  const initMax: ResourceAmounts = new Map();
  for (const c of spec?.initContainers ?? []) {
    const amounts = containerAmounts(pod, c, useStatus, infeasible, fn, nonMissing);
    if (isRestartableInitContainer(c)) {
      addAmounts(result, amounts);
      addAmounts(sidecars, amounts);
      maxAmounts(initMax, sidecars);
    } else {
      addAmounts(amounts, sidecars);
      maxAmounts(initMax, amounts);
    }
  }
  maxAmounts(result, initMax);
  return result;
}

/** One container's resources as `fn` picks them, with the non-missing defaults applied. */
function containerAmounts(
  pod: Pod,
  c: Container,
  useStatus: boolean,
  infeasible: boolean,
  fn: ContainerResourcesFn,
  nonMissing: ReadonlyMap<string, number> | undefined,
): ResourceAmounts {
  const cs = useStatus ? findContainerStatus(pod, c.name) : undefined;
  const amounts = resourceListToAmounts(fn(c, cs, infeasible));
  if (nonMissing !== undefined && nonMissing.size > 0) applyNonMissing(amounts, nonMissing);
  return amounts;
}

/** upstream addDRANodeAllocatableClaimResources: the claim statuses' mapped and overhead amounts. */
function addDRANodeAllocatableClaimResources(
  into: ResourceAmounts,
  pod: Pod,
  opts: PodResourcesOptions,
): void {
  if (opts.useDRANodeAllocatableResourceClaimStatus !== true) return;
  const statuses = pod.status?.nodeAllocatableResourceClaimStatuses;
  if (statuses === undefined || statuses.length === 0) return;
  for (const cs of statuses) {
    // upstream TODO: claims referenced by init containers only are counted like the others.
    addClaimStatusAmounts(into, cs, cs.containers?.length ?? 0);
  }
}

/**
 * One claim status's amounts added to `into`: its mapped quantities, its per-pod overheads and
 * its per-container overheads `containers` times.
 */
function addClaimStatusAmounts(
  into: ResourceAmounts,
  cs: NodeAllocatableResourceClaimStatus,
  containers: number,
): void {
  for (const m of cs.mapping ?? []) {
    if (m.quantity != null) into.set(m.name, (into.get(m.name) ?? 0) + resourceAmount(m.name, m.quantity));
  }
  for (const o of cs.overhead ?? []) {
    let v = 0;
    if (o.perPod != null) v += resourceAmount(o.name, o.perPod);
    if (o.perContainer != null && containers > 0) v += resourceAmount(o.name, o.perContainer) * containers;
    into.set(o.name, (into.get(o.name) ?? 0) + v);
  }
}

/**
 * upstream addDRANodeAllocatableLimits: the claim statuses' amounts added to the limits a
 * container spec declares (no limit stays no limit), and always to hugepages.
 */
function addDRANodeAllocatableLimits(limits: ResourceAmounts, pod: Pod, opts: PodResourcesOptions): void {
  const dra: ResourceAmounts = new Map();
  addDRANodeAllocatableClaimResources(dra, pod, opts);
  for (const [name, v] of dra) {
    const declared = limits.get(name);
    if (declared !== undefined || name.startsWith(ResourceHugePagesPrefix))
      limits.set(name, (declared ?? 0) + v);
  }
}

/**
 * upstream GetContainerDRAAllocations: the node allocatable resources the pod's claim statuses
 * give one container (mapped quantities, plus per-pod and per-container overhead, of each claim
 * it references).
 */
export function getContainerDRAAllocations(pod: Pod, containerName: string): ResourceAmounts {
  const out: ResourceAmounts = new Map();
  for (const cs of pod.status?.nodeAllocatableResourceClaimStatuses ?? []) {
    // The container's share: the per-container overhead once.
    if ((cs.containers ?? []).includes(containerName)) addClaimStatusAmounts(out, cs, 1);
  }
  return out;
}

function aggregateContainerRequests(pod: Pod, opts: PodResourcesOptions): ResourceAmounts {
  const nonMissing = opts.nonMissingContainerRequests;
  if (opts.containerFn !== undefined) {
    const reqs = aggregateByFn(pod, opts, opts.containerFn, nonMissing);
    addDRANodeAllocatableClaimResources(reqs, pod, opts);
    return reqs;
  }
  if (opts.useStatusResources !== true) {
    const reqs = aggregateByFn(pod, opts, containerSpecRequests, nonMissing);
    addDRANodeAllocatableClaimResources(reqs, pod, opts);
    return reqs;
  }
  const infeasible = isPodResizeInfeasible(pod);
  const status = pod.status;
  if (
    !infeasible &&
    (status?.containerStatuses?.length ?? 0) === 0 &&
    (status?.initContainerStatuses?.length ?? 0) === 0 &&
    !(
      opts.inPlacePodLevelResourcesVerticalScaling === true &&
      status?.allocatedResources != null &&
      status.resources?.requests != null
    )
  ) {
    // No container status (a pod not running yet): allocated and actuated requests are the
    // spec's (allocated with the DRA amounts, as the spec's), and their max is the spec's.
    const reqs = aggregateByFn(pod, opts, containerSpecRequests, nonMissing);
    addDRANodeAllocatableClaimResources(reqs, pod, opts);
    return reqs;
  }
  const specReqs = aggregateByFn(pod, opts, containerSpecRequests, nonMissing);
  addDRANodeAllocatableClaimResources(specReqs, pod, opts);
  let allocated: ResourceAmounts;
  let actuated: ResourceAmounts;
  if (
    opts.inPlacePodLevelResourcesVerticalScaling === true &&
    status?.allocatedResources != null &&
    status.resources?.requests != null
  ) {
    // Pod-level status maps already hold the aggregate across containers (the kubelet includes
    // the DRA amounts in them).
    allocated = resourceListToAmounts(status.allocatedResources);
    actuated = resourceListToAmounts(status.resources.requests);
  } else {
    // Container allocated resources leave out the DRA amounts: added so as not to under-report.
    allocated = aggregateByFn(pod, opts, containerAllocatedRequests, nonMissing);
    addDRANodeAllocatableClaimResources(allocated, pod, opts);
    actuated = aggregateByFn(pod, opts, containerActuatedRequests, nonMissing);
  }
  return infeasible ? maxOf(actuated, allocated) : maxOf(specReqs, actuated, allocated);
}

function aggregateContainerLimits(pod: Pod, opts: PodResourcesOptions): ResourceAmounts {
  if (opts.containerFn !== undefined || opts.useStatusResources !== true) {
    const limits = aggregateByFn(pod, opts, opts.containerFn ?? containerSpecLimits, undefined);
    addDRANodeAllocatableLimits(limits, pod, opts);
    return limits;
  }
  const infeasible = isPodResizeInfeasible(pod);
  const specLimits = aggregateByFn(pod, opts, containerSpecLimits, undefined);
  addDRANodeAllocatableLimits(specLimits, pod, opts);
  const statusLimits = pod.status?.resources?.limits;
  const actuated =
    opts.inPlacePodLevelResourcesVerticalScaling === true && statusLimits != null
      ? resourceListToAmounts(statusLimits)
      : aggregateByFn(pod, opts, containerActuatedLimits, undefined);
  return infeasible ? actuated : maxOf(specLimits, actuated);
}

function hasSupportedName(list: ResourceList | undefined): boolean {
  if (list == null) return false;
  for (const name in list) if (isSupportedPodLevelResource(name)) return true;
  return false;
}

/** Pod-level requests set for at least one supported resource (upstream IsPodLevelRequestsSet). */
export function isPodLevelRequestsSet(pod: Pod): boolean {
  return hasSupportedName(pod.spec?.resources?.requests);
}

/** Pod-level limits set for at least one supported resource (upstream IsPodLevelLimitsSet). */
export function isPodLevelLimitsSet(pod: Pod): boolean {
  return hasSupportedName(pod.spec?.resources?.limits);
}

/** Pod-level requests or limits set for a supported resource (upstream IsPodLevelResourcesSet). */
export function isPodLevelResourcesSet(pod: Pod): boolean {
  return isPodLevelRequestsSet(pod) || hasSupportedName(pod.spec?.resources?.limits);
}

function applyPodLevel(result: ResourceAmounts, effective: ReadonlyMap<string, number>): void {
  for (const [name, v] of effective) if (isSupportedPodLevelResource(name)) result.set(name, v);
}

function effectivePodLevel(
  pod: Pod,
  spec: ReadonlyMap<string, number> | undefined,
  ...statuses: ReadonlyMap<string, number>[]
): ResourceAmounts {
  return maxOf(isPodResizeInfeasible(pod) ? undefined : spec, ...statuses);
}

/**
 * The pod's effective requests, as upstream resourcehelper.PodRequests: containers (with
 * sidecar rules), pod-level resources for cpu/memory/hugepages when set, plus overhead.
 */
export function podRequests(pod: Pod, opts: PodResourcesOptions = {}): ResourceAmounts {
  const reqs: ResourceAmounts =
    opts.skipContainerLevelResources === true ? new Map() : aggregateContainerRequests(pod, opts);
  const spec = pod.spec;
  if (opts.skipPodLevelResources !== true && isPodLevelRequestsSet(pod)) {
    let effective = resourceListToAmounts(spec?.resources?.requests);
    const status = pod.status;
    if (
      opts.inPlacePodLevelResourcesVerticalScaling === true &&
      opts.useStatusResources === true &&
      (status?.resources != null || status?.allocatedResources != null)
    ) {
      const statusReqs = resourceListToAmounts(status.resources?.requests);
      const allocatedReqs = resourceListToAmounts(status.allocatedResources);
      if (spec?.overhead != null) {
        const overhead = resourceListToAmounts(spec.overhead);
        subtractAmounts(statusReqs, overhead);
        subtractAmounts(allocatedReqs, overhead);
      }
      effective = effectivePodLevel(pod, effective, statusReqs, allocatedReqs);
    }
    applyPodLevel(reqs, effective);
  }
  if (opts.excludeOverhead !== true && spec?.overhead != null) {
    addAmounts(reqs, resourceListToAmounts(spec.overhead));
  }
  return reqs;
}

/**
 * The pod's effective limits, as upstream resourcehelper.PodLimits; overhead is added only to
 * non-zero limits.
 */
export function podLimits(pod: Pod, opts: PodResourcesOptions = {}): ResourceAmounts {
  const limits = aggregateContainerLimits(pod, opts);
  const spec = pod.spec;
  if (opts.skipPodLevelResources !== true && isPodLevelResourcesSet(pod)) {
    let effective = resourceListToAmounts(spec?.resources?.limits);
    const statusLimitsList = pod.status?.resources?.limits;
    if (
      opts.inPlacePodLevelResourcesVerticalScaling === true &&
      opts.useStatusResources === true &&
      pod.status?.resources != null
    ) {
      const statusLimits = resourceListToAmounts(statusLimitsList);
      if (spec?.overhead != null) subtractAmounts(statusLimits, resourceListToAmounts(spec.overhead));
      effective = effectivePodLevel(pod, effective, statusLimits);
    }
    applyPodLevel(limits, effective);
  }
  if (opts.excludeOverhead !== true && spec?.overhead != null) {
    for (const [name, v] of resourceListToAmounts(spec.overhead)) {
      const cur = limits.get(name);
      if (cur !== undefined && cur !== 0) limits.set(name, cur + v);
    }
  }
  return limits;
}
