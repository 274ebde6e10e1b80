// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (NodeAffinityArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateNodeAffinityArgs)
import {
  type NodeAffinity,
  NodeSelectorMatcher,
  type NodeSelectorRequirement,
  type NodeSelectorTerm,
  type PreferredSchedulingTerm,
  PreferredSchedulingTermsMatcher,
} from "@kubesched/api";
import {
  type DecodeResult,
  decodeString,
  type FieldError,
  type FieldErrorType,
  fieldPath,
  ObjectDecoder,
} from "@kubesched/framework";

/** NodeAffinityArgs (kubescheduler.config.k8s.io/v1). No defaults. */
export interface NodeAffinityArgs {
  /**
   * Node affinity applied to every pod scheduled by this profile, in addition to the pod's own
   * (the node must match both).
   */
  addedAffinity?: NodeAffinity;
}

function decodeRequirement(v: unknown, path: string, errors: FieldError[]): NodeSelectorRequirement {
  const d = ObjectDecoder.of(v, path, errors);
  const req: NodeSelectorRequirement = { key: d.string("key") ?? "", operator: d.string("operator") ?? "" };
  const values = d.array("values", (e, p) => decodeString(e, p, errors));
  if (values !== undefined) req.values = values;
  d.finish();
  return req;
}

function decodeTerm(d: ObjectDecoder): NodeSelectorTerm {
  const term: NodeSelectorTerm = {};
  const exprs = d.array("matchExpressions", (e, p) => decodeRequirement(e, p, d.errors));
  if (exprs !== undefined) term.matchExpressions = exprs;
  const fields = d.array("matchFields", (e, p) => decodeRequirement(e, p, d.errors));
  if (fields !== undefined) term.matchFields = fields;
  return term;
}

function decodeTermAt(v: unknown, path: string, errors: FieldError[]): NodeSelectorTerm {
  const d = ObjectDecoder.of(v, path, errors);
  const term = decodeTerm(d);
  d.finish();
  return term;
}

function decodePreferred(v: unknown, path: string, errors: FieldError[]): PreferredSchedulingTerm {
  const d = ObjectDecoder.of(v, path, errors);
  const weight = d.int("weight") ?? 0;
  const preference = d.object("preference", decodeTerm) ?? {};
  d.finish();
  return { weight, preference };
}

function decodeNodeAffinity(d: ObjectDecoder): NodeAffinity {
  const out: NodeAffinity = {};
  const required = d.object("requiredDuringSchedulingIgnoredDuringExecution", (rd) => ({
    nodeSelectorTerms: rd.array("nodeSelectorTerms", (e, p) => decodeTermAt(e, p, rd.errors)) ?? [],
  }));
  if (required !== undefined) out.requiredDuringSchedulingIgnoredDuringExecution = required;
  const preferred = d.array("preferredDuringSchedulingIgnoredDuringExecution", (e, p) =>
    decodePreferred(e, p, d.errors),
  );
  if (preferred !== undefined) out.preferredDuringSchedulingIgnoredDuringExecution = preferred;
  return out;
}

/** Strictly decodes NodeAffinityArgs; `raw` undefined (no pluginConfig) gives `{}`. */
export function decodeNodeAffinityArgs(raw: unknown, path: string): DecodeResult<NodeAffinityArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const args: NodeAffinityArgs = {};
  const added = d.object("addedAffinity", decodeNodeAffinity);
  if (added !== undefined) args.addedAffinity = added;
  d.finish();
  return { args, errors };
}

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
 * upstream ValidateNodeAffinityArgs: the added required and preferred terms must parse; every
 * problem is reported with its field path under `path`.
 */
export function validateNodeAffinityArgs(args: NodeAffinityArgs, path: string): FieldError[] {
  const affinity = args.addedAffinity;
  if (affinity == null) return [];
  const errors: FieldError[] = [];
  const required = affinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (required != null) {
    const m = new NodeSelectorMatcher(required, {
      path: fieldPath.child(path, "addedAffinity", "requiredDuringSchedulingIgnoredDuringExecution"),
    });
    for (const e of m.errors) errors.push(toFieldError(e));
  }
  const preferred = affinity.preferredDuringSchedulingIgnoredDuringExecution;
  if (preferred != null && preferred.length > 0) {
    const m = new PreferredSchedulingTermsMatcher(preferred, {
      path: fieldPath.child(path, "addedAffinity", "preferredDuringSchedulingIgnoredDuringExecution"),
    });
    for (const e of m.errors) errors.push(toFieldError(e));
  }
  return errors;
}

/** The v1 JSON form of decoded args. */
export function encodeNodeAffinityArgs(args: NodeAffinityArgs): Record<string, unknown> {
  return args.addedAffinity == null ? {} : { addedAffinity: args.addedAffinity };
}

const requirementSchema = {
  type: "object",
  additionalProperties: false,
  required: ["key", "operator"],
  properties: {
    key: { type: "string" },
    operator: { type: "string", enum: ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"] },
    values: { type: "array", items: { type: "string" } },
  },
};

const termSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    matchExpressions: { type: "array", items: requirementSchema },
    matchFields: { type: "array", items: requirementSchema },
  },
};

/** JSON Schema of NodeAffinityArgs. */
export const nodeAffinityArgsSchema: Record<string, unknown> = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "NodeAffinityArgs",
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { const: "NodeAffinityArgs" },
    addedAffinity: {
      description:
        "Node affinity every pod of the profile must also satisfy (required) or prefers (preferred).",
      type: "object",
      additionalProperties: false,
      properties: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          type: "object",
          additionalProperties: false,
          required: ["nodeSelectorTerms"],
          properties: { nodeSelectorTerms: { type: "array", items: termSchema } },
        },
        preferredDuringSchedulingIgnoredDuringExecution: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["weight", "preference"],
            properties: {
              weight: { type: "integer", minimum: 1, maximum: 100 },
              preference: termSchema,
            },
          },
        },
      },
    },
  },
};
