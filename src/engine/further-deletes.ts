// Further `kubectl delete`s of a run, after its first one: what a person types at a pod stuck Terminating
// (`kubectl delete pod web --grace-period=5`, `kubectl delete pod web --grace-period=0 --force`). Each comes at its
// virtual time after the first delete, once everything due at that instant has happened, and is served like any
// request: rest/delete.go BeforeDelete decides what a delete does to a pod already being deleted.
import type { KubeObject } from './api/types';
import type { Millis } from './runtime/clock';

/** FurtherDelete is one more `kubectl delete` after the run's first, measured from the moment the first one began. */
export interface FurtherDelete {
  /** afterSeconds is when it is run, in virtual seconds after the first delete began. */
  afterSeconds: number;
  /** gracePeriodSeconds and force are kubectl delete's --grace-period and --force (--now is --grace-period=1). */
  gracePeriodSeconds?: number;
  force?: boolean;
  /** pod names the pod (`kubectl delete pod NAME -n NAMESPACE`); without it the delete repeats `kubectl delete -f MANIFEST`. */
  pod?: { namespace: string; name: string };
}

/** DeleteTarget is one object a kubectl delete names, and the file kubectl read it from ('' for a name on the command line). */
export interface DeleteTarget {
  object: KubeObject;
  source: string;
}

/** podTarget is the object `kubectl delete pod NAME -n NAMESPACE` stands for: kubectl sends the DELETE without reading it first. */
export function podTarget(pod: { namespace: string; name: string }): DeleteTarget {
  return { object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod.name, namespace: pod.namespace } }, source: '' };
}

/** FurtherDeletes hands out a run's further deletes in time order (equal times in the order given). */
export class FurtherDeletes {
  private readonly pending: { d: FurtherDelete; index: number }[];
  private next = 0;

  constructor(deletes: readonly FurtherDelete[] = []) {
    this.pending = deletes.map((d, index) => ({ d, index })).sort((a, b) => a.d.afterSeconds - b.d.afterSeconds || a.index - b.index);
  }

  /** waiting tells whether a further delete has yet to be run. */
  get waiting(): boolean {
    return this.next < this.pending.length;
  }

  /**
   * due returns the next further delete and its virtual time once nothing else is due at or before that time
   * (`nextTaskAt` is the earliest queued task, undefined when none is queued); undefined otherwise. `index` is its
   * place in the list the run was given.
   */
  due(firstDeleteAt: Millis, nextTaskAt: Millis | undefined): { delete: FurtherDelete; at: Millis; index: number } | undefined {
    const p = this.pending[this.next];
    if (!p) return undefined;
    const at = firstDeleteAt + Math.max(0, p.d.afterSeconds) * 1000;
    if (nextTaskAt !== undefined && nextTaskAt <= at) return undefined;
    this.next++;
    return { delete: p.d, at, index: p.index };
  }
}
