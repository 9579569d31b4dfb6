// The row `kubectl get pods` prints for a pod, cell by cell: printPod's row of the server's Table (printers/core.ts),
// named. See pkg/printers/internalversion/printers.go (printPod).
import type { KubeObject, Pod } from '../api/types';
import { tableFor } from '../printers/registry';

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
  const [name, ready, status, restarts, age, ip, node, nominatedNode, readinessGates] = tableFor('Pod', [pod as KubeObject], nowMs, { includeObject: 'None' }).rows![0]!.cells.map(String);
  return { name: name!, ready: ready!, status: status!, restarts: restarts!, age: age!, ip: ip!, node: node!, nominatedNode: nominatedNode!, readinessGates: readinessGates! };
}
