// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (NodeResourcesBalancedAllocationArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_NodeResourcesBalancedAllocationArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateNodeResourcesBalancedAllocationArgs)
import {
  type DecodeResult,
  decodeResourceSpec,
  defaultResourceSpec,
  type FieldError,
  fieldErrors,
  fieldPath,
  ObjectDecoder,
  type ResourceSpec,
} from "@kubesched/framework";

/** NodeResourcesBalancedAllocationArgs (kubescheduler.config.k8s.io/v1), defaulted. */
export interface NodeResourcesBalancedAllocationArgs {
  /** Resources whose usage fractions are balanced; defaults to cpu and memory. Weights must be 1. */
  resources: ResourceSpec[];
}

/** The defaults (what a profile without pluginConfig for the plugin gets). */
export function defaultNodeResourcesBalancedAllocationArgs(): NodeResourcesBalancedAllocationArgs {
  return { resources: defaultResourceSpec() };
}

/** upstream SetDefaults_NodeResourcesBalancedAllocationArgs: no resources → cpu/memory; weight 0 → 1. */
export function setDefaultsNodeResourcesBalancedAllocationArgs(
  args: NodeResourcesBalancedAllocationArgs,
): NodeResourcesBalancedAllocationArgs {
  if (args.resources.length === 0) {
    args.resources = defaultResourceSpec();
    return args;
  }
  for (const r of args.resources) if (r.weight === 0) r.weight = 1;
  return args;
}

/** Strictly decodes the args and applies defaults; `raw` undefined gives the defaults. */
export function decodeNodeResourcesBalancedAllocationArgs(
  raw: unknown,
  path: string,
): DecodeResult<NodeResourcesBalancedAllocationArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const resources = d.array("resources", (v, p) => decodeResourceSpec(v, p, errors)) ?? [];
  d.finish();
  return { args: setDefaultsNodeResourcesBalancedAllocationArgs({ resources }), errors };
}

export function encodeNodeResourcesBalancedAllocationArgs(
  args: NodeResourcesBalancedAllocationArgs,
): Record<string, unknown> {
  return { resources: args.resources.map((r) => ({ name: r.name, weight: r.weight })) };
}

/** upstream ValidateNodeResourcesBalancedAllocationArgs: names unique, every weight exactly 1. */
export function validateNodeResourcesBalancedAllocationArgs(
  args: NodeResourcesBalancedAllocationArgs,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const resPath = fieldPath.child(path, "resources");
  args.resources.forEach((r, i) => {
    const p = fieldPath.index(resPath, i);
    if (seen.has(r.name)) errs.push(fieldErrors.duplicate(fieldPath.child(p, "name"), r.name));
    else seen.add(r.name);
    if (r.weight !== 1) errs.push(fieldErrors.invalid(fieldPath.child(p, "weight"), r.weight, "must be 1"));
  });
  return errs;
}

/** JSON Schema of NodeResourcesBalancedAllocationArgs. */
export const nodeResourcesBalancedAllocationArgsSchema: Record<string, unknown> = {
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { const: "NodeResourcesBalancedAllocationArgs" },
    resources: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["name"],
        properties: { name: { type: "string" }, weight: { type: "integer", enum: [0, 1] } },
      },
    },
  },
};
