// Pieces of plugin args that several plugins share, as upstream shares them across plugins:
// upstream staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (ResourceSpec,
// UtilizationShapePoint), pkg/scheduler/apis/config/types.go (MaxCustomPriorityScore),
// pkg/scheduler/apis/config/v1/defaults.go (defaultResourceSpec) and
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (validateFunctionShape).
import type { ArrayOptions, TArray, TInteger, TObject } from "@sinclair/typebox";
import { argRules, Type } from "./define-args";
import { fieldErrors, fieldPath } from "./field-errors";

/**
 * One resource a resource-allocation scorer looks at, with its weight (upstream
 * config.ResourceSpec).
 * @public
 */
export interface ResourceSpec {
  /** The resource name: `cpu`, `memory`, `ephemeral-storage` or an extended resource. */
  name: string;
  /** Its weight in the score (1..100 in args validation). */
  weight: number;
}

/**
 * The scale of user-provided shape scores (upstream config.MaxCustomPriorityScore).
 * @public
 */
export const MaxCustomPriorityScore = 10;

/**
 * A point of a utilization → score shape: utilization 0..100, score 0..MaxCustomPriorityScore
 * (upstream UtilizationShapePoint).
 * @public
 */
export interface UtilizationShapePoint {
  /** Utilization in percent, 0..100. */
  utilization: number;
  /** The score at that utilization, 0..MaxCustomPriorityScore. */
  score: number;
}

const utilizationShapePointSchema: TObject<{ utilization: TInteger; score: TInteger }> = Type.Object({
  utilization: Type.Integer({ minimum: 0, maximum: 100 }),
  score: Type.Integer({ minimum: 0, maximum: MaxCustomPriorityScore }),
});

/**
 * A utilization → score shape (RequestedToCapacityRatio's and VolumeBinding's), with upstream
 * validateFunctionShape's rules: at least one point, utilization strictly increasing and in
 * [0, 100], score in [0, MaxCustomPriorityScore].
 * @public
 */
export function UtilizationShape(
  options: ArrayOptions = {},
): TArray<TObject<{ utilization: TInteger; score: TInteger }>> {
  return argRules(Type.Array(utilizationShapePointSchema, { ...options, minItems: 1 }), {
    message: "at least one point must be specified",
    check: (shape, { path }) => {
      for (let i = 1; i < shape.length; i++) {
        const cur = shape[i] as UtilizationShapePoint;
        if ((shape[i - 1] as UtilizationShapePoint).utilization >= cur.utilization) {
          return [
            fieldErrors.invalid(
              fieldPath.child(fieldPath.index(path, i), "utilization"),
              cur.utilization,
              "values must be sorted in increasing order",
            ),
          ];
        }
      }
      return [];
    },
  });
}

/**
 * cpu and memory with weight 1 (upstream defaultResourceSpec).
 * @public
 */
export function defaultResourceSpec(): ResourceSpec[] {
  return [
    { name: "cpu", weight: 1 },
    { name: "memory", weight: 1 },
  ];
}
