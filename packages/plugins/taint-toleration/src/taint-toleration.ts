// upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
import {
  doNotScheduleTaintsFilter,
  findMatchingUntoleratedTaint,
  type Pod,
  TaintEffectPreferNoSchedule,
  type Toleration,
  type TolerationOptions,
  tolerationsTolerateTaint,
} from "@kubesched/api";
import {
  asStatus,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  defaultKubernetesVersion,
  defaultNormalizer,
  type EnqueueExtensions,
  type Features,
  type FilterDetail,
  type FilterDetailsPlugin,
  type FilterPlugin,
  MaxNodeScore,
  minorOf,
  type NodeInfo,
  type PreScorePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
  TolerationsSignerName,
  tolerationsSigner,
} from "@kubesched/framework";
import type { ColumnarFilterPlugin, ColumnarScorePlugin, ColumnWindow } from "@kubesched/framework/columnar";
import { eventsToRegister } from "./events";
import { ErrReasonUntoleratedTaint, errReasonUntoleratedTaintNamed } from "./reasons";

export const name = "TaintToleration";

/** Tolerations that can tolerate PreferNoSchedule taints, computed once per cycle. */
class PreScoreState implements StateData {
  constructor(readonly tolerationsPreferNoSchedule: readonly Toleration[]) {}
  /** Not affected by pod additions or removals: shared, as upstream. */
  clone(): StateData {
    return this;
  }
}

const preScoreStateKey = stateKey<PreScoreState>(`PreScore${name}`);

/** Tolerations whose effect is empty (all effects) or PreferNoSchedule. */
function getAllTolerationPreferNoSchedule(tolerations: readonly Toleration[] | undefined): Toleration[] {
  const out: Toleration[] = [];
  for (const t of tolerations ?? []) {
    if (!t.effect || t.effect === TaintEffectPreferNoSchedule) out.push(t);
  }
  return out;
}

/** Checks that a pod tolerates a node's taints; prefers nodes with fewer intolerable PreferNoSchedule taints. */
export class TaintToleration
  implements
    FilterPlugin,
    FilterDetailsPlugin,
    ColumnarFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ColumnarScorePlugin,
    EnqueueExtensions,
    SignPlugin
{
  /** NormalizeScore: upstream's DefaultNormalizeScore(MaxNodeScore, true, scores). */
  private readonly normalizer = defaultNormalizer(MaxNodeScore, true);
  private readonly tolerationOptions: TolerationOptions;
  private readonly enableSchedulingQueueHint: boolean;
  /** Per taint set of the columns, during one columnar call: -1 not decided yet, else the answer. */
  private perTaintSet = new Int32Array(16);

  /** Before 1.35 the reason names the taint (kubernetes/kubernetes#134740). */
  private readonly namesTaint: boolean;

  /** `kubernetesVersion` (`handle.kubernetesVersion()`): the release whose wording Filter uses. */
  constructor(features: Features, kubernetesVersion: string = defaultKubernetesVersion) {
    this.namesTaint = minorOf(kubernetesVersion) < 35;
    this.tolerationOptions = {
      enableComparisonOperators: features.enableTaintTolerationComparisonOperators,
    };
    this.enableSchedulingQueueHint = features.enableSchedulingQueueHint;
  }

  name(): string {
    return name;
  }

  /** Feasibility and scoring depend on the pod's tolerations (upstream SignPod). */
  signPod(pod: Pod): SignPodResult {
    return { fragments: [{ key: TolerationsSignerName, value: tolerationsSigner(pod) }], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.enableSchedulingQueueHint, this.tolerationOptions);
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    const taint = findMatchingUntoleratedTaint(
      nodeInfo.taints,
      pod.spec?.tolerations,
      doNotScheduleTaintsFilter,
      this.tolerationOptions,
    );
    if (taint === undefined) return null;
    return this.untolerated(taint);
  }

  private untolerated(taint: { key: string; value?: string }): Status {
    return new Status(
      Code.UnschedulableAndUnresolvable,
      this.namesTaint ? errReasonUntoleratedTaintNamed(taint) : ErrReasonUntoleratedTaint,
    );
  }

  /** Every NoSchedule/NoExecute taint of the node the pod does not tolerate (filter names none). */
  filterDetails(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): FilterDetail[] {
    const out: FilterDetail[] = [];
    for (const taint of nodeInfo.taints ?? []) {
      if (!doNotScheduleTaintsFilter(taint)) continue;
      if (tolerationsTolerateTaint(pod.spec?.tolerations, taint, this.tolerationOptions)) continue;
      out.push({ kind: "UntoleratedTaint", taint });
    }
    return out;
  }

  /** The per-taint-set scratch, cleared to -1 for `n` sets. */
  private taintSetScratch(n: number): Int32Array {
    if (this.perTaintSet.length < n)
      this.perTaintSet = new Int32Array(Math.max(n, this.perTaintSet.length * 2));
    this.perTaintSet.fill(-1, 0, n);
    return this.perTaintSet;
  }

  /** filter() decided once per taint set: nodes with equal taints get the same answer. */
  filterColumns(_state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    const ids = columns.taintSetIds;
    const fits = this.taintSetScratch(columns.taintSetCount);
    const tolerations = pod.spec?.tolerations;
    // One status for the call's rejected nodes (statuses are not mutated once returned; the
    // framework only sets their plugin, this one's name).
    // Before 1.35 the reason names the taint: one status per rejecting taint set.
    let untolerated: Status | null = null;
    const named = this.namesTaint ? new Map<number, Status>() : null;
    for (let k = 0; k < count; k++) {
      const id = ids[indices[k]!]!;
      if (id === 0) {
        out[k] = null;
        continue;
      }
      let f = fits[id]!;
      if (f < 0) {
        const taint = findMatchingUntoleratedTaint(
          columns.taintSet(id),
          tolerations,
          doNotScheduleTaintsFilter,
          this.tolerationOptions,
        );
        f = taint === undefined ? 1 : 0;
        fits[id] = f;
        if (taint !== undefined) named?.set(id, this.untolerated(taint));
      }
      if (f === 1) out[k] = null;
      else if (named) out[k] = named.get(id) ?? null;
      else {
        untolerated ??= new Status(Code.UnschedulableAndUnresolvable, ErrReasonUntoleratedTaint);
        out[k] = untolerated;
      }
    }
  }

  preScore(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): Status | null {
    state.write(preScoreStateKey, new PreScoreState(getAllTolerationPreferNoSchedule(pod.spec?.tolerations)));
    return null;
  }

  /** The number of PreferNoSchedule taints the pod does not tolerate (fewer is better). */
  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    const s = state.read(preScoreStateKey);
    if (s === undefined) {
      return asStatus(new Error(`failed to read "${preScoreStateKey}" from cycleState: not found`));
    }
    const taints = nodeInfo.taints;
    if (taints.length === 0) return 0;
    const tolerations = s.tolerationsPreferNoSchedule;
    let intolerable = 0;
    for (let i = 0; i < taints.length; i++) {
      const taint = taints[i]!;
      if (taint.effect !== TaintEffectPreferNoSchedule) continue;
      if (!tolerationsTolerateTaint(tolerations, taint, this.tolerationOptions)) intolerable++;
    }
    return intolerable;
  }

  /** score() counted once per taint set. */
  scoreColumns(state: CycleState, pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null {
    const { columns, indices, count } = window;
    const s = state.read(preScoreStateKey);
    if (s === undefined) {
      // score() fails on every node: its status for the first.
      if (count === 0) return null;
      return this.score(state, pod, columns.nodeInfos[indices[0]!]!) as Status;
    }
    const ids = columns.taintSetIds;
    const perSet = this.taintSetScratch(columns.taintSetCount);
    const tolerations = s.tolerationsPreferNoSchedule;
    for (let k = 0; k < count; k++) {
      const id = ids[indices[k]!]!;
      if (id === 0) {
        scores[k] = 0;
        continue;
      }
      let n = perSet[id]!;
      if (n < 0) {
        n = 0;
        const taints = columns.taintSet(id);
        for (let i = 0; i < taints.length; i++) {
          const taint = taints[i]!;
          if (taint.effect !== TaintEffectPreferNoSchedule) continue;
          if (!tolerationsTolerateTaint(tolerations, taint, this.tolerationOptions)) n++;
        }
        perSet[id] = n;
      }
      scores[k] = n;
    }
    return null;
  }

  scoreExtensions(): ScoreExtensions {
    return this.normalizer;
  }
}
