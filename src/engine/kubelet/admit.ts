// The kubelet's own admission of a pod: does it fit what is left of the node's allocatable?
// See pkg/kubelet/lifecycle/predicate.go (generalFilter, InsufficientResourceError).
import type { Node, Pod } from '../api/types';
import { parseQuantity } from '../api/quantity';
import { podRequests } from '../api/resources';

/** AdmitVerdict is the kubelet's decision on a pod. */
export interface AdmitVerdict {
  admitted: boolean;
  reason?: string;
  message?: string;
  field?: string;
  summary: string;
}

/**
 * admitPod checks the pod's requests against the node's allocatable minus the requests of the pods
 * already admitted. A rejected pod fails with reason `OutOf<resource>`.
 */
export function admitPod(node: Node, pod: Pod, admitted: Pod[]): AdmitVerdict {
  const allocatable = node.status?.allocatable ?? {};
  const want = podRequests(pod);
  const used = new Map<string, number>();
  for (const other of admitted) for (const [r, v] of podRequests(other)) used.set(r, (used.get(r) ?? 0) + v);
  if (allocatable.pods !== undefined && admitted.length + 1 > parseQuantity(allocatable.pods).value()) {
    return reject('pods', 1, admitted.length, parseQuantity(allocatable.pods).value());
  }
  for (const [resource, requested] of want) {
    if (requested === 0) continue;
    const cap = allocatable[resource];
    const capacity = cap === undefined ? 0 : resource === 'cpu' ? parseQuantity(cap).milliValue() : parseQuantity(cap).value();
    const inUse = used.get(resource) ?? 0;
    if (requested + inUse > capacity) return reject(resource, requested, inUse, capacity);
  }
  const cpu = want.get('cpu') ?? 0;
  const memory = want.get('memory') ?? 0;
  return { admitted: true, summary: `requests cpu ${cpu}m, memory ${memory} bytes fit what the node has left` };
}

function reject(resource: string, requested: number, used: number, capacity: number): AdmitVerdict {
  return {
    admitted: false, reason: `OutOf${resource}`,
    message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
    field: 'spec.containers', summary: '',
  };
}
