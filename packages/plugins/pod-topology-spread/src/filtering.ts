// upstream: pkg/scheduler/framework/plugins/podtopologyspread/filtering.go
import { getRequiredNodeAffinity, type Node, type Pod, type RequiredNodeAffinity } from "@kubesched/api";
import {
  Code,
  type CycleState,
  type FilterDetail,
  type NodeInfo,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import type { ColumnWindow } from "@kubesched/framework/columnar";
import {
  matchNodeInclusionPolicies,
  nodeLabelsMatchSpreadConstraints,
  type SpreadConstraint,
} from "./common";
import type { CountOptions, SpreadCounter } from "./counting";
import type { DomainCounts } from "./domains";
import { ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch } from "./reasons";

/** math.MaxInt32: the "no domain yet" sentinel of a critical path. */
const MaxInt32 = 2147483647;

/**
 * The two topology values with the fewest matching pods (upstream criticalPaths): [0] always
 * holds the minimum; [1] is >= [0] but not necessarily the second minimum. Two suffice because
 * AddPod/RemovePod only ever change the domain of one node per state copy.
 */
export class CriticalPaths {
  value0 = "";
  num0 = MaxInt32;
  value1 = "";
  num1 = MaxInt32;

  update(tpVal: string, num: number): void {
    if (tpVal === this.value0 || tpVal === this.value1) {
      if (tpVal === this.value0) this.num0 = num;
      else this.num1 = num;
      if (this.num0 > this.num1) {
        const v = this.value0;
        const n = this.num0;
        this.value0 = this.value1;
        this.num0 = this.num1;
        this.value1 = v;
        this.num1 = n;
      }
    } else if (num < this.num0) {
      this.value1 = this.value0;
      this.num1 = this.num0;
      this.value0 = tpVal;
      this.num0 = num;
    } else if (num < this.num1) {
      this.value1 = tpVal;
      this.num1 = num;
    }
  }

  /**
   * The critical paths of `m` as `update` over its domains in insertion order makes them: [0] is
   * the first domain (in that order) with the fewest pods, [1] the first with the fewest among
   * the others: the first two by (count, insertion stamp).
   */
  static of(m: DomainCounts): CriticalPaths {
    const p = new CriticalPaths();
    const a = m.firstId();
    const b = m.secondId();
    const values = m.ids.values;
    if (a >= 0) {
      p.value0 = values[a]!;
      p.num0 = m.countOf(a);
    }
    if (b >= 0) {
      p.value1 = values[b]!;
      p.num1 = m.countOf(b);
    }
    return p;
  }

  copy(): CriticalPaths {
    const c = new CriticalPaths();
    c.value0 = this.value0;
    c.num0 = this.num0;
    c.value1 = this.value1;
    c.num1 = this.num1;
    return c;
  }
}

/**
 * What PreFilter computed for Filter: per DoNotSchedule constraint, the matching pods per
 * topology value and the critical paths. An empty constraints list is never stored (PreFilter
 * returns Skip instead).
 */
export class PreFilterState implements StateData {
  constructor(
    readonly constraints: readonly SpreadConstraint[],
    /** Per constraint: topology value → matching pods (eligible domains only). */
    readonly tpValueToMatchNum: DomainCounts[],
    readonly criticalPaths: CriticalPaths[],
    /** Per constraint: 1 when the incoming pod matches its own selector, else 0. */
    readonly selfMatchNum: readonly number[],
    /** The incoming pod's namespace, nodeSelector and required node affinity (for AddPod/RemovePod). */
    readonly requiredNodeAffinity: RequiredNodeAffinity,
  ) {}

  // The status filterNodes gives every node over maxSkew: one object per state instead of one per
  // node (the framework records it per node and only sets its plugin, the same name every time).
  private overSkew: Status | null = null;

  /** filterNode's status for a node over maxSkew, shared by the nodes of this state's batches. */
  overSkewStatus(): Status {
    if (this.overSkew === null) this.overSkew = new Status(Code.Unschedulable, ErrReasonConstraintsNotMatch);
    return this.overSkew;
  }

  /** The global minimum for skew, 0 when fewer than minDomains domains are eligible. */
  minMatchNum(i: number, minDomains: number): number {
    if (this.tpValueToMatchNum[i]!.size < minDomains) return 0;
    return this.criticalPaths[i]!.num0;
  }

  clone(): PreFilterState {
    return new PreFilterState(
      this.constraints,
      this.tpValueToMatchNum.map((m) => m.copy()),
      this.criticalPaths.map((p) => p.copy()),
      this.selfMatchNum,
      this.requiredNodeAffinity,
    );
  }
}

export const preFilterStateKey = stateKey<PreFilterState>("PreFilterPodTopologySpread");

/** Counts matching pods per domain over all nodes and derives the critical paths. */
export function calPreFilterState(
  pod: Pod,
  nodes: readonly NodeInfo[],
  constraints: readonly SpreadConstraint[],
  counter: SpreadCounter,
  opts: CountOptions,
): PreFilterState {
  const requiredNodeAffinity = getRequiredNodeAffinity(pod);
  const counts = counter.countDoNotSchedule(pod, nodes, constraints, requiredNodeAffinity, opts);
  const paths: CriticalPaths[] = [];
  const selfMatch: number[] = [];
  const labels = pod.metadata?.labels;
  for (let i = 0; i < constraints.length; i++) {
    paths.push(CriticalPaths.of(counts[i]!));
    selfMatch.push(constraints[i]!.selector.matches(labels) ? 1 : 0);
  }
  return new PreFilterState(constraints, counts, paths, selfMatch, requiredNodeAffinity);
}

/** Reads the PreFilter state, or throws the error upstream reports when PreFilter did not run. */
export function getPreFilterState(cycleState: CycleState): PreFilterState {
  const s = cycleState.read(preFilterStateKey);
  if (s === undefined) throw new Error(`reading "${preFilterStateKey}" from cycleState: not found`);
  return s;
}

/**
 * Adds (delta 1) or removes (delta -1) a pod on `node` to the counts, as upstream updateWithPod:
 * only pods of the incoming pod's namespace, on nodes with every topology key that pass the
 * inclusion policies, matching each constraint's selector.
 */
export function updateWithPod(
  s: PreFilterState,
  updatedPod: Pod,
  preemptorPod: Pod,
  node: Node | null,
  delta: number,
  opts: CountOptions,
): void {
  if ((updatedPod.metadata?.namespace ?? "") !== (preemptorPod.metadata?.namespace ?? "") || node === null) {
    return;
  }
  const nodeLabels = node.metadata?.labels;
  if (!nodeLabelsMatchSpreadConstraints(nodeLabels, s.constraints)) return;
  if (!opts.enableNodeInclusionPolicy && !s.requiredNodeAffinity.match(node)) return;
  const podLabels = updatedPod.metadata?.labels;
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    if (!c.selector.matches(podLabels)) continue;
    if (
      opts.enableNodeInclusionPolicy &&
      !matchNodeInclusionPolicies(c, preemptorPod, node, s.requiredNodeAffinity, opts.tolerationOptions)
    ) {
      continue;
    }
    const v = nodeLabels![c.topologyKey]!;
    const m = s.tpValueToMatchNum[i]!;
    const cur = (m.get(v) ?? 0) + delta;
    m.set(v, cur);
    s.criticalPaths[i]!.update(v, cur);
  }
}

/** Filter: skew = matching pods in the node's domain + self-match − global minimum must not exceed maxSkew. */
export function filterNode(s: PreFilterState, nodeInfo: NodeInfo): Status | null {
  const node = nodeInfo.node;
  if (node === null) return new Status(Code.Error).withError(new Error("node not found"));
  const labels = node.metadata?.labels;
  const constraints = s.constraints;
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    const tpVal = labels?.[c.topologyKey];
    if (tpVal === undefined) return new Status(Code.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch);
    const minMatchNum = s.minMatchNum(i, c.minDomains);
    const matchNum = s.tpValueToMatchNum[i]!.get(tpVal) ?? 0;
    if (matchNum + s.selfMatchNum[i]! - minMatchNum > c.maxSkew) {
      return new Status(Code.Unschedulable, ErrReasonConstraintsNotMatch);
    }
  }
  return null;
}

/**
 * The constraints filterNode finds the node violating, each with its numbers (the diagnostic
 * pass): filterNode stops at the first; this lists every one.
 */
export function filterNodeDetails(s: PreFilterState, nodeInfo: NodeInfo): FilterDetail[] {
  const labels = nodeInfo.node?.metadata?.labels;
  const out: FilterDetail[] = [];
  s.constraints.forEach((c, i) => {
    const domain = labels?.[c.topologyKey];
    if (domain === undefined) {
      out.push({
        kind: "TopologySpread",
        topologyKey: c.topologyKey,
        domain: null,
        matchingPods: null,
        minMatchingPods: null,
        skew: null,
        maxSkew: c.maxSkew,
      });
      return;
    }
    const minMatchingPods = s.minMatchNum(i, c.minDomains);
    const matchingPods = s.tpValueToMatchNum[i]!.get(domain) ?? 0;
    const skew = matchingPods + s.selfMatchNum[i]! - minMatchingPods;
    if (skew <= c.maxSkew) return;
    out.push({
      kind: "TopologySpread",
      topologyKey: c.topologyKey,
      domain,
      matchingPods,
      minMatchingPods,
      skew,
      maxSkew: c.maxSkew,
    });
  });
  return out;
}

/**
 * filterNode over the snapshot's columns: `out[k]` is null where filterNode passes
 * `columns.nodeInfos[indices[k]]`, filterNode's status elsewhere. A node's count is read by its
 * value's id (the column's ids translated once to the counts' ids); nodes missing a key go to
 * filterNode.
 */
export function filterNodes(s: PreFilterState, window: ColumnWindow, out: (Status | null)[]): void {
  const { columns, indices, count } = window;
  const constraints = s.constraints;
  const nc = constraints.length;
  if (nc === 1) {
    filterNodesOne(s, window, out);
    return;
  }
  const ids: Int32Array[] = new Array(nc);
  const toCounts: Int32Array[] = new Array(nc);
  // Per constraint: the most pods a domain may hold (matchNum + selfMatch - min <= maxSkew).
  const limit = new Float64Array(nc);
  for (let i = 0; i < nc; i++) {
    const c = constraints[i]!;
    const col = columns.labelColumn(c.topologyKey);
    ids[i] = col.valueIds;
    toCounts[i] = s.tpValueToMatchNum[i]!.ids.fromColumn(col);
    limit[i] = c.maxSkew + s.minMatchNum(i, c.minDomains) - s.selfMatchNum[i]!;
  }
  const infos = columns.nodeInfos;
  for (let k = 0; k < count; k++) {
    const idx = indices[k]!;
    // 0: passes; 1: over maxSkew (filterNode's status); 2: a key missing (filterNode decides).
    let verdictOfNode = 0;
    for (let i = 0; i < nc; i++) {
      const id = ids[i]![idx]!;
      if (id < 0) {
        verdictOfNode = 2;
        break;
      }
      if (s.tpValueToMatchNum[i]!.countOf(toCounts[i]![id]!) > limit[i]!) {
        verdictOfNode = 1;
        break;
      }
    }
    out[k] =
      verdictOfNode === 0 ? null : verdictOfNode === 1 ? s.overSkewStatus() : filterNode(s, infos[idx]!);
  }
}

/** filterNodes with one constraint (the common case), without the per-constraint arrays. */
function filterNodesOne(s: PreFilterState, window: ColumnWindow, out: (Status | null)[]): void {
  const { columns, indices, count } = window;
  const c = s.constraints[0]!;
  const col = columns.labelColumn(c.topologyKey);
  const ids = col.valueIds;
  const m = s.tpValueToMatchNum[0]!;
  const toCounts = m.ids.fromColumn(col);
  const limit = c.maxSkew + s.minMatchNum(0, c.minDomains) - s.selfMatchNum[0]!;
  const infos = columns.nodeInfos;
  const over = s.overSkewStatus();
  for (let k = 0; k < count; k++) {
    const idx = indices[k]!;
    const id = ids[idx]!;
    if (id < 0) out[k] = filterNode(s, infos[idx]!);
    else out[k] = m.countOf(toCounts[id]!) > limit ? over : null;
  }
}
