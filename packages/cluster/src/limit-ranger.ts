// The LimitRanger admission plugin, for the pods and claims kubesched creates (capacity's
// templates, the pods of workloads): defaults for requests and limits, then min, max and
// maxLimitRequestRatio per Container, Pod and PersistentVolumeClaim, with upstream's messages.
// upstream: plugin/pkg/admission/limitranger/admission.go (MutateLimit, ValidateLimit,
// PodMutateLimitFunc, PodValidateLimitFunc, PersistentVolumeClaimValidateLimitFunc).
import {
  type Container,
  formatResourceAmount,
  type Pod,
  podLimits,
  podRequests,
  Quantity,
  type ResourceList,
  tryParseQuantity,
} from "@kubesched/api";

/** One item of a LimitRange's spec.limits (core/v1 LimitRangeItem). */
export interface LimitRangeItem {
  type: "Container" | "Pod" | "PersistentVolumeClaim" | (string & {});
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

/** core/v1 LimitRange. */
export interface LimitRange {
  apiVersion?: string;
  kind?: "LimitRange";
  metadata?: { name?: string; namespace?: string; [k: string]: unknown };
  spec?: { limits?: LimitRangeItem[] };
}

/** The annotation LimitRanger leaves on a pod whose resources it defaulted. */
export const limitRangerAnnotation = "kubernetes.io/limit-ranger";

/** upstream resource.MaxMilliValue: the largest value whose milli value fits an int64. */
const maxMilliValue = ((1n << 63n) - 1n) / 1000n;

type Quantities = Map<string, Quantity>;

function quantities(list: ResourceList | undefined): Quantities {
  const out: Quantities = new Map();
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = tryParseQuantity(v);
    if (q) out.set(k, q);
  }
  return out;
}

function sortedEntries(list: ResourceList | undefined): [string, Quantity][] {
  return [...quantities(list)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** upstream requestLimitEnforcedValues: milli values where none overflows, else values. */
function enforcedValues(
  req: Quantity | undefined,
  lim: Quantity | undefined,
  enforced: Quantity,
): [bigint, bigint, bigint] {
  const r = req?.valueBig() ?? 0n;
  const l = lim?.valueBig() ?? 0n;
  const e = enforced.valueBig();
  if (r <= maxMilliValue && l <= maxMilliValue && e <= maxMilliValue) {
    return [req?.milliValueBig() ?? 0n, lim?.milliValueBig() ?? 0n, enforced.milliValueBig()];
  }
  return [r, l, e];
}

function minConstraint(
  limitType: string,
  name: string,
  enforced: Quantity,
  request: Quantities,
  limit: Quantities,
): string | null {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (!req) return `minimum ${name} usage per ${limitType} is ${enforced}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${limitType} is ${enforced}, but request is ${req}`;
  if (lim && l < e) return `minimum ${name} usage per ${limitType} is ${enforced}, but limit is ${lim}`;
  return null;
}

function maxRequestConstraint(
  limitType: string,
  name: string,
  enforced: Quantity,
  request: Quantities,
): string | null {
  const req = request.get(name);
  const [r, , e] = enforcedValues(req, undefined, enforced);
  if (!req) return `maximum ${name} usage per ${limitType} is ${enforced}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${limitType} is ${enforced}, but request is ${req}`;
  return null;
}

function maxConstraint(
  limitType: string,
  name: string,
  enforced: Quantity,
  request: Quantities,
  limit: Quantities,
): string | null {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (!lim) return `maximum ${name} usage per ${limitType} is ${enforced}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${limitType} is ${enforced}, but limit is ${lim}`;
  if (req && r > e) return `maximum ${name} usage per ${limitType} is ${enforced}, but request is ${req}`;
  return null;
}

function limitRequestRatioConstraint(
  limitType: string,
  name: string,
  enforced: Quantity,
  request: Quantities,
  limit: Quantities,
): string | null {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l] = enforcedValues(req, lim, enforced);
  if (!req || r === 0n) {
    return `${name} max limit to request ratio per ${limitType} is ${enforced}, but no request is specified or request is 0`;
  }
  if (!lim || l === 0n) {
    return `${name} max limit to request ratio per ${limitType} is ${enforced}, but no limit is specified or limit is 0`;
  }
  let observed = Number(l) / Number(r);
  const display = observed;
  let max = Number(enforced.valueBig());
  if (enforced.valueBig() <= maxMilliValue) {
    observed *= 1000;
    max = Number(enforced.milliValueBig());
  }
  if (observed > max) {
    return `${name} max limit to request ratio per ${limitType} is ${enforced}, but provided ratio is ${display.toFixed(6)}`;
  }
  return null;
}

/** upstream utilerrors.NewAggregate(errs).Error(): one message alone, several in brackets. */
function aggregate(errs: readonly string[]): string | null {
  const unique = [...new Set(errs)];
  if (unique.length === 0) return null;
  return unique.length === 1 ? (unique[0] as string) : `[${unique.join(", ")}]`;
}

function sortedNames(names: Iterable<string>): string[] {
  return [...names].sort();
}

/** upstream mergeContainerResources: fills what the container does not set; returns the annotation parts. */
function mergeContainer(
  c: Container,
  requests: ResourceList,
  limits: ResourceList,
  prefix: string,
  annotations: string[],
): void {
  const res = { ...c.resources };
  const lim: ResourceList = { ...res.limits };
  const req: ResourceList = { ...res.requests };
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [k, v] of Object.entries(limits)) {
    if (!(k in lim)) {
      lim[k] = v;
      setLimits.push(k);
    }
  }
  for (const [k, v] of Object.entries(requests)) {
    if (!(k in req)) {
      req[k] = v;
      setRequests.push(k);
    }
  }
  c.resources = { ...res, limits: lim, requests: req };
  if (setRequests.length > 0)
    annotations.push(`${sortedNames(setRequests).join(", ")} request for ${prefix} ${c.name}`);
  if (setLimits.length > 0)
    annotations.push(`${sortedNames(setLimits).join(", ")} limit for ${prefix} ${c.name}`);
}

/**
 * upstream PodMutateLimitFunc: the Container items' default and defaultRequest fill what each
 * container and init container leaves unset; the pod is annotated with what was set. Mutates `pod`.
 */
function mutatePod(lr: LimitRange, pod: Pod): void {
  const requests: ResourceList = {};
  const limits: ResourceList = {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== "Container") continue;
    Object.assign(requests, item.defaultRequest);
    Object.assign(limits, item.default);
  }
  const annotations: string[] = [];
  const spec = pod.spec;
  if (!spec) return;
  spec.containers = (spec.containers ?? []).map((c) => ({ ...c }));
  for (const c of spec.containers) mergeContainer(c, requests, limits, "container", annotations);
  if (spec.initContainers) {
    spec.initContainers = spec.initContainers.map((c) => ({ ...c }));
    for (const c of spec.initContainers) mergeContainer(c, requests, limits, "init container", annotations);
  }
  if (annotations.length > 0) {
    pod.metadata = {
      ...pod.metadata,
      annotations: {
        ...pod.metadata?.annotations,
        [limitRangerAnnotation]: `LimitRanger plugin set: ${annotations.join("; ")}`,
      },
    };
  }
}

function amountsAsQuantities(amounts: ReadonlyMap<string, number>): Quantities {
  const out: Quantities = new Map();
  for (const [k, v] of amounts) out.set(k, Quantity.parse(formatResourceAmount(k, v)));
  return out;
}

function checkItem(
  item: LimitRangeItem,
  request: Quantities,
  limit: Quantities,
  errs: string[],
  ratios = true,
): void {
  const push = (e: string | null) => {
    if (e) errs.push(e);
  };
  for (const [k, v] of sortedEntries(item.min)) push(minConstraint(item.type, k, v, request, limit));
  for (const [k, v] of sortedEntries(item.max)) push(maxConstraint(item.type, k, v, request, limit));
  if (!ratios) return;
  for (const [k, v] of sortedEntries(item.maxLimitRequestRatio))
    push(limitRequestRatioConstraint(item.type, k, v, request, limit));
}

/** upstream PodValidateLimitFunc: the aggregated violation message, or null. */
function validatePod(lr: LimitRange, pod: Pod): string | null {
  const errs: string[] = [];
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === "Container") {
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
        checkItem(item, quantities(c.resources?.requests), quantities(c.resources?.limits), errs);
      }
    }
    if (item.type === "Pod") {
      // upstream's podRequests/podLimits: containers with the sidecar rules, no overhead, no
      // pod-level resources.
      const opts = { excludeOverhead: true, skipPodLevelResources: true } as const;
      checkItem(
        item,
        amountsAsQuantities(podRequests(pod, opts)),
        amountsAsQuantities(podLimits(pod, opts)),
        errs,
      );
    }
  }
  return aggregate(errs);
}

/** A claim's spec.resources.requests: what LimitRanger checks on a PersistentVolumeClaim. */
interface ClaimLike {
  spec?: { resources?: { requests?: ResourceList } };
}

/** upstream PersistentVolumeClaimValidateLimitFunc: min and max of spec.resources.requests. */
function validateClaim(lr: LimitRange, claim: ClaimLike): string | null {
  const errs: string[] = [];
  const requests = quantities(claim.spec?.resources?.requests);
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== "PersistentVolumeClaim") continue;
    for (const [k, v] of sortedEntries(item.min)) {
      const e = minConstraint(item.type, k, v, requests, new Map());
      if (e) errs.push(e);
    }
    for (const [k, v] of sortedEntries(item.max)) {
      const e = maxRequestConstraint(item.type, k, v, requests);
      if (e) errs.push(e);
    }
  }
  return aggregate(errs);
}

/** The LimitRanges of a snapshot by namespace, in input order. */
export class LimitRanges {
  private readonly byNamespace = new Map<string, LimitRange[]>();

  constructor(ranges: readonly LimitRange[]) {
    for (const lr of ranges) {
      const ns = lr.metadata?.namespace || "default";
      const list = this.byNamespace.get(ns) ?? [];
      list.push(lr);
      this.byNamespace.set(ns, list);
    }
  }

  /**
   * Admits a pod created in its namespace as LimitRanger's Admit then Validate: returns the
   * defaulted copy, or the Forbidden message (`pods "NAME" is forbidden: ...`).
   */
  admitPod(pod: Pod): { pod: Pod } | { error: string } {
    const ranges = this.byNamespace.get(pod.metadata?.namespace || "default");
    if (!ranges) return { pod };
    const out = structuredClone(pod);
    for (const lr of ranges) mutatePod(lr, out);
    for (const lr of ranges) {
      const e = validatePod(lr, out);
      if (e) return { error: forbidden("pods", out.metadata?.name, e) };
    }
    return { pod: out };
  }

  /** Admits a PersistentVolumeClaim: null, or the Forbidden message. */
  admitClaim(claim: ClaimLike & { metadata?: { name?: string; namespace?: string } }): string | null {
    for (const lr of this.byNamespace.get(claim.metadata?.namespace || "default") ?? []) {
      const e = validateClaim(lr, claim);
      if (e) return forbidden("persistentvolumeclaims", claim.metadata?.name, e);
    }
    return null;
  }
}

/** upstream admission.NewForbidden's message: `RESOURCE "NAME" is forbidden: WHY`. */
export function forbidden(resource: string, name: string | undefined, why: string): string {
  return `${resource} "${name ?? ""}" is forbidden: ${why}`;
}
