// upstream: pkg/scheduler/framework/plugins/interpodaffinity/scoring.go (+ scoring_memo.go).
import type { Pod } from "@kubesched/api";
import {
  asStatus,
  Code,
  type CycleState,
  MaxNodeScore,
  type NodeInfo,
  type NodeScore,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import type { ColumnWindow } from "@kubesched/framework/columnar";
import { CountsByLabel } from "./column-counts";
import { type InterPodAffinityContext, podInfoFor } from "./context";
import { type MemoLRU, NodeMemo, type NodeSource } from "./node-memo";
import {
  labelsFingerprint,
  type NamespaceLabels,
  namespaceLabels,
  podParseErrorMessage,
  resolveWeightedTerms,
  type WeightedIncomingTerm,
} from "./terms";
import { labelValue, PairList, TopologyCounts } from "./topology-counts";

export const preScoreStateKey = stateKey<PreScoreState>("PreScoreInterPodAffinity");

/** Computed at PreScore, read-only afterwards (so clone() shares it, as upstream). */
export class PreScoreState implements StateData {
  constructor(
    /** Sum of weights per topology pair; a node's score is the sum over its labels. */
    readonly topologyScore: TopologyCounts,
    /** topologyScore.version when this state was made (the memo may share topologyScore). */
    readonly version: number,
  ) {}

  clone(): PreScoreState {
    return this;
  }
}

/** What scoring one node depends on besides the node itself. */
interface ScoreInputs {
  readonly pod: Pod;
  readonly preferredAffinityTerms: readonly WeightedIncomingTerm[];
  readonly preferredAntiAffinityTerms: readonly WeightedIncomingTerm[];
  readonly namespaceLabels: NamespaceLabels;
  readonly hardPodAffinityWeight: number;
  readonly hasConstraints: boolean;
}

function processTerms(
  out: PairList,
  terms: readonly WeightedIncomingTerm[],
  pod: Pod,
  labels: Readonly<Record<string, string>>,
  multiplier: number,
): void {
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    if (!t.term.matches(pod)) continue;
    const v = labelValue(labels, t.term.topologyKey);
    if (v !== undefined) out.push(t.term.topologyKey, v, t.weight * multiplier);
  }
}

/**
 * What the pods of one node contribute to the incoming pod's topology scores; null when nothing
 * (upstream: an empty per-node scoreMap).
 */
export function scoreNode(inputs: ScoreInputs, nodeInfo: NodeInfo): PairList | null {
  const labels = nodeInfo.node?.metadata?.labels;
  if (labels === undefined || Object.keys(labels).length === 0) return null;
  const pods = inputs.hasConstraints ? nodeInfo.pods : nodeInfo.podsWithAffinity;
  const incoming = inputs.pod;
  const nsLabels = inputs.namespaceLabels;
  const out = new PairList();
  for (let p = 0; p < pods.length; p++) {
    const existing = pods[p]!;
    // The incoming pod's preferred terms matched by the existing pod.
    processTerms(out, inputs.preferredAffinityTerms, existing.pod, labels, 1);
    processTerms(out, inputs.preferredAntiAffinityTerms, existing.pod, labels, -1);
    // The existing pod's required affinity terms matched by the incoming pod (symmetry).
    if (inputs.hardPodAffinityWeight > 0) {
      const req = existing.requiredAffinityTerms;
      for (let i = 0; i < req.length; i++) {
        const t = req[i]!;
        if (!t.matches(incoming, nsLabels)) continue;
        const v = labelValue(labels, t.topologyKey);
        if (v !== undefined) out.push(t.topologyKey, v, inputs.hardPodAffinityWeight);
      }
    }
    // The existing pod's preferred terms matched by the incoming pod.
    const pref = existing.preferredAffinityTerms;
    for (let i = 0; i < pref.length; i++) {
      const t = pref[i]!;
      if (!t.term.matches(incoming, nsLabels)) continue;
      const v = labelValue(labels, t.term.topologyKey);
      if (v !== undefined) out.push(t.term.topologyKey, v, t.weight);
    }
    const prefAnti = existing.preferredAntiAffinityTerms;
    for (let i = 0; i < prefAnti.length; i++) {
      const t = prefAnti[i]!;
      if (!t.term.matches(incoming, nsLabels)) continue;
      const v = labelValue(labels, t.term.topologyKey);
      if (v !== undefined) out.push(t.term.topologyKey, v, -t.weight);
    }
  }
  return out.length > 0 ? out : null;
}

export interface ScoringEntry {
  memo: NodeMemo<PairList>;
  topologyScore: TopologyCounts;
  /** Nodes with a non-empty contribution: upstream Skips PreScore when there are none. */
  contributing: number;
}

export type ScoringMemo = MemoLRU<ScoringEntry>;

function weightedTermsKey(ts: readonly WeightedIncomingTerm[]): string {
  let key = "";
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    key += `${i > 0 ? "\u0002" : ""}${t.weight}\u0001${t.term.fingerprint()}`;
  }
  return key;
}

function scoringKey(inputs: ScoreInputs): string {
  const pod = inputs.pod;
  return `${pod.metadata?.namespace ?? ""}\u0003${labelsFingerprint(pod.metadata?.labels)}\u0003${labelsFingerprint(inputs.namespaceLabels)}\u0003${inputs.hasConstraints ? "1" : "0"}\u0003${weightedTermsKey(inputs.preferredAffinityTerms)}\u0003${weightedTermsKey(inputs.preferredAntiAffinityTerms)}`;
}

/** The topology scores and whether any node contributed. */
function topologyScores(
  ctx: InterPodAffinityContext,
  inputs: ScoreInputs,
  nodes: readonly NodeInfo[],
  source: NodeSource,
): { topologyScore: TopologyCounts; shared: boolean; contributed: boolean } {
  const entry = ctx.scoringMemo?.get(scoringKey(inputs), () => ({
    memo: new NodeMemo<PairList>(),
    topologyScore: new TopologyCounts(),
    contributing: 0,
  }));
  if (entry === undefined) {
    const topologyScore = new TopologyCounts();
    let contributed = false;
    for (let i = 0; i < nodes.length; i++) {
      const c = scoreNode(inputs, nodes[i]!);
      if (c === null) continue;
      contributed = true;
      topologyScore.addList(c, 1);
    }
    return { topologyScore, shared: false, contributed };
  }
  entry.memo.refresh(
    nodes,
    (ni) => scoreNode(inputs, ni),
    (c, sign) => {
      entry.topologyScore.addList(c, sign);
      entry.contributing += sign;
    },
    source,
  );
  return { topologyScore: entry.topologyScore, shared: true, contributed: entry.contributing > 0 };
}

/** Membership of NodeInfoLister.havePodsWithAffinityList. */
function hasPodsWithAffinity(ni: NodeInfo): boolean {
  return ni.podsWithAffinity.length > 0;
}

export function preScore(ctx: InterPodAffinityContext, state: CycleState, pod: Pod): Status | null {
  const aff = pod.spec?.affinity;
  const hasPreferredAffinity =
    (aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
  const hasPreferredAntiAffinity =
    (aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
  const hasConstraints = hasPreferredAffinity || hasPreferredAntiAffinity;

  // Optionally ignore existing pods' preferences when the incoming pod has none of its own.
  if (ctx.args.ignorePreferredTermsOfExistingPods && !hasConstraints) return new Status(Code.Skip);

  // Unless the incoming pod has preferred terms, only nodes hosting pods with affinity matter.
  const lister = ctx.handle.snapshotSharedLister().nodeInfos();
  const nodes = hasConstraints ? lister.list() : lister.havePodsWithAffinityList();

  const podInfo = podInfoFor(ctx, pod);
  if (podInfo.parseError) return asStatus(new Error(`failed to parse pod: ${podParseErrorMessage(pod)}`));
  const listers = ctx.handle.listers();
  const inputs: ScoreInputs = {
    pod,
    preferredAffinityTerms: resolveWeightedTerms(podInfo.preferredAffinityTerms, listers),
    preferredAntiAffinityTerms: resolveWeightedTerms(podInfo.preferredAntiAffinityTerms, listers),
    namespaceLabels: namespaceLabels(pod, listers),
    hardPodAffinityWeight: ctx.args.hardPodAffinityWeight,
    hasConstraints,
  };
  const { topologyScore, contributed } = topologyScores(ctx, inputs, nodes, {
    lister,
    member: hasConstraints ? null : hasPodsWithAffinity,
  });
  if (!contributed) return new Status(Code.Skip);
  state.write(preScoreStateKey, new PreScoreState(topologyScore, topologyScore.version));
  return null;
}

function readPreScoreState(state: CycleState): PreScoreState | Status {
  const s = state.read(preScoreStateKey);
  if (s === undefined)
    return asStatus(new Error(`failed to read "${preScoreStateKey}" from cycleState: not found`));
  if (s.topologyScore.version !== s.version) {
    return asStatus(
      new Error(
        `"${preScoreStateKey}" belongs to an earlier scheduling cycle: its scores changed with a later PreScore`,
      ),
    );
  }
  return s;
}

const noLabels: Readonly<Record<string, string>> = Object.freeze({});

export function score(state: CycleState, nodeInfo: NodeInfo): number | Status {
  const s = readPreScoreState(state);
  if (s instanceof Status) return s;
  const labels = nodeInfo.node?.metadata?.labels ?? noLabels;
  const ts = s.topologyScore;
  let total = 0;
  for (let i = 0; i < ts.keys.length; i++) {
    const v = labelValue(labels, ts.keys[i]!);
    if (v !== undefined) total += ts.maps[i]!.get(v) ?? 0;
  }
  return total;
}

/** Min-max normalization to [0, MaxNodeScore] (all 0 when every node scored the same). */
export function normalizeScore(state: CycleState, scores: NodeScore[]): Status | null {
  const s = readPreScoreState(state);
  if (s instanceof Status) return s;
  if (s.topologyScore.keys.length === 0) return null;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const ns of scores) {
    if (ns.score > max) max = ns.score;
    if (ns.score < min) min = ns.score;
  }
  const diff = max - min;
  for (const ns of scores) {
    ns.score = diff > 0 ? Math.trunc(MaxNodeScore * ((ns.score - min) / diff)) : 0;
  }
  return null;
}

/**
 * score() over the snapshot's columns (`scores[k]` for `columns.nodeInfos[indices[k]]` of the
 * window); null, or the status score() returns on every node when the state is missing or stale.
 */
export function scoreColumns(state: CycleState, window: ColumnWindow, scores: Float64Array): Status | null {
  const { columns, indices, count } = window;
  const s = readPreScoreState(state);
  if (s instanceof Status) return count === 0 ? null : s;
  const ts = s.topologyScore;
  const byKey = ts.keys.map((key) => new CountsByLabel(columns, key, ts));
  for (let k = 0; k < count; k++) {
    const idx = indices[k]!;
    let total = 0;
    for (let i = 0; i < byKey.length; i++) {
      const c = byKey[i]!;
      const id = c.valueIds[idx]!;
      if (id >= 0) total += c.get(id);
    }
    scores[k] = total;
  }
  return null;
}

/** normalizeScore over a score array. */
export function normalizeScoreColumns(state: CycleState, scores: Float64Array, count: number): Status | null {
  const s = readPreScoreState(state);
  if (s instanceof Status) return s;
  if (s.topologyScore.keys.length === 0) return null;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < count; k++) {
    const v = scores[k]!;
    if (v > max) max = v;
    if (v < min) min = v;
  }
  const diff = max - min;
  for (let k = 0; k < count; k++) {
    scores[k] = diff > 0 ? Math.trunc(MaxNodeScore * ((scores[k]! - min) / diff)) : 0;
  }
  return null;
}
