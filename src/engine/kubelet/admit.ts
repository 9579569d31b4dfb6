// The kubelet's own admission of a pod: does it fit what is left of the node's allocatable?
// See pkg/kubelet/lifecycle/predicate.go (generalFilter): the kubelet runs the scheduler's noderesources.Fits.
import type { Node, Pod } from '../api/types';
import { Snapshot } from '../scheduler/framework/snapshot';
import { fits } from '../scheduler/plugins/noderesources-fit';

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
 * already admitted. A rejected pod fails with reason `OutOf<resource>` and the message of
 * InsufficientResourceError: `Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000`.
 */
export function admitPod(node: Node, pod: Pod, admitted: Pod[]): AdmitVerdict {
  const others = admitted.map((p) => ({ ...p, spec: { ...p.spec!, nodeName: node.metadata?.name } }) as Pod);
  const nodeInfo = Snapshot.build([node], others).get(node.metadata?.name ?? '')!;
  const insufficient = fits(pod, nodeInfo);
  const first = insufficient[0];
  if (first) {
    return {
      admitted: false, reason: `OutOf${first.resourceName}`,
      message: `Node didn't have enough resource: ${first.resourceName}, requested: ${first.requested}, used: ${first.used}, capacity: ${first.capacity}`,
      field: 'spec.containers', summary: '',
    };
  }
  return { admitted: true, summary: `the pod's requests fit what the node has left (${admitted.length} other pod(s) admitted)` };
}
