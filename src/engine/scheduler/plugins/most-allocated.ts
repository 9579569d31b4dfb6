// MostAllocated, a NodeResourcesFit scoring strategy for bin packing: the more of each resource is requested, the higher.
// See pkg/scheduler/framework/plugins/noderesources/most_allocated.go.
import { MAX_NODE_SCORE } from '../framework/profile';
import { type ResourceSpec, type Scorer, weightedAverageScorer } from './resource-allocation';

/**
 * mostRequestedScore is the requested share of a resource on a 0-100 scale, 0 when nothing is allocatable. A request
 * above the capacity counts as the capacity: pods without requests count for 100m / 200Mi and may overshoot.
 */
export function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  const used = requested > capacity ? capacity : requested;
  return Math.trunc((used * MAX_NODE_SCORE) / capacity);
}

/** mostResourceScorer averages the resources' requested shares by weight, with Go's integer divisions. */
export function mostResourceScorer(resources: readonly ResourceSpec[]): Scorer {
  return weightedAverageScorer(resources, mostRequestedScore);
}
