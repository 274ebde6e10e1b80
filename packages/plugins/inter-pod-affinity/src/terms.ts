// upstream: interpodaffinity/plugin.go (mergeAffinityTermNamespacesIfNotEmpty,
// GetNamespaceLabelsSnapshot) and framework/types.go (PodInfo.Update's parse errors).
import {
  labelSelectorAsSelector,
  matchesNothing,
  type Pod,
  type PodAffinityTerm,
  type Selector,
} from "@kubesched/api";
import type { AffinityTerm, ClusterListers, WeightedAffinityTerm } from "@kubesched/framework";

export type NamespaceLabels = Readonly<Record<string, string>> | undefined;

/**
 * A term of the incoming pod with its namespaceSelector resolved into namespace names (upstream
 * merges them into Namespaces and sets the selector to Nothing), so matching an existing pod needs
 * no lookup of that pod's namespace labels. An empty namespaceSelector ({}) matches every namespace.
 */
export class IncomingTerm {
  constructor(
    readonly topologyKey: string,
    readonly selector: Selector,
    readonly namespaces: ReadonlySet<string>,
    readonly allNamespaces: boolean,
  ) {}

  matches(pod: Pod): boolean {
    const meta = pod.metadata;
    if (!this.allNamespaces && !this.namespaces.has(meta?.namespace ?? "")) return false;
    return this.selector.matches(meta?.labels);
  }

  /** Everything matching depends on, as a string (memo keys). */
  fingerprint(): string {
    const ns = [...this.namespaces].sort().join(",");
    return `${this.topologyKey}\u0001${this.selector.string()}\u0001${this.allNamespaces ? "*" : ""}${ns}`;
  }
}

export interface WeightedIncomingTerm {
  readonly term: IncomingTerm;
  readonly weight: number;
}

export function resolveTerm(t: AffinityTerm, listers: ClusterListers): IncomingTerm {
  const nsSelector = t.namespaceSelector;
  if (nsSelector.empty()) return new IncomingTerm(t.topologyKey, t.selector, t.namespaces, true);
  if (matchesNothing(nsSelector)) return new IncomingTerm(t.topologyKey, t.selector, t.namespaces, false);
  const names = new Set(t.namespaces);
  for (const ns of listers.namespaces.list()) {
    if (nsSelector.matches(ns.metadata?.labels)) names.add(ns.metadata?.name ?? "");
  }
  return new IncomingTerm(t.topologyKey, t.selector, names, false);
}

export function resolveTerms(terms: readonly AffinityTerm[], listers: ClusterListers): IncomingTerm[] {
  const out: IncomingTerm[] = [];
  for (const t of terms) out.push(resolveTerm(t, listers));
  return out;
}

export function resolveWeightedTerms(
  terms: readonly WeightedAffinityTerm[],
  listers: ClusterListers,
): WeightedIncomingTerm[] {
  const out: WeightedIncomingTerm[] = [];
  for (const t of terms) out.push({ term: resolveTerm(t.term, listers), weight: t.weight });
  return out;
}

/** The labels of the pod's namespace; undefined when the namespace is unknown (upstream: nil). */
export function namespaceLabels(pod: Pod, listers: ClusterListers): NamespaceLabels {
  return listers.namespaces.get(pod.metadata?.namespace ?? "")?.metadata?.labels;
}

/** True when the terms are non-empty and the pod matches all of them (upstream podMatchesAllAffinityTerms). */
export function podMatchesAllIncomingTerms(terms: readonly IncomingTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (let i = 0; i < terms.length; i++) if (!terms[i]!.matches(pod)) return false;
  return true;
}

/** As podMatchesAllIncomingTerms, for terms whose namespaceSelector was not resolved (nil labels). */
export function podMatchesAllAffinityTerms(terms: readonly AffinityTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!t.matches(pod, undefined)) return false;
  return true;
}

/** upstream podMatchesAnyAffinityTerms (namespaceSelector matched against nil labels). */
export function podMatchesAnyAffinityTerms(terms: readonly AffinityTerm[], pod: Pod): boolean {
  for (const t of terms) if (t.matches(pod, undefined)) return true;
  return false;
}

/** A stable rendering of label sets (memo keys). */
export function labelsFingerprint(labels: Readonly<Record<string, string>> | undefined): string {
  if (labels === undefined) return "";
  const keys = Object.keys(labels).sort();
  let out = "";
  for (const k of keys) out += `${k}=${labels[k]}\u0001`;
  return out;
}

/**
 * The message of upstream's PodInfo.Update error: the first selector error of each term list,
 * prefixed with the list's name, aggregated as utilerrors.NewAggregate renders them.
 */
export function podParseErrorMessage(pod: Pod): string {
  const aff = pod.spec?.affinity;
  const errs: string[] = [];
  const check = (name: string, terms: readonly PodAffinityTerm[] | undefined): void => {
    for (const t of terms ?? []) {
      try {
        labelSelectorAsSelector(t.labelSelector);
        labelSelectorAsSelector(t.namespaceSelector);
      } catch (e) {
        const msg = `${name}: ${e instanceof Error ? e.message : String(e)}`;
        if (!errs.includes(msg)) errs.push(msg);
        return;
      }
    }
  };
  check("requiredAffinityTerms", aff?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
  check("requiredAntiAffinityTerms", aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
  check(
    "preferredAffinityTerms",
    aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.map((w) => w.podAffinityTerm),
  );
  check(
    "preferredAntiAffinityTerms",
    aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.map((w) => w.podAffinityTerm),
  );
  return errs.length === 1 ? errs[0]! : `[${errs.join(", ")}]`;
}
