// Checks one object of a snapshot as the API server would before storing it, for the fields the
// scheduler reads. upstream: pkg/apis/core/validation/validation.go (ValidatePod:
// ValidateResourceQuantityValue, quantities are not negative; ValidateNode: capacity and
// allocatable likewise; ValidatePersistentVolume(Claim)), pkg/apis/scheduling/validation
// (ValidatePriorityClass), the int32 fields of the v1 types (spec.priority, PriorityClass.value:
// the API server's decoder refuses larger numbers), and the NamespaceLifecycle admission plugin
// (plugin/pkg/admission/namespace/lifecycle: no object in a namespace that does not exist).
// Each problem is one line `WHERE: FIELD: WHAT`: what the API server refuses is an error (the
// object is not loaded), what it takes but kubesched cannot honour exactly is a warning.
import { isJsonObject, Quantity } from "@kubesched/api";
import {
  type CustomObject,
  type CustomResource,
  customResourceAPIVersion,
  formatFieldError,
} from "@kubesched/framework";
import type { SupportedKind } from "./in-memory-cluster";
import { validateResourceObject } from "./resource-validation";

type Json = Record<string, unknown>;

const int32Min = -2147483648;
const int32Max = 2147483647;
/** upstream: scheduling.HighestUserDefinablePriority; classes named system-* may go higher. */
const highestUserDefinablePriority = 1000000000;
const systemPriorityClassPrefix = "system-";
/**
 * The largest resource amount (millicores for cpu; bytes or counts otherwise) the scheduler
 * computes with exactly: it adds and compares amounts as JavaScript numbers, saturated at 2^53 - 1
 * (quantityValue). Upstream's int64 goes to 2^63 - 1; no node or pod comes near 2^53 (8 PiB of
 * memory, 9 billion cores), so a larger amount is taken with a warning.
 */
const maxExactAmount = BigInt(Number.MAX_SAFE_INTEGER);

/** The amount a resource's quantity stands for in the scheduler: millicores for cpu, else its value. */
function exactAmount(resource: string, q: Quantity): bigint {
  return resource === "cpu" ? q.milliValueBig() : q.valueBig();
}

/** Where the checks put what they find. */
export interface Problems {
  errors: string[];
  warnings: string[];
}

/** A map of resource name to quantity: each parses and is not negative; a warning past 2^53. */
function checkQuantities(list: unknown, field: string, where: string, p: Problems): void {
  const errors = p.errors;
  if (list === undefined || list === null) return;
  if (!isJsonObject(list)) {
    errors.push(`${where}: ${field}: must be a map of resource name to quantity`);
    return;
  }
  for (const [name, q] of Object.entries(list)) {
    const s = typeof q === "number" ? String(q) : q;
    // A quantity may be written as a YAML/JSON number (`cpu: 1`), as the API server accepts;
    // the scheduler reads strings.
    if (typeof q === "number") list[name] = s;
    if (typeof s !== "string") {
      errors.push(`${where}: ${field}.${name}: invalid quantity ${JSON.stringify(q)}`);
      continue;
    }
    let quantity: Quantity;
    try {
      quantity = Quantity.parse(s);
    } catch (e) {
      errors.push(`${where}: ${field}.${name}: ${(e as Error).message}`);
      continue;
    }
    if (quantity.sign() < 0) {
      // upstream ValidateNonnegativeQuantity
      errors.push(
        `${where}: ${field}.${name}: Invalid value: ${JSON.stringify(s)}: must be greater than or equal to 0`,
      );
    } else if (exactAmount(name, quantity) > maxExactAmount) {
      const unit = name === "cpu" ? "m" : "";
      p.warnings.push(
        `${where}: ${field}.${name}: ${JSON.stringify(s)} is above ${maxExactAmount}${unit} (2^53 - 1), the largest amount kubesched computes with exactly: counted as ${maxExactAmount}${unit}`,
      );
    }
  }
}

/** An int32 field (Go's decoder refuses other numbers); absent is fine. */
function checkInt32(v: unknown, field: string, where: string, errors: string[]): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v !== "number" || !Number.isInteger(v)) {
    errors.push(`${where}: ${field}: Invalid value: ${JSON.stringify(v)}: must be an integer`);
    return false;
  }
  if (v < int32Min || v > int32Max) {
    errors.push(
      `${where}: ${field}: Invalid value: ${v}: must be between ${int32Min} and ${int32Max}, inclusive`,
    );
    return false;
  }
  return true;
}

const taintEffects = new Set(["NoSchedule", "PreferNoSchedule", "NoExecute"]);

/** metadata.name is set; else the error, and false. */
function hasName(obj: Json, where: string, errors: string[]): boolean {
  const md = obj.metadata;
  if (isJsonObject(md) && typeof md.name === "string" && md.name !== "") return true;
  errors.push(`${where}: metadata.name: Required value`);
  return false;
}

/** Checks the fields the scheduler reads of an object of a kind it loads; quantities must parse. */
export function validateObject(kind: SupportedKind, obj: Json, where: string, p: Problems): void {
  const errors = p.errors;
  if (!hasName(obj, where, errors)) return;
  const spec = isJsonObject(obj.spec) ? obj.spec : {};
  switch (kind) {
    case "Node": {
      const status = isJsonObject(obj.status) ? obj.status : {};
      checkQuantities(status.capacity, "status.capacity", where, p);
      checkQuantities(status.allocatable, "status.allocatable", where, p);
      if (spec.taints !== undefined) {
        if (!Array.isArray(spec.taints)) errors.push(`${where}: spec.taints: must be a list`);
        else
          spec.taints.forEach((t, i) => {
            if (!isJsonObject(t) || typeof t.key !== "string")
              errors.push(`${where}: spec.taints[${i}].key: Required value`);
            else if (typeof t.effect !== "string" || !taintEffects.has(t.effect)) {
              errors.push(
                `${where}: spec.taints[${i}].effect: Unsupported value: ${JSON.stringify(t.effect)}: supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
              );
            }
          });
      }
      return;
    }
    case "Pod":
      validatePodSpec(obj.spec, "spec", where, p);
      return;
    case "PriorityClass":
      if (checkInt32(obj.value, "value", where, errors)) {
        const value = typeof obj.value === "number" ? obj.value : 0;
        if (
          value > highestUserDefinablePriority &&
          !String((obj.metadata as Json).name).startsWith(systemPriorityClassPrefix)
        ) {
          errors.push(
            `${where}: value: Forbidden: maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`,
          );
        }
      }
      return;
    case "PersistentVolume":
      checkQuantities(spec.capacity, "spec.capacity", where, p);
      return;
    case "PersistentVolumeClaim": {
      const resources = isJsonObject(spec.resources) ? spec.resources : {};
      checkQuantities(resources.requests, "spec.resources.requests", where, p);
      checkQuantities(resources.limits, "spec.resources.limits", where, p);
      return;
    }
    case "ResourceClaim":
    case "ResourceClaimTemplate":
    case "ResourceSlice":
    case "DeviceClass":
    case "DeviceTaintRule":
      validateResourceObject(kind, obj, where, p);
      return;
    default:
  }
}

/** A pod's spec (or a workload's pod template's, under `path`). */
function validatePodSpec(spec: unknown, path: string, where: string, p: Problems): void {
  const errors = p.errors;
  if (!isJsonObject(spec)) {
    errors.push(`${where}: ${path}: Required value`);
    return;
  }
  if (!Array.isArray(spec.containers) || spec.containers.length === 0) {
    errors.push(`${where}: ${path}.containers: Required value`);
  }
  for (const field of ["containers", "initContainers"] as const) {
    const cs = spec[field];
    if (cs === undefined) continue;
    if (!Array.isArray(cs)) {
      errors.push(`${where}: ${path}.${field}: must be a list`);
      continue;
    }
    cs.forEach((c, i) => {
      if (!isJsonObject(c)) {
        errors.push(`${where}: ${path}.${field}[${i}]: must be an object`);
        return;
      }
      const res = isJsonObject(c.resources) ? c.resources : {};
      checkQuantities(res.requests, `${path}.${field}[${i}].resources.requests`, where, p);
      checkQuantities(res.limits, `${path}.${field}[${i}].resources.limits`, where, p);
    });
  }
  checkQuantities(spec.overhead, `${path}.overhead`, where, p);
  if (isJsonObject(spec.resources)) {
    checkQuantities(spec.resources.requests, `${path}.resources.requests`, where, p);
    checkQuantities(spec.resources.limits, `${path}.resources.limits`, where, p);
  }
  checkInt32(spec.priority, `${path}.priority`, where, errors);
}

/** A workload's pod template must be a pod (its containers are checked as a Pod's). */
export function validWorkload(obj: Json, where: string, p: Problems): boolean {
  const before = p.errors.length;
  const spec = isJsonObject(obj.spec) ? obj.spec : {};
  const tpl = isJsonObject(spec.template) ? spec.template : {};
  validatePodSpec(tpl.spec, "spec.template.spec", where, p);
  return p.errors.length === before;
}

/** Checks a custom object: metadata.name, the declared apiVersion, then the resource's own rules. */
export function validateCustomObject(r: CustomResource, obj: Json, where: string, errors: string[]): void {
  const md = obj.metadata;
  if (!isJsonObject(md) || typeof md.name !== "string" || md.name === "") {
    errors.push(`${where}: metadata.name: Required value`);
    return;
  }
  const want = customResourceAPIVersion(r);
  if (obj.apiVersion !== want) {
    errors.push(
      `${where}: apiVersion: Unsupported value: ${JSON.stringify(obj.apiVersion ?? null)}: supported values: "${want}"`,
    );
    return;
  }
  for (const e of r.validate?.(obj as CustomObject) ?? []) errors.push(`${where}: ${formatFieldError(e)}`);
}

/**
 * Namespaces every cluster has: the API server creates them and NamespaceLifecycle never lets
 * them go (`default`, `kube-system`, `kube-public`; `kube-node-lease` from the node lease
 * controller).
 */
const systemNamespaces = new Set(["default", "kube-system", "kube-public", "kube-node-lease"]);

/** A namespaced object as loaded (its namespace defaulted) or a workload, and how to name it. */
export interface NamespacedObject {
  obj: { metadata?: { namespace?: unknown } };
  /** `FILE: document N (Pod shop/web)`. */
  where: string;
}

/**
 * A warning for each object in a namespace the snapshot does not hold, when it holds Namespace
 * objects at all (`namespaces`, non-empty): the API server refuses to create such an object
 * (NamespaceLifecycle), so the snapshot probably lost the Namespace (a listing taken while it
 * was created, a selector that left it out). A snapshot without Namespace objects (`kubectl get
 * pods -A`) is taken as it is. A warning, not an error: the scheduler reads a namespace only for
 * its labels (pod affinity's namespaceSelector), which an absent Namespace simply lacks.
 */
export function missingNamespaces(
  namespaces: ReadonlySet<string>,
  objects: Iterable<NamespacedObject>,
): string[] {
  if (namespaces.size === 0) return [];
  const out: string[] = [];
  for (const { obj, where } of objects) {
    const ns = obj.metadata?.namespace;
    const name = typeof ns === "string" && ns ? ns : "default";
    if (namespaces.has(name) || systemNamespaces.has(name)) continue;
    out.push(
      `${where}: metadata.namespace: Not found: ${JSON.stringify(name)}: the snapshot has Namespace objects, but not this one`,
    );
  }
  return out;
}

/** The kinds kubesched reads for admission only (LimitRanger, ResourceQuota): not scheduler objects. */
export const admissionKinds = new Set(["LimitRange", "ResourceQuota"]);
export type AdmissionKind = "LimitRange" | "ResourceQuota";

const limitTypes = new Set(["Container", "Pod", "PersistentVolumeClaim"]);
const quotaScopes = new Set([
  "Terminating",
  "NotTerminating",
  "BestEffort",
  "NotBestEffort",
  "PriorityClass",
  "CrossNamespacePodAffinity",
  "VolumeAttributesClass",
]);
const scopeOperators = new Set(["In", "NotIn", "Exists", "DoesNotExist"]);

/**
 * Checks a LimitRange or ResourceQuota as the API server would for the fields admission reads.
 * upstream: pkg/apis/core/validation/validation.go (ValidateLimitRange: the type, quantities;
 * ValidateResourceQuota: hard quantities, scopes, scopeSelector operators).
 */
export function validateAdmissionObject(kind: AdmissionKind, obj: Json, where: string, p: Problems): void {
  const errors = p.errors;
  if (!hasName(obj, where, errors)) return;
  const spec = isJsonObject(obj.spec) ? obj.spec : {};
  if (kind === "LimitRange") {
    const limits = spec.limits;
    if (limits === undefined || limits === null) return;
    if (!Array.isArray(limits)) {
      errors.push(`${where}: spec.limits: must be a list`);
      return;
    }
    limits.forEach((item: unknown, i) => {
      const f = `spec.limits[${i}]`;
      if (!isJsonObject(item)) {
        errors.push(`${where}: ${f}: must be an object`);
        return;
      }
      if (typeof item.type !== "string" || !limitTypes.has(item.type)) {
        errors.push(
          `${where}: ${f}.type: Unsupported value: ${JSON.stringify(item.type ?? "")}: supported values: "Container", "PersistentVolumeClaim", "Pod"`,
        );
      }
      for (const field of ["max", "min", "default", "defaultRequest", "maxLimitRequestRatio"]) {
        checkQuantities(item[field], `${f}.${field}`, where, p);
      }
    });
    return;
  }
  checkQuantities(spec.hard, "spec.hard", where, p);
  if (Array.isArray(spec.scopes)) {
    spec.scopes.forEach((s: unknown, i) => {
      if (typeof s !== "string" || !quotaScopes.has(s))
        errors.push(`${where}: spec.scopes[${i}]: Invalid value: ${JSON.stringify(s)}: unsupported scope`);
    });
  }
  const sel = isJsonObject(spec.scopeSelector) ? spec.scopeSelector : {};
  if (Array.isArray(sel.matchExpressions)) {
    sel.matchExpressions.forEach((e: unknown, i) => {
      const f = `spec.scopeSelector.matchExpressions[${i}]`;
      if (!isJsonObject(e)) {
        errors.push(`${where}: ${f}: must be an object`);
        return;
      }
      if (typeof e.scopeName !== "string" || !quotaScopes.has(e.scopeName))
        errors.push(
          `${where}: ${f}.scopeName: Invalid value: ${JSON.stringify(e.scopeName)}: unsupported scope`,
        );
      if (typeof e.operator !== "string" || !scopeOperators.has(e.operator))
        errors.push(
          `${where}: ${f}.operator: Invalid value: ${JSON.stringify(e.operator)}: not a valid selector operator`,
        );
    });
  }
  checkQuantities(isJsonObject(obj.status) ? obj.status.used : undefined, "status.used", where, p);
}
