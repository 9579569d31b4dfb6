// The work queue of a controller that owns pods by its controller reference and syncs by namespace/name — the
// StatefulSet and DaemonSet controllers: a failed sync is requeued rate-limited (processNextWorkItem: AddRateLimited,
// a success Forget), and a pod's add, update or delete wakes the owner as their addPod / updatePod / deletePod do:
// the owner named by the controller reference (same uid) and a former one; an orphan added or relabelled wakes every
// owner of the kind that selects it; a pod turning Ready wakes its owner again after minReadySeconds.
// See pkg/controller/statefulset/stateful_set.go and pkg/controller/daemon/daemon_controller.go at v1.36.3.
import type { KubeObject, Pod } from '../api/types';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { PhaseName } from '../runtime/phases';
import type { Steps } from '../runtime/step';
import { selectingControllers } from './controller-ref';
import { controllerOf } from './owner';
import { ControllerRateLimiter, rateLimited, type SyncOutcome } from './rate-limiter';

/** Queue is what the owner queue needs of a work queue: add a keyed sync, now or after a delay. */
export interface Queue {
  add(key: string, sync: () => Steps<Millis | void>, after?: Millis): void;
}

/** SyncResult is a sync's error (requeued rate-limited) or a later resync it asks for. */
export type SyncResult = SyncOutcome;

export class PodOwnerQueue {
  private readonly limiter = new ControllerRateLimiter();

  constructor(
    private readonly ctx: EngineContext, private readonly queue: Queue, private readonly kind: 'StatefulSet' | 'DaemonSet',
    private readonly phase: PhaseName, private readonly sync: (namespace: string, name: string) => Steps<SyncResult>,
  ) {}

  /** enqueue queues a sync of the owner, now or `after` milliseconds from now. */
  enqueue(ns: string | undefined, name: string | undefined, after = 0): void {
    if (!name) return;
    const { ctx, limiter, phase, kind, sync } = this;
    const key = `${ns}/${name}`;
    this.queue.add(key, () => rateLimited(ctx.clock, limiter, key, phase, `${kind}/${key}`, () => sync(ns ?? 'default', name)), after);
  }

  /** onPod wakes the owners a pod's change concerns. */
  onPod(type: WatchEventType, pod: Pod, old: Pod | undefined): void {
    const ns = pod.metadata?.namespace;
    const resolve = (ref: { kind: string; name: string; uid: string } | undefined): KubeObject | undefined => {
      if (ref?.kind !== this.kind) return undefined;
      const owner = this.ctx.store.get<KubeObject>(this.kind, ns, ref.name);
      return owner && owner.metadata?.uid === ref.uid ? owner : undefined;
    };
    const owner = controllerOf(pod as unknown as KubeObject);
    const was = old && type === 'MODIFIED' ? controllerOf(old as unknown as KubeObject) : undefined;
    if (was && was.uid !== owner?.uid) {
      const former = resolve(was);
      if (former) this.enqueue(ns, former.metadata?.name);
    }
    if (owner) {
      const live = resolve(owner);
      if (!live) return;
      this.enqueue(ns, live.metadata?.name);
      const minReady = (live['spec'] as { minReadySeconds?: number } | undefined)?.minReadySeconds ?? 0;
      const ready = (p: Pod | undefined) => p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
      if (type === 'MODIFIED' && minReady > 0 && !ready(old) && ready(pod)) this.enqueue(ns, live.metadata?.name, minReady * 1000);
      return;
    }
    if (type === 'DELETED') return;
    if (type === 'ADDED' || labelsChanged(pod as unknown as KubeObject, old as unknown as KubeObject | undefined) || was) {
      for (const o of selectingControllers(this.ctx, this.kind, pod as unknown as KubeObject)) this.enqueue(ns, o.metadata?.name);
    }
  }
}

/** labelsChanged tells whether an update changed the object's labels. */
export function labelsChanged(obj: KubeObject, old: KubeObject | undefined): boolean {
  return !!old && JSON.stringify(obj.metadata?.labels ?? {}) !== JSON.stringify(old.metadata?.labels ?? {});
}
