// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (VolumeBindingArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_VolumeBindingArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateVolumeBindingArgs)
import {
  argRules,
  type DecodeResult,
  defaultFeatures,
  defineArgs,
  type Features,
  type FieldError,
  type Static,
  Type,
  UtilizationShape,
  type UtilizationShapePoint,
} from "@kubesched/framework";

/** One point of the utilization → score shape (score 0..10). */
export type { UtilizationShapePoint };

export const DefaultBindTimeoutSeconds = 600;

/** Default shape with StorageCapacityScoring: prefer nodes with lower storage utilization. */
export function defaultShape(): UtilizationShapePoint[] {
  return [
    { utilization: 0, score: 10 },
    { utilization: 100, score: 0 },
  ];
}

/** The v1 VolumeBindingArgs: type, defaults, decoding, validation and JSON Schema. */
const schema = Type.Object({
  bindTimeoutSeconds: argRules(
    Type.Integer({
      minimum: 0,
      default: DefaultBindTimeoutSeconds,
      description: "Seconds PreBind waits for volumes to be bound; 0 means no waiting.",
    }),
    { message: "invalid BindTimeoutSeconds, should not be a negative value" },
  ),
  shape: Type.Optional(
    argRules(
      UtilizationShape({
        default: defaultShape(),
        description: "Score shape of StorageCapacityScoring (utilization → score).",
      }),
      { featureGate: "enableStorageCapacityScoring", defaultWhenZero: true },
    ),
  ),
});

/** VolumeBindingArgs (kubescheduler.config.k8s.io/v1). */
export type VolumeBindingArgs = Static<typeof schema>;

export const volumeBindingArgsSpec = defineArgs({ kind: "VolumeBindingArgs", schema });

/** The defaults (the shape only with StorageCapacityScoring on). */
export function defaultVolumeBindingArgs(features: Features = defaultFeatures): VolumeBindingArgs {
  return decodeVolumeBindingArgs(undefined, "", features).args;
}

/** Strictly decodes VolumeBindingArgs and applies defaults; `raw` undefined gives the defaults. */
export function decodeVolumeBindingArgs(
  raw: unknown,
  path: string,
  features: Features,
): DecodeResult<VolumeBindingArgs> {
  return volumeBindingArgsSpec.decode(raw, path, features);
}

/** Every problem of the args, with field paths under `path`. */
export function validateVolumeBindingArgs(
  args: VolumeBindingArgs,
  path = "",
  features: Pick<Features, "enableStorageCapacityScoring"> = defaultFeatures,
): FieldError[] {
  return volumeBindingArgsSpec.validate(args, path, { ...defaultFeatures, ...features });
}
