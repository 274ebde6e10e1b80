// upstream: pkg/scheduler/framework/plugins/helper/shape_score.go (FunctionShapePoint,
// BuildBrokenLinearFunction): the utilization → score shapes of RequestedToCapacityRatio
// (NodeResourcesFit) and VolumeBinding.

/** A point of a broken linear function (upstream helper.FunctionShapePoint). */
export interface FunctionShapePoint {
  utilization: number;
  score: number;
}

/**
 * The piecewise-linear function through `shape` (sorted by utilization), constant before the
 * first and after the last point; integer arithmetic truncating toward zero as Go's.
 */
export function buildBrokenLinearFunction(shape: readonly FunctionShapePoint[]): (p: number) => number {
  const n = shape.length;
  const us = Float64Array.from(shape, (s) => s.utilization);
  const ss = Float64Array.from(shape, (s) => s.score);
  return (p) => {
    for (let i = 0; i < n; i++) {
      if (p <= us[i]!) {
        if (i === 0) return ss[0]!;
        return ss[i - 1]! + Math.trunc(((ss[i]! - ss[i - 1]!) * (p - us[i - 1]!)) / (us[i]! - us[i - 1]!));
      }
    }
    return ss[n - 1]!;
  };
}
