// upstream: pkg/scheduler/framework/plugins/volumebinding/scorer.go and
// plugins/helper/shape_score.go (BuildBrokenLinearFunction)
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

/** Piecewise linear interpolation over the shape, clamped to its first and last scores (integer math). */
function brokenLinear(shape: readonly UtilizationShapePoint[]): (p: number) => number {
  return (p) => {
    for (let i = 0; i < shape.length; i++) {
      const cur = shape[i] as UtilizationShapePoint;
      if (p <= cur.utilization) {
        if (i === 0) return cur.score;
        const prev = shape[i - 1] as UtilizationShapePoint;
        return (
          prev.score +
          Math.trunc(
            ((cur.score - prev.score) * (p - prev.utilization)) / (cur.utilization - prev.utilization),
          )
        );
      }
    }
    return (shape[shape.length - 1] as UtilizationShapePoint).score;
  };
}

/** The node score: the mean over storage classes of the shape at each class's utilization, rounded. */
export function buildScorerFunction(shape: readonly UtilizationShapePoint[]): VolumeCapacityScorer {
  // Shape scores are 0..10 (MaxCustomPriorityScore); node scores are 0..100.
  const scaled = shape.map((p) => ({ utilization: p.utilization, score: p.score * 10 }));
  const raw = brokenLinear(scaled);
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
