// upstream: apis/config/types.go (CoschedulingArgs), apis/config/v1/defaults.go
// (SetDefaults_CoschedulingArgs), apis/config/validation/validation_pluginargs.go
// (ValidateCoschedulingArgs)
import {
  argRules,
  type DecodeResult,
  defaultFeatures,
  defineArgs,
  type FieldError,
  type Static,
  Type,
} from "@kubesched/framework";

/** The v1 CoschedulingArgs: type, defaults, decoding, validation (upstream's messages) and JSON Schema. */
const schema = Type.Object({
  permitWaitingTimeSeconds: argRules(
    Type.Integer({
      minimum: 0,
      default: 60,
      description: "How long pods of a group wait at Permit for the rest of the group.",
    }),
    { message: "must be greater than 0" },
  ),
  podGroupBackoffSeconds: argRules(
    Type.Integer({
      minimum: 0,
      default: 0,
      description: "How long a group that failed is rejected at PreFilter (0: no backoff).",
    }),
    { message: "must be greater than 0" },
  ),
  podGroupRejectPercentage: argRules(
    Type.Integer({
      minimum: 0,
      maximum: 100,
      default: 10,
      description:
        "A group whose unassigned share (of minMember) is at most this percentage is not rejected as a whole when one of its pods fails.",
    }),
    { message: "must be between 0 and 100" },
  ),
});

/** CoschedulingArgs, defaulted. */
export type CoschedulingArgs = Static<typeof schema>;

export const coschedulingArgsSpec = defineArgs({ kind: "CoschedulingArgs", schema });

export function defaultCoschedulingArgs(): CoschedulingArgs {
  return decodeCoschedulingArgs(undefined, "").args;
}

/** Strictly decodes the args and applies defaults; `raw` undefined gives the defaults. */
export function decodeCoschedulingArgs(raw: unknown, path: string): DecodeResult<CoschedulingArgs> {
  return coschedulingArgsSpec.decode(raw, path, defaultFeatures);
}

/** upstream ValidateCoschedulingArgs (same messages). */
export function validateCoschedulingArgs(args: CoschedulingArgs, path: string): FieldError[] {
  return coschedulingArgsSpec.validate(args, path, defaultFeatures);
}
