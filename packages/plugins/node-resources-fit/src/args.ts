// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (NodeResourcesFitArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_NodeResourcesFitArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateNodeResourcesFitArgs)
import { isQualifiedName } from "@kubesched/api";
import {
  ArgsEnum,
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
  UtilizationShape,
  type UtilizationShapePoint,
} from "@kubesched/framework";

export const LeastAllocated = "LeastAllocated";
export const MostAllocated = "MostAllocated";
export const RequestedToCapacityRatio = "RequestedToCapacityRatio";
export type ScoringStrategyType =
  | typeof LeastAllocated
  | typeof MostAllocated
  | typeof RequestedToCapacityRatio;

/** A point of the RequestedToCapacityRatio shape: utilization 0..100 → score 0..10. */
export type { UtilizationShapePoint };

/** upstream metav1validation.ValidateLabelName. */
function labelNameErrors(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
}

/** upstream validateResources: every weight in (0, 100]; weight 0 is defaulted to 1. */
const resourceSpecSchema = Type.Object({
  name: Type.String(),
  weight: argRules(Type.Integer({ exclusiveMinimum: 0, maximum: 100, default: 1 }), {
    defaultWhenZero: true,
    message: (_w, { parent }) =>
      `resource weight of ${(parent as ResourceSpec).name} not in valid range (0, 100]`,
  }),
});

const scoringStrategySchema = Type.Object(
  {
    type: ArgsEnum([LeastAllocated, MostAllocated, RequestedToCapacityRatio], {
      description: "How nodes are scored by their requested resources.",
    }),
    resources: argRules(
      Type.Array(resourceSpecSchema, {
        default: defaultResourceSpec(),
        description: "Resources to score and their weights; defaults to cpu and memory, weight 1.",
      }),
      { defaultWhenZero: true },
    ),
    requestedToCapacityRatio: Type.Optional(
      // upstream reports the shape's errors under scoringStrategy.shape (sic).
      argRules(Type.Object({ shape: UtilizationShape() }), { reportUnderParent: true }),
    ),
  },
  { default: { type: LeastAllocated, resources: defaultResourceSpec() } },
);

/** The v1 NodeResourcesFitArgs: type, defaults, decoding, validation and JSON Schema. */
const schema = Type.Object({
  ignoredResources: Type.Array(
    argRules(Type.String(), { check: (res, { path }) => labelNameErrors(res, path) }),
    { default: [], description: "Extended resources Filter ignores." },
  ),
  ignoredResourceGroups: Type.Array(
    argRules(Type.String(), {
      check: (group, { path }) => [
        ...(group.includes("/")
          ? [fieldErrors.invalid(path, group, "resource group name can't contain '/'")]
          : []),
        ...labelNameErrors(group, path),
      ],
    }),
    { default: [], description: 'Extended resource groups (the part before "/") Filter ignores.' },
  ),
  scoringStrategy: scoringStrategySchema,
});

/** NodeResourcesFitArgs (kubescheduler.config.k8s.io/v1), defaulted. */
export type NodeResourcesFitArgs = Static<typeof schema>;
export type ScoringStrategy = NodeResourcesFitArgs["scoringStrategy"];
export type RequestedToCapacityRatioParam = NonNullable<ScoringStrategy["requestedToCapacityRatio"]>;

export const nodeResourcesFitArgsSpec = defineArgs({
  kind: "NodeResourcesFitArgs",
  schema,
  // Beyond upstream: RequestedToCapacityRatio without its parameters is reported (upstream
  // dereferences nil in NewFit).
  validate: (args, path) =>
    args.scoringStrategy.type === RequestedToCapacityRatio && !args.scoringStrategy.requestedToCapacityRatio
      ? [
          fieldErrors.required(
            fieldPath.child(path, "scoringStrategy", "requestedToCapacityRatio"),
            "required when type is RequestedToCapacityRatio",
          ),
        ]
      : [],
});

/** The defaults (what a profile without pluginConfig for NodeResourcesFit gets). */
export function defaultNodeResourcesFitArgs(): NodeResourcesFitArgs {
  return decodeNodeResourcesFitArgs(undefined, "").args;
}

/** Strictly decodes NodeResourcesFitArgs and applies defaults; `raw` undefined gives the defaults. */
export function decodeNodeResourcesFitArgs(raw: unknown, path: string): DecodeResult<NodeResourcesFitArgs> {
  return nodeResourcesFitArgsSpec.decode(raw, path, defaultFeatures);
}

/** upstream ValidateNodeResourcesFitArgs, every error with its field path under `path`. */
export function validateNodeResourcesFitArgs(args: NodeResourcesFitArgs, path: string): FieldError[] {
  return nodeResourcesFitArgsSpec.validate(args, path, defaultFeatures);
}
