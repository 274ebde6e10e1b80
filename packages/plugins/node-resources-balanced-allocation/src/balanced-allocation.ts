// upstream: pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go (v1.36+ scoring:
// kubernetes/kubernetes#135573 scores the change in balance the pod causes; up to v1.35 the score
// is the balance with the pod, read at kubernetes/kubernetes@00fdb4f, 1.35).
import { MaxNodeScore } from "@kubesched/framework";
import { type ResourceScorerFn, scoreColumnsPerNode } from "@kubesched/plugin-helpers";

/**
 * upstream balancedResourceScore: `(1 - std) * 100` (truncated) over the usage fractions
 * `min(requested / allocatable, 1)` of resources with a non-zero allocatable; std is
 * `|f1 - f2| / 2` for two resources, the population standard deviation for more, 0 for one.
 * Allocation-free: two passes instead of collecting the fractions (same float operations in
 * the same order, so the same result).
 */
export function balancedResourceScore(requested: Float64Array, allocatable: Float64Array): number {
  let count = 0;
  let total = 0;
  let first = 0;
  let second = 0;
  for (let i = 0; i < requested.length; i++) {
    const alloc = allocatable[i]!;
    if (alloc === 0) continue;
    let f = requested[i]! / alloc;
    if (f > 1) f = 1;
    total += f;
    if (count === 0) first = f;
    else if (count === 1) second = f;
    count++;
  }
  let std = 0;
  if (count === 2) {
    std = Math.abs((first - second) / 2);
  } else if (count > 2) {
    const mean = total / count;
    let sum = 0;
    for (let i = 0; i < requested.length; i++) {
      const alloc = allocatable[i]!;
      if (alloc === 0) continue;
      let f = requested[i]! / alloc;
      if (f > 1) f = 1;
      sum = sum + (f - mean) * (f - mean);
    }
    std = Math.sqrt(sum / count);
  }
  return Math.trunc((1 - std) * MaxNodeScore);
}

/**
 * The node's score: how much placing the pod improves its balance. Balance with and without
 * the pod are both in [50, 100]; the score is `50 + (50 + withPod - withoutPod) / 2`, so no
 * change scores 75, perfectly balanced → imbalanced 50, imbalanced → balanced 100.
 */
export function balancedResourceScorer(
  requested: Float64Array,
  allocated: Float64Array,
  allocatable: Float64Array,
): number {
  const withPod = balancedResourceScore(requested, allocatable);
  const withoutPod = balancedResourceScore(allocated, allocatable);
  const half = MaxNodeScore / 2;
  return half + Math.trunc((half + withPod - withoutPod) / 2);
}

/**
 * The node's score up to Kubernetes 1.35 (before #135573): the balance with the pod placed,
 * `(1 - std) * 100`, whatever the node's balance was without it.
 */
export function balancedResourceScorerBefore136(
  requested: Float64Array,
  _allocated: Float64Array,
  allocatable: Float64Array,
): number {
  return balancedResourceScore(requested, allocatable);
}

/** The scorer of a release: the change in balance from 1.36, the balance with the pod before. */
export function balancedResourceScorerFor(minor: number): ResourceScorerFn {
  return minor < 36 ? balancedResourceScorerBefore136 : balancedResourceScorer;
}

/**
 * balancedResourceScorer over many nodes (ResourceScorerFn.batch): for one or two resources the
 * two balance scores are computed inline, with the same operations in the same order as
 * balancedResourceScore; for more, through the per-node scorer on scratch arrays.
 */
function balancedResourceScorerBatch(
  count: number,
  indices: Int32Array,
  podRequests: Float64Array,
  allocatable: readonly (Float64Array | null)[],
  used: readonly (Float64Array | null)[],
  scores: Float64Array,
): void {
  const n = podRequests.length;
  const half = MaxNodeScore / 2;
  if (n > 2) {
    const scratch = [new Float64Array(n), new Float64Array(n), new Float64Array(n)] as const;
    scoreColumnsPerNode(
      balancedResourceScorer,
      count,
      indices,
      podRequests,
      allocatable,
      used,
      scores,
      scratch,
    );
    return;
  }
  for (let k = 0; k < count; k++) {
    const idx = indices[k]!;
    // count/first/second of the fractions with and without the pod (balancedResourceScore).
    let cntWith = 0;
    let firstWith = 0;
    let secondWith = 0;
    let cntWithout = 0;
    let firstWithout = 0;
    let secondWithout = 0;
    for (let i = 0; i < n; i++) {
      const a = allocatable[i]!;
      if (a === null) continue;
      const alloc = a[idx]!;
      if (alloc === 0) continue;
      const u = used[i]!;
      const usage = u === null ? 0 : u[idx]!;
      let f = (usage + podRequests[i]!) / alloc;
      if (f > 1) f = 1;
      if (cntWith === 0) firstWith = f;
      else secondWith = f;
      cntWith++;
      let g = usage / alloc;
      if (g > 1) g = 1;
      if (cntWithout === 0) firstWithout = g;
      else secondWithout = g;
      cntWithout++;
    }
    const stdWith = cntWith === 2 ? Math.abs((firstWith - secondWith) / 2) : 0;
    const stdWithout = cntWithout === 2 ? Math.abs((firstWithout - secondWithout) / 2) : 0;
    const withPod = Math.trunc((1 - stdWith) * MaxNodeScore);
    const withoutPod = Math.trunc((1 - stdWithout) * MaxNodeScore);
    scores[k] = half + Math.trunc((half + withPod - withoutPod) / 2);
  }
}

balancedResourceScorer.batch = balancedResourceScorerBatch;
