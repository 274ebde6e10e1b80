// upstream: pkg/scheduler/framework/plugins/volumebinding/scorer.go (the broken linear function is
// @kubesched/plugin-helpers' buildBrokenLinearFunction, upstream helper.BuildBrokenLinearFunction)
import { MaxCustomPriorityScore, MaxNodeScore } from "@kubesched/framework";
import { buildBrokenLinearFunction } from "@kubesched/plugin-helpers";
import type { UtilizationShapePoint } from "./args";

/** Requested and capacity bytes of one storage class on a node. */
export interface StorageResource {
  requested: number;
  capacity: number;
}

/** storage class name → resource */
export type ClassResourceMap = Map<string, StorageResource>;

export type VolumeCapacityScorer = (classResources: ClassResourceMap) => number;

const maxUtilization = 100;

/** The node score: the mean over storage classes of the shape at each class's utilization, rounded. */
export function buildScorerFunction(shape: readonly UtilizationShapePoint[]): VolumeCapacityScorer {
  // Shape scores are 0..MaxCustomPriorityScore; node scores are 0..MaxNodeScore (upstream scales
  // them in New).
  const scale = MaxNodeScore / MaxCustomPriorityScore;
  const raw = buildBrokenLinearFunction(
    shape.map((p) => ({ utilization: p.utilization, score: p.score * scale })),
  );
  const f = (requested: number, capacity: number): number => {
    if (capacity === 0 || requested > capacity) return raw(maxUtilization);
    return raw(Math.trunc((requested * maxUtilization) / capacity));
  };
  return (classResources) => {
    const weightSum = classResources.size;
    if (weightSum === 0) return 0;
    let nodeScore = 0;
    for (const r of classResources.values()) nodeScore += f(r.requested, r.capacity);
    return Math.round(nodeScore / weightSum);
  };
}
