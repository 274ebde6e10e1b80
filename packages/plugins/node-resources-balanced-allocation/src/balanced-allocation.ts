// upstream: pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go (v1.36+ scoring:
// kubernetes/kubernetes#135573 scores the change in balance the pod causes).
import { MaxNodeScore } from "@kubesched/framework";

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
