// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (NodeResourcesFitArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_NodeResourcesFitArgs),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go (ValidateNodeResourcesFitArgs)
import { isQualifiedName } from "@kubesched/api";
import {
  type DecodeResult,
  decodeResourceSpec,
  decodeString,
  decodeUtilizationShapePoint,
  defaultResourceSpec,
  type FieldError,
  fieldErrors,
  fieldPath,
  ObjectDecoder,
  type ResourceSpec,
  type UtilizationShapePoint,
  utilizationShapeSchema,
  validateFunctionShape,
} from "@kubesched/framework";

export const LeastAllocated = "LeastAllocated";
export const MostAllocated = "MostAllocated";
export const RequestedToCapacityRatio = "RequestedToCapacityRatio";
export type ScoringStrategyType =
  | typeof LeastAllocated
  | typeof MostAllocated
  | typeof RequestedToCapacityRatio;

const supportedScoringStrategyTypes: readonly string[] = [
  LeastAllocated,
  MostAllocated,
  RequestedToCapacityRatio,
];

/** A point of the RequestedToCapacityRatio shape: utilization 0..100 → score 0..10. */
export type { UtilizationShapePoint };

export interface RequestedToCapacityRatioParam {
  shape: UtilizationShapePoint[];
}

export interface ScoringStrategy {
  /** One of LeastAllocated, MostAllocated, RequestedToCapacityRatio (validated). */
  type: ScoringStrategyType | (string & {});
  /** Resources to score and their weights; defaults to cpu and memory, weight 1. */
  resources: ResourceSpec[];
  /** Only read by RequestedToCapacityRatio. */
  requestedToCapacityRatio?: RequestedToCapacityRatioParam;
}

/** NodeResourcesFitArgs (kubescheduler.config.k8s.io/v1), defaulted. */
export interface NodeResourcesFitArgs {
  /** Extended resources Filter ignores. */
  ignoredResources: string[];
  /** Extended resource groups (the part before "/") Filter ignores. */
  ignoredResourceGroups: string[];
  scoringStrategy: ScoringStrategy;
}

/** The defaults (what a profile without pluginConfig for NodeResourcesFit gets). */
export function defaultNodeResourcesFitArgs(): NodeResourcesFitArgs {
  return {
    ignoredResources: [],
    ignoredResourceGroups: [],
    scoringStrategy: { type: LeastAllocated, resources: defaultResourceSpec() },
  };
}

/**
 * upstream SetDefaults_NodeResourcesFitArgs: no strategy → LeastAllocated over cpu/memory; no
 * resources → cpu/memory; weight 0 → 1.
 */
export function setDefaultsNodeResourcesFitArgs(args: NodeResourcesFitArgs): NodeResourcesFitArgs {
  const ss = args.scoringStrategy;
  if (ss.resources.length === 0) ss.resources = defaultResourceSpec();
  for (const r of ss.resources) if (r.weight === 0) r.weight = 1;
  return args;
}

/** Strictly decodes NodeResourcesFitArgs and applies defaults; `raw` undefined gives the defaults. */
export function decodeNodeResourcesFitArgs(raw: unknown, path: string): DecodeResult<NodeResourcesFitArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const args = defaultNodeResourcesFitArgs();
  args.ignoredResources = d.array("ignoredResources", (v, p) => decodeString(v, p, errors)) ?? [];
  args.ignoredResourceGroups = d.array("ignoredResourceGroups", (v, p) => decodeString(v, p, errors)) ?? [];
  const strategy = d.object("scoringStrategy", (sd): ScoringStrategy => {
    const ss: ScoringStrategy = {
      type: sd.string("type") ?? "",
      resources: sd.array("resources", (v, p) => decodeResourceSpec(v, p, errors)) ?? [],
    };
    const rtcr = sd.object("requestedToCapacityRatio", (rd) => ({
      shape: rd.array("shape", (v, p) => decodeUtilizationShapePoint(v, p, errors)) ?? [],
    }));
    if (rtcr !== undefined) ss.requestedToCapacityRatio = rtcr;
    return ss;
  });
  if (strategy !== undefined) args.scoringStrategy = strategy;
  d.finish();
  return { args: setDefaultsNodeResourcesFitArgs(args), errors };
}

/** Renders args in their v1 JSON form. */
export function encodeNodeResourcesFitArgs(args: NodeResourcesFitArgs): Record<string, unknown> {
  const ss = args.scoringStrategy;
  const out: Record<string, unknown> = {
    scoringStrategy: {
      type: ss.type,
      resources: ss.resources.map((r) => ({ name: r.name, weight: r.weight })),
      ...(ss.requestedToCapacityRatio
        ? { requestedToCapacityRatio: { shape: ss.requestedToCapacityRatio.shape.map((p) => ({ ...p })) } }
        : {}),
    },
  };
  if (args.ignoredResources.length > 0) out.ignoredResources = [...args.ignoredResources];
  if (args.ignoredResourceGroups.length > 0) out.ignoredResourceGroups = [...args.ignoredResourceGroups];
  return out;
}

/** upstream metav1validation.ValidateLabelName. */
function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
}

/** upstream validateResources: every weight in (0, 100]. */
export function validateResources(resources: readonly ResourceSpec[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  resources.forEach((r, i) => {
    if (r.weight <= 0 || r.weight > 100) {
      errs.push(
        fieldErrors.invalid(
          fieldPath.child(fieldPath.index(path, i), "weight"),
          r.weight,
          `resource weight of ${r.name} not in valid range (0, 100]`,
        ),
      );
    }
  });
  return errs;
}

/**
 * upstream ValidateNodeResourcesFitArgs, every error with its field path under `path`. Beyond
 * upstream: RequestedToCapacityRatio without `requestedToCapacityRatio` is reported (upstream
 * dereferences nil in NewFit).
 */
export function validateNodeResourcesFitArgs(args: NodeResourcesFitArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const resPath = fieldPath.child(path, "ignoredResources");
  args.ignoredResources.forEach((res, i) => {
    errs.push(...validateLabelName(res, fieldPath.index(resPath, i)));
  });
  const groupPath = fieldPath.child(path, "ignoredResourceGroups");
  args.ignoredResourceGroups.forEach((group, i) => {
    const p = fieldPath.index(groupPath, i);
    if (group.includes("/"))
      errs.push(fieldErrors.invalid(p, group, "resource group name can't contain '/'"));
    errs.push(...validateLabelName(group, p));
  });

  const ss = args.scoringStrategy;
  const strategyPath = fieldPath.child(path, "scoringStrategy");
  if (!supportedScoringStrategyTypes.includes(ss.type)) {
    errs.push(
      fieldErrors.notSupported(fieldPath.child(strategyPath, "type"), ss.type, supportedScoringStrategyTypes),
    );
  }
  errs.push(...validateResources(ss.resources, fieldPath.child(strategyPath, "resources")));
  if (ss.requestedToCapacityRatio) {
    // upstream reports shape errors under scoringStrategy.shape (sic).
    errs.push(
      ...validateFunctionShape(ss.requestedToCapacityRatio.shape, fieldPath.child(strategyPath, "shape")),
    );
  } else if (ss.type === RequestedToCapacityRatio) {
    errs.push(
      fieldErrors.required(
        fieldPath.child(strategyPath, "requestedToCapacityRatio"),
        "required when type is RequestedToCapacityRatio",
      ),
    );
  }
  return errs;
}

const resourceSpecSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: { name: { type: "string" }, weight: { type: "integer", minimum: 0, maximum: 100 } },
};

/** JSON Schema of NodeResourcesFitArgs. */
export const nodeResourcesFitArgsSchema: Record<string, unknown> = {
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { const: "NodeResourcesFitArgs" },
    ignoredResources: { type: "array", items: { type: "string" } },
    ignoredResourceGroups: { type: "array", items: { type: "string", pattern: "^[^/]*$" } },
    scoringStrategy: {
      type: "object",
      additionalProperties: false,
      properties: {
        type: { enum: [...supportedScoringStrategyTypes] },
        resources: { type: "array", items: resourceSpecSchema },
        requestedToCapacityRatio: {
          type: "object",
          additionalProperties: false,
          properties: {
            shape: utilizationShapeSchema,
          },
        },
      },
    },
  },
};
