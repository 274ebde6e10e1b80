// upstream: pkg/scheduler/framework/plugins/noderesources/fit.go (computePodResourceRequest,
// fitsRequest, Fits, isFit, haveAnyRequestedResourcesIncreased, shouldDelegateResourceToDRA)
import {
  isExtendedResourceName,
  isScalarResourceName,
  type Node,
  type Pod,
  podRequests,
  ResourceCPU,
  ResourceEphemeralStorage,
  ResourceMemory,
  ResourcePods,
} from "@kubesched/api";
import {
  type DeviceClassResolver,
  NodeInfo,
  Resource,
  type StateData,
  type Status,
} from "@kubesched/framework";
import type { ColumnWindow } from "@kubesched/framework/columnar";
import { isDRAExtendedResourceName } from "@kubesched/plugin-helpers";
import {
  ErrReasonInsufficientCPU,
  ErrReasonInsufficientEphemeralStorage,
  ErrReasonInsufficientMemory,
  ErrReasonTooManyPods,
  insufficientResourceReason,
} from "./reasons";

/** Feature gates that change how a pod's request is computed. */
export interface ResourceRequestsOptions {
  enablePodLevelResources: boolean;
  /**
   * DRAExtendedResource: which DeviceClass backs an extended resource. A request for one on a
   * node without allocatable for it is left to DynamicResources. Absent: the gate is off.
   */
  deviceClassResolver?: DeviceClassResolver | null;
  /**
   * DRANodeAllocatableResources (upstream ResourceRequestsOptions.EnableDRANodeAllocatableResources):
   * the node allocatable resources of the pod's DRA claims in its status count in its request.
   * Absent: the gate is off. upstream sets it for `Fits` in the kubelet's admission; Fit's
   * PreFilter does not (a pod being scheduled has no claim statuses yet): DynamicResources' Filter
   * checks the pod's DRA-mapped resources, and NodeInfo counts those of the pods on the node.
   */
  enableDRANodeAllocatableResources?: boolean;
}

const noNames: ReadonlySet<string> = new Set();

/**
 * The pod's request as Filter checks it, computed once in PreFilter (upstream preFilterState):
 * the max of the init containers and the sum of the containers with sidecar rules, pod-level
 * resources when enabled, plus overhead. Scalar resources keep the request's order.
 */
export class PodResourceRequest implements StateData {
  milliCPU = 0;
  memory = 0;
  ephemeralStorage = 0;
  readonly scalarNames: string[] = [];
  readonly scalarValues: number[] = [];
  /** Per scalar resource: an extended resource the plugin is configured to ignore. */
  readonly scalarIgnored: boolean[] = [];
  /**
   * Per scalar resource: a DeviceClass backs it (DRAExtendedResource). On a node with no
   * allocatable for it the request is left to DynamicResources (upstream shouldDelegateResourceToDRA).
   */
  readonly scalarDRA: boolean[] = [];

  /** Immutable after PreFilter: shared, not copied. */
  clone(): StateData {
    return this;
  }

  /** upstream: any of cpu, memory, ephemeral-storage non-zero, or any scalar resource named. */
  hasAnyRequest(): boolean {
    return (
      this.milliCPU !== 0 || this.memory !== 0 || this.ephemeralStorage !== 0 || this.scalarNames.length > 0
    );
  }

  scalar(name: string): number {
    const i = this.scalarNames.indexOf(name);
    return i < 0 ? 0 : this.scalarValues[i]!;
  }
}

/** upstream computePodResourceRequest (+ the per-resource ignore decision of fitsRequest). */
export function computePodResourceRequest(
  pod: Pod,
  opts: ResourceRequestsOptions,
  ignoredResources: ReadonlySet<string> = noNames,
  ignoredResourceGroups: ReadonlySet<string> = noNames,
): PodResourceRequest {
  const r = new PodResourceRequest();
  const reqs = podRequests(pod, {
    skipPodLevelResources: !opts.enablePodLevelResources,
    useDRANodeAllocatableResourceClaimStatus: opts.enableDRANodeAllocatableResources === true,
  });
  for (const [name, v] of reqs) {
    switch (name) {
      case ResourceCPU:
        r.milliCPU = Math.max(r.milliCPU, v);
        break;
      case ResourceMemory:
        r.memory = Math.max(r.memory, v);
        break;
      case ResourceEphemeralStorage:
        r.ephemeralStorage = Math.max(r.ephemeralStorage, v);
        break;
      default: {
        if (!isScalarResourceName(name)) break;
        let ignored = false;
        if (isExtendedResourceName(name)) {
          // Extended resource names always contain a "/" (API validation).
          const group = ignoredResourceGroups.size > 0 ? (name.split("/")[0] ?? "") : "";
          ignored = ignoredResources.has(name) || ignoredResourceGroups.has(group);
        }
        r.scalarNames.push(name);
        r.scalarValues.push(Math.max(0, v));
        r.scalarIgnored.push(ignored);
        const resolver = opts.deviceClassResolver;
        r.scalarDRA.push(
          !!resolver && isDRAExtendedResourceName(name) && resolver.getDeviceClass(name) !== undefined,
        );
      }
    }
  }
  return r;
}

/** What kind of resource limit is hit and why the pod does not fit (upstream InsufficientResource). */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
  /** The request exceeds the node's allocatable: preemption cannot help. */
  unresolvable: boolean;
}

function append(list: InsufficientResource[] | null, r: InsufficientResource): InsufficientResource[] {
  if (list === null) return [r];
  list.push(r);
  return list;
}

/**
 * upstream fitsRequest: every resource the node lacks, or null when the pod fits (the success
 * path allocates nothing).
 */
export function fitsRequest(
  podRequest: PodResourceRequest,
  nodeInfo: NodeInfo,
): InsufficientResource[] | null {
  let out: InsufficientResource[] | null = null;
  const allocatable = nodeInfo.allocatable;
  const requested = nodeInfo.requested;
  const numPods = nodeInfo.podCount;
  if (numPods + 1 > allocatable.allowedPodNumber) {
    out = [
      {
        resourceName: ResourcePods,
        reason: ErrReasonTooManyPods,
        requested: 1,
        used: numPods,
        capacity: allocatable.allowedPodNumber,
        unresolvable: false,
      },
    ];
  }
  if (!podRequest.hasAnyRequest()) return out;

  const cpu = podRequest.milliCPU;
  if (cpu > 0 && cpu > allocatable.milliCPU - requested.milliCPU) {
    out = append(out, {
      resourceName: ResourceCPU,
      reason: ErrReasonInsufficientCPU,
      requested: cpu,
      used: requested.milliCPU,
      capacity: allocatable.milliCPU,
      unresolvable: cpu > allocatable.milliCPU,
    });
  }
  const mem = podRequest.memory;
  if (mem > 0 && mem > allocatable.memory - requested.memory) {
    out = append(out, {
      resourceName: ResourceMemory,
      reason: ErrReasonInsufficientMemory,
      requested: mem,
      used: requested.memory,
      capacity: allocatable.memory,
      unresolvable: mem > allocatable.memory,
    });
  }
  const eph = podRequest.ephemeralStorage;
  if (eph > 0 && eph > allocatable.ephemeralStorage - requested.ephemeralStorage) {
    out = append(out, {
      resourceName: ResourceEphemeralStorage,
      reason: ErrReasonInsufficientEphemeralStorage,
      requested: eph,
      used: requested.ephemeralStorage,
      capacity: allocatable.ephemeralStorage,
      unresolvable: eph > allocatable.ephemeralStorage,
    });
  }

  const names = podRequest.scalarNames;
  for (let i = 0; i < names.length; i++) {
    const q = podRequest.scalarValues[i]!;
    if (q === 0 || podRequest.scalarIgnored[i]) continue;
    const name = names[i]!;
    const alloc = allocatable.scalar(name);
    // Backed by a DeviceClass and not by the node's device plugin: DynamicResources decides.
    if (alloc <= 0 && podRequest.scalarDRA[i]) continue;
    const used = requested.scalar(name);
    if (q > alloc - used) {
      out = append(out, {
        resourceName: name,
        reason: insufficientResourceReason(name),
        requested: q,
        used,
        capacity: alloc,
        unresolvable: q > alloc,
      });
    }
  }
  return out;
}

/** A non-null marker for a node fitsRequestBatch rejects (the caller builds the real status). */
const rejected = {} as Status;

/**
 * fitsRequest over the snapshot's columns: `out[k]` is null where the pod fits
 * `columns.nodeInfos[indices[k]]` (fitsRequest returns null), a non-null marker where it does
 * not. The same comparisons on the same amounts as fitsRequest.
 */
export function fitsRequestBatch(
  podRequest: PodResourceRequest,
  window: ColumnWindow,
  out: (Status | null)[],
): void {
  const { columns, indices, count } = window;
  const podCount = columns.podCount;
  const allowed = columns.allowedPodNumber;
  const hasAny = podRequest.hasAnyRequest();
  const cpu = podRequest.milliCPU;
  const mem = podRequest.memory;
  const eph = podRequest.ephemeralStorage;
  const checkCPU = hasAny && cpu > 0;
  const checkMem = hasAny && mem > 0;
  const checkEph = hasAny && eph > 0;
  const allocCPU = columns.allocatableMilliCPU;
  const reqCPU = columns.requestedMilliCPU;
  const allocMem = columns.allocatableMemory;
  const reqMem = columns.requestedMemory;
  const allocEph = columns.allocatableEphemeralStorage;
  const reqEph = columns.requestedEphemeralStorage;
  // The scalar resources the pod requests (not ignored): their columns, or null (0 everywhere).
  const scalarQ: number[] = [];
  const scalarAlloc: (Float64Array | null)[] = [];
  const scalarUsed: (Float64Array | null)[] = [];
  const scalarDRA: boolean[] = [];
  if (hasAny) {
    const names = podRequest.scalarNames;
    for (let i = 0; i < names.length; i++) {
      const q = podRequest.scalarValues[i]!;
      if (q === 0 || podRequest.scalarIgnored[i]) continue;
      const col = columns.scalar(names[i]!);
      scalarQ.push(q);
      scalarAlloc.push(col?.allocatable ?? null);
      scalarUsed.push(col?.requested ?? null);
      scalarDRA.push(podRequest.scalarDRA[i] === true);
    }
  }
  const numScalars = scalarQ.length;
  for (let k = 0; k < count; k++) {
    const idx = indices[k]!;
    let fit = !(podCount[idx]! + 1 > allowed[idx]!);
    if (fit && checkCPU && cpu > allocCPU[idx]! - reqCPU[idx]!) fit = false;
    if (fit && checkMem && mem > allocMem[idx]! - reqMem[idx]!) fit = false;
    if (fit && checkEph && eph > allocEph[idx]! - reqEph[idx]!) fit = false;
    for (let i = 0; fit && i < numScalars; i++) {
      const a = scalarAlloc[i]!;
      const u = scalarUsed[i]!;
      const alloc = a === null ? 0 : a[idx]!;
      if (alloc <= 0 && scalarDRA[i]) continue;
      if (scalarQ[i]! > alloc - (u === null ? 0 : u[idx]!)) fit = false;
    }
    out[k] = fit ? null : rejected;
  }
}

/** upstream Fits: the pod's insufficient resources on the node, ignoring nothing; [] when it fits. */
export function fits(pod: Pod, nodeInfo: NodeInfo, opts: ResourceRequestsOptions): InsufficientResource[] {
  return fitsRequest(computePodResourceRequest(pod, opts), nodeInfo) ?? [];
}

/** Whether the pod fits an empty node like `node` (false without a node). */
export function isFit(pod: Pod, node: Node | undefined, opts: ResourceRequestsOptions): boolean {
  if (!node) return false;
  const nodeInfo = new NodeInfo();
  nodeInfo.setNode(node);
  return fits(pod, nodeInfo, opts).length === 0;
}

/** Whether the allowed pod count or any resource the pod requests grew from `original` to `modified`. */
export function haveAnyRequestedResourcesIncreased(
  pod: Pod,
  original: Node,
  modified: Node,
  opts: ResourceRequestsOptions,
): boolean {
  const req = computePodResourceRequest(pod, opts);
  const before = Resource.fromList(original.status?.allocatable);
  const after = Resource.fromList(modified.status?.allocatable);
  if (after.allowedPodNumber > before.allowedPodNumber) return true;
  if (!req.hasAnyRequest()) return false;
  if (
    (req.milliCPU > 0 && after.milliCPU > before.milliCPU) ||
    (req.memory > 0 && after.memory > before.memory) ||
    (req.ephemeralStorage > 0 && after.ephemeralStorage > before.ephemeralStorage)
  ) {
    return true;
  }
  for (let i = 0; i < req.scalarNames.length; i++) {
    if (req.scalarValues[i] === 0) continue;
    const name = req.scalarNames[i]!;
    if (after.scalar(name) > before.scalar(name)) return true;
    // Left to DynamicResources on this node: its devices may have changed.
    if (req.scalarDRA[i] && after.scalar(name) <= 0) return true;
  }
  return false;
}
