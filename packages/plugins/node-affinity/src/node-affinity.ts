// upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
import {
  getRequiredNodeAffinity,
  type NodeSelectorMatcher,
  type NodeSelectorTerm,
  newNodeSelector,
  type Pod,
  type PreferredSchedulingTerm,
  PreferredSchedulingTermsMatcher,
  type RequiredNodeAffinity,
} from "@kubesched/api";
import {
  asStatus,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  defaultNormalizer,
  type EnqueueExtensions,
  type Features,
  type FilterDetail,
  type FilterDetailsPlugin,
  type FilterPlugin,
  MaxNodeScore,
  NodeAffinitySignerName,
  type NodeInfo,
  NodeSelectorSignerName,
  nodeAffinitySigner,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import type {
  ColumnarFilterPlugin,
  ColumnarScorePlugin,
  ColumnWindow,
  NodeColumns,
} from "@kubesched/framework/columnar";
import type { NodeAffinityArgs } from "./args";
import { eventsToRegister } from "./events";
import { nodeAffinityDetails } from "./filter-details";
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

/**
 * The label keys node selector terms read, or null when they also read fields (metadata.name):
 * then the result is per node. Collected into `keys` (deduplicated).
 */
function termKeys(terms: readonly (NodeSelectorTerm | undefined)[] | undefined, keys: string[]): boolean {
  for (const t of terms ?? []) {
    if ((t?.matchFields?.length ?? 0) > 0) return false;
    for (const r of t?.matchExpressions ?? []) if (!keys.includes(r.key)) keys.push(r.key);
  }
  return true;
}

/**
 * Decides once per combination of label values: nodes whose values of `keys` are equal get the
 * same answer from a function of those labels alone. `slot(idx)` is the combination's number, or
 * -1 when there are too many combinations to number (then decide per node).
 */
class LabelCombinations {
  private readonly ids: Int32Array[];
  private readonly radix: number[];
  readonly size: number;

  constructor(columns: NodeColumns, keys: readonly string[]) {
    this.ids = [];
    this.radix = [];
    let size = 1;
    for (const key of keys) {
      const col = columns.labelColumn(key);
      this.ids.push(col.valueIds);
      this.radix.push(size);
      size *= col.values.length + 1;
    }
    this.size = size <= maxCombinations ? size : -1;
  }

  slot(idx: number): number {
    if (this.size < 0) return -1;
    let s = 0;
    for (let j = 0; j < this.ids.length; j++) s += ((this.ids[j] as Int32Array)[idx]! + 1) * this.radix[j]!;
    return s;
  }
}

/** The most label-value combinations decided per columnar call (beyond that, per node). */
const maxCombinations = 1 << 16;

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
  implements
    PreFilterPlugin,
    FilterPlugin,
    FilterDetailsPlugin,
    ColumnarFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ColumnarScorePlugin,
    EnqueueExtensions,
    SignPlugin
{
  /** NormalizeScore: upstream's DefaultNormalizeScore(MaxNodeScore, false, scores). */
  private readonly normalizer = defaultNormalizer(MaxNodeScore, false);
  private readonly addedNodeSelector: NodeSelectorMatcher | null = null;
  /** addedAffinity's required terms, for filterDetails. */
  private readonly addedRequiredTerms: readonly NodeSelectorTerm[] = [];
  private readonly addedPrefSchedTerms: PreferredSchedulingTermsMatcher | null = null;
  private readonly enableSchedulingQueueHint: boolean;
  /** The label keys addedAffinity's required / preferred terms read (null: they read fields). */
  private readonly addedRequiredKeys: string[] | null = [];
  private readonly addedPreferredKeys: string[] | null = [];

  /** Throws when addedAffinity does not parse (validation normally caught that earlier). */
  constructor(args: NodeAffinityArgs, features: Features) {
    this.enableSchedulingQueueHint = features.enableSchedulingQueueHint;
    const added = args.addedAffinity;
    if (added == null) return;
    if (
      !termKeys(
        added.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
        this.addedRequiredKeys!,
      )
    ) {
      this.addedRequiredKeys = null;
    }
    const preferredTerms = (added.preferredDuringSchedulingIgnoredDuringExecution ?? []).map(
      (t: PreferredSchedulingTerm) => t.preference,
    );
    if (!termKeys(preferredTerms, this.addedPreferredKeys!)) this.addedPreferredKeys = null;
    const required = added.requiredDuringSchedulingIgnoredDuringExecution;
    if (required != null) {
      this.addedRequiredTerms = required.nodeSelectorTerms ?? [];
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

  /** Filtering and scoring depend on the pod's node affinity and node selector (upstream SignPod). */
  signPod(pod: Pod): SignPodResult {
    return {
      fragments: [
        { key: NodeAffinitySignerName, value: nodeAffinitySigner(pod) },
        { key: NodeSelectorSignerName, value: pod.spec?.nodeSelector ?? null },
      ],
      status: null,
    };
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

  /** The nodeSelector entries or required-term requirements the node fails. */
  filterDetails(_state: CycleState, pod: Pod, nodeInfo: NodeInfo, status: Status): FilterDetail[] {
    const node = nodeInfo.node;
    if (!node) return [];
    return nodeAffinityDetails(pod, node, status.reasons[0] === ErrReasonEnforced, this.addedRequiredTerms);
  }

  /**
   * The label keys Filter reads for this pod (nodeSelector, required terms, addedAffinity's), or
   * null when it reads fields too.
   */
  private filterKeys(pod: Pod): string[] | null {
    if (this.addedRequiredKeys === null) return null;
    const keys = [...this.addedRequiredKeys];
    for (const k of Object.keys(pod.spec?.nodeSelector ?? {})) if (!keys.includes(k)) keys.push(k);
    const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    return termKeys(required?.nodeSelectorTerms, keys) ? keys : null;
  }

  /** filter() decided once per combination of the label values it reads. */
  filterColumns(state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    const infos = columns.nodeInfos;
    const keys = this.filterKeys(pod);
    const combos = keys === null ? null : new LabelCombinations(columns, keys);
    // Per combination: 0 not decided, 1 passes, 2 rejected (filter() then builds the status).
    const decided = combos !== null && combos.size > 0 ? new Uint8Array(combos.size) : null;
    for (let k = 0; k < count; k++) {
      const idx = indices[k]!;
      const slot = decided === null ? -1 : (combos as LabelCombinations).slot(idx);
      const d = slot < 0 ? 0 : (decided as Uint8Array)[slot]!;
      if (d === 1) {
        out[k] = null;
        continue;
      }
      const s = this.filter(state, pod, infos[idx]!);
      out[k] = s;
      if (slot >= 0) (decided as Uint8Array)[slot] = s === null ? 1 : 2;
    }
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

  /** score() computed once per combination of the label values the preferred terms read. */
  scoreColumns(state: CycleState, pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null {
    const { columns, indices, count } = window;
    const infos = columns.nodeInfos;
    let keys: string[] | null = null;
    if (state.read(preScoreStateKey) !== undefined && this.addedPreferredKeys !== null) {
      keys = [...this.addedPreferredKeys];
      const preferred = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
      if (
        !termKeys(
          preferred?.map((t) => t.preference),
          keys,
        )
      )
        keys = null;
    }
    const combos = keys === null ? null : new LabelCombinations(columns, keys);
    const known = combos !== null && combos.size > 0 ? new Float64Array(combos.size).fill(-1) : null;
    for (let k = 0; k < count; k++) {
      const idx = indices[k]!;
      const slot = known === null ? -1 : (combos as LabelCombinations).slot(idx);
      if (slot >= 0 && (known as Float64Array)[slot]! >= 0) {
        scores[k] = (known as Float64Array)[slot]!;
        continue;
      }
      const r = this.score(state, pod, infos[idx]!);
      if (typeof r !== "number") {
        if (!r.isSuccess()) return r;
        scores[k] = 0;
        continue;
      }
      scores[k] = r;
      if (slot >= 0 && r >= 0) (known as Float64Array)[slot] = r;
    }
    return null;
  }

  scoreExtensions(): ScoreExtensions {
    return this.normalizer;
  }
}
