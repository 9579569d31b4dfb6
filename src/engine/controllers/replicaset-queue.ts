// One instance of the ReplicaSet controller with its work queue and informer handlers: kube-controller-manager runs
// one for ReplicaSets and one for ReplicationControllers (the replication package is this controller behind a
// conversion layer). A failed sync is requeued rate-limited; a pod's add, update or delete is an expected creation or
// deletion seen, and wakes its controller, a former one, or, for an orphan, every one of the kind that selects it.
// See pkg/controller/replicaset/replica_set.go (addPod, updatePod, deletePod, deleteRS, processNextWorkItem) and
// pkg/controller/replication/replication_controller.go at kubernetes v1.36.3.
import { type KubeObject, type Pod, podKey } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext } from '../context';
import { ControllerExpectations } from './expectations';
import { controllerOf } from './owner';
import { labelsChanged, type Queue } from './pod-owner-queue';
import { ControllerRateLimiter, rateLimited } from './rate-limiter';
import { type ReplicaSetController, type ReplicaSetKind, syncReplicaSet } from './replicaset';
import { ReplicaSetTallies } from './replicaset-tally';

/** ReplicaSetQueue is one ReplicaSet controller instance: its queue, its counts and expectations, its handlers. */
export class ReplicaSetQueue {
  readonly controller: ReplicaSetController;
  private readonly limiter = new ControllerRateLimiter();

  constructor(
    private readonly ctx: EngineContext, private readonly api: ApiServer, private readonly queue: Queue, kind: ReplicaSetKind,
    /** selecting lists the names of the controllers of the kind whose selector matches an orphan pod (GetPodReplicaSets). */
    private readonly selecting: (pod: KubeObject) => string[],
  ) {
    this.controller = { kind, tallies: new ReplicaSetTallies(ctx.store), expectations: new ControllerExpectations(ctx.clock) };
  }

  /** enqueue queues a sync; processNextWorkItem: an error is AddRateLimited, a success Forget. */
  enqueue(ns: string | undefined, name: string | undefined): void {
    if (!name) return;
    const { ctx, api, controller, limiter } = this;
    const key = `${ns}/${name}`;
    this.queue.add(key, () => rateLimited(ctx.clock, limiter, key, 'controllers.replicaset', `${controller.kind.kind}/${key}`, () => syncReplicaSet(ctx, api, controller, ns ?? 'default', name)));
  }

  /** onOwner is the informer's handler for the kind: add and update enqueue; delete is deleteRS (DeleteExpectations), and its counts go with it. */
  onOwner(type: WatchEventType, obj: KubeObject): void {
    if (type !== 'DELETED') this.enqueue(obj.metadata?.namespace, obj.metadata?.name);
    else {
      this.controller.expectations.forget(`${obj.metadata?.namespace}/${obj.metadata?.name}`);
      this.controller.tallies.drop(obj.metadata?.uid ?? '');
    }
  }

  /**
   * onPod is addPod / updatePod / deletePod: a pod added is an expected creation seen; one given a deletionTimestamp,
   * or gone, an expected deletion seen; its controller of this kind syncs. The former controller syncs when the
   * controller reference changed; an orphan added, relabelled or released makes every controller selecting it sync.
   */
  onPod(type: WatchEventType, pod: Pod, old: Pod | undefined): void {
    this.controller.tallies.onPod(type, pod, old);
    const kind = this.controller.kind.kind;
    const ns = pod.metadata?.namespace;
    const owner = controllerOf(pod as unknown as KubeObject);
    if (owner?.kind === kind) {
      const key = `${ns}/${owner.name}`;
      const { expectations } = this.controller;
      if (type === 'ADDED' && !pod.metadata?.deletionTimestamp) expectations.creationObserved(key);
      if (type === 'DELETED' || (pod.metadata?.deletionTimestamp && !old?.metadata?.deletionTimestamp)) expectations.deletionObserved(key, podKey(pod));
      this.enqueue(ns, owner.name);
    }
    const was = old && type !== 'ADDED' ? controllerOf(old as unknown as KubeObject) : undefined;
    if (was?.kind === kind && was.uid !== owner?.uid) this.enqueue(ns, was.name);
    if (!owner && type !== 'DELETED' && (type === 'ADDED' || labelsChanged(pod as unknown as KubeObject, old as unknown as KubeObject | undefined) || was)) {
      for (const name of this.selecting(pod as unknown as KubeObject)) this.enqueue(ns, name);
    }
  }
}
