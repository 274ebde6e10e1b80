// What NodeAffinity's Filter tells the diagnostic pass: the nodeSelector entries and the
// requirements of the required terms that a node's labels (or name) do not satisfy.
import {
  type Node,
  type NodeSelectorRequirement,
  type NodeSelectorTerm,
  newNodeSelector,
  type Pod,
} from "@kubesched/api";
import type { FilterDetail } from "@kubesched/framework";

const requiredTermsPath =
  "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";

/** A requirement as kubectl and label selectors print it: "zone in (a,b)", "gpu", "!gpu", "n > 3". */
function requirementString(r: NodeSelectorRequirement): string {
  const values = r.values ?? [];
  switch (r.operator) {
    case "In":
      return `${r.key} in (${values.join(",")})`;
    case "NotIn":
      return `${r.key} notin (${values.join(",")})`;
    case "Exists":
      return r.key;
    case "DoesNotExist":
      return `!${r.key}`;
    case "Gt":
      return `${r.key} > ${values[0] ?? ""}`;
    case "Lt":
      return `${r.key} < ${values[0] ?? ""}`;
    default:
      return `${r.key} ${r.operator} (${values.join(",")})`;
  }
}

/** Every requirement of every term that the node fails, one matcher per requirement (api's semantics). */
function termDetails(source: string, terms: readonly NodeSelectorTerm[], node: Node): FilterDetail[] {
  const out: FilterDetail[] = [];
  const labels = node.metadata?.labels ?? {};
  terms.forEach((term, i) => {
    const reqs: [NodeSelectorRequirement, boolean][] = [
      ...(term.matchExpressions ?? []).map((r): [NodeSelectorRequirement, boolean] => [r, false]),
      ...(term.matchFields ?? []).map((r): [NodeSelectorRequirement, boolean] => [r, true]),
    ];
    for (const [r, isField] of reqs) {
      const single: NodeSelectorTerm = isField ? { matchFields: [r] } : { matchExpressions: [r] };
      if (newNodeSelector({ nodeSelectorTerms: [single] }).match(node)) continue;
      const nodeValue = isField ? (node.metadata?.name ?? "") : (labels[r.key] ?? null);
      out.push({
        kind: "NodeLabelMismatch",
        source: `${source}[${i}]`,
        requirement: requirementString(r),
        key: r.key,
        nodeValue,
      });
    }
  });
  return out;
}

/**
 * The failed requirements behind NodeAffinity's rejection of `node`: the scheduler's added
 * affinity when `enforced`, else the pod's nodeSelector and required terms.
 */
export function nodeAffinityDetails(
  pod: Pod,
  node: Node,
  enforced: boolean,
  addedTerms: readonly NodeSelectorTerm[],
): FilterDetail[] {
  if (enforced)
    return termDetails(
      "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms",
      addedTerms,
      node,
    );
  const out: FilterDetail[] = [];
  const labels = node.metadata?.labels ?? {};
  for (const [key, value] of Object.entries(pod.spec?.nodeSelector ?? {})) {
    const nodeValue = labels[key] ?? null;
    if (nodeValue === value) continue;
    out.push({
      kind: "NodeLabelMismatch",
      source: "spec.nodeSelector",
      requirement: `${key}=${value}`,
      key,
      nodeValue,
    });
  }
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  // The terms are ORed: they explain the rejection only when none matches.
  if (terms && terms.length > 0 && !newNodeSelector({ nodeSelectorTerms: terms }).match(node)) {
    out.push(...termDetails(requiredTermsPath, terms, node));
  }
  return out;
}
