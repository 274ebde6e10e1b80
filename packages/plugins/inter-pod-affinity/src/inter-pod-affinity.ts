// upstream: pkg/scheduler/framework/plugins/interpodaffinity/plugin.go
import type { Pod } from "@kubesched/api";
import {
  type ClusterEventWithHint,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type FilterDetail,
  type FilterDetailsPlugin,
  type FilterPlugin,
  type Handle,
  LabelsSignerName,
  type NodeInfo,
  type NodeScore,
  type PodInfo,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SignPlugin,
  type SignPodResult,
  Status,
} from "@kubesched/framework";
import type {
  ColumnarFilterPlugin,
  ColumnarScoreExtensions,
  ColumnarScorePlugin,
  ColumnWindow,
} from "@kubesched/framework/columnar";
import type { InterPodAffinityArgs } from "./args";
import type { InterPodAffinityContext } from "./context";
import { eventsToRegister } from "./events";
import { filterDetails } from "./filter-details";
import { addOrRemovePod, type FilteringMemos, filter, filterColumns, preFilter } from "./filtering";
import { DefaultMemoCapacity, MemoLRU } from "./node-memo";
import {
  normalizeScore,
  normalizeScoreColumns,
  preScore,
  type ScoringMemo,
  score,
  scoreColumns,
} from "./scoring";

/** The plugin's registered name. */
export const name = "InterPodAffinity";

export interface InterPodAffinityOptions {
  /**
   * Memoize PreFilter's and PreScore's cluster-wide walks across cycles, validated by node
   * generation (default true). Off: every cycle walks every pod, as upstream without its memo.
   */
  memo?: boolean;
}

/** Checks required pod (anti-)affinity (Filter) and scores preferred terms (Score). */
export class InterPodAffinity
  implements
    PreFilterPlugin,
    FilterPlugin,
    FilterDetailsPlugin,
    ColumnarFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ColumnarScorePlugin,
    EnqueueExtensions,
    PreFilterExtensions,
    ScoreExtensions,
    ColumnarScoreExtensions,
    SignPlugin
{
  private readonly ctx: InterPodAffinityContext;

  constructor(args: InterPodAffinityArgs, handle: Handle, options: InterPodAffinityOptions = {}) {
    const memo = options.memo ?? true;
    const filteringMemos: FilteringMemos | null = memo
      ? { existing: new MemoLRU(DefaultMemoCapacity), incoming: new MemoLRU(DefaultMemoCapacity) }
      : null;
    const scoringMemo: ScoringMemo | null = memo ? new MemoLRU(DefaultMemoCapacity) : null;
    this.ctx = { handle, args, filteringMemos, scoringMemo };
  }

  name(): string {
    return name;
  }

  /**
   * Pod (anti-)affinity makes feasibility and scoring depend on where other pods are, not on the
   * pod and node alone: such pods are not signed. Other pods are signed by their labels, which
   * existing pods' terms may match; with ignorePreferredTermsOfExistingPods only pods with terms
   * count, so labels do not matter (upstream SignPod).
   */
  signPod(pod: Pod): SignPodResult {
    const affinity = pod.spec?.affinity;
    if (affinity != null && (affinity.podAffinity != null || affinity.podAntiAffinity != null)) {
      return {
        fragments: [],
        status: new Status(Code.Unschedulable, "pods with InterPodAffinity are not signable"),
      };
    }
    if (this.ctx.args.ignorePreferredTermsOfExistingPods) return { fragments: [], status: null };
    return { fragments: [{ key: LabelsSignerName, value: pod.metadata?.labels ?? null }], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister();
  }

  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    return preFilter(this.ctx, state, pod, nodes);
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(state: CycleState, _podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | null {
    return addOrRemovePod(state, podInfoToAdd, nodeInfo, 1);
  }

  removePod(
    state: CycleState,
    _podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null {
    return addOrRemovePod(state, podInfoToRemove, nodeInfo, -1);
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | null {
    return filter(state, nodeInfo);
  }

  /** Every failing term: the node's domain and the existing pods it conflicts with. */
  filterDetails(state: CycleState, pod: Pod, nodeInfo: NodeInfo): FilterDetail[] {
    return filterDetails(this.ctx, state, pod, nodeInfo);
  }

  filterColumns(state: CycleState, _pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    filterColumns(state, window, out);
  }

  preScore(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): Status | null {
    return preScore(this.ctx, state, pod);
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    return score(state, nodeInfo);
  }

  scoreColumns(state: CycleState, _pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null {
    return scoreColumns(state, window, scores);
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): Status | null {
    return normalizeScore(state, scores);
  }

  normalizeScoreColumns(
    state: CycleState,
    _pod: Pod,
    window: ColumnWindow,
    scores: Float64Array,
  ): Status | null {
    return normalizeScoreColumns(state, scores, window.count);
  }
}
