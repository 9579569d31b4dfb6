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

/** scoreNode gathers the per-resource amounts of a node and hands them to the scorer; resources with no allocatable stay 0. */
export function scoreNode(
  nodeInfo: NodeInfo, podRequestList: readonly number[], resources: readonly ResourceSpec[], useRequested: boolean, scorer: Scorer,
): number {
  const requested = new Array<number>(resources.length).fill(0);
  const allocated = new Array<number>(resources.length).fill(0);
  const allocatable = new Array<number>(resources.length).fill(0);
  for (let i = 0; i < resources.length; i++) {
    const [alloc, req] = allocatableRequest(nodeInfo, resources[i]!.name, podRequestList[i]!, useRequested);
    if (alloc === 0) continue;
    allocatable[i] = alloc;
    requested[i] = req;
    allocated[i] = req - podRequestList[i]!;
  }
  return scorer(requested, allocated, allocatable);
}
