// What InterPodAffinity's Filter tells the diagnostic pass: per failing term, the node's domain and
// the existing pods the term conflicts with (filter() itself reads counts only; the pods are found
// here, on the snapshot, when a diagnosis asks).
import { type Pod, podKey } from "@kubesched/api";
import type { CycleState, FilterDetail, NodeInfo, PodInfo } from "@kubesched/framework";
import type { InterPodAffinityContext } from "./context";
import { preFilterStateKey } from "./filtering";
import { labelValue } from "./topology-counts";

/** The pods on the nodes of domain key=value that `matches` selects, as namespace/name. */
function podsInDomain(
  nodes: readonly NodeInfo[],
  key: string,
  value: string,
  matches: (pi: PodInfo) => boolean,
): string[] {
  const out: string[] = [];
  for (const ni of nodes) {
    if (labelValue(ni.node?.metadata?.labels, key) !== value) continue;
    for (const pi of ni.pods) if (matches(pi)) out.push(podKey(pi.pod));
  }
  return out;
}

/** Every term behind filter()'s rejection of `nodeInfo`, in filter()'s order. */
export function filterDetails(
  ctx: InterPodAffinityContext,
  state: CycleState,
  incoming: Pod,
  nodeInfo: NodeInfo,
): FilterDetail[] {
  const s = state.read(preFilterStateKey);
  if (s === undefined) return [];
  const labels = nodeInfo.node?.metadata?.labels;
  const nodes = ctx.handle.snapshotSharedLister().nodeInfos().list();
  const out: FilterDetail[] = [];

  const affinity = s.affinityCounts.counts;
  const unmatched: FilterDetail[] = [];
  let keyMissing = false;
  for (const t of s.affinityTerms) {
    const domain = labelValue(labels, t.topologyKey) ?? null;
    if (domain === null) keyMissing = true;
    if (domain === null || affinity.get(t.topologyKey, domain) <= 0) {
      unmatched.push({ kind: "PodAffinity", rule: "affinity", topologyKey: t.topologyKey, domain, pods: [] });
    }
  }
  // As filter(): no matching pod anywhere lets a pod matching its own terms start the group.
  if (keyMissing || (unmatched.length > 0 && !(affinity.pairs === 0 && s.selfMatchesAffinity))) {
    out.push(...unmatched);
  }

  const anti = s.antiAffinityCounts.counts;
  for (const t of s.antiAffinityTerms) {
    const domain = labelValue(labels, t.topologyKey);
    if (domain === undefined || anti.get(t.topologyKey, domain) <= 0) continue;
    const pods = podsInDomain(nodes, t.topologyKey, domain, (pi) => t.matches(pi.pod));
    out.push({ kind: "PodAffinity", rule: "antiAffinity", topologyKey: t.topologyKey, domain, pods });
  }

  const existing = s.existingAntiAffinityCounts.counts;
  existing.keys.forEach((key, i) => {
    const domain = labelValue(labels, key);
    if (domain === undefined || (existing.maps[i]?.get(domain) ?? 0) <= 0) return;
    const pods = podsInDomain(nodes, key, domain, (pi) =>
      pi.requiredAntiAffinityTerms.some(
        (t) => t.topologyKey === key && t.matches(incoming, s.namespaceLabels),
      ),
    );
    out.push({ kind: "PodAffinity", rule: "existingAntiAffinity", topologyKey: key, domain, pods });
  });
  return out;
}
