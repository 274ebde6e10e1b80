// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (VolumeBindingArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_VolumeBindingArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateVolumeBindingArgs)
import {
  type DecodeResult,
  decodeUtilizationShapePoint,
  type Features,
  type FieldError,
  fieldErrors,
  fieldPath,
  ObjectDecoder,
  type UtilizationShapePoint,
  utilizationShapeSchema,
  validateFunctionShape,
} from "@kubesched/framework";

/** One point of the utilization → score shape (score 0..10). */
export type { UtilizationShapePoint };

/** VolumeBindingArgs (kubescheduler.config.k8s.io/v1). */
export interface VolumeBindingArgs {
  /** Seconds PreBind waits for volumes to be bound; 0 means no waiting. Default 600. */
  bindTimeoutSeconds: number;
  /** Score shape of StorageCapacityScoring; defaulted only when that gate is on. */
  shape?: UtilizationShapePoint[];
}

export const DefaultBindTimeoutSeconds = 600;

/** Default shape with StorageCapacityScoring: prefer nodes with lower storage utilization. */
export function defaultShape(): UtilizationShapePoint[] {
  return [
    { utilization: 0, score: 10 },
    { utilization: 100, score: 0 },
  ];
}

/** Strictly decodes VolumeBindingArgs and applies defaults; `raw` undefined gives the defaults. */
export function decodeVolumeBindingArgs(
  raw: unknown,
  path: string,
  features: Features,
): DecodeResult<VolumeBindingArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const bindTimeoutSeconds = d.int("bindTimeoutSeconds") ?? DefaultBindTimeoutSeconds;
  const shape = d.array("shape", (v, p) => decodeUtilizationShapePoint(v, p, errors));
  d.finish();
  const args: VolumeBindingArgs = { bindTimeoutSeconds };
  if (shape !== undefined) args.shape = shape;
  else if (features.enableStorageCapacityScoring) args.shape = defaultShape();
  return { args, errors };
}

/** Every problem of the args, with field paths under `path`. */
export function validateVolumeBindingArgs(
  args: VolumeBindingArgs,
  path = "",
  features: Pick<Features, "enableStorageCapacityScoring"> = { enableStorageCapacityScoring: true },
): FieldError[] {
  const errs: FieldError[] = [];
  if (args.bindTimeoutSeconds < 0) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child(path, "bindTimeoutSeconds"),
        args.bindTimeoutSeconds,
        "invalid BindTimeoutSeconds, should not be a negative value",
      ),
    );
  }
  if (features.enableStorageCapacityScoring) {
    errs.push(...validateFunctionShape(args.shape ?? [], fieldPath.child(path, "shape")));
  } else if (args.shape !== undefined) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child(path, "shape"),
        args.shape,
        "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring",
      ),
    );
  }
  return errs;
}

export function encodeVolumeBindingArgs(args: VolumeBindingArgs): Record<string, unknown> {
  const out: Record<string, unknown> = { bindTimeoutSeconds: args.bindTimeoutSeconds };
  if (args.shape) out.shape = args.shape.map((p) => ({ utilization: p.utilization, score: p.score }));
  return out;
}

export const volumeBindingArgsSchema: Record<string, unknown> = {
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    bindTimeoutSeconds: { type: "integer", minimum: 0, default: DefaultBindTimeoutSeconds },
    shape: utilizationShapeSchema,
  },
};
