// upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
import {
  getRequiredNodeAffinity,
  type NodeSelectorMatcher,
  newNodeSelector,
  type Pod,
  PreferredSchedulingTermsMatcher,
  type RequiredNodeAffinity,
} from "@kubesched/api";
import {
  asStatus,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  defaultNormalizeScore,
  type EnqueueExtensions,
  type Features,
  type FilterPlugin,
  MaxNodeScore,
  type NodeInfo,
  type NodeScore,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import type { NodeAffinityArgs } from "./args";
import { eventsToRegister } from "./events";
import { ErrReasonConflict, ErrReasonEnforced, ErrReasonPod } from "./reasons";

export const name = "NodeAffinity";

/** metav1.ObjectNameField: the only field a node selector's matchFields can name. */
const objectNameField = "metadata.name";

/** The pod's nodeSelector and required node affinity, parsed once per cycle. */
class PreFilterState implements StateData {
  constructor(readonly requiredNodeSelectorAndAffinity: RequiredNodeAffinity) {}
  /** Not affected by pod additions or removals. */
  clone(): StateData {
    return this;
  }
}

/** The pod's preferred terms, parsed once per cycle (null when the pod has none). */
class PreScoreState implements StateData {
  constructor(readonly preferredNodeAffinity: PreferredSchedulingTermsMatcher | null) {}
  clone(): StateData {
    return this;
  }
}

const preFilterStateKey = stateKey<PreFilterState>(`PreFilter${name}`);
const preScoreStateKey = stateKey<PreScoreState>(`PreScore${name}`);

/** Throws NodeSelectorError when a term is invalid (upstream NewPreferredSchedulingTerms). */
function getPodPreferredNodeAffinity(pod: Pod): PreferredSchedulingTermsMatcher | null {
  const terms = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
  return terms == null ? null : new PreferredSchedulingTermsMatcher(terms, { strict: true });
}

/**
 * Filters nodes by the pod's nodeSelector and required node affinity (plus the profile's
 * addedAffinity) and scores them by the weights of the preferred terms they match.
 */
export class NodeAffinity
  implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions
{
  private readonly addedNodeSelector: NodeSelectorMatcher | null = null;
  private readonly addedPrefSchedTerms: PreferredSchedulingTermsMatcher | null = null;
  private readonly enableSchedulingQueueHint: boolean;

  /** Throws when addedAffinity does not parse (validation normally caught that earlier). */
  constructor(args: NodeAffinityArgs, features: Features) {
    this.enableSchedulingQueueHint = features.enableSchedulingQueueHint;
    const added = args.addedAffinity;
    if (added == null) return;
    const required = added.requiredDuringSchedulingIgnoredDuringExecution;
    if (required != null) {
      try {
        this.addedNodeSelector = newNodeSelector(required, { strict: true });
      } catch (e) {
        throw new Error(
          `parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: ${(e as Error).message}`,
        );
      }
    }
    const preferred = added.preferredDuringSchedulingIgnoredDuringExecution;
    if (preferred != null && preferred.length > 0) {
      try {
        this.addedPrefSchedTerms = new PreferredSchedulingTermsMatcher(preferred, { strict: true });
      } catch (e) {
        throw new Error(
          `parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: ${(e as Error).message}`,
        );
      }
    }
  }

  name(): string {
    return name;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.enableSchedulingQueueHint, this.addedNodeSelector);
  }

  preFilter(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (required == null && this.addedNodeSelector === null && pod.spec?.nodeSelector == null) {
      // Nothing for Filter to check.
      return new Status(Code.Skip);
    }
    state.write(preFilterStateKey, new PreFilterState(getRequiredNodeAffinity(pod)));
    const terms = required?.nodeSelectorTerms;
    if (terms == null || terms.length === 0) return null;

    // Affinity to specific nodes by name: the union over terms of the intersection within each.
    let nodeNames: Set<string> | null = null;
    for (const t of terms) {
      let termNodeNames: Set<string> | null = null;
      for (const r of t.matchFields ?? []) {
        if (r.key !== objectNameField || r.operator !== "In") continue;
        const s = new Set(r.values ?? []);
        if (termNodeNames === null) termNodeNames = s;
        else for (const n of termNodeNames) if (!s.has(n)) termNodeNames.delete(n);
      }
      // A term without a node name requirement allows every node: terms are ORed.
      if (termNodeNames === null) return null;
      nodeNames ??= new Set();
      for (const n of termNodeNames) nodeNames.add(n);
    }
    if (nodeNames !== null && nodeNames.size === 0) {
      return new Status(Code.UnschedulableAndUnresolvable, ErrReasonConflict);
    }
    return nodeNames === null ? null : { nodeNames };
  }

  /** The state does not depend on other pods. */
  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    const node = nodeInfo.node!;
    if (this.addedNodeSelector !== null && !this.addedNodeSelector.match(node)) {
      return new Status(Code.UnschedulableAndUnresolvable, ErrReasonEnforced);
    }
    // Without PreFilter (disabled in the profile), parse here, as upstream.
    const required =
      state.read(preFilterStateKey)?.requiredNodeSelectorAndAffinity ?? getRequiredNodeAffinity(pod);
    // Parse errors of the pod's terms are ignored (the term never matches), as upstream.
    if (!required.match(node)) return new Status(Code.UnschedulableAndUnresolvable, ErrReasonPod);
    return null;
  }

  preScore(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): Status | null {
    let preferred: PreferredSchedulingTermsMatcher | null;
    try {
      preferred = getPodPreferredNodeAffinity(pod);
    } catch (e) {
      return asStatus(e);
    }
    if (preferred === null && this.addedPrefSchedTerms === null) return new Status(Code.Skip);
    state.write(preScoreStateKey, new PreScoreState(preferred));
    return null;
  }

  /** The sum of the weights of the preferred terms (the pod's and the added ones) the node matches. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const node = nodeInfo.node!;
    let count = 0;
    if (this.addedPrefSchedTerms !== null) count += this.addedPrefSchedTerms.score(node);
    let preferred: PreferredSchedulingTermsMatcher | null;
    const s = state.read(preScoreStateKey);
    if (s !== undefined) {
      preferred = s.preferredNodeAffinity;
    } else {
      // Without PreScore (disabled in the profile), parse here, as upstream.
      try {
        preferred = getPodPreferredNodeAffinity(pod);
      } catch (e) {
        return asStatus(e);
      }
    }
    if (preferred !== null) count += preferred.score(node);
    return count;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | null {
    return defaultNormalizeScore(MaxNodeScore, false, scores);
  }
}
