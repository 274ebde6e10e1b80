// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (DefaultPreemptionArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_DefaultPreemptionArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateDefaultPreemptionArgs)
import {
  type DecodeResult,
  type FieldError,
  fieldErrors,
  fieldPath,
  ObjectDecoder,
} from "@kubesched/framework";

/** DefaultPreemptionArgs (kubescheduler.config.k8s.io/v1), defaulted. */
export interface DefaultPreemptionArgs {
  /**
   * The minimum number of candidates to shortlist when dry running preemption, as a percentage
   * of the nodes (0..100).
   */
  minCandidateNodesPercentage: number;
  /** The minimum number of candidates to shortlist, as an absolute number of nodes (≥ 0). */
  minCandidateNodesAbsolute: number;
}

export const DefaultMinCandidateNodesPercentage = 10;
export const DefaultMinCandidateNodesAbsolute = 100;

/** The defaulted args (upstream SetDefaults_DefaultPreemptionArgs on an empty object). */
export function defaultDefaultPreemptionArgs(): DefaultPreemptionArgs {
  return {
    minCandidateNodesPercentage: DefaultMinCandidateNodesPercentage,
    minCandidateNodesAbsolute: DefaultMinCandidateNodesAbsolute,
  };
}

/** Strictly decodes DefaultPreemptionArgs and applies the defaults; `raw` undefined gives the defaults. */
export function decodeDefaultPreemptionArgs(raw: unknown, path: string): DecodeResult<DefaultPreemptionArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const args = defaultDefaultPreemptionArgs();
  const pct = d.int("minCandidateNodesPercentage");
  if (pct !== undefined) args.minCandidateNodesPercentage = pct;
  const abs = d.int("minCandidateNodesAbsolute");
  if (abs !== undefined) args.minCandidateNodesAbsolute = abs;
  d.finish();
  return { args, errors };
}

/**
 * upstream ValidateDefaultPreemptionArgs: the percentage within [0, 100], the absolute number
 * not negative, and not both zero.
 */
export function validateDefaultPreemptionArgs(args: DefaultPreemptionArgs, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const percentagePath = fieldPath.child(path, "minCandidateNodesPercentage");
  const absolutePath = fieldPath.child(path, "minCandidateNodesAbsolute");
  const pct = args.minCandidateNodesPercentage;
  const abs = args.minCandidateNodesAbsolute;
  if (pct < 0 || pct > 100)
    errors.push(fieldErrors.invalid(percentagePath, pct, "not in valid range [0, 100]"));
  if (abs < 0) errors.push(fieldErrors.invalid(absolutePath, abs, "not in valid range [0, inf)"));
  if (pct === 0 && abs === 0) {
    errors.push(
      fieldErrors.invalid(
        percentagePath,
        pct,
        "cannot be zero at the same time as minCandidateNodesAbsolute",
      ),
      fieldErrors.invalid(
        absolutePath,
        abs,
        "cannot be zero at the same time as minCandidateNodesPercentage",
      ),
    );
  }
  return errors;
}

/** The v1 JSON form of decoded args. */
export function encodeDefaultPreemptionArgs(args: DefaultPreemptionArgs): Record<string, unknown> {
  return {
    minCandidateNodesPercentage: args.minCandidateNodesPercentage,
    minCandidateNodesAbsolute: args.minCandidateNodesAbsolute,
  };
}

/** JSON Schema of DefaultPreemptionArgs. */
export const defaultPreemptionArgsSchema: Record<string, unknown> = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "DefaultPreemptionArgs",
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { const: "DefaultPreemptionArgs" },
    minCandidateNodesPercentage: {
      description:
        "Minimum number of candidates to shortlist when dry running preemption, as a percentage of nodes. Cannot be 0 together with minCandidateNodesAbsolute.",
      type: "integer",
      minimum: 0,
      maximum: 100,
      default: DefaultMinCandidateNodesPercentage,
    },
    minCandidateNodesAbsolute: {
      description:
        "Minimum number of candidates to shortlist when dry running preemption, as an absolute number of nodes. Cannot be 0 together with minCandidateNodesPercentage.",
      type: "integer",
      minimum: 0,
      default: DefaultMinCandidateNodesAbsolute,
    },
  },
};
