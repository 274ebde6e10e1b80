// The cluster-wide walk PreFilter and PreScore make: for every node that counts for a constraint,
// the pods matching the constraint's selector in the incoming pod's namespace, summed per
// topology value. upstream: calPreFilterState and PreScore's processAllNode.
import type { Pod, RequiredNodeAffinity, TolerationOptions } from "@kubesched/api";
import type { NodeInfo } from "@kubesched/framework";
import {
  countPodsMatchSelector,
  matchNodeInclusionPolicies,
  nodeLabelsMatchSpreadConstraints,
  type SpreadConstraint,
} from "./common";
import { DomainCounts, ValueIds } from "./domains";

/** Feature gates and toleration options the counts depend on (fixed per plugin instance). */
export interface CountOptions {
  enableNodeInclusionPolicy: boolean;
  tolerationOptions: TolerationOptions;
}

/** Computes the per-domain counts PreFilter and PreScore need. */
export interface SpreadCounter {
  /**
   * DoNotSchedule counts: per constraint, topology value → matching pods, with an entry (maybe 0)
   * for every eligible domain: nodes with all topology keys that pass the inclusion policies.
   */
  countDoNotSchedule(
    pod: Pod,
    nodes: readonly NodeInfo[],
    constraints: readonly SpreadConstraint[],
    requiredNodeAffinity: RequiredNodeAffinity,
    opts: CountOptions,
  ): DomainCounts[];
  /**
   * ScheduleAnyway counts: adds to `seeded[i]` the matching pods of every node whose value is
   * already a key there (seeded from the filtered nodes); other values are not counted.
   */
  countScheduleAnyway(
    pod: Pod,
    nodes: readonly NodeInfo[],
    constraints: readonly SpreadConstraint[],
    requiredNodeAffinity: RequiredNodeAffinity,
    requireAllTopologies: boolean,
    seeded: Map<string, number>[],
    opts: CountOptions,
  ): void;
}

/** Whether the node counts for the constraint at all (before looking at its pods). */
export function nodeCountsFor(
  c: SpreadConstraint,
  pod: Pod,
  nodeInfo: NodeInfo,
  requiredNodeAffinity: RequiredNodeAffinity,
  opts: CountOptions,
): boolean {
  return (
    !opts.enableNodeInclusionPolicy ||
    matchNodeInclusionPolicies(c, pod, nodeInfo.node!, requiredNodeAffinity, opts.tolerationOptions)
  );
}

/** The straightforward walk over every node and its pods, every cycle (upstream's algorithm). */
export const fullCounter: SpreadCounter = {
  countDoNotSchedule(pod, nodes, constraints, requiredNodeAffinity, opts) {
    const ns = pod.metadata?.namespace ?? "";
    const counts = constraints.map(() => new DomainCounts(new ValueIds()));
    for (let n = 0; n < nodes.length; n++) {
      const nodeInfo = nodes[n]!;
      const node = nodeInfo.node;
      if (node === null) continue;
      // Without inclusion policies, spreading applies to the nodes passing the pod's node affinity.
      if (!opts.enableNodeInclusionPolicy && !requiredNodeAffinity.match(node)) continue;
      const labels = node.metadata?.labels;
      if (!nodeLabelsMatchSpreadConstraints(labels, constraints)) continue;
      for (let i = 0; i < constraints.length; i++) {
        const c = constraints[i]!;
        if (!nodeCountsFor(c, pod, nodeInfo, requiredNodeAffinity, opts)) continue;
        const value = labels![c.topologyKey]!;
        const m = counts[i]!;
        m.set(value, (m.get(value) ?? 0) + countPodsMatchSelector(nodeInfo.pods, c.selector, ns));
      }
    }
    return counts;
  },

  countScheduleAnyway(pod, nodes, constraints, requiredNodeAffinity, requireAllTopologies, seeded, opts) {
    const ns = pod.metadata?.namespace ?? "";
    for (let n = 0; n < nodes.length; n++) {
      const nodeInfo = nodes[n]!;
      const node = nodeInfo.node;
      if (node === null) continue;
      if (!opts.enableNodeInclusionPolicy && !requiredNodeAffinity.match(node)) continue;
      const labels = node.metadata?.labels;
      if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, constraints)) continue;
      for (let i = 0; i < constraints.length; i++) {
        const c = constraints[i]!;
        if (!nodeCountsFor(c, pod, nodeInfo, requiredNodeAffinity, opts)) continue;
        const m = seeded[i]!;
        const value = labels?.[c.topologyKey] ?? "";
        const cur = m.get(value);
        // Only values of filtered nodes are scored; hostname counts are taken in Score.
        if (cur === undefined) continue;
        m.set(value, cur + countPodsMatchSelector(nodeInfo.pods, c.selector, ns));
      }
    }
  },
};
