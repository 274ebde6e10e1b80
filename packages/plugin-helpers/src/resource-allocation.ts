// upstream: pkg/scheduler/framework/plugins/noderesources/resource_allocation.go (resourceAllocationScorer),
// least_allocated.go, most_allocated.go and requested_to_capacity_ratio.go.
//
// Shared by NodeResourcesFit (Least/Most/RequestedToCapacityRatio) and
// NodeResourcesBalancedAllocation. Amounts are canonical integers held in doubles: cpu in
// millicores, everything else in Value() units.
import {
  DefaultMemoryRequest,
  DefaultMilliCPURequest,
  isScalarResourceName,
  type Node,
  type Pod,
  type PodResourcesOptions,
  podRequests,
  ResourceCPU,
  ResourceEphemeralStorage,
  ResourceMemory,
} from "@kubesched/api";
import {
  Code,
  MaxCustomPriorityScore,
  MaxNodeScore,
  type NodeInfo,
  type ResourceSpec,
  Status,
} from "@kubesched/framework";
import type { ColumnWindow } from "@kubesched/framework/columnar";
import type { DRAPreScoreState } from "./dra-extended-resource-score";
import { buildBrokenLinearFunction, type FunctionShapePoint } from "./shape-score";

/**
 * Scores a node from per-resource amounts, in the order of the configured resources:
 * `requested` = the node's usage plus the pod's request, `allocated` = the node's usage
 * without the pod, `allocatable` = the node's allocatable. A resource with allocatable 0 is
 * to be skipped (all three are 0 for it). Returns an integer score.
 */
export type ResourceScorerFn = ((
  requested: Float64Array,
  allocated: Float64Array,
  allocatable: Float64Array,
) => number) & {
  /** The same scorer over many nodes at once (optional; ResourceAllocationScorer.scoreColumns uses it). */
  batch?: ResourceScorerBatchFn;
};

/**
 * A ResourceScorerFn over many nodes: `scores[k]` for the node at column index `indices[k]`,
 * where resource i has allocatable `allocatable[i][idx]` and usage `used[i][idx]` (a null column
 * is 0 on every node) and the pod requests `podRequests[i]`. Must compute exactly what the
 * per-node function computes on the arrays ResourceAllocationScorer.score builds: a resource
 * with allocatable 0 is left out; requested = usage + request.
 */
export type ResourceScorerBatchFn = (
  count: number,
  indices: Int32Array,
  podRequests: Float64Array,
  allocatable: readonly (Float64Array | null)[],
  used: readonly (Float64Array | null)[],
  scores: Float64Array,
) => void;

/**
 * A ResourceScorerFn applied node by node over columns (what a ResourceScorerBatchFn must equal):
 * for each `indices[k]`, the requested / allocated / allocatable arrays the per-node
 * ResourceAllocationScorer.score builds (a resource with allocatable 0 is left out), then
 * `scores[k] = scorer(...)`. `scratch` holds three arrays of the resource count, reused.
 */
export function scoreColumnsPerNode(
  scorer: ResourceScorerFn,
  count: number,
  indices: Int32Array,
  podRequests: ArrayLike<number>,
  allocatable: readonly (Float64Array | null)[],
  used: readonly (Float64Array | null)[],
  scores: Float64Array,
  scratch: readonly [Float64Array, Float64Array, Float64Array],
): void {
  const n = podRequests.length;
  const [req, alo, cap] = scratch;
  for (let k = 0; k < count; k++) {
    const idx = indices[k]!;
    for (let i = 0; i < n; i++) {
      const a = allocatable[i]!;
      const alloc = a === null ? 0 : a[idx]!;
      if (alloc === 0) {
        req[i] = 0;
        alo[i] = 0;
        cap[i] = 0;
        continue;
      }
      const u = used[i]!;
      const usage = u === null ? 0 : u[idx]!;
      cap[i] = alloc;
      alo[i] = usage;
      req[i] = usage + podRequests[i]!;
    }
    scores[k] = scorer(req, alo, cap);
  }
}

/** A weighted average of a per-resource score over resources with a non-zero allocatable. */
function weightedBatch(
  weights: Float64Array,
  resourceScore: (requested: number, capacity: number) => number,
): ResourceScorerBatchFn {
  const n = weights.length;
  return (count, indices, podRequests, allocatable, used, scores) => {
    for (let k = 0; k < count; k++) {
      const idx = indices[k]!;
      let nodeScore = 0;
      let weightSum = 0;
      for (let i = 0; i < n; i++) {
        const a = allocatable[i]!;
        if (a === null) continue;
        const alloc = a[idx]!;
        if (alloc === 0) continue;
        const u = used[i]!;
        const requested = (u === null ? 0 : u[idx]!) + podRequests[i]!;
        const w = weights[i]!;
        nodeScore += resourceScore(requested, alloc) * w;
        weightSum += w;
      }
      scores[k] = weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
    }
  };
}

const maxUtilization = 100;

function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MaxNodeScore) / capacity);
}

function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  // requested may exceed capacity because pods without requests get the non-zero defaults.
  const r = Math.min(requested, capacity);
  return Math.trunc((r * MaxNodeScore) / capacity);
}

/**
 * Favors nodes with fewer requested resources: per resource `(capacity - requested) * 100 /
 * capacity` (0 when requested exceeds capacity), weighted average over resources with a
 * non-zero allocatable.
 */
export function leastResourceScorer(resources: readonly ResourceSpec[]): ResourceScorerFn {
  const weights = Float64Array.from(resources, (r) => r.weight);
  const fn: ResourceScorerFn = (requested, _allocated, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < requested.length; i++) {
      const alloc = allocatable[i]!;
      if (alloc === 0) continue;
      const w = weights[i]!;
      nodeScore += leastRequestedScore(requested[i]!, alloc) * w;
      weightSum += w;
    }
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  };
  fn.batch = weightedBatch(weights, leastRequestedScore);
  return fn;
}

/**
 * Favors nodes with more requested resources: per resource `min(requested, capacity) * 100 /
 * capacity`, weighted average over resources with a non-zero allocatable.
 */
export function mostResourceScorer(resources: readonly ResourceSpec[]): ResourceScorerFn {
  const weights = Float64Array.from(resources, (r) => r.weight);
  const fn: ResourceScorerFn = (requested, _allocated, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < requested.length; i++) {
      const alloc = allocatable[i]!;
      if (alloc === 0) continue;
      const w = weights[i]!;
      nodeScore += mostRequestedScore(requested[i]!, alloc) * w;
      weightSum += w;
    }
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  };
  fn.batch = weightedBatch(weights, mostRequestedScore);
  return fn;
}

/**
 * Bin packing with a user-defined shape: per resource the shape's score (scaled from 0..10 to
 * 0..100) at utilization `requested * 100 / capacity` (100 when over capacity); only resources
 * scoring above 0 enter the weighted average, which is rounded.
 */
export function requestedToCapacityRatioScorer(
  resources: readonly ResourceSpec[],
  shape: readonly FunctionShapePoint[],
): ResourceScorerFn {
  const scale = MaxNodeScore / MaxCustomPriorityScore;
  const raw = buildBrokenLinearFunction(
    shape.map((p) => ({ utilization: p.utilization, score: p.score * scale })),
  );
  const weights = Float64Array.from(resources, (r) => r.weight);
  return (requested, _allocated, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < requested.length; i++) {
      const capacity = allocatable[i]!;
      if (capacity === 0) continue;
      const req = requested[i]!;
      const resourceScore =
        req > capacity ? raw(maxUtilization) : raw(Math.trunc((req * maxUtilization) / capacity));
      if (resourceScore > 0) {
        const w = weights[i]!;
        nodeScore += resourceScore * w;
        weightSum += w;
      }
    }
    return weightSum === 0 ? 0 : Math.round(nodeScore / weightSum);
  };
}

export interface ResourceAllocationScorerOptions {
  /** The scorer's name (the strategy or plugin name), for messages. */
  name: string;
  resources: readonly ResourceSpec[];
  scorer: ResourceScorerFn;
  /**
   * Use the plain requests for cpu and memory (BalancedAllocation); otherwise the non-zero
   * requests, where containers without a request count as 100m / 200Mi (NodeResourcesFit).
   */
  useRequested: boolean;
  /** InPlacePodVerticalScaling: the pod's request is the max of spec, allocated and actuated. */
  enableInPlacePodVerticalScaling: boolean;
  /** PodLevelResources: pod-level `spec.resources` requests count. */
  enablePodLevelResources: boolean;
  /** InPlacePodLevelResourcesVerticalScaling (beta, on in 1.37). Default true. */
  enableInPlacePodLevelResourcesVerticalScaling?: boolean;
}

const KindCPU = 0;
const KindMemory = 1;
const KindEphemeralStorage = 2;
/** Scalar resources (extended, hugepages, kubernetes.io/...): skipped when the pod does not request them. */
const KindScalar = 3;
/** Anything else (e.g. `pods`): looked up among the node's scalar resources, as upstream. */
const KindOther = 4;

function resourceKind(name: string): number {
  switch (name) {
    case ResourceCPU:
      return KindCPU;
    case ResourceMemory:
      return KindMemory;
    case ResourceEphemeralStorage:
      return KindEphemeralStorage;
    default:
      return isScalarResourceName(name) ? KindScalar : KindOther;
  }
}

const nonZeroDefaults: ReadonlyMap<string, number> = new Map([
  [ResourceCPU, DefaultMilliCPURequest],
  [ResourceMemory, DefaultMemoryRequest],
]);

/**
 * upstream resourceAllocationScorer: turns a node and the pod's per-resource requests into the
 * three arrays a ResourceScorerFn scores. The arrays are owned by the scorer and reused for
 * every node (Score is synchronous), so scoring a node allocates nothing.
 */
export class ResourceAllocationScorer {
  readonly name: string;
  readonly resources: readonly ResourceSpec[];
  readonly useRequested: boolean;
  private readonly scorer: ResourceScorerFn;
  private readonly kinds: Uint8Array;
  private readonly names: readonly string[];
  private readonly requested: Float64Array;
  private readonly allocated: Float64Array;
  private readonly allocatable: Float64Array;
  /** A DRA-backed resource's devices on the node and those held (scratch, per call). */
  private readonly draTotals = new Float64Array(2);
  /** Per resource: allocatable and used columns with DRA-backed devices (scratch, per call). */
  private readonly draColumns: [Float64Array, Float64Array][] = [];
  private readonly podRequestOptions: PodResourcesOptions;

  constructor(opts: ResourceAllocationScorerOptions) {
    this.name = opts.name;
    this.resources = opts.resources;
    this.useRequested = opts.useRequested;
    this.scorer = opts.scorer;
    const n = opts.resources.length;
    this.names = opts.resources.map((r) => r.name);
    this.kinds = Uint8Array.from(this.names, resourceKind);
    this.requested = new Float64Array(n);
    this.allocated = new Float64Array(n);
    this.allocatable = new Float64Array(n);
    this.podRequestOptions = {
      useStatusResources: opts.enableInPlacePodVerticalScaling,
      inPlacePodLevelResourcesVerticalScaling: opts.enableInPlacePodLevelResourcesVerticalScaling ?? true,
      skipPodLevelResources: !opts.enablePodLevelResources,
      ...(opts.useRequested ? {} : { nonMissingContainerRequests: nonZeroDefaults }),
    };
  }

  /**
   * The node's score for a pod whose requests (in the order of `resources`) are `podRequests`;
   * an Error status when no resources are configured. With `dra` (DRAExtendedResource), a
   * resource the node has no allocatable for is scored on the devices of the DeviceClass backing
   * it, when there are any.
   */
  score(
    nodeInfo: NodeInfo,
    podRequests: ArrayLike<number>,
    dra: DRAPreScoreState | null = null,
  ): number | Status {
    const n = this.kinds.length;
    if (n === 0) return new Status(Code.Error, "resources not found");
    const usage = this.useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested;
    const nodeAllocatable = nodeInfo.allocatable;
    const requested = this.requested;
    const allocated = this.allocated;
    const allocatable = this.allocatable;
    for (let i = 0; i < n; i++) {
      const podRequest = podRequests[i] ?? 0;
      let alloc = 0;
      let used = 0;
      let fromScalars = false;
      switch (this.kinds[i]) {
        case KindCPU:
          alloc = nodeAllocatable.milliCPU;
          used = usage.milliCPU;
          break;
        case KindMemory:
          alloc = nodeAllocatable.memory;
          used = usage.memory;
          break;
        case KindEphemeralStorage:
          alloc = nodeAllocatable.ephemeralStorage;
          used = nodeInfo.requested.ephemeralStorage;
          break;
        case KindScalar:
          // A scalar resource the pod does not request is left out of the score.
          fromScalars = podRequest !== 0;
          break;
        default:
          fromScalars = true;
      }
      if (fromScalars) {
        const name = this.names[i]!;
        alloc = nodeAllocatable.scalar(name);
        used = nodeInfo.requested.scalar(name);
        const node = nodeInfo.node;
        if (alloc === 0 && dra !== null && node !== null && this.draDevices(dra, node, name)) {
          // Not handled by a device plugin: the devices of the DeviceClass backing it.
          alloc = this.draTotals[0] as number;
          used = this.draTotals[1] as number;
        }
      }
      if (alloc === 0) {
        requested[i] = 0;
        allocated[i] = 0;
        allocatable[i] = 0;
        continue;
      }
      allocatable[i] = alloc;
      allocated[i] = used;
      requested[i] = used + podRequest;
    }
    return this.scorer(requested, allocated, allocatable);
  }

  /**
   * `scores[k]` = `score(columns.nodeInfos[indices[k]], podRequests)` for k in `[0, count)`, read
   * from the snapshot's columns (the same amounts, the same arithmetic); an Error status when no
   * resources are configured.
   */
  scoreColumns(
    window: ColumnWindow,
    podRequests: ArrayLike<number>,
    scores: Float64Array,
    dra: DRAPreScoreState | null = null,
  ): Status | null {
    const { columns, indices, count } = window;
    const n = this.kinds.length;
    if (n === 0) return new Status(Code.Error, "resources not found");
    // Per resource: the allocatable and usage columns (null: 0 on every node), and the request.
    const allocCols: (Float64Array | null)[] = new Array(n);
    const usedCols: (Float64Array | null)[] = new Array(n);
    const reqs = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const podRequest = podRequests[i] ?? 0;
      reqs[i] = podRequest;
      let alloc: Float64Array | null = null;
      let used: Float64Array | null = null;
      switch (this.kinds[i]) {
        case KindCPU:
          alloc = columns.allocatableMilliCPU;
          used = this.useRequested ? columns.requestedMilliCPU : columns.nonZeroRequestedMilliCPU;
          break;
        case KindMemory:
          alloc = columns.allocatableMemory;
          used = this.useRequested ? columns.requestedMemory : columns.nonZeroRequestedMemory;
          break;
        case KindEphemeralStorage:
          alloc = columns.allocatableEphemeralStorage;
          used = columns.requestedEphemeralStorage;
          break;
        case KindScalar:
          // A scalar resource the pod does not request is left out of the score.
          if (podRequest === 0) break;
          alloc = columns.scalar(this.names[i]!)?.allocatable ?? null;
          used = columns.scalar(this.names[i]!)?.requested ?? null;
          if (dra !== null) [alloc, used] = this.withDRADevices(i, window, alloc, used, dra);
          break;
        default:
          alloc = columns.scalar(this.names[i]!)?.allocatable ?? null;
          used = columns.scalar(this.names[i]!)?.requested ?? null;
          if (dra !== null) [alloc, used] = this.withDRADevices(i, window, alloc, used, dra);
      }
      allocCols[i] = alloc;
      usedCols[i] = alloc === null ? null : used;
    }
    const scorer = this.scorer;
    if (scorer.batch !== undefined) {
      scorer.batch(count, indices, reqs, allocCols, usedCols, scores);
      return null;
    }
    scoreColumnsPerNode(scorer, count, indices, reqs, allocCols, usedCols, scores, [
      this.requested,
      this.allocated,
      this.allocatable,
    ]);
    return null;
  }

  /**
   * Resource `i`'s allocatable and used columns over the window with, on each node that has no
   * allocatable for it, the devices of the DeviceClass backing it and those claims hold (as
   * {@link score} reads them node by node). Written at the window's column indices into scratch
   * columns of this scorer (read by this call only).
   */
  private withDRADevices(
    i: number,
    window: ColumnWindow,
    alloc: Float64Array | null,
    used: Float64Array | null,
    dra: DRAPreScoreState,
  ): [Float64Array, Float64Array] {
    const { columns, indices, count } = window;
    const size = columns.nodeInfos.length;
    let scratch = this.draColumns[i];
    if (scratch === undefined || scratch[0].length < size) {
      scratch = [new Float64Array(size), new Float64Array(size)];
      this.draColumns[i] = scratch;
    }
    const [a, u] = scratch;
    const name = this.names[i] as string;
    for (let k = 0; k < count; k++) {
      const idx = indices[k] as number;
      const base = alloc === null ? 0 : (alloc[idx] as number);
      a[idx] = base;
      u[idx] = used === null ? 0 : (used[idx] as number);
      if (base !== 0) continue;
      const node = (columns.nodeInfos[idx] as NodeInfo).node;
      if (node !== null && this.draDevices(dra, node, name)) {
        a[idx] = this.draTotals[0] as number;
        u[idx] = this.draTotals[1] as number;
      }
    }
    return scratch;
  }

  /**
   * Whether a DeviceClass backing `name` has devices on the node: then `draTotals` holds them
   * and how many of them claims hold (upstream calculateDRAExtendedResourceAllocatableRequest).
   */
  private draDevices(dra: DRAPreScoreState, node: Node, name: string): boolean {
    dra.allocatableRequestInto(node, name, this.draTotals);
    return (this.draTotals[0] as number) > 0;
  }

  /**
   * The pod's request of one resource as this scorer counts it (with overhead; with the
   * non-zero cpu/memory defaults unless `useRequested`).
   */
  calculatePodResourceRequest(pod: Pod, resourceName: string): number {
    return podRequests(pod, this.podRequestOptions).get(resourceName) ?? 0;
  }

  /** The pod's requests in the order of `resources`; computed once per cycle in PreScore. */
  calculatePodResourceRequestList(pod: Pod): Float64Array {
    const reqs = podRequests(pod, this.podRequestOptions);
    return Float64Array.from(this.names, (name) => reqs.get(name) ?? 0);
  }

  /** True when the pod requests none of the configured resources (a best-effort pod). */
  static isBestEffortPod(podRequests: ArrayLike<number>): boolean {
    for (let i = 0; i < podRequests.length; i++) if (podRequests[i] !== 0) return false;
    return true;
  }
}
