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
  defaultNormalizeScore,
  type EnqueueExtensions,
  type Features,
  type FilterPlugin,
  MaxNodeScore,
  type NodeInfo,
  type NodeScore,
  type PreScorePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import { eventsToRegister } from "./events";
import { ErrReasonUntoleratedTaint } from "./reasons";

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
  implements FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions
{
  private readonly tolerationOptions: TolerationOptions;
  private readonly enableSchedulingQueueHint: boolean;

  constructor(features: Features) {
    this.tolerationOptions = {
      enableComparisonOperators: features.enableTaintTolerationComparisonOperators,
    };
    this.enableSchedulingQueueHint = features.enableSchedulingQueueHint;
  }

  name(): string {
    return name;
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
    return new Status(Code.UnschedulableAndUnresolvable, ErrReasonUntoleratedTaint);
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

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | null {
    return defaultNormalizeScore(MaxNodeScore, true, scores);
  }
}
