// upstream: pkg/scheduler/framework/plugins/podtopologyspread/common.go
import {
  doNotScheduleTaintsFilter,
  findMatchingUntoleratedTaint,
  LabelHostname,
  type Labels,
  LabelTopologyZone,
  labelSelectorAsSelector,
  matchesNothing,
  type Node,
  type Pod,
  type RequiredNodeAffinity,
  type Selector,
  selectorFromRequirements,
  selectorFromSet,
  type TolerationOptions,
  type TopologySpreadConstraint,
} from "@kubesched/api";
import type { PodInfo } from "@kubesched/framework";

export type NodeInclusionPolicy = "Honor" | "Ignore";
export type UnsatisfiableConstraintAction = "DoNotSchedule" | "ScheduleAnyway";

/** A pod's topology spread constraint with its selector parsed and policies resolved. */
export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: Selector;
  readonly minDomains: number;
  readonly nodeAffinityPolicy: NodeInclusionPolicy;
  readonly nodeTaintsPolicy: NodeInclusionPolicy;
}

/** Upstream's system default constraints (DefaultingType System). */
export const systemDefaultConstraints: readonly TopologySpreadConstraint[] = Object.freeze([
  { topologyKey: LabelHostname, whenUnsatisfiable: "ScheduleAnyway", maxSkew: 3 },
  { topologyKey: LabelTopologyZone, whenUnsatisfiable: "ScheduleAnyway", maxSkew: 5 },
]);

/** The feature gates the constraints depend on. */
export interface ConstraintOptions {
  enableMatchLabelKeys: boolean;
  enableNodeInclusionPolicy: boolean;
}

/** The labels `selector` requires ANDed with `matchLabels` (upstream mergeLabelSetWithSelector). */
function mergeLabelSetWithSelector(matchLabels: Labels, s: Selector): Selector {
  // labels.Nothing() has no requirements to merge; it stays Nothing.
  if (matchesNothing(s)) return s;
  return selectorFromRequirements([...selectorFromSet(matchLabels).requirements(), ...s.requirements()]);
}

/**
 * The constraints with `whenUnsatisfiable == action`, parsed. matchLabelKeys values present on
 * the pod are ANDed into the selector (the scheduler side of MatchLabelKeysInPodTopologySpread,
 * as upstream's newest filterTopologySpreadConstraints). Throws LabelSelectorError.
 */
export function filterTopologySpreadConstraints(
  constraints: readonly TopologySpreadConstraint[],
  podLabels: Labels | undefined,
  action: UnsatisfiableConstraintAction,
  opts: ConstraintOptions,
): SpreadConstraint[] {
  const result: SpreadConstraint[] = [];
  for (const c of constraints) {
    if (c.whenUnsatisfiable !== action) continue;
    let selector = labelSelectorAsSelector(c.labelSelector);
    if (opts.enableMatchLabelKeys && c.matchLabelKeys && c.matchLabelKeys.length > 0) {
      const matchLabels: Record<string, string> = {};
      let n = 0;
      for (const key of c.matchLabelKeys) {
        const v = podLabels?.[key];
        if (v !== undefined) {
          matchLabels[key] = v;
          n++;
        }
      }
      if (n > 0) selector = mergeLabelSetWithSelector(matchLabels, selector);
    }
    let nodeAffinityPolicy: NodeInclusionPolicy = "Honor";
    let nodeTaintsPolicy: NodeInclusionPolicy = "Ignore";
    if (opts.enableNodeInclusionPolicy) {
      if (c.nodeAffinityPolicy != null) nodeAffinityPolicy = c.nodeAffinityPolicy as NodeInclusionPolicy;
      if (c.nodeTaintsPolicy != null) nodeTaintsPolicy = c.nodeTaintsPolicy as NodeInclusionPolicy;
    }
    result.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      minDomains: c.minDomains ?? 1,
      nodeAffinityPolicy,
      nodeTaintsPolicy,
    });
  }
  return result;
}

/** Whether the node has every constraint's topology key. */
export function nodeLabelsMatchSpreadConstraints(
  nodeLabels: Labels | undefined,
  constraints: readonly SpreadConstraint[],
): boolean {
  if (nodeLabels === undefined) return constraints.length === 0;
  for (let i = 0; i < constraints.length; i++) {
    if (nodeLabels[constraints[i]!.topologyKey] === undefined) return false;
  }
  return true;
}

/** Whether the node counts for the constraint under its nodeAffinityPolicy / nodeTaintsPolicy. */
export function matchNodeInclusionPolicies(
  c: SpreadConstraint,
  pod: Pod,
  node: Node,
  requiredNodeAffinity: RequiredNodeAffinity,
  tolerationOpts: TolerationOptions,
): boolean {
  // Parse errors of the pod's node affinity are ignored (the term never matches), as upstream.
  if (c.nodeAffinityPolicy === "Honor" && !requiredNodeAffinity.match(node)) return false;
  if (
    c.nodeTaintsPolicy === "Honor" &&
    findMatchingUntoleratedTaint(
      node.spec?.taints,
      pod.spec?.tolerations,
      doNotScheduleTaintsFilter,
      tolerationOpts,
    ) !== undefined
  ) {
    return false;
  }
  return true;
}

/** Pods of `podInfos` in namespace `ns`, not terminating, matched by `selector`. */
export function countPodsMatchSelector(podInfos: readonly PodInfo[], selector: Selector, ns: string): number {
  if (selector.empty()) return 0;
  let count = 0;
  for (let i = 0; i < podInfos.length; i++) {
    const meta = podInfos[i]!.pod.metadata;
    // Terminating pods are not counted (kubernetes#87621).
    if (meta?.deletionTimestamp != null || (meta?.namespace ?? "") !== ns) continue;
    if (selector.matches(meta?.labels)) count++;
  }
  return count;
}

/** Whether the labels match the selector of any constraint. */
export function podLabelsMatchSpreadConstraints(
  constraints: readonly SpreadConstraint[],
  labels: Labels | undefined,
): boolean {
  for (const c of constraints) if (c.selector.matches(labels)) return true;
  return false;
}
