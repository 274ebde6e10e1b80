// upstream: pkg/scheduler/framework/plugins/helper/normalize_score.go
import type { Pod } from "@kubesched/api";
import { defaultNormalizeScoreColumns } from "./columnar/normalize-score";
import type { ColumnarScoreExtensions, ColumnWindow } from "./columnar/plugins";
import type { CycleState } from "./cycle-state";
import type { NodeScore, ScoreExtensions } from "./interface";
import type { Status } from "./status";

/**
 * Scales scores to [0, maxPriority] relative to the highest score; with `reverse`,
 * s = maxPriority - s. All zero (or all maxPriority when reversed) if the highest is 0.
 * @public
 */
export function defaultNormalizeScore(
  maxPriority: number,
  reverse: boolean,
  scores: NodeScore[],
): Status | null {
  let maxCount = 0;
  for (const s of scores) if (s.score > maxCount) maxCount = s.score;
  if (maxCount === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return null;
  }
  for (const s of scores) {
    let v = Math.trunc((maxPriority * s.score) / maxCount);
    if (reverse) v = maxPriority - v;
    s.score = v;
  }
  return null;
}

/**
 * The ScoreExtensions of a Score plugin whose NormalizeScore is {@link defaultNormalizeScore}
 * (as upstream's NodeAffinity and TaintToleration), for `scoreExtensions()` to return:
 *
 * ```ts
 * private readonly normalizer = defaultNormalizer(MaxNodeScore, true);
 * scoreExtensions(): ScoreExtensions { return this.normalizer; }
 * ```
 *
 * It also normalizes the runtime's score arrays in place (`normalizeScoreColumns` of
 * `@kubesched/framework/columnar`, with the same arithmetic), so a plugin writes neither form
 * by hand. Build it once (in the constructor), not per cycle.
 * @public
 */
export function defaultNormalizer(maxPriority: number, reverse: boolean): ScoreExtensions {
  const normalizer: ColumnarScoreExtensions = {
    normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | null {
      return defaultNormalizeScore(maxPriority, reverse, scores);
    },
    normalizeScoreColumns(
      _state: CycleState,
      _pod: Pod,
      window: ColumnWindow,
      scores: Float64Array,
    ): Status | null {
      return defaultNormalizeScoreColumns(maxPriority, reverse, scores, window.count);
    },
  };
  return normalizer;
}
