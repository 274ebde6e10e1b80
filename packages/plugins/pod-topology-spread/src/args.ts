// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (PodTopologySpreadArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_PodTopologySpreadArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidatePodTopologySpreadArgs).
import { isQualifiedName, type LabelSelector, type TopologySpreadConstraint } from "@kubesched/api";
import {
  type DecodeResult,
  decodeString,
  type FieldError,
  fieldErrors,
  fieldPath,
  isPlainObject,
  ObjectDecoder,
} from "@kubesched/framework";

/** How default constraints are chosen for pods without their own. */
export type PodTopologySpreadConstraintsDefaulting = "System" | "List";

/** `System`: upstream's built-in defaults (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway). */
export const SystemDefaulting: PodTopologySpreadConstraintsDefaulting = "System";
/** `List`: `defaultConstraints` as given (an empty list disables defaulting). */
export const ListDefaulting: PodTopologySpreadConstraintsDefaulting = "List";

/** Arguments of the PodTopologySpread plugin (kind `PodTopologySpreadArgs`). */
export interface PodTopologySpreadArgs {
  /**
   * Constraints applied to pods that define none, with a selector derived from the Services,
   * ReplicationControllers, ReplicaSets and StatefulSets selecting the pod. Only with `List`.
   */
  defaultConstraints: TopologySpreadConstraint[];
  /** Defaults to `System`. */
  defaultingType: PodTopologySpreadConstraintsDefaulting | (string & {});
}

/** The defaulted args (upstream v1 defaults: defaultingType System, no constraints). */
export function defaultPodTopologySpreadArgs(): PodTopologySpreadArgs {
  return { defaultConstraints: [], defaultingType: SystemDefaulting };
}

const argsTypeFields = ["apiVersion", "kind"];

function decodeLabelSelector(d: ObjectDecoder): LabelSelector {
  const out: LabelSelector = {};
  const ml = d.raw("matchLabels");
  if (ml !== undefined && ml !== null) {
    if (!isPlainObject(ml)) {
      d.errors.push(fieldErrors.invalid(d.child("matchLabels"), ml, "must be an object"));
    } else {
      const labels: Record<string, string> = {};
      for (const [k, v] of Object.entries(ml)) {
        const s = decodeString(v, fieldPath.key(d.child("matchLabels"), k), d.errors);
        if (s !== undefined) labels[k] = s;
      }
      out.matchLabels = labels;
    }
  }
  const exprs = d.array("matchExpressions", (v, p) => {
    const e = ObjectDecoder.of(v, p, d.errors);
    const key = e.string("key") ?? "";
    const operator = e.string("operator") ?? "";
    const values = e.array("values", (x, xp) => decodeString(x, xp, d.errors));
    e.finish();
    return values ? { key, operator, values } : { key, operator };
  });
  if (exprs) out.matchExpressions = exprs;
  return out;
}

function decodeConstraint(v: unknown, path: string, errors: FieldError[]): TopologySpreadConstraint {
  const d = ObjectDecoder.of(v, path, errors);
  const c: TopologySpreadConstraint = {
    maxSkew: d.int("maxSkew") ?? 0,
    topologyKey: d.string("topologyKey") ?? "",
    whenUnsatisfiable: d.string("whenUnsatisfiable") ?? "",
  };
  const ls = d.object("labelSelector", decodeLabelSelector);
  if (ls) c.labelSelector = ls;
  const minDomains = d.int("minDomains");
  if (minDomains !== undefined) c.minDomains = minDomains;
  const nap = d.string("nodeAffinityPolicy");
  if (nap !== undefined) c.nodeAffinityPolicy = nap;
  const ntp = d.string("nodeTaintsPolicy");
  if (ntp !== undefined) c.nodeTaintsPolicy = ntp;
  const mlk = d.array("matchLabelKeys", (x, p) => decodeString(x, p, errors));
  if (mlk) c.matchLabelKeys = mlk;
  d.finish();
  return c;
}

/** Strictly decodes raw args (undefined: none configured) and applies upstream's v1 defaults. */
export function decodePodTopologySpreadArgs(raw: unknown, path: string): DecodeResult<PodTopologySpreadArgs> {
  const errors: FieldError[] = [];
  const args = defaultPodTopologySpreadArgs();
  const d = ObjectDecoder.of(raw, path, errors, argsTypeFields);
  const constraints = d.array("defaultConstraints", (v, p) => decodeConstraint(v, p, errors));
  if (constraints) args.defaultConstraints = constraints;
  const t = d.string("defaultingType");
  if (t !== undefined && t !== "") args.defaultingType = t;
  d.finish();
  return { args, errors };
}

/** Renders args in their v1 form. */
export function encodePodTopologySpreadArgs(args: PodTopologySpreadArgs): Record<string, unknown> {
  const out: Record<string, unknown> = { defaultingType: args.defaultingType };
  if (args.defaultConstraints.length > 0) out.defaultConstraints = structuredClone(args.defaultConstraints);
  return out;
}

const supportedDefaulting = [SystemDefaulting, ListDefaulting];
// sets.List order (sorted), as upstream reports it.
const supportedScheduleActions = ["DoNotSchedule", "ScheduleAnyway"];

/**
 * Validates args as upstream ValidatePodTopologySpreadArgs: the defaulting type, and each default
 * constraint's maxSkew, topologyKey, whenUnsatisfiable, absence of labelSelector and uniqueness of
 * {topologyKey, whenUnsatisfiable}. Every error carries its field path under `path`.
 */
export function validatePodTopologySpreadArgs(args: PodTopologySpreadArgs, path = ""): FieldError[] {
  const errs: FieldError[] = [];
  const dtPath = fieldPath.child(path, "defaultingType");
  if (args.defaultingType !== SystemDefaulting && args.defaultingType !== ListDefaulting) {
    errs.push(fieldErrors.notSupported(dtPath, args.defaultingType, supportedDefaulting));
  } else if (args.defaultingType === SystemDefaulting && args.defaultConstraints.length > 0) {
    errs.push(fieldErrors.invalid(dtPath, args.defaultingType, "when .defaultConstraints are not empty"));
  }
  const dcPath = fieldPath.child(path, "defaultConstraints");
  args.defaultConstraints.forEach((c, i) => {
    const p = fieldPath.index(dcPath, i);
    if (!(c.maxSkew > 0)) {
      errs.push(fieldErrors.invalid(fieldPath.child(p, "maxSkew"), c.maxSkew, "not in valid range (0, inf)"));
    }
    const tkPath = fieldPath.child(p, "topologyKey");
    if (!c.topologyKey) {
      errs.push(fieldErrors.required(tkPath, "can not be empty"));
    } else {
      for (const msg of isQualifiedName(c.topologyKey)) {
        errs.push(fieldErrors.invalid(tkPath, c.topologyKey, msg));
      }
    }
    const wuPath = fieldPath.child(p, "whenUnsatisfiable");
    if (!c.whenUnsatisfiable) {
      errs.push(fieldErrors.required(wuPath, "can not be empty"));
    } else if (!supportedScheduleActions.includes(c.whenUnsatisfiable)) {
      errs.push(fieldErrors.notSupported(wuPath, c.whenUnsatisfiable, supportedScheduleActions));
    }
    if (c.labelSelector != null) {
      errs.push(
        fieldErrors.forbidden(
          fieldPath.child(p, "labelSelector"),
          "constraint must not define a selector, as they deduced for each pod",
        ),
      );
    }
    for (let j = 0; j < i; j++) {
      const other = args.defaultConstraints[j]!;
      if (c.topologyKey === other.topologyKey && c.whenUnsatisfiable === other.whenUnsatisfiable) {
        errs.push(fieldErrors.duplicate(p, `{${c.topologyKey}, ${c.whenUnsatisfiable}}`));
        break;
      }
    }
  });
  return errs;
}

const constraintSchema = {
  type: "object",
  additionalProperties: false,
  required: ["maxSkew", "topologyKey", "whenUnsatisfiable"],
  properties: {
    maxSkew: { type: "integer", minimum: 1 },
    topologyKey: { type: "string", minLength: 1 },
    whenUnsatisfiable: { enum: ["DoNotSchedule", "ScheduleAnyway"] },
    minDomains: { type: "integer" },
    nodeAffinityPolicy: { enum: ["Honor", "Ignore"] },
    nodeTaintsPolicy: { enum: ["Honor", "Ignore"] },
    matchLabelKeys: { type: "array", items: { type: "string" } },
  },
};

/** JSON Schema of PodTopologySpreadArgs. */
export const podTopologySpreadArgsSchema: Record<string, unknown> = {
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { const: "PodTopologySpreadArgs" },
    defaultingType: { enum: ["System", "List"], default: "System" },
    defaultConstraints: { type: "array", items: constraintSchema },
  },
};
