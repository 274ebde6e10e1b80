// upstream: apis/config/types.go (CoschedulingArgs), apis/config/v1/defaults.go
// (SetDefaults_CoschedulingArgs), apis/config/validation/validation_pluginargs.go
// (ValidateCoschedulingArgs)
import {
  type DecodeResult,
  type FieldError,
  fieldErrors,
  fieldPath,
  ObjectDecoder,
} from "@kubesched/framework";

/** CoschedulingArgs, defaulted. */
export interface CoschedulingArgs {
  /** How long pods of a group wait at Permit for the rest of the group (default 60). */
  permitWaitingTimeSeconds: number;
  /** How long a group that failed is rejected at PreFilter (default 0: no backoff). */
  podGroupBackoffSeconds: number;
  /**
   * A group whose unassigned share (of minMember) is at most this percentage is not rejected as
   * a whole when one of its pods fails (default 10).
   */
  podGroupRejectPercentage: number;
}

export function defaultCoschedulingArgs(): CoschedulingArgs {
  return { permitWaitingTimeSeconds: 60, podGroupBackoffSeconds: 0, podGroupRejectPercentage: 10 };
}

/** Strictly decodes the args and applies defaults; `raw` undefined gives the defaults. */
export function decodeCoschedulingArgs(raw: unknown, path: string): DecodeResult<CoschedulingArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const def = defaultCoschedulingArgs();
  const args: CoschedulingArgs = {
    permitWaitingTimeSeconds: d.int("permitWaitingTimeSeconds") ?? def.permitWaitingTimeSeconds,
    podGroupBackoffSeconds: d.int("podGroupBackoffSeconds") ?? def.podGroupBackoffSeconds,
    podGroupRejectPercentage: d.int("podGroupRejectPercentage") ?? def.podGroupRejectPercentage,
  };
  d.finish();
  return { args, errors };
}

export function encodeCoschedulingArgs(args: CoschedulingArgs): Record<string, unknown> {
  return { ...args };
}

/** upstream ValidateCoschedulingArgs (same messages). */
export function validateCoschedulingArgs(args: CoschedulingArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (args.permitWaitingTimeSeconds < 0) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child(path, "permitWaitingTimeSeconds"),
        args.permitWaitingTimeSeconds,
        "must be greater than 0",
      ),
    );
  }
  if (args.podGroupBackoffSeconds < 0) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child(path, "podGroupBackoffSeconds"),
        args.podGroupBackoffSeconds,
        "must be greater than 0",
      ),
    );
  }
  if (args.podGroupRejectPercentage < 0 || args.podGroupRejectPercentage > 100) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child(path, "podGroupRejectPercentage"),
        args.podGroupRejectPercentage,
        "must be between 0 and 100",
      ),
    );
  }
  return errs;
}

/** JSON Schema of CoschedulingArgs. */
export const coschedulingArgsSchema: Record<string, unknown> = {
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { const: "CoschedulingArgs" },
    permitWaitingTimeSeconds: { type: "integer", minimum: 0, default: 60 },
    podGroupBackoffSeconds: { type: "integer", minimum: 0, default: 0 },
    podGroupRejectPercentage: { type: "integer", minimum: 0, maximum: 100, default: 10 },
  },
};
