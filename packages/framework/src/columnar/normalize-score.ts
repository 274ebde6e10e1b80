// upstream: pkg/scheduler/framework/plugins/helper/normalize_score.go, over a score array.
import type { Status } from "@kubesched/framework";

/**
 * defaultNormalizeScore over `scores[0..count)` (a columnar Score plugin's normalizeScoreColumns):
 * the same arithmetic on the same values, in place. A plugin whose NormalizeScore is
 * defaultNormalizeScore returns `defaultNormalizer(max, reverse)` (main entry) instead of writing
 * both forms.
 * @beta
 */
export function defaultNormalizeScoreColumns(
  maxPriority: number,
  reverse: boolean,
  scores: Float64Array,
  count: number,
): Status | null {
  let maxCount = 0;
  for (let k = 0; k < count; k++) if ((scores[k] as number) > maxCount) maxCount = scores[k] as number;
  if (maxCount === 0) {
    if (reverse) for (let k = 0; k < count; k++) scores[k] = maxPriority;
    return null;
  }
  for (let k = 0; k < count; k++) {
    let v = Math.trunc((maxPriority * (scores[k] as number)) / maxCount);
    if (reverse) v = maxPriority - v;
    scores[k] = v;
  }
  return null;
}
