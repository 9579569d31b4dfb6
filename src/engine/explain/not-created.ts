// Why a workload's pod does not exist: a StatefulSet with fewer pods than its ordinals, answered by its controller's
// own last step (OrderedReady waits for the pod below to be Running and Ready; a scale-down waits for a pod to end).
import type { KubeObject } from '../api/types';
import { refOf } from '../api/types';
import { replicasOf, startOrdinal, statefulPodName, type StatefulSet } from '../controllers/statefulset-identity';
import type { TraceEntry } from '../runtime/recorder';

/** NotCreated names the pods a StatefulSet should have and has not, and why, in its controller's words. */
export interface NotCreated {
  /** object is the StatefulSet, `namespace/name`. */
  object: string;
  missing: string[];
  why: string;
}

/** notCreated lists, for every StatefulSet the run traced, the ordinal pods it lacks at the end and why. */
export function notCreated(objects: readonly KubeObject[], trace: readonly TraceEntry[]): NotCreated[] {
  const traced = new Set(trace.map((e) => e.object));
  const out: NotCreated[] = [];
  for (const set of objects) {
    if (set.kind !== 'StatefulSet' || !traced.has(refOf(set)) || set.metadata?.deletionTimestamp) continue;
    const stateful = set as StatefulSet;
    const name = set.metadata?.name ?? '';
    const have = new Set(objects
      .filter((o) => o.kind === 'Pod' && o.metadata?.ownerReferences?.some((r) => r.controller && r.uid === set.metadata?.uid))
      .map((o) => o.metadata?.name));
    const start = startOrdinal(stateful);
    const missing = Array.from({ length: replicasOf(stateful) }, (_, i) => statefulPodName(stateful, start + i)).filter((p) => !have.has(p));
    if (missing.length === 0) continue;
    const ref = refOf(set);
    let why = 'its controller has not created them yet';
    for (let i = trace.length - 1; i >= 0; i--) {
      const e = trace[i]!;
      if (e.phase === 'controllers.statefulset' && e.object === ref && (e.outcome === 'waiting' || e.outcome === 'failed')) {
        why = e.result;
        break;
      }
    }
    out.push({ object: `${set.metadata?.namespace ?? 'default'}/${name}`, missing, why });
  }
  return out;
}
