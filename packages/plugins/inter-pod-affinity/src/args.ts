// upstream: pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_InterPodAffinityArgs) and
// validation/validation_pluginargs.go (ValidateInterPodAffinityArgs).
import {
  type DecodeResult,
  type FieldError,
  fieldErrors,
  fieldPath,
  ObjectDecoder,
  type PluginArgsSpec,
} from "@kubesched/framework";

export interface InterPodAffinityArgs {
  /**
   * Scoring weight for existing pods whose required affinity terms match the incoming pod
   * (symmetry of hard affinity). 0..100, default 1.
   */
  hardPodAffinityWeight: number;
  /** Ignore existing pods' preferred terms when the incoming pod has no preferred terms. */
  ignorePreferredTermsOfExistingPods: boolean;
}

export const DefaultHardPodAffinityWeight = 1;
export const MinHardPodAffinityWeight = 0;
export const MaxHardPodAffinityWeight = 100;

export function defaultInterPodAffinityArgs(): InterPodAffinityArgs {
  return { hardPodAffinityWeight: DefaultHardPodAffinityWeight, ignorePreferredTermsOfExistingPods: false };
}

/** Strictly decodes v1 InterPodAffinityArgs (undefined: no pluginConfig) and applies defaults. */
export function decodeInterPodAffinityArgs(raw: unknown, path: string): DecodeResult<InterPodAffinityArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const weight = d.int("hardPodAffinityWeight");
  const ignore = d.bool("ignorePreferredTermsOfExistingPods");
  d.finish();
  return {
    args: {
      hardPodAffinityWeight: weight ?? DefaultHardPodAffinityWeight,
      ignorePreferredTermsOfExistingPods: ignore ?? false,
    },
    errors,
  };
}

/** Every problem of the args, with field paths under `path`. */
export function validateInterPodAffinityArgs(args: InterPodAffinityArgs, path = ""): FieldError[] {
  const w = args.hardPodAffinityWeight;
  if (!Number.isInteger(w) || w < MinHardPodAffinityWeight || w > MaxHardPodAffinityWeight) {
    return [
      fieldErrors.invalid(
        fieldPath.child(path, "hardPodAffinityWeight"),
        w,
        `not in valid range [${MinHardPodAffinityWeight}, ${MaxHardPodAffinityWeight}]`,
      ),
    ];
  }
  return [];
}

export const interPodAffinityArgsSpec: PluginArgsSpec<InterPodAffinityArgs> = {
  kind: "InterPodAffinityArgs",
  decode: (raw, path) => decodeInterPodAffinityArgs(raw, path),
  validate: (args, path) => validateInterPodAffinityArgs(args, path),
  encode: (args) => ({
    hardPodAffinityWeight: args.hardPodAffinityWeight,
    ignorePreferredTermsOfExistingPods: args.ignorePreferredTermsOfExistingPods,
  }),
  schema: {
    type: "object",
    properties: {
      apiVersion: { type: "string" },
      kind: { type: "string", const: "InterPodAffinityArgs" },
      hardPodAffinityWeight: {
        type: "integer",
        minimum: MinHardPodAffinityWeight,
        maximum: MaxHardPodAffinityWeight,
        default: DefaultHardPodAffinityWeight,
        description:
          "Scoring weight for existing pods with a required affinity term matching the incoming pod.",
      },
      ignorePreferredTermsOfExistingPods: {
        type: "boolean",
        default: false,
        description:
          "Ignore existing pods' preferred (anti-)affinity terms when the incoming pod has no preferred terms.",
      },
    },
    additionalProperties: false,
  },
};
