// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (NodeAffinityArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateNodeAffinityArgs)
import { NodeSelectorMatcher, PreferredSchedulingTermsMatcher } from "@kubesched/api";
import {
  argRules,
  type DecodeResult,
  defaultFeatures,
  defineArgs,
  type FieldError,
  type FieldErrorType,
  fieldPath,
  type Static,
  Type,
} from "@kubesched/framework";

const requirementSchema = Type.Object({
  key: Type.String(),
  operator: Type.String({ enum: ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"] }),
  values: Type.Optional(Type.Array(Type.String())),
});

const termSchema = Type.Object({
  matchExpressions: Type.Optional(Type.Array(requirementSchema)),
  matchFields: Type.Optional(Type.Array(requirementSchema)),
});

const nodeAffinitySchema = Type.Object(
  {
    requiredDuringSchedulingIgnoredDuringExecution: Type.Optional(
      Type.Object({ nodeSelectorTerms: Type.Array(termSchema) }),
    ),
    preferredDuringSchedulingIgnoredDuringExecution: Type.Optional(
      Type.Array(Type.Object({ weight: Type.Integer({ minimum: 1, maximum: 100 }), preference: termSchema })),
    ),
  },
  {
    description:
      "Node affinity every pod of the profile must also satisfy (required) or prefers (preferred).",
  },
);

const errorTypes: ReadonlyArray<[string, FieldErrorType]> = [
  ["Invalid value", "Invalid"],
  ["Unsupported value", "NotSupported"],
  ["Required value", "Required"],
];

/**
 * @kubesched/api reports node selector problems as upstream-formatted strings
 * (`<field>: Invalid value: "x": detail`); turns one back into a FieldError that renders to the
 * same text.
 */
function toFieldError(message: string): FieldError {
  const sep = message.indexOf(": ");
  if (sep >= 0) {
    const field = message.slice(0, sep);
    const rest = message.slice(sep + 2);
    for (const [label, type] of errorTypes) {
      if (rest === label) return { type, field };
      if (rest.startsWith(`${label}: `)) return { type, field, detail: rest.slice(label.length + 2) };
    }
  }
  return { type: "Invalid", field: "", detail: message };
}

/**
 * upstream ValidateNodeAffinityArgs: the added required and preferred terms must parse, as the
 * node selector code of @kubesched/api parses them (so the schema's keywords below only describe
 * the fields to editors).
 */
function addedAffinityErrors(affinity: Static<typeof nodeAffinitySchema>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const required = affinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (required != null) {
    const m = new NodeSelectorMatcher(required, {
      path: fieldPath.child(path, "requiredDuringSchedulingIgnoredDuringExecution"),
    });
    for (const e of m.errors) errors.push(toFieldError(e));
  }
  const preferred = affinity.preferredDuringSchedulingIgnoredDuringExecution;
  if (preferred != null && preferred.length > 0) {
    const m = new PreferredSchedulingTermsMatcher(preferred, {
      path: fieldPath.child(path, "preferredDuringSchedulingIgnoredDuringExecution"),
    });
    for (const e of m.errors) errors.push(toFieldError(e));
  }
  return errors;
}

/** The v1 NodeAffinityArgs: type, decoding, validation and JSON Schema. No defaults. */
const schema = Type.Object({
  /**
   * Node affinity applied to every pod scheduled by this profile, in addition to the pod's own
   * (the node must match both).
   */
  addedAffinity: Type.Optional(
    argRules(nodeAffinitySchema, { opaque: true, check: (a, { path }) => addedAffinityErrors(a, path) }),
  ),
});

/** NodeAffinityArgs (kubescheduler.config.k8s.io/v1). */
export type NodeAffinityArgs = Static<typeof schema>;

export const nodeAffinityArgsSpec = defineArgs({ kind: "NodeAffinityArgs", schema });

/** The defaults: no added affinity. */
export function defaultNodeAffinityArgs(): NodeAffinityArgs {
  return decodeNodeAffinityArgs(undefined, "").args;
}

/** Strictly decodes NodeAffinityArgs; `raw` undefined (no pluginConfig) gives `{}`. */
export function decodeNodeAffinityArgs(raw: unknown, path: string): DecodeResult<NodeAffinityArgs> {
  return nodeAffinityArgsSpec.decode(raw, path, defaultFeatures);
}

/** upstream ValidateNodeAffinityArgs; every problem with its field path under `path`. */
export function validateNodeAffinityArgs(args: NodeAffinityArgs, path: string): FieldError[] {
  return nodeAffinityArgsSpec.validate(args, path, defaultFeatures);
}
