// ResourceQuota admission for the pods kubesched creates: the pod evaluator's usage (count,
// requests, limits, hugepages, extended resources), its scopes and scopeSelector, the
// "must specify" constraint, and the admission check with upstream's messages. The usage a
// quota starts from is what the snapshot's pods use (they were admitted and count, as the quota
// controller would recalculate it), or status.used where that is larger (a live snapshot lists
// pending pods of one namespace or selector only).
// upstream: pkg/quota/v1/evaluator/core/pods.go (podEvaluator: Constraints, MatchingResources,
// podMatchesScopeFunc, PodUsageFunc, podComputeUsageHelper),
// staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go (checkRequest,
// prettyPrint), staging/src/k8s.io/apiserver/pkg/quota/v1/generic/evaluator.go (Matches),
// pkg/apis/core/v1/helper/qos/qos.go (GetPodQOS).
import {
  type Container,
  isExtendedResourceName,
  isNativeResource,
  isPodLevelResourcesSet,
  labelSelectorAsSelector,
  type Pod,
  type PodAffinityTerm,
  podLimits,
  podRequests,
  Quantity,
  type QuantityFormat,
  ResourceCPU,
  type ResourceList,
  resourceAmount,
  tryParseQuantity,
} from "@kubesched/api";
import { forbidden } from "./limit-ranger";

/** core/v1 ScopedResourceSelectorRequirement. */
export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist" | (string & {});
  values?: string[];
}

/** core/v1 ResourceQuota. */
export interface ResourceQuota {
  apiVersion?: string;
  kind?: "ResourceQuota";
  metadata?: { name?: string; namespace?: string; [k: string]: unknown };
  spec?: {
    hard?: ResourceList;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] };
  };
  status?: { hard?: ResourceList; used?: ResourceList };
}

const requestsPrefix = "requests.";
const hugePagesPrefix = "hugepages-";
const deviceClassPrefix = "deviceclass.resource.kubernetes.io/";

/** upstream podResources: what the pod evaluator counts. */
const podResources = new Set([
  "count/pods",
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
]);

/** upstream validationSet: quotaed cpu or memory must be set by every container. */
const validationSet = new Set([
  "cpu",
  "memory",
  "requests.cpu",
  "requests.memory",
  "limits.cpu",
  "limits.memory",
]);

/** upstream isExtendedResourceNameForQuota. */
function isExtendedResourceNameForQuota(name: string): boolean {
  const nonNative = !isNativeResource(name);
  const implicit = name.startsWith(requestsPrefix + deviceClassPrefix);
  return (nonNative || implicit) && name.startsWith(requestsPrefix);
}

/** upstream podEvaluator.MatchingResources. */
export function matchingResources(names: Iterable<string>): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (
      podResources.has(n) ||
      n.startsWith(hugePagesPrefix) ||
      n.startsWith(`${requestsPrefix}${hugePagesPrefix}`)
    )
      out.push(n);
    else if (isExtendedResourceNameForQuota(n)) out.push(n);
  }
  return out;
}

/** Quota resource names in canonical integer units: cpu ones in millicores, others in Value(). */
function unitOf(name: string): string {
  return name === "cpu" || name === "requests.cpu" || name === "limits.cpu" ? ResourceCPU : name;
}

/** upstream podComputeUsageHelper, over canonical amounts. */
function computeUsage(
  requests: ReadonlyMap<string, number>,
  limits: ReadonlyMap<string, number>,
): Map<string, number> {
  const out = new Map<string, number>([["pods", 1]]);
  for (const r of ["cpu", "memory", "ephemeral-storage"]) {
    const req = requests.get(r);
    if (req !== undefined) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim !== undefined) out.set(`limits.${r}`, lim);
  }
  for (const [name, v] of requests) {
    if (name.startsWith(hugePagesPrefix)) {
      out.set(name, v);
      out.set(requestsPrefix + name, v);
    }
    // upstream schedutil.IsDRAExtendedResourceName: extended, or implicit device-class names.
    if (isExtendedResourceName(name) || name.startsWith(deviceClassPrefix)) out.set(requestsPrefix + name, v);
  }
  return out;
}

function amounts(list: ResourceList | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of Object.entries(list ?? {})) {
    if (tryParseQuantity(v)) out.set(k, resourceAmount(k, v));
  }
  return out;
}

/**
 * upstream PodUsageFunc: count/pods always; the compute usage unless the pod is terminal (or
 * stuck terminating past its grace period at `now`).
 */
export function podUsage(pod: Pod, now: number): Map<string, number> {
  const out = new Map<string, number>([["count/pods", 1]]);
  const phase = pod.status?.phase;
  if (phase === "Failed" || phase === "Succeeded") return out;
  const deletion = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (deletion && grace !== undefined && grace !== null && now > Date.parse(deletion) + grace * 1000)
    return out;
  // InPlacePodVerticalScaling (GA) and PodLevelResources (beta, on) as the release's defaults.
  const opts = { useStatusResources: true } as const;
  for (const [k, v] of computeUsage(podRequests(pod, opts), podLimits(pod, opts))) out.set(k, v);
  return out;
}

/** upstream qos.GetPodQOS == BestEffort: no container requests or limits cpu or memory. */
function isBestEffort(pod: Pod): boolean {
  const nonZero = (list: ResourceList | undefined) =>
    ["cpu", "memory"].some((r) => {
      const q = tryParseQuantity(list?.[r]);
      return q !== null && q.sign() > 0;
    });
  if (isPodLevelResourcesSet(pod)) {
    return !nonZero(pod.spec?.resources?.requests) && !nonZero(pod.spec?.resources?.limits);
  }
  const containers: Container[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  return !containers.some((c) => nonZero(c.resources?.requests) || nonZero(c.resources?.limits));
}

/** upstream IsTerminating: activeDeadlineSeconds set and non-negative. */
function isTerminating(pod: Pod): boolean {
  const d = pod.spec?.activeDeadlineSeconds;
  return d !== undefined && d !== null && d >= 0;
}

function crossNamespace(t: PodAffinityTerm): boolean {
  return (
    (t.namespaces?.length ?? 0) !== 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null)
  );
}

/** upstream usesCrossNamespacePodAffinity. */
function usesCrossNamespacePodAffinity(pod: Pod): boolean {
  const a = pod.spec?.affinity;
  for (const x of [a?.podAffinity, a?.podAntiAffinity]) {
    if (x?.requiredDuringSchedulingIgnoredDuringExecution?.some(crossNamespace)) return true;
    if (x?.preferredDuringSchedulingIgnoredDuringExecution?.some((w) => crossNamespace(w.podAffinityTerm)))
      return true;
  }
  return false;
}

/** upstream podMatchesScopeFunc. */
function matchesScope(selector: ScopedResourceSelectorRequirement, pod: Pod): boolean {
  switch (selector.scopeName) {
    case "Terminating":
      return isTerminating(pod);
    case "NotTerminating":
      return !isTerminating(pod);
    case "BestEffort":
      return isBestEffort(pod);
    case "NotBestEffort":
      return !isBestEffort(pod);
    case "PriorityClass": {
      const pc = pod.spec?.priorityClassName ?? "";
      if (selector.operator === "Exists") return pc.length !== 0;
      // upstream podMatchesSelector: the requirement as a label selector over {PriorityClass: name}.
      const sel = labelSelectorAsSelector({
        matchExpressions: [
          {
            key: selector.scopeName,
            operator: selector.operator,
            ...(selector.values ? { values: selector.values } : {}),
          },
        ],
      });
      return sel.matches(pc.length !== 0 ? { PriorityClass: pc } : {});
    }
    case "CrossNamespacePodAffinity":
      return usesCrossNamespacePodAffinity(pod);
  }
  return false;
}

/** upstream GetScopeSelectorsFromQuota: scopes as Exists, then scopeSelector's expressions. */
function scopeSelectors(q: ResourceQuota): ScopedResourceSelectorRequirement[] {
  return [
    ...(q.spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: "Exists" })),
    ...(q.spec?.scopeSelector?.matchExpressions ?? []),
  ];
}

interface TrackedQuota {
  name: string;
  namespace: string;
  hard: Map<string, Quantity>;
  used: Map<string, number>;
  selectors: ScopedResourceSelectorRequirement[];
}

/** upstream generic.Matches: at least one resource the pod evaluator counts, and every scope. */
function matches(q: TrackedQuota, pod: Pod): boolean {
  return matchingResources(q.hard.keys()).length > 0 && q.selectors.every((s) => matchesScope(s, pod));
}

function sortedKeys(m: ReadonlyMap<string, unknown>): string[] {
  return [...m.keys()].sort();
}

/**
 * An amount as the quota's hard limit for the name is written (format), canonical: upstream's
 * usage quantities are sums of the pods' quantities; the format of the limit is what a sum of
 * like-written quantities has.
 */
function formatAmount(name: string, amount: number, format: QuantityFormat): string {
  return Quantity.of(amount, unitOf(name) === ResourceCPU ? -3 : 0, format).toString();
}

/** The quota admission state of a simulation: every ResourceQuota with its usage. */
export class QuotaTracker {
  private readonly byNamespace = new Map<string, TrackedQuota[]>();

  /**
   * `quotas`: the snapshot's ResourceQuotas; `pods`: every pod that exists (their usage counts);
   * `now`: the simulated time (for pods stuck terminating).
   */
  constructor(
    quotas: readonly ResourceQuota[],
    pods: readonly Pod[],
    private readonly now: number,
  ) {
    for (const q of quotas) {
      const namespace = q.metadata?.namespace || "default";
      const hard = new Map<string, Quantity>();
      for (const [k, v] of Object.entries(q.spec?.hard ?? {})) {
        const parsed = tryParseQuantity(v);
        if (parsed) hard.set(k, parsed);
      }
      const tracked: TrackedQuota = {
        name: q.metadata?.name ?? "",
        namespace,
        hard,
        used: new Map([...hard.keys()].map((k) => [k, 0])),
        selectors: scopeSelectors(q),
      };
      const list = this.byNamespace.get(namespace) ?? [];
      list.push(tracked);
      list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      this.byNamespace.set(namespace, list);
      for (const p of pods) {
        if ((p.metadata?.namespace || "default") === namespace && matches(tracked, p))
          this.charge(tracked, p, 1);
      }
      // A live snapshot's status.used covers pods the snapshot left out: the larger counts.
      for (const [k, s] of Object.entries(q.status?.used ?? {})) {
        const cur = tracked.used.get(k);
        if (cur === undefined || !tryParseQuantity(s)) continue;
        const v = resourceAmount(unitOf(k), s);
        if (v > cur) tracked.used.set(k, v);
      }
    }
  }

  private charge(q: TrackedQuota, pod: Pod, sign: 1 | -1): void {
    for (const [k, v] of podUsage(pod, this.now)) {
      const cur = q.used.get(k);
      if (cur !== undefined) q.used.set(k, cur + sign * v);
    }
  }

  /**
   * upstream checkRequest for a pod being created: null when admitted (its usage is charged),
   * else the Forbidden message. `exhausted` tells exhaustion ("exceeded quota: ...") from a
   * rejection no usage can change ("failed quota: ...: must specify ...").
   */
  admit(pod: Pod): { error: string; exhausted: boolean } | null {
    const ns = pod.metadata?.namespace || "default";
    const name = pod.metadata?.name;
    const matched: TrackedQuota[] = [];
    for (const q of this.byNamespace.get(ns) ?? []) {
      if (!matches(q, pod)) continue;
      const e = constraints(matchingResources(q.hard.keys()), pod);
      if (e) return { error: forbidden("pods", name, `failed quota: ${q.name}: ${e}`), exhausted: false };
      matched.push(q);
    }
    return this.check(pod, matched);
  }

  /**
   * The Forbidden message of the first quota whose "must specify" constraint the pod fails (no
   * usage changes that), or null.
   */
  constraints(pod: Pod): string | null {
    for (const q of this.byNamespace.get(pod.metadata?.namespace || "default") ?? []) {
      if (!matches(q, pod)) continue;
      const e = constraints(matchingResources(q.hard.keys()), pod);
      if (e) return forbidden("pods", pod.metadata?.name, `failed quota: ${q.name}: ${e}`);
    }
    return null;
  }

  private check(pod: Pod, matched: readonly TrackedQuota[]): { error: string; exhausted: boolean } | null {
    const name = pod.metadata?.name;
    if (matched.length === 0) return null;
    const delta = podUsage(pod, this.now);
    for (const q of matched) {
      const exceeded: string[] = [];
      for (const k of sortedKeys(q.hard)) {
        const req = delta.get(k);
        if (req === undefined) continue;
        const used = q.used.get(k) ?? 0;
        const hard = q.hard.get(k) as Quantity;
        const limit = unitOf(k) === ResourceCPU ? hard.milliValue() : hard.value();
        if (used + req > limit) exceeded.push(k);
      }
      if (exceeded.length > 0) {
        const print = (f: (k: string) => number) =>
          exceeded.map((k) => `${k}=${formatAmount(k, f(k), (q.hard.get(k) as Quantity).format)}`).join(",");
        const hardAmount = (k: string) => {
          const h = q.hard.get(k) as Quantity;
          return unitOf(k) === ResourceCPU ? h.milliValue() : h.value();
        };
        const msg =
          `exceeded quota: ${q.name}, requested: ${print((k) => delta.get(k) ?? 0)}, ` +
          `used: ${print((k) => q.used.get(k) ?? 0)}, limited: ${print(hardAmount)}`;
        return { error: forbidden("pods", name, msg), exhausted: true };
      }
    }
    for (const q of matched) this.charge(q, pod, 1);
    return null;
  }

  /** The pod was deleted: its usage is given back to the quotas it matches. */
  release(pod: Pod): void {
    for (const q of this.byNamespace.get(pod.metadata?.namespace || "default") ?? []) {
      if (matches(q, pod)) this.charge(q, pod, -1);
    }
  }
}

/** upstream podEvaluator.Constraints: the "must specify ..." message, or null. */
function constraints(required: readonly string[], pod: Pod): string | null {
  // With pod-level resources set, containers need not request what the quota tracks.
  if (isPodLevelResourcesSet(pod)) return null;
  const requiredSet = required.filter((r) => validationSet.has(r));
  if (requiredSet.length === 0) return null;
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const usage = computeUsage(amounts(c.resources?.requests), amounts(c.resources?.limits));
    for (const r of requiredSet) {
      if (usage.has(r)) continue;
      const set = missing.get(r) ?? new Set<string>();
      set.add(c.name);
      missing.set(r, set);
    }
  }
  if (missing.size === 0) return null;
  const parts = sortedKeys(missing).map(
    (r) => `${r} for: ${[...(missing.get(r) as Set<string>)].sort().join(",")}`,
  );
  return `must specify ${parts.join("; ")}`;
}
