// The row `kubectl get pods` prints for a pod: READY, STATUS, RESTARTS as printPod computes them (kubectl/printer.ts),
// and the -o wide cells.
// See pkg/printers/internalversion/printers.go (printPod).
import type { Pod } from '../api/types';
import { podColumns } from '../kubectl/printer';
import { since } from './duration';

/** PodRow is printPod's cells: the plain columns and the -o wide ones. */
export interface PodRow {
  name: string;
  ready: string;
  status: string;
  restarts: string;
  age: string;
  ip: string;
  node: string;
  nominatedNode: string;
  readinessGates: string;
}

/** podRow computes printPod's cells for a pod at the virtual time `nowMs` (wall-clock milliseconds). */
export function podRow(pod: Pod, nowMs: number): PodRow {
  const spec = pod.spec;
  const status = pod.status ?? {};
  const { ready, status: reason, restarts: restartsText } = podColumns(pod, nowMs);
  let readinessGates = '<none>';
  const gates = spec?.readinessGates ?? [];
  if (gates.length > 0) {
    let trueConditions = 0;
    for (const g of gates) {
      const c = (status.conditions ?? []).find((x) => x.type === g.conditionType);
      if (c?.status === 'True') trueConditions++;
    }
    readinessGates = `${trueConditions}/${gates.length}`;
  }

  return {
    name: pod.metadata?.name ?? '',
    ready,
    status: reason,
    restarts: restartsText,
    age: since(pod.metadata?.creationTimestamp, nowMs),
    ip: status.podIPs?.[0]?.ip || '<none>',
    node: spec?.nodeName || '<none>',
    nominatedNode: status.nominatedNodeName || '<none>',
    readinessGates,
  };
}
