// upstream: apis/config/types.go (NodeResourcesAllocatableArgs, ModeType), apis/config/v1/defaults.go
// (SetDefaults_NodeResourcesAllocatableArgs), apis/config/validation/validation_pluginargs.go
// (ValidateNodeResourcesAllocatableArgs)
import {
  type DecodeResult,
  decodeResourceSpec,
  type FieldError,
  fieldErrors,
  fieldPath,
  ObjectDecoder,
  type ResourceSpec,
} from "@kubesched/framework";

/** Favor nodes with the least (Least) or the most (Most) allocatable resources. */
export type ModeType = "Least" | "Most";
export const supportedModes: readonly ModeType[] = ["Least", "Most"];

/** NodeResourcesAllocatableArgs, defaulted. */
export interface NodeResourcesAllocatableArgs {
  /** Resources and their weights (default cpu 1<<20, memory 1: a millicore weighs as much as 1 MiB). */
  resources: ResourceSpec[];
  /** Default Least. */
  mode: string;
}

/** upstream defaultNodeResourcesAllocatableResourcesToWeightMap. */
export function defaultAllocatableResources(): ResourceSpec[] {
  return [
    { name: "cpu", weight: 1 << 20 },
    { name: "memory", weight: 1 },
  ];
}

export function defaultNodeResourcesAllocatableArgs(): NodeResourcesAllocatableArgs {
  return { resources: defaultAllocatableResources(), mode: "Least" };
}

/** Strictly decodes the args and applies defaults; `raw` undefined gives the defaults. */
export function decodeNodeResourcesAllocatableArgs(
  raw: unknown,
  path: string,
): DecodeResult<NodeResourcesAllocatableArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const resources = d.array("resources", (v, p) => decodeResourceSpec(v, p, errors)) ?? [];
  const mode = d.string("mode") ?? "";
  d.finish();
  return {
    args: {
      // upstream SetDefaults: only an empty list is defaulted; a weight of 0 stays (and is invalid).
      resources: resources.length > 0 ? resources : defaultAllocatableResources(),
      mode: mode || "Least",
    },
    errors,
  };
}

export function encodeNodeResourcesAllocatableArgs(
  args: NodeResourcesAllocatableArgs,
): Record<string, unknown> {
  return { resources: args.resources.map((r) => ({ name: r.name, weight: r.weight })), mode: args.mode };
}

/** upstream ValidateNodeResourcesAllocatableArgs (same messages). */
export function validateNodeResourcesAllocatableArgs(
  args: NodeResourcesAllocatableArgs,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const resPath = fieldPath.child(path, "resources");
  args.resources.forEach((r, i) => {
    if (r.weight <= 0) {
      errs.push(
        fieldErrors.invalid(
          fieldPath.child(fieldPath.index(resPath, i), "weight"),
          r.weight,
          `resource weight of ${r.name} should be a positive value, got :${r.weight}`,
        ),
      );
    }
  });
  if (!(supportedModes as readonly string[]).includes(args.mode)) {
    errs.push(fieldErrors.invalid(fieldPath.child(path, "mode"), args.mode, "invalid support ModeType"));
  }
  return errs;
}

/** JSON Schema of NodeResourcesAllocatableArgs. */
export const nodeResourcesAllocatableArgsSchema: Record<string, unknown> = {
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { const: "NodeResourcesAllocatableArgs" },
    mode: { enum: supportedModes, default: "Least" },
    resources: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["name", "weight"],
        properties: { name: { type: "string" }, weight: { type: "integer", minimum: 1 } },
      },
    },
  },
};
