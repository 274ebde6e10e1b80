// upstream: pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (+ filtering_memo.go),
// with the InterPodAffinityHostnameFastPath gate off (its 1.37 default).
import type { Pod } from "@kubesched/api";
import {
  asStatus,
  Code,
  type CycleState,
  type NodeInfo,
  type PodInfo,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import type { ColumnWindow } from "@kubesched/framework/columnar";
import { CountsByLabel } from "./column-counts";
import { type InterPodAffinityContext, podInfoFor } from "./context";
import { type MemoLRU, NodeMemo, type NodeSource } from "./node-memo";
import {
  ErrReasonAffinityRulesNotMatch,
  ErrReasonAntiAffinityRulesNotMatch,
  ErrReasonExistingAntiAffinityRulesNotMatch,
} from "./reasons";
import {
  type IncomingTerm,
  labelsFingerprint,
  type NamespaceLabels,
  namespaceLabels,
  podMatchesAllIncomingTerms,
  podParseErrorMessage,
  resolveTerms,
} from "./terms";
import { labelValue, PairList, TopologyCounts } from "./topology-counts";

export const preFilterStateKey = stateKey<PreFilterState>("PreFilterInterPodAffinity");

/**
 * Counts a cycle state reads. Counts served by a memo are shared with the memo (no copy per
 * cycle) and copied on the first write (AddPod/RemovePod); `stale()` tells when a later cycle's
 * PreFilter has changed shared counts under an older cycle state.
 */
export class CountsView {
  constructor(
    public counts: TopologyCounts,
    public owned: boolean,
    public version: number,
  ) {}

  static owned(counts: TopologyCounts): CountsView {
    return new CountsView(counts, true, counts.version);
  }

  static shared(counts: TopologyCounts): CountsView {
    return new CountsView(counts, false, counts.version);
  }

  stale(): boolean {
    return !this.owned && this.counts.version !== this.version;
  }

  writable(): TopologyCounts {
    if (!this.owned) {
      this.counts = this.counts.clone();
      this.owned = true;
    }
    return this.counts;
  }

  /** A view of the same counts for a cloned cycle state; both copy on their next write. */
  share(): CountsView {
    this.owned = false;
    this.version = this.counts.version;
    return new CountsView(this.counts, false, this.counts.version);
  }
}

/** Computed at PreFilter, read at Filter and updated by AddPod/RemovePod. */
export class PreFilterState implements StateData {
  constructor(
    readonly podInfo: PodInfo,
    /** The incoming pod's required terms, namespaceSelector resolved. */
    readonly affinityTerms: readonly IncomingTerm[],
    readonly antiAffinityTerms: readonly IncomingTerm[],
    readonly namespaceLabels: NamespaceLabels,
    /** Existing pods' required anti-affinity terms matching the incoming pod, per topology pair. */
    public existingAntiAffinityCounts: CountsView,
    /** Existing pods matching all of the incoming pod's affinity terms, per topology pair. */
    public affinityCounts: CountsView,
    /** Existing pods matching the incoming pod's anti-affinity terms, per topology pair. */
    public antiAffinityCounts: CountsView,
    /** Whether the incoming pod matches all its own affinity terms (the self-affinity escape). */
    readonly selfMatchesAffinity: boolean,
  ) {}

  clone(): PreFilterState {
    return new PreFilterState(
      this.podInfo,
      this.affinityTerms,
      this.antiAffinityTerms,
      this.namespaceLabels,
      this.existingAntiAffinityCounts.share(),
      this.affinityCounts.share(),
      this.antiAffinityCounts.share(),
      this.selfMatchesAffinity,
    );
  }

  /** Updates the counts with a pod added to (multiplier 1) or removed from (-1) the node. */
  updateWithPod(pInfo: PodInfo, nodeInfo: NodeInfo, multiplier: 1 | -1): void {
    const labels = nodeInfo.node?.metadata?.labels;
    const incoming = this.podInfo.pod;
    const anti = pInfo.requiredAntiAffinityTerms;
    for (let i = 0; i < anti.length; i++) {
      const t = anti[i]!;
      if (t.matches(incoming, this.namespaceLabels)) {
        update(this.existingAntiAffinityCounts, labels, t.topologyKey, multiplier);
      }
    }
    const pod = pInfo.pod;
    if (podMatchesAllIncomingTerms(this.affinityTerms, pod)) {
      for (const t of this.affinityTerms) update(this.affinityCounts, labels, t.topologyKey, multiplier);
    }
    for (const t of this.antiAffinityTerms) {
      if (t.matches(pod)) update(this.antiAffinityCounts, labels, t.topologyKey, multiplier);
    }
  }
}

function update(
  view: CountsView,
  labels: Readonly<Record<string, string>> | undefined,
  key: string,
  delta: number,
): void {
  const v = labelValue(labels, key);
  if (v !== undefined) view.writable().add(key, v, delta);
}

// --- per-node contributions (shared by the full computation and the memo)

/** Existing pods' required anti-affinity terms on one node that match the incoming pod. */
export function countExistingAntiAffinityOnNode(
  nodeInfo: NodeInfo,
  incomingPod: Pod,
  nsLabels: NamespaceLabels,
): PairList | null {
  const labels = nodeInfo.node?.metadata?.labels;
  let out: PairList | null = null;
  const pods = nodeInfo.podsWithRequiredAntiAffinity;
  for (let p = 0; p < pods.length; p++) {
    const terms = pods[p]!.requiredAntiAffinityTerms;
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i]!;
      if (!t.matches(incomingPod, nsLabels)) continue;
      const v = labelValue(labels, t.topologyKey);
      if (v === undefined) continue;
      out ??= new PairList();
      out.push(t.topologyKey, v, 1);
    }
  }
  return out;
}

export interface IncomingNodeCounts {
  affinity: PairList;
  antiAffinity: PairList;
}

/** The pods of one node matched against the incoming pod's own required terms. */
export function countIncomingOnNode(
  nodeInfo: NodeInfo,
  affinityTerms: readonly IncomingTerm[],
  antiAffinityTerms: readonly IncomingTerm[],
): IncomingNodeCounts | null {
  const labels = nodeInfo.node?.metadata?.labels;
  let out: IncomingNodeCounts | null = null;
  const pods = nodeInfo.pods;
  for (let p = 0; p < pods.length; p++) {
    const pod = pods[p]!.pod;
    if (podMatchesAllIncomingTerms(affinityTerms, pod)) {
      for (let i = 0; i < affinityTerms.length; i++) {
        const key = affinityTerms[i]!.topologyKey;
        const v = labelValue(labels, key);
        if (v === undefined) continue;
        out ??= { affinity: new PairList(), antiAffinity: new PairList() };
        out.affinity.push(key, v, 1);
      }
    }
    for (let i = 0; i < antiAffinityTerms.length; i++) {
      const t = antiAffinityTerms[i]!;
      if (!t.matches(pod)) continue;
      const v = labelValue(labels, t.topologyKey);
      if (v === undefined) continue;
      out ??= { affinity: new PairList(), antiAffinity: new PairList() };
      out.antiAffinity.push(t.topologyKey, v, 1);
    }
  }
  return out;
}

// --- memo entries

export interface ExistingCountsEntry {
  memo: NodeMemo<PairList>;
  counts: TopologyCounts;
}

export interface IncomingCountsEntry {
  memo: NodeMemo<IncomingNodeCounts>;
  affinity: TopologyCounts;
  antiAffinity: TopologyCounts;
}

export interface FilteringMemos {
  existing: MemoLRU<ExistingCountsEntry>;
  incoming: MemoLRU<IncomingCountsEntry>;
}

function existingAntiAffinityCounts(
  ctx: InterPodAffinityContext,
  incomingPod: Pod,
  nsLabels: NamespaceLabels,
  nodes: readonly NodeInfo[],
  source: NodeSource | null,
): CountsView {
  const memos = ctx.filteringMemos;
  const key = memos
    ? `${incomingPod.metadata?.namespace ?? ""}\u0002${labelsFingerprint(incomingPod.metadata?.labels)}\u0002${labelsFingerprint(nsLabels)}`
    : "";
  const entry = memos?.existing.get(key, () => ({
    memo: new NodeMemo<PairList>(),
    counts: new TopologyCounts(),
  }));
  if (entry === undefined) {
    const counts = new TopologyCounts();
    for (let i = 0; i < nodes.length; i++) {
      const c = countExistingAntiAffinityOnNode(nodes[i]!, incomingPod, nsLabels);
      if (c !== null) counts.addList(c, 1);
    }
    return CountsView.owned(counts);
  }
  entry.memo.refresh(
    nodes,
    (ni) => countExistingAntiAffinityOnNode(ni, incomingPod, nsLabels),
    (c, sign) => entry.counts.addList(c, sign),
    source,
  );
  return CountsView.shared(entry.counts);
}

function incomingAffinityAntiAffinityCounts(
  ctx: InterPodAffinityContext,
  affinityTerms: readonly IncomingTerm[],
  antiAffinityTerms: readonly IncomingTerm[],
  nodes: readonly NodeInfo[],
  source: NodeSource | null,
): [CountsView, CountsView] {
  if (affinityTerms.length === 0 && antiAffinityTerms.length === 0) {
    return [CountsView.owned(new TopologyCounts()), CountsView.owned(new TopologyCounts())];
  }
  const memos = ctx.filteringMemos;
  const key = memos
    ? `${affinityTerms.map((t) => t.fingerprint()).join("\u0002")}\u0003${antiAffinityTerms.map((t) => t.fingerprint()).join("\u0002")}`
    : "";
  const entry = memos?.incoming.get(key, () => ({
    memo: new NodeMemo<IncomingNodeCounts>(),
    affinity: new TopologyCounts(),
    antiAffinity: new TopologyCounts(),
  }));
  if (entry === undefined) {
    const affinity = new TopologyCounts();
    const antiAffinity = new TopologyCounts();
    for (let i = 0; i < nodes.length; i++) {
      const c = countIncomingOnNode(nodes[i]!, affinityTerms, antiAffinityTerms);
      if (c === null) continue;
      affinity.addList(c.affinity, 1);
      antiAffinity.addList(c.antiAffinity, 1);
    }
    return [CountsView.owned(affinity), CountsView.owned(antiAffinity)];
  }
  entry.memo.refresh(
    nodes,
    (ni) => countIncomingOnNode(ni, affinityTerms, antiAffinityTerms),
    (c, sign) => {
      entry.affinity.addList(c.affinity, sign);
      entry.antiAffinity.addList(c.antiAffinity, sign);
    },
    source,
  );
  return [CountsView.shared(entry.affinity), CountsView.shared(entry.antiAffinity)];
}

// --- extension points

/** Membership of NodeInfoLister.havePodsWithRequiredAntiAffinityList. */
function hasPodsWithRequiredAntiAffinity(ni: NodeInfo): boolean {
  return ni.podsWithRequiredAntiAffinity.length > 0;
}

export function preFilter(
  ctx: InterPodAffinityContext,
  state: CycleState,
  pod: Pod,
  nodes: readonly NodeInfo[],
): Status | null {
  const podInfo = podInfoFor(ctx, pod);
  if (podInfo.parseError) {
    return new Status(Code.UnschedulableAndUnresolvable, `parsing pod: ${podParseErrorMessage(pod)}`);
  }
  const listers = ctx.handle.listers();
  const affinityTerms = resolveTerms(podInfo.requiredAffinityTerms, listers);
  const antiAffinityTerms = resolveTerms(podInfo.requiredAntiAffinityTerms, listers);
  const nsLabels = namespaceLabels(pod, listers);

  const lister = ctx.handle.snapshotSharedLister().nodeInfos();
  const withAntiAffinity = lister.havePodsWithRequiredAntiAffinityList();
  const existing = existingAntiAffinityCounts(ctx, pod, nsLabels, withAntiAffinity, {
    lister,
    member: hasPodsWithRequiredAntiAffinity,
  });
  const [affinity, antiAffinity] = incomingAffinityAntiAffinityCounts(
    ctx,
    affinityTerms,
    antiAffinityTerms,
    nodes,
    nodes === lister.list() ? { lister, member: null } : null,
  );

  if (existing.counts.pairs === 0 && affinityTerms.length === 0 && antiAffinityTerms.length === 0) {
    return new Status(Code.Skip);
  }
  state.write(
    preFilterStateKey,
    new PreFilterState(
      podInfo,
      affinityTerms,
      antiAffinityTerms,
      nsLabels,
      existing,
      affinity,
      antiAffinity,
      podMatchesAllIncomingTerms(affinityTerms, pod),
    ),
  );
  return null;
}

export function getPreFilterState(state: CycleState): PreFilterState | Status {
  const s = state.read(preFilterStateKey);
  if (s === undefined) {
    return asStatus(new Error(`error reading "${preFilterStateKey}" from cycleState: not found`));
  }
  return s;
}

function staleStateStatus(): Status {
  return asStatus(
    new Error(
      `"${preFilterStateKey}" belongs to an earlier scheduling cycle: its counts changed with a later PreFilter`,
    ),
  );
}

const noLabels: Readonly<Record<string, string>> = Object.freeze({});

export function filter(state: CycleState, nodeInfo: NodeInfo): Status | null {
  const s = state.read(preFilterStateKey);
  if (s === undefined) return getPreFilterState(state) as Status;
  const affinityView = s.affinityCounts;
  const antiView = s.antiAffinityCounts;
  const existingView = s.existingAntiAffinityCounts;
  if (affinityView.stale() || antiView.stale() || existingView.stale()) return staleStateStatus();
  const labels = nodeInfo.node?.metadata?.labels ?? noLabels;

  // The incoming pod's required affinity: every topology key must exist on the node, and the
  // node's domain must hold a pod matching all terms, unless no pod anywhere does and the pod
  // matches its own terms (the first pod of a self-affine group).
  const affinityTerms = s.affinityTerms;
  if (affinityTerms.length > 0) {
    const counts = affinityView.counts;
    let podsExist = true;
    for (let i = 0; i < affinityTerms.length; i++) {
      const key = affinityTerms[i]!.topologyKey;
      const v = labelValue(labels, key);
      if (v === undefined)
        return new Status(Code.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch);
      if (counts.get(key, v) <= 0) podsExist = false;
    }
    if (!podsExist && !(counts.pairs === 0 && s.selfMatchesAffinity)) {
      return new Status(Code.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch);
    }
  }

  // The incoming pod's required anti-affinity.
  const antiCounts = antiView.counts;
  if (antiCounts.pairs > 0) {
    const terms = s.antiAffinityTerms;
    for (let i = 0; i < terms.length; i++) {
      const key = terms[i]!.topologyKey;
      const v = labelValue(labels, key);
      if (v !== undefined && antiCounts.get(key, v) > 0) {
        return new Status(Code.Unschedulable, ErrReasonAntiAffinityRulesNotMatch);
      }
    }
  }

  // Existing pods' required anti-affinity (any of the node's topology pairs).
  const existing = existingView.counts;
  if (existing.pairs > 0) {
    const keys = existing.keys;
    for (let i = 0; i < keys.length; i++) {
      const v = labelValue(labels, keys[i]!);
      if (v !== undefined && (existing.maps[i]!.get(v) ?? 0) > 0) {
        return new Status(Code.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch);
      }
    }
  }
  return null;
}

/**
 * filter() over the snapshot's columns: `out[k]` is null where filter() passes
 * `columns.nodeInfos[indices[k]]` of the window, filter()'s own status elsewhere. The state is read
 * and checked once, node labels come from the columns.
 */
export function filterColumns(state: CycleState, window: ColumnWindow, out: (Status | null)[]): void {
  const { columns, indices, count } = window;
  const s = state.read(preFilterStateKey);
  const infos = columns.nodeInfos;
  if (
    s === undefined ||
    s.affinityCounts.stale() ||
    s.antiAffinityCounts.stale() ||
    s.existingAntiAffinityCounts.stale()
  ) {
    for (let k = 0; k < count; k++) out[k] = filter(state, infos[indices[k]!]!);
    return;
  }
  const affinityCounts = s.affinityCounts.counts;
  const affinity = s.affinityTerms.map((t) => new CountsByLabel(columns, t.topologyKey, affinityCounts));
  const selfEscape = affinityCounts.pairs === 0 && s.selfMatchesAffinity;
  const antiCounts = s.antiAffinityCounts.counts;
  const anti =
    antiCounts.pairs > 0
      ? s.antiAffinityTerms.map((t) => new CountsByLabel(columns, t.topologyKey, antiCounts))
      : [];
  const existingCounts = s.existingAntiAffinityCounts.counts;
  const existing =
    existingCounts.pairs > 0
      ? existingCounts.keys.map((key) => new CountsByLabel(columns, key, existingCounts))
      : [];
  for (let k = 0; k < count; k++) {
    const idx = indices[k]!;
    // The checks of filter(), in its order, with its statuses.
    let status: Status | null = null;
    if (affinity.length > 0) {
      let podsExist = true;
      let missing = false;
      for (let i = 0; i < affinity.length; i++) {
        const c = affinity[i]!;
        const id = c.valueIds[idx]!;
        if (id < 0) {
          missing = true;
          break;
        }
        if (c.get(id) <= 0) podsExist = false;
      }
      if (missing || (!podsExist && !selfEscape)) {
        status = new Status(Code.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch);
      }
    }
    for (let i = 0; status === null && i < anti.length; i++) {
      const c = anti[i]!;
      const id = c.valueIds[idx]!;
      if (id >= 0 && c.get(id) > 0)
        status = new Status(Code.Unschedulable, ErrReasonAntiAffinityRulesNotMatch);
    }
    for (let i = 0; status === null && i < existing.length; i++) {
      const c = existing[i]!;
      const id = c.valueIds[idx]!;
      if (id >= 0 && c.get(id) > 0) {
        status = new Status(Code.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch);
      }
    }
    out[k] = status;
  }
}

export function addOrRemovePod(
  state: CycleState,
  podInfo: PodInfo,
  nodeInfo: NodeInfo,
  multiplier: 1 | -1,
): Status | null {
  const s = getPreFilterState(state);
  if (s instanceof Status) return s;
  s.updateWithPod(podInfo, nodeInfo, multiplier);
  return null;
}
