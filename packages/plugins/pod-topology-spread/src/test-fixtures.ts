// Test-only helpers shared by the ported upstream tables.
import { type LabelSelector, labelSelectorAsSelector, matchesNothing, type Selector } from "@kubesched/api";
import type { CycleState } from "@kubesched/framework";
import { makeLabelSelector } from "@kubesched/testing";
import type { NodeInclusionPolicy, SpreadConstraint } from "./common";
import { type CriticalPaths, preFilterStateKey } from "./filtering";
import { preScoreStateKey } from "./scoring";

export const fooSelector = makeLabelSelector().exists("foo").obj();
export const barSelector = makeLabelSelector().exists("bar").obj();
export const taints = [{ key: "node.kubernetes.io/unschedulable", value: "", effect: "NoSchedule" }];

/** A selector as comparable text ("<nothing>" for labels.Nothing()). */
export function selectorString(s: Selector): string {
  return matchesNothing(s) ? "<nothing>" : s.string();
}

export interface ConstraintSummary {
  maxSkew: number;
  topologyKey: string;
  selector: string;
  minDomains: number;
  nodeAffinityPolicy: NodeInclusionPolicy;
  nodeTaintsPolicy: NodeInclusionPolicy;
}

/** An expected parsed constraint (defaults: minDomains 1, Honor / Ignore). */
export function tsc(
  maxSkew: number,
  topologyKey: string,
  selector: LabelSelector | Selector | null,
  opts: Partial<Pick<ConstraintSummary, "minDomains" | "nodeAffinityPolicy" | "nodeTaintsPolicy">> = {},
): ConstraintSummary {
  const sel =
    selector !== null && typeof (selector as Selector).matches === "function"
      ? (selector as Selector)
      : labelSelectorAsSelector(selector as LabelSelector | null);
  return {
    maxSkew,
    topologyKey,
    selector: selectorString(sel),
    minDomains: opts.minDomains ?? 1,
    nodeAffinityPolicy: opts.nodeAffinityPolicy ?? "Honor",
    nodeTaintsPolicy: opts.nodeTaintsPolicy ?? "Ignore",
  };
}

export function summarizeConstraint(c: SpreadConstraint): ConstraintSummary {
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    selector: selectorString(c.selector),
    minDomains: c.minDomains,
    nodeAffinityPolicy: c.nodeAffinityPolicy,
    nodeTaintsPolicy: c.nodeTaintsPolicy,
  };
}

export type Path = [string, number];

/** Critical paths as upstream's test comparer sees them: equal counts sorted by value. */
export function sortPaths(p: [Path, Path]): [Path, Path] {
  const [a, b] = p;
  if (a[1] === b[1] && a[0] > b[0])
    return [
      [b[0], a[1]],
      [a[0], b[1]],
    ];
  return [a, b];
}

export function pathsOf(p: CriticalPaths): [Path, Path] {
  return sortPaths([
    [p.value0, p.num0],
    [p.value1, p.num1],
  ]);
}

export const MaxInt32 = 2147483647;
/** newCriticalPaths(): no domain yet. */
export const noPaths: [Path, Path] = [
  ["", MaxInt32],
  ["", MaxInt32],
];

export interface PreFilterStateSummary {
  constraints: ConstraintSummary[];
  /** Per constraint: topology value → matching pods. */
  counts: Record<string, number>[];
  /** Per constraint: the two critical paths (sorted as upstream's comparer). */
  paths: [Path, Path][];
}

export function summarizePreFilterState(cs: CycleState): PreFilterStateSummary | undefined {
  const s = cs.read(preFilterStateKey);
  if (!s) return undefined;
  return {
    constraints: s.constraints.map(summarizeConstraint),
    counts: s.tpValueToMatchNum.map((m) => Object.fromEntries(m)),
    paths: s.criticalPaths.map(pathsOf),
  };
}

/** Expected paths, normalized the same way. */
export function paths(...ps: [Path, Path][]): [Path, Path][] {
  return ps.map(sortPaths);
}

export interface PreScoreStateSummary {
  constraints: ConstraintSummary[];
  ignoredNodes: string[];
  counts: Record<string, number>[];
  weights: number[];
}

export function summarizePreScoreState(cs: CycleState): PreScoreStateSummary | undefined {
  const s = cs.read(preScoreStateKey);
  if (!s) return undefined;
  return {
    constraints: s.constraints.map(summarizeConstraint),
    ignoredNodes: [...s.ignoredNodes].sort(),
    counts: s.topologyValueToPodCounts.map((m) => Object.fromEntries(m)),
    weights: [...s.topologyNormalizingWeight],
  };
}
