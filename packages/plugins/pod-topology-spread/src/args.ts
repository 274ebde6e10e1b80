// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (PodTopologySpreadArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_PodTopologySpreadArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidatePodTopologySpreadArgs).
import { isQualifiedName, type TopologySpreadConstraint } from "@kubesched/api";
import {
  ArgsEnum,
  argRules,
  type DecodeResult,
  defaultFeatures,
  defineArgs,
  type FieldError,
  fieldErrors,
  fieldPath,
  type Static,
  Type,
} from "@kubesched/framework";

/** How default constraints are chosen for pods without their own. */
export type PodTopologySpreadConstraintsDefaulting = "System" | "List";

/** `System`: upstream's built-in defaults (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway). */
export const SystemDefaulting: PodTopologySpreadConstraintsDefaulting = "System";
/** `List`: `defaultConstraints` as given (an empty list disables defaulting). */
export const ListDefaulting: PodTopologySpreadConstraintsDefaulting = "List";

const labelSelectorSchema = Type.Object({
  matchLabels: Type.Optional(Type.Record(Type.String(), Type.String())),
  matchExpressions: Type.Optional(
    Type.Array(
      Type.Object({
        key: Type.String(),
        operator: Type.String(),
        values: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  ),
});

/** A default constraint: a v1 TopologySpreadConstraint without a selector (one is derived per pod). */
const constraintSchema = argRules(
  Type.Object({
    maxSkew: Type.Integer({ exclusiveMinimum: 0 }),
    topologyKey: argRules(Type.String({ minLength: 1 }), {
      check: (key, { path }) => isQualifiedName(key).map((msg) => fieldErrors.invalid(path, key, msg)),
    }),
    // sets.List order (sorted), as upstream reports the supported values.
    whenUnsatisfiable: ArgsEnum(["DoNotSchedule", "ScheduleAnyway"], { minLength: 1 }),
    labelSelector: Type.Optional(
      argRules(labelSelectorSchema, {
        check: (_s, { path }) => [
          fieldErrors.forbidden(path, "constraint must not define a selector, as they deduced for each pod"),
        ],
      }),
    ),
    minDomains: Type.Optional(Type.Integer()),
    nodeAffinityPolicy: Type.Optional(Type.String({ description: "Honor or Ignore" })),
    nodeTaintsPolicy: Type.Optional(Type.String({ description: "Honor or Ignore" })),
    matchLabelKeys: Type.Optional(Type.Array(Type.String())),
  }),
  {
    // {topologyKey, whenUnsatisfiable} must be unique.
    check: (c, { path, parent, index }) =>
      (parent as TopologySpreadConstraint[])
        .slice(0, index)
        .some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)
        ? [fieldErrors.duplicate(path, `{${c.topologyKey}, ${c.whenUnsatisfiable}}`)]
        : [],
  },
);

/** The v1 PodTopologySpreadArgs: type, defaults, decoding, validation and JSON Schema. */
const schema = Type.Object({
  defaultConstraints: Type.Array(constraintSchema, {
    default: [],
    description:
      "Constraints applied to pods that define none, with a selector derived from the Services, ReplicationControllers, ReplicaSets and StatefulSets selecting the pod. Only with List.",
  }),
  defaultingType: argRules(ArgsEnum([SystemDefaulting, ListDefaulting], { default: SystemDefaulting }), {
    defaultWhenZero: true,
  }),
});

/** Arguments of the PodTopologySpread plugin (kind `PodTopologySpreadArgs`). */
export type PodTopologySpreadArgs = Static<typeof schema>;

export const podTopologySpreadArgsSpec = defineArgs({
  kind: "PodTopologySpreadArgs",
  schema,
  validate: (args, path) =>
    args.defaultingType === SystemDefaulting && args.defaultConstraints.length > 0
      ? [
          fieldErrors.invalid(
            fieldPath.child(path, "defaultingType"),
            args.defaultingType,
            "when .defaultConstraints are not empty",
          ),
        ]
      : [],
});

/** The defaulted args (upstream v1 defaults: defaultingType System, no constraints). */
export function defaultPodTopologySpreadArgs(): PodTopologySpreadArgs {
  return decodePodTopologySpreadArgs(undefined, "").args;
}

/** Strictly decodes raw args (undefined: none configured) and applies upstream's v1 defaults. */
export function decodePodTopologySpreadArgs(raw: unknown, path: string): DecodeResult<PodTopologySpreadArgs> {
  return podTopologySpreadArgsSpec.decode(raw, path, defaultFeatures);
}

/**
 * Validates args as upstream ValidatePodTopologySpreadArgs: the defaulting type, and each default
 * constraint's maxSkew, topologyKey, whenUnsatisfiable, absence of labelSelector and uniqueness of
 * {topologyKey, whenUnsatisfiable}. Every error carries its field path under `path`.
 */
export function validatePodTopologySpreadArgs(args: PodTopologySpreadArgs, path = ""): FieldError[] {
  return podTopologySpreadArgsSpec.validate(args, path, defaultFeatures);
}
