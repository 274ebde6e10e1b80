// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (DefaultPreemptionArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_DefaultPreemptionArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateDefaultPreemptionArgs)
import {
  type DecodeResult,
  defaultFeatures,
  defineArgs,
  type FieldError,
  fieldErrors,
  fieldPath,
  type Static,
  Type,
} from "@kubesched/framework";

export const DefaultMinCandidateNodesPercentage = 10;
export const DefaultMinCandidateNodesAbsolute = 100;

/** The v1 DefaultPreemptionArgs: type, defaults, decoding, validation and JSON Schema. */
const schema = Type.Object({
  minCandidateNodesPercentage: Type.Integer({
    minimum: 0,
    maximum: 100,
    default: DefaultMinCandidateNodesPercentage,
    description:
      "Minimum number of candidates to shortlist when dry running preemption, as a percentage of nodes. Cannot be 0 together with minCandidateNodesAbsolute.",
  }),
  minCandidateNodesAbsolute: Type.Integer({
    minimum: 0,
    default: DefaultMinCandidateNodesAbsolute,
    description:
      "Minimum number of candidates to shortlist when dry running preemption, as an absolute number of nodes. Cannot be 0 together with minCandidateNodesPercentage.",
  }),
});

/** DefaultPreemptionArgs (kubescheduler.config.k8s.io/v1), defaulted. */
export type DefaultPreemptionArgs = Static<typeof schema>;

export const defaultPreemptionArgsSpec = defineArgs({
  kind: "DefaultPreemptionArgs",
  schema,
  // upstream ValidateDefaultPreemptionArgs: not both zero (the ranges are the schema's).
  validate: (args, path) =>
    args.minCandidateNodesPercentage === 0 && args.minCandidateNodesAbsolute === 0
      ? [
          fieldErrors.invalid(
            fieldPath.child(path, "minCandidateNodesPercentage"),
            0,
            "cannot be zero at the same time as minCandidateNodesAbsolute",
          ),
          fieldErrors.invalid(
            fieldPath.child(path, "minCandidateNodesAbsolute"),
            0,
            "cannot be zero at the same time as minCandidateNodesPercentage",
          ),
        ]
      : [],
});

/** The defaulted args (upstream SetDefaults_DefaultPreemptionArgs on an empty object). */
export function defaultDefaultPreemptionArgs(): DefaultPreemptionArgs {
  return decodeDefaultPreemptionArgs(undefined, "").args;
}

/** Strictly decodes DefaultPreemptionArgs and applies the defaults; `raw` undefined gives the defaults. */
export function decodeDefaultPreemptionArgs(raw: unknown, path: string): DecodeResult<DefaultPreemptionArgs> {
  return defaultPreemptionArgsSpec.decode(raw, path, defaultFeatures);
}

/**
 * upstream ValidateDefaultPreemptionArgs: the percentage within [0, 100], the absolute number
 * not negative, and not both zero.
 */
export function validateDefaultPreemptionArgs(args: DefaultPreemptionArgs, path: string): FieldError[] {
  return defaultPreemptionArgsSpec.validate(args, path, defaultFeatures);
}
