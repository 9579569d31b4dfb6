// LeastAllocated, NodeResourcesFit's default scoring strategy: the more of each resource stays free, the higher the score.
// See pkg/scheduler/framework/plugins/noderesources/least_allocated.go.
import { MAX_NODE_SCORE } from '../framework/profile';
import { type ResourceSpec, type Scorer, weightedAverageScorer } from './resource-allocation';

/** leastRequestedScore is the free share of a resource on a 0-100 scale, 0 when over-requested or nothing is allocatable. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** leastResourceScorer averages the resources' free shares by weight, with Go's integer divisions. */
export function leastResourceScorer(resources: readonly ResourceSpec[]): Scorer {
  return weightedAverageScorer(resources, leastRequestedScore);
}
