// RequestedToCapacityRatio, a NodeResourcesFit scoring strategy: each resource's utilization goes through a broken-linear
// function given by shape points. See pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio.go and
// pkg/scheduler/framework/plugins/helper/shape_score.go.
import { MAX_NODE_SCORE } from '../framework/profile';
import type { ResourceSpec, Scorer } from './resource-allocation';

/** MAX_CUSTOM_PRIORITY_SCORE is the highest score a shape point may give (config.MaxCustomPriorityScore). */
export const MAX_CUSTOM_PRIORITY_SCORE = 10;
/** MAX_UTILIZATION is the utilization of a full resource, in percent. */
export const MAX_UTILIZATION = 100;

/** FunctionShapePoint is one point of a broken-linear function: a utilization and its score. */
export interface FunctionShapePoint {
  utilization: number;
  score: number;
}

/**
 * buildBrokenLinearFunction returns f(p): the first point's score up to its utilization, the last point's beyond it,
 * and the straight line between the two points around p, with Go's integer division (truncation toward zero).
 */
export function buildBrokenLinearFunction(shape: readonly FunctionShapePoint[]): (p: number) => number {
  return (p) => {
    for (let i = 0; i < shape.length; i++) {
      const point = shape[i]!;
      if (p > point.utilization) continue;
      if (i === 0) return point.score;
      const prev = shape[i - 1]!;
      return prev.score + Math.trunc(((point.score - prev.score) * (p - prev.utilization)) / (point.utilization - prev.utilization));
    }
    return shape[shape.length - 1]!.score;
  };
}

/**
 * requestedToCapacityRatioScorer scores each resource by the shape (its 0-10 scores scaled to 0-100) at its utilization,
 * a full or absent resource counting as 100% used, and takes the weighted average of the resources that score above 0,
 * rounded. `shape` is the configured one, as in the API (scores 0-10).
 */
export function requestedToCapacityRatioScorer(resources: readonly ResourceSpec[], shape: readonly FunctionShapePoint[]): Scorer {
  // Why: MaxCustomPriorityScore (10) is not MaxNodeScore (100); requested_to_capacity_ratio.go scales the points.
  const scaled = shape.map((p) => ({ utilization: p.utilization, score: p.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE) }));
  const raw = buildBrokenLinearFunction(scaled);
  const resourceScore = (requested: number, capacity: number): number => {
    if (capacity === 0 || requested > capacity) return raw(MAX_UTILIZATION);
    return raw(Math.trunc((requested * MAX_UTILIZATION) / capacity));
  };
  return (requested, _allocated, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      const weight = resources[i]!.weight;
      const score = resourceScore(requested[i]!, allocatable[i]!);
      if (score > 0) {
        nodeScore += score * weight;
        weightSum += weight;
      }
    }
    // Why: math.Round rounds halves away from zero; the scores here are never negative, so Math.round agrees.
    return weightSum === 0 ? 0 : Math.round(nodeScore / weightSum);
  };
}
