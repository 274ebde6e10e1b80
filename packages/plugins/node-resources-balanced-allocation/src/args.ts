// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (NodeResourcesBalancedAllocationArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_NodeResourcesBalancedAllocationArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateNodeResourcesBalancedAllocationArgs)
import {
  argRules,
  type DecodeResult,
  defaultFeatures,
  defaultResourceSpec,
  defineArgs,
  type FieldError,
  fieldErrors,
  fieldPath,
  type ResourceSpec,
  type Static,
  Type,
} from "@kubesched/framework";

/** A resource and its weight; names unique, every weight exactly 1 (0 is defaulted to 1). */
const resourceSpecSchema = argRules(
  Type.Object({
    name: Type.String(),
    weight: argRules(Type.Integer({ minimum: 1, maximum: 1, default: 1 }), {
      defaultWhenZero: true,
      message: "must be 1",
    }),
  }),
  {
    check: (r, { path, parent, index }) =>
      (parent as ResourceSpec[]).slice(0, index).some((other) => other.name === r.name)
        ? [fieldErrors.duplicate(fieldPath.child(path, "name"), r.name)]
        : [],
  },
);

/** The v1 NodeResourcesBalancedAllocationArgs: type, defaults, decoding, validation and JSON Schema. */
const schema = Type.Object({
  resources: argRules(
    Type.Array(resourceSpecSchema, {
      default: defaultResourceSpec(),
      description: "Resources whose usage fractions are balanced; defaults to cpu and memory.",
    }),
    { defaultWhenZero: true },
  ),
});

/** NodeResourcesBalancedAllocationArgs (kubescheduler.config.k8s.io/v1), defaulted. */
export type NodeResourcesBalancedAllocationArgs = Static<typeof schema>;

export const nodeResourcesBalancedAllocationArgsSpec = defineArgs({
  kind: "NodeResourcesBalancedAllocationArgs",
  schema,
});

/** The defaults (what a profile without pluginConfig for the plugin gets). */
export function defaultNodeResourcesBalancedAllocationArgs(): NodeResourcesBalancedAllocationArgs {
  return decodeNodeResourcesBalancedAllocationArgs(undefined, "").args;
}

/** Strictly decodes the args and applies defaults; `raw` undefined gives the defaults. */
export function decodeNodeResourcesBalancedAllocationArgs(
  raw: unknown,
  path: string,
): DecodeResult<NodeResourcesBalancedAllocationArgs> {
  return nodeResourcesBalancedAllocationArgsSpec.decode(raw, path, defaultFeatures);
}

/** upstream ValidateNodeResourcesBalancedAllocationArgs: names unique, every weight exactly 1. */
export function validateNodeResourcesBalancedAllocationArgs(
  args: NodeResourcesBalancedAllocationArgs,
  path: string,
): FieldError[] {
  return nodeResourcesBalancedAllocationArgsSpec.validate(args, path, defaultFeatures);
}
