// Pieces of plugin args that several plugins share, as upstream shares them across plugins:
// upstream staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (ResourceSpec,
// UtilizationShapePoint), pkg/scheduler/apis/config/v1/defaults.go (defaultResourceSpec) and
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (validateFunctionShape).
import { ObjectDecoder } from "./args-decoding";
import { type FieldError, fieldErrors, fieldPath } from "./field-errors";
import { MaxCustomPriorityScore, type ResourceSpec } from "./resource-allocation";

/** A point of a utilization → score shape: utilization 0..100, score 0..MaxCustomPriorityScore. */
export interface UtilizationShapePoint {
  utilization: number;
  score: number;
}

/** JSON Schema of a shape (the rules of validateFunctionShape that a schema can express). */
export const utilizationShapeSchema: Record<string, unknown> = {
  type: "array",
  minItems: 1,
  items: {
    type: "object",
    additionalProperties: false,
    properties: {
      utilization: { type: "integer", minimum: 0, maximum: 100 },
      score: { type: "integer", minimum: 0, maximum: MaxCustomPriorityScore },
    },
  },
};

/** cpu and memory with weight 1 (upstream defaultResourceSpec). */
export function defaultResourceSpec(): ResourceSpec[] {
  return [
    { name: "cpu", weight: 1 },
    { name: "memory", weight: 1 },
  ];
}

/** Strictly decodes one `{name, weight}`; a missing weight is 0 (defaulted to 1 afterwards). */
export function decodeResourceSpec(v: unknown, path: string, errors: FieldError[]): ResourceSpec {
  const d = ObjectDecoder.of(v, path, errors);
  const spec = { name: d.string("name") ?? "", weight: d.int("weight") ?? 0 };
  d.finish();
  return spec;
}

/** Strictly decodes one `{utilization, score}`; missing fields are 0. */
export function decodeUtilizationShapePoint(
  v: unknown,
  path: string,
  errors: FieldError[],
): UtilizationShapePoint {
  const d = ObjectDecoder.of(v, path, errors);
  const point = { utilization: d.int("utilization") ?? 0, score: d.int("score") ?? 0 };
  d.finish();
  return point;
}

/**
 * upstream validateFunctionShape (RequestedToCapacityRatio's and VolumeBinding's shape): at least
 * one point, utilization strictly increasing and in [0, 100], score in [0, MaxCustomPriorityScore].
 */
export function validateFunctionShape(shape: readonly UtilizationShapePoint[], path: string): FieldError[] {
  if (shape.length === 0) return [fieldErrors.required(path, "at least one point must be specified")];
  const errs: FieldError[] = [];
  for (let i = 1; i < shape.length; i++) {
    const cur = shape[i] as UtilizationShapePoint;
    if ((shape[i - 1] as UtilizationShapePoint).utilization >= cur.utilization) {
      errs.push(
        fieldErrors.invalid(
          fieldPath.child(fieldPath.index(path, i), "utilization"),
          cur.utilization,
          "values must be sorted in increasing order",
        ),
      );
      break;
    }
  }
  shape.forEach((p, i) => {
    if (p.utilization < 0 || p.utilization > 100) {
      errs.push(
        fieldErrors.invalid(
          fieldPath.child(fieldPath.index(path, i), "utilization"),
          p.utilization,
          "not in valid range [0, 100]",
        ),
      );
    }
    if (p.score < 0 || p.score > MaxCustomPriorityScore) {
      errs.push(
        fieldErrors.invalid(
          fieldPath.child(fieldPath.index(path, i), "score"),
          p.score,
          `not in valid range [0, ${MaxCustomPriorityScore}]`,
        ),
      );
    }
  });
  return errs;
}
