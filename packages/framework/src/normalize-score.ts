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
