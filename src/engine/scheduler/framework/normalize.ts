// The shared NormalizeScore helper: rescale [0, max(scores)] to [0, maxPriority], reversed when fewer is better.
// See pkg/scheduler/framework/plugins/helper/normalize_score.go (DefaultNormalizeScore).
import type { NodeScore } from './interfaces';

/** defaultNormalizeScore rescales the scores in place with Go's integer division; all-zero scores stay 0 (or max when reversed). */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): null {
  let maxCount = 0;
  for (const s of scores) if (s.score > maxCount) maxCount = s.score;
  if (maxCount === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return null;
  }
  for (const s of scores) {
    const score = Math.trunc((maxPriority * s.score) / maxCount);
    s.score = reverse ? maxPriority - score : score;
  }
  return null;
}
