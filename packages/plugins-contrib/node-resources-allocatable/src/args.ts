// upstream: apis/config/types.go (NodeResourcesAllocatableArgs, ModeType), apis/config/v1/defaults.go
// (SetDefaults_NodeResourcesAllocatableArgs), apis/config/validation/validation_pluginargs.go
// (ValidateNodeResourcesAllocatableArgs)
import {
  ArgsEnum,
  argRules,
  type DecodeResult,
  defaultFeatures,
  defineArgs,
  type FieldError,
  type ResourceSpec,
  type Static,
  Type,
} from "@kubesched/framework";

/** Favor nodes with the least (Least) or the most (Most) allocatable resources. */
export type ModeType = "Least" | "Most";
export const supportedModes: readonly ModeType[] = ["Least", "Most"];

/** upstream defaultNodeResourcesAllocatableResourcesToWeightMap. */
export function defaultAllocatableResources(): ResourceSpec[] {
  return [
    { name: "cpu", weight: 1 << 20 },
    { name: "memory", weight: 1 },
  ];
}

/** The v1 NodeResourcesAllocatableArgs: type, defaults, decoding, validation and JSON Schema. */
const schema = Type.Object({
  resources: argRules(
    Type.Array(
      Type.Object({
        name: Type.String(),
        // upstream SetDefaults leaves a weight of 0 (and validation rejects it).
        weight: argRules(Type.Integer({ exclusiveMinimum: 0 }), {
          message: (w, { parent }) =>
            `resource weight of ${(parent as ResourceSpec).name} should be a positive value, got :${w}`,
        }),
      }),
      {
        default: defaultAllocatableResources(),
        description: "Resources and their weights (a millicore weighs as much as 1 MiB by default).",
      },
    ),
    { defaultWhenZero: true },
  ),
  mode: argRules(ArgsEnum(supportedModes, { default: "Least" }), {
    defaultWhenZero: true,
    type: "Invalid",
    message: "invalid support ModeType",
  }),
});

/** NodeResourcesAllocatableArgs, defaulted. */
export type NodeResourcesAllocatableArgs = Static<typeof schema>;

export const nodeResourcesAllocatableArgsSpec = defineArgs({ kind: "NodeResourcesAllocatableArgs", schema });

export function defaultNodeResourcesAllocatableArgs(): NodeResourcesAllocatableArgs {
  return decodeNodeResourcesAllocatableArgs(undefined, "").args;
}

/** Strictly decodes the args and applies defaults; `raw` undefined gives the defaults. */
export function decodeNodeResourcesAllocatableArgs(
  raw: unknown,
  path: string,
): DecodeResult<NodeResourcesAllocatableArgs> {
  return nodeResourcesAllocatableArgsSpec.decode(raw, path, defaultFeatures);
}

/** upstream ValidateNodeResourcesAllocatableArgs (same messages). */
export function validateNodeResourcesAllocatableArgs(
  args: NodeResourcesAllocatableArgs,
  path: string,
): FieldError[] {
  return nodeResourcesAllocatableArgsSpec.validate(args, path, defaultFeatures);
}
