// The scorer NodeResourcesFit and NodeResourcesBalancedAllocation share: per-resource requested and allocatable amounts.
// See pkg/scheduler/framework/plugins/noderesources/resource_allocation.go.
import type { Pod } from '../../api/types';
import type { NodeInfo } from '../framework/node-info';
import { NON_ZERO_DEFAULTS, podRequests } from '../framework/pod-resources';
import { isScalarResourceName, ResourceName, valueOf } from '../framework/resource';

/** ResourceSpec is a resource the scorer weighs, with its weight. */
export interface ResourceSpec {
  name: string;
  weight: number;
}

/** DEFAULT_RESOURCES are the resources both plugins score by default: cpu and memory, weight 1 each. */
export const DEFAULT_RESOURCES: readonly ResourceSpec[] = [
  { name: ResourceName.CPU, weight: 1 },
  { name: ResourceName.Memory, weight: 1 },
];

/** Scorer turns, per resource, the requested amount with the pod, without it, and the allocatable amount into a score. */
export type Scorer = (requested: number[], allocated: number[], allocatable: number[]) => number;

/**
 * podResourceRequestList returns the pod's request per resource; useRequested false (NodeResourcesFit) counts a container
 * without a cpu or memory request as 100m / 200Mi, true (BalancedAllocation) takes the requests as they are.
 */
export function podResourceRequestList(pod: Pod, resources: readonly ResourceSpec[], useRequested: boolean): number[] {
  const requests = podRequests(pod, useRequested ? {} : { nonMissingContainerRequests: NON_ZERO_DEFAULTS });
  return resources.map((r) => valueOf(r.name, requests.get(r.name) ?? 0));
}

/** isBestEffort tells a pod that requests none of the scored resources. */
export function isBestEffort(podRequestList: readonly number[]): boolean {
  return podRequestList.every((r) => r === 0);
}

/** allocatableRequest returns a resource's allocatable and requested-with-the-pod amounts on a node; (0, 0) leaves it out. */
export function allocatableRequest(nodeInfo: NodeInfo, name: string, podRequest: number, useRequested: boolean): [number, number] {
  const requested = useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested;
  if (podRequest === 0 && isScalarResourceName(name)) return [0, 0];
  switch (name) {
    case ResourceName.CPU: return [nodeInfo.allocatable.milliCPU, requested.milliCPU + podRequest];
    case ResourceName.Memory: return [nodeInfo.allocatable.memory, requested.memory + podRequest];
    case ResourceName.EphemeralStorage: return [nodeInfo.allocatable.ephemeralStorage, nodeInfo.requested.ephemeralStorage + podRequest];
    default: {
      const allocatable = nodeInfo.allocatable.scalar.get(name);
      return allocatable === undefined ? [0, 0] : [allocatable, (nodeInfo.requested.scalar.get(name) ?? 0) + podRequest];
    }
  }
}

/** ScoreLists are the three per-resource lists a Scorer reads. */
interface ScoreLists {
  requested: number[];
  allocated: number[];
  allocatable: number[];
}

/** scratchLists holds one set of lists per number of resources, reused by every scoreNode call (see scoreNode). */
const scratchLists: ScoreLists[] = [];

/**
 * scoreNode gathers the per-resource amounts of a node and hands them to the scorer; resources with no allocatable stay 0.
 * It runs for every node scored, twice per node with the default plugins, so it allocates nothing: the lists are scratch
 * arrays reused from call to call (scorers read them before returning and keep no reference), and cpu and memory, the
 * default resources, are read directly rather than through allocatableRequest's pair.
 */
export function scoreNode(
  nodeInfo: NodeInfo, podRequestList: readonly number[], resources: readonly ResourceSpec[], useRequested: boolean, scorer: Scorer,
): number {
  const n = resources.length;
  const lists = (scratchLists[n] ??= { requested: zeros(n), allocated: zeros(n), allocatable: zeros(n) });
  const requestedOnNode = useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested;
  for (let i = 0; i < n; i++) {
    const name = resources[i]!.name;
    const podRequest = podRequestList[i]!;
    let alloc: number;
    let req: number;
    if (name === ResourceName.CPU) {
      alloc = nodeInfo.allocatable.milliCPU;
      req = requestedOnNode.milliCPU + podRequest;
    } else if (name === ResourceName.Memory) {
      alloc = nodeInfo.allocatable.memory;
      req = requestedOnNode.memory + podRequest;
    } else {
      [alloc, req] = allocatableRequest(nodeInfo, name, podRequest, useRequested);
    }
    // A resource with nothing allocatable stays 0 in all three lists.
    const counted = alloc !== 0;
    lists.allocatable[i] = counted ? alloc : 0;
    lists.requested[i] = counted ? req : 0;
    lists.allocated[i] = counted ? req - podRequest : 0;
  }
  return scorer(lists.requested, lists.allocated, lists.allocatable);
}

function zeros(n: number): number[] {
  return new Array<number>(n).fill(0);
}

/**
 * weightedAverageScorer scores a node as the weighted average of a per-resource score, skipping resources the node
 * has none of, with Go's integer divisions: the shape of the LeastAllocated and MostAllocated scorers.
 * See pkg/scheduler/framework/plugins/noderesources/least_allocated.go and most_allocated.go.
 */
export function weightedAverageScorer(resources: readonly ResourceSpec[], resourceScore: (requested: number, capacity: number) => number): Scorer {
  return (requested, _allocated, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      const weight = resources[i]!.weight;
      nodeScore += resourceScore(requested[i]!, allocatable[i]!) * weight;
      weightSum += weight;
    }
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  };
}
