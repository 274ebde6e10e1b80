// upstream: pkg/scheduler/framework/plugins/helper/normalize_score.go
import type { NodeScore } from "./interface";
import type { Status } from "./status";

/**
 * Scales scores to [0, maxPriority] relative to the highest score; with `reverse`,
 * s = maxPriority - s. All zero (or all maxPriority when reversed) if the highest is 0.
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
 * defaultNormalizeScore over `scores[0..count)` (a batch Score plugin's normalizeScoreBatch):
 * the same arithmetic on the same values, in place.
 */
export function defaultNormalizeScoreBatch(
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
