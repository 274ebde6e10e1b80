// upstream: pkg/scheduler/framework/plugins/podtopologyspread/scoring.go
import {
  getRequiredNodeAffinity,
  LabelHostname,
  matchesNothing,
  type Pod,
  type Selector,
} from "@kubesched/api";
import {
  type CycleState,
  MaxNodeScore,
  type NodeInfo,
  type NodeScore,
  type StateData,
  stateKey,
} from "@kubesched/framework";
import type { ColumnWindow } from "@kubesched/framework/columnar";
import { countPodsMatchSelector, nodeLabelsMatchSpreadConstraints, type SpreadConstraint } from "./common";
import type { CountOptions, SpreadCounter } from "./counting";

const invalidScore = -1;

/** What PreScore computed for Score and NormalizeScore (read-only, so clone() shares it). */
export class PreScoreState implements StateData {
  constructor(
    readonly constraints: readonly SpreadConstraint[],
    /** Filtered nodes missing a topology key (scored 0) when all keys are required. */
    readonly ignoredNodes: ReadonlySet<string>,
    /** Per constraint: topology value → matching pods; hostname constraints are counted in Score. */
    readonly topologyValueToPodCounts: readonly Map<string, number>[],
    /** Per constraint: ln(number of domains + 2), so small topologies are not watered down. */
    readonly topologyNormalizingWeight: readonly number[],
    /** The incoming pod's namespace. */
    readonly namespace: string,
    readonly isHostname: readonly boolean[],
  ) {}

  clone(): PreScoreState {
    return this;
  }
}

export const preScoreStateKey = stateKey<PreScoreState>("PreScorePodTopologySpread");

/** upstream topologyNormalizingWeight: ln(size + 2), in [1.09, 8.52] for up to 5k domains. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

/** count × weight + (maxSkew − 1): maxSkew waters down the differences between domains. */
export function scoreForCount(cnt: number, maxSkew: number, tpWeight: number): number {
  return cnt * tpWeight + (maxSkew - 1);
}

/**
 * Builds the PreScore state: ignored nodes and seeded domains from the filtered nodes, weights,
 * then the counts over all nodes.
 */
export function calPreScoreState(
  pod: Pod,
  constraints: readonly SpreadConstraint[],
  filteredNodes: readonly NodeInfo[],
  allNodes: readonly NodeInfo[],
  requireAllTopologies: boolean,
  counter: SpreadCounter,
  opts: CountOptions,
): PreScoreState {
  const seed = new PreScoreSeed(constraints);
  for (const ni of filteredNodes) seed.addNode(ni, requireAllTopologies);
  return seed.finish(pod, filteredNodes.length, allNodes, requireAllTopologies, counter, opts);
}

/**
 * calPreScoreState over the filtered nodes given as column indices: the same state, with the
 * nodes' topology values read from the snapshot's label columns (nodes missing a key are read
 * from their labels, as calPreScoreState does).
 */
export function calPreScoreStateBatch(
  pod: Pod,
  constraints: readonly SpreadConstraint[],
  window: ColumnWindow,
  allNodes: readonly NodeInfo[],
  requireAllTopologies: boolean,
  counter: SpreadCounter,
  opts: CountOptions,
): PreScoreState {
  const { columns, indices, count } = window;
  const seed = new PreScoreSeed(constraints);
  const nc = constraints.length;
  const ids: Int32Array[] = new Array(nc);
  const values: (readonly string[])[] = new Array(nc);
  for (let i = 0; i < nc; i++) {
    const col = columns.labelColumn(constraints[i]!.topologyKey);
    ids[i] = col.valueIds;
    values[i] = col.values;
  }
  const infos = columns.nodeInfos;
  for (let k = 0; k < count; k++) {
    const idx = indices[k]!;
    let all = true;
    for (let i = 0; i < nc; i++) {
      if (ids[i]![idx]! < 0) {
        all = false;
        break;
      }
    }
    if (!all) {
      seed.addNode(infos[idx]!, requireAllTopologies);
      continue;
    }
    for (let i = 0; i < nc; i++) {
      if (seed.isHostname[i]) continue;
      seed.seedValue(i, values[i]![ids[i]![idx]!]!);
    }
  }
  return seed.finish(pod, count, allNodes, requireAllTopologies, counter, opts);
}

/** The part of calPreScoreState that walks the filtered nodes: ignored nodes and seeded domains. */
class PreScoreSeed {
  readonly ignored = new Set<string>();
  readonly counts: Map<string, number>[] = [];
  readonly topoSize: number[] = [];
  readonly isHostname: boolean[] = [];

  constructor(readonly constraints: readonly SpreadConstraint[]) {
    for (const c of constraints) {
      this.counts.push(new Map());
      this.topoSize.push(0);
      this.isHostname.push(c.topologyKey === LabelHostname);
    }
  }

  seedValue(i: number, value: string): void {
    const m = this.counts[i]!;
    if (!m.has(value)) {
      m.set(value, 0);
      this.topoSize[i]!++;
    }
  }

  addNode(ni: NodeInfo, requireAllTopologies: boolean): void {
    const constraints = this.constraints;
    const labels = ni.node?.metadata?.labels;
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, constraints)) {
      // Nodes missing a required topology key are scored 0.
      this.ignored.add(ni.nodeName);
      return;
    }
    for (let i = 0; i < constraints.length; i++) {
      // Per-node counts are taken in Score.
      if (this.isHostname[i]) continue;
      this.seedValue(i, labels?.[constraints[i]!.topologyKey] ?? "");
    }
  }

  finish(
    pod: Pod,
    numFiltered: number,
    allNodes: readonly NodeInfo[],
    requireAllTopologies: boolean,
    counter: SpreadCounter,
    opts: CountOptions,
  ): PreScoreState {
    const { constraints, ignored, counts, topoSize, isHostname } = this;
    const weights = constraints.map((_c, i) =>
      topologyNormalizingWeight(isHostname[i] ? numFiltered - ignored.size : topoSize[i]!),
    );
    counter.countScheduleAnyway(
      pod,
      allNodes,
      constraints,
      getRequiredNodeAffinity(pod),
      requireAllTopologies,
      counts,
      opts,
    );
    return new PreScoreState(
      constraints,
      ignored,
      counts,
      weights,
      pod.metadata?.namespace ?? "",
      isHostname,
    );
  }
}

export function getPreScoreState(cycleState: CycleState): PreScoreState {
  const s = cycleState.read(preScoreStateKey);
  if (s === undefined) throw new Error(`error reading "${preScoreStateKey}" from cycleState: not found`);
  return s;
}

/** Score: the (weighted) number of matching pods in the node's domains; lower is better. */
export function scoreNode(s: PreScoreState, nodeInfo: NodeInfo): number {
  if (s.ignoredNodes.has(nodeInfo.nodeName)) return 0;
  const labels = nodeInfo.node?.metadata?.labels;
  if (labels === undefined) return 0;
  let score = 0;
  const constraints = s.constraints;
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    const tpVal = labels[c.topologyKey];
    if (tpVal === undefined) continue;
    const cnt = s.isHostname[i]
      ? countPodsMatchSelector(nodeInfo.pods, c.selector, s.namespace)
      : (s.topologyValueToPodCounts[i]!.get(tpVal) ?? 0);
    score += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]!);
  }
  // Scores are non-negative, so Math.round matches Go's math.Round (half away from zero).
  return Math.round(score);
}

/** NormalizeScore: fewer matching pods → higher score; ignored nodes get 0. */
export function normalizeScores(s: PreScoreState, scores: NodeScore[]): void {
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  for (const sc of scores) {
    if (s.ignoredNodes.has(sc.name)) {
      sc.score = invalidScore;
      continue;
    }
    if (sc.score < minScore) minScore = sc.score;
    if (sc.score > maxScore) maxScore = sc.score;
  }
  for (const sc of scores) {
    if (sc.score === invalidScore) {
      sc.score = 0;
      continue;
    }
    if (maxScore === 0) {
      sc.score = MaxNodeScore;
      continue;
    }
    sc.score = Math.trunc((MaxNodeScore * (maxScore + minScore - sc.score)) / maxScore);
  }
}

/** A hostname constraint's matching pods per node, by column index, with the generation counted. */
interface HostCounts {
  generations: Float64Array;
  counts: Float64Array;
}

/** How many (namespace, selector) pairs keep per-node counts (least recently used are dropped). */
const maxHostCountKeys = 16;

/**
 * The matching pods of hostname constraints per node, kept across cycles (by column index) and
 * recounted only on nodes whose generation moved: scoring a node then costs two array reads
 * instead of a selector match per pod on it.
 */
export class HostnameCountsMemo {
  private readonly byKey = new Map<string, HostCounts>();

  /** The counts for (namespace, selector), sized for `size` nodes. */
  entry(namespace: string, selector: Selector, size: number): HostCounts {
    const key = `${namespace}\u0001${matchesNothing(selector) ? "\u0000nothing" : selector.string()}`;
    let e = this.byKey.get(key);
    if (e !== undefined) {
      this.byKey.delete(key);
    } else if (this.byKey.size >= maxHostCountKeys) {
      this.byKey.delete(this.byKey.keys().next().value as string);
    }
    if (e === undefined || e.generations.length < size) {
      const c = Math.max(size, 16);
      e = { generations: new Float64Array(c).fill(Number.NaN), counts: new Float64Array(c) };
    }
    this.byKey.set(key, e);
    return e;
  }
}

/**
 * scoreNode over the snapshot's columns (`scores[k]` for `columns.nodeInfos[indices[k]]`): the
 * count of a domain is looked up once per topology value; hostname constraints count the node's
 * pods as scoreNode does; nodes missing a key (or ignored) go to scoreNode.
 */
export function scoreNodes(
  s: PreScoreState,
  window: ColumnWindow,
  scores: Float64Array,
  hostCounts: HostnameCountsMemo | null = null,
): void {
  const { columns, indices, count } = window;
  const constraints = s.constraints;
  const nc = constraints.length;
  const ids: Int32Array[] = new Array(nc);
  const values: (readonly string[])[] = new Array(nc);
  // Per non-hostname constraint and topology value: its count, NaN until looked up.
  const counts: (Float64Array | null)[] = new Array(nc);
  // Per hostname constraint: the per-node counts kept across cycles (null: count every time).
  const hosts: (HostCounts | null)[] = new Array(nc);
  for (let i = 0; i < nc; i++) {
    const col = columns.labelColumn(constraints[i]!.topologyKey);
    ids[i] = col.valueIds;
    values[i] = col.values;
    counts[i] = s.isHostname[i] ? null : new Float64Array(col.values.length).fill(Number.NaN);
    hosts[i] =
      s.isHostname[i] && hostCounts !== null
        ? hostCounts.entry(s.namespace, constraints[i]!.selector, columns.size)
        : null;
  }
  const generation = columns.generation;
  const infos = columns.nodeInfos;
  const checkIgnored = s.ignoredNodes.size > 0;
  for (let k = 0; k < count; k++) {
    const idx = indices[k]!;
    const ni = infos[idx]!;
    if (checkIgnored && s.ignoredNodes.has(ni.nodeName)) {
      scores[k] = 0;
      continue;
    }
    let score = 0;
    let perNode = false;
    for (let i = 0; i < nc; i++) {
      const id = ids[i]![idx]!;
      if (id < 0) {
        perNode = true;
        break;
      }
      const c = constraints[i]!;
      let cnt: number;
      const byValue = counts[i];
      if (byValue === null || byValue === undefined) {
        const h = hosts[i];
        if (h === null || h === undefined) {
          cnt = countPodsMatchSelector(ni.pods, c.selector, s.namespace);
        } else if (h.generations[idx] === generation[idx]) {
          cnt = h.counts[idx]!;
        } else {
          cnt = countPodsMatchSelector(ni.pods, c.selector, s.namespace);
          h.counts[idx] = cnt;
          h.generations[idx] = generation[idx]!;
        }
      } else {
        cnt = byValue[id]!;
        if (Number.isNaN(cnt)) {
          cnt = s.topologyValueToPodCounts[i]!.get(values[i]![id]!) ?? 0;
          byValue[id] = cnt;
        }
      }
      score += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]!);
    }
    scores[k] = perNode ? scoreNode(s, ni) : Math.round(score);
  }
}

/** normalizeScores over a score array (`scores[k]` of `columns.nodeInfos[indices[k]]`). */
export function normalizeScoresBatch(s: PreScoreState, window: ColumnWindow, scores: Float64Array): void {
  const { columns, indices, count } = window;
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  const checkIgnored = s.ignoredNodes.size > 0;
  const infos = columns.nodeInfos;
  for (let k = 0; k < count; k++) {
    if (checkIgnored && s.ignoredNodes.has(infos[indices[k]!]!.nodeName)) {
      scores[k] = invalidScore;
      continue;
    }
    const sc = scores[k]!;
    if (sc < minScore) minScore = sc;
    if (sc > maxScore) maxScore = sc;
  }
  for (let k = 0; k < count; k++) {
    const sc = scores[k]!;
    if (sc === invalidScore) {
      scores[k] = 0;
      continue;
    }
    if (maxScore === 0) {
      scores[k] = MaxNodeScore;
      continue;
    }
    scores[k] = Math.trunc((MaxNodeScore * (maxScore + minScore - sc)) / maxScore);
  }
}
