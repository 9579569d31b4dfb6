// kube-controller-manager: the controllers' informers, turning watch events into controller syncs through work queues.
import type { KubeObject, Node, PersistentVolume, Pod } from '../api/types';
import { refOf } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { limitClients } from './client-throttle';
import { syncDaemonSet } from './daemonset';
import { syncDeployment } from './deployment';
import { DisruptionController } from './disruption-queue';
import { syncUnschedulableTaint, unschedulableTaintOutOfStep } from './node-unschedulable';
import { endpointConditions, servicesSelecting, syncEndpoints, syncService } from './endpoints';
import { attemptToDeleteDependent, collectDependents, missingOwners, processDeletingOwner, verifyVirtualOwner, waitingOwnersOf } from './garbage-collector';
import { JOB_SYNC_BATCH_PERIOD_MS, syncJob, syncTtlAfterFinished } from './job';
import { CronJobQueue } from './cronjob-queue';
import type { CronJob } from './cronjob-utils';
import { selectingControllers } from './controller-ref';
import { controllerOf, deploymentOf } from './owner';
import { PersistentVolumeController } from './persistentvolume';
import { REPLICA_SET } from './replicaset';
import { ReplicaSetQueue } from './replicaset-queue';
import { podReplicationControllers, REPLICATION_CONTROLLER_KIND } from './replication';
import { syncStatefulSet } from './statefulset';
import { HPA_SYNC_PERIOD_MS, syncHpa } from './hpa';
import type { HpaMemory } from './hpa-calc';
import { HpaSelectors } from './hpa-selectors';
import { claimNamesOf, isDeletionCandidate, syncProtectedClaim } from './pvc-protection';
import { isVolumeDeletionCandidate, syncProtectedVolume } from './pv-protection';
import { deleteExternally, shouldDeleteExternally } from './pv-external-deleter';
import { labelsChanged, PodOwnerQueue } from './pod-owner-queue';

/**
 * WorkQueue is client-go's workqueue as the controllers use it: a key waits at most once, a sync runs one key, a key
 * being synced is not synced again at the same time (added meanwhile, it waits until that sync is done: the queue's
 * processing and dirty sets), and AddAfter asks for a later sync. See staging/src/k8s.io/client-go/util/workqueue
 * (queue.go Add and Done, delaying_queue.go), v0.36.3.
 */
export class WorkQueue {
  private readonly queued = new Set<string>();
  private readonly waiting = new Map<string, Millis>();
  /** processing are the keys being synced; dirty those added meanwhile, with the sync to run once it is done. */
  private readonly processing = new Set<string>();
  private readonly dirty = new Map<string, () => Steps<Millis | void>>();

  constructor(private readonly ctx: EngineContext, readonly name: string) {}

  /** busy tells whether a key is being synced or queued to be, now. */
  get busy(): boolean {
    return this.processing.size > 0 || this.queued.size > 0;
  }

  /**
   * add queues a sync of key, unless one is already queued. With `after` it is AddAfter: the key waits that long; a
   * key waits once, for the sooner of its times (the delaying queue keeps the earliest readyAt), and once ready it
   * is added as any key is. A sync may return a delay to be synced again.
   */
  add(key: string, sync: () => Steps<Millis | void>, after: Millis = 0): void {
    if (after <= 0) {
      if (this.queued.has(key) || this.addedWhileSynced(key, sync)) return;
      this.queued.add(key);
      const self = this;
      this.ctx.schedule(0, `${this.name}: sync ${key}`, function* () {
        self.queued.delete(key);
        yield* self.run(key, sync);
      });
      return;
    }
    const at = this.ctx.clock.now + after;
    const sooner = this.waiting.get(key);
    if (sooner !== undefined && sooner <= at && sooner >= this.ctx.clock.now) return;
    this.waiting.set(key, at);
    const self = this;
    this.ctx.schedule(after, `${this.name}: sync ${key} (after ${after} ms)`, function* () {
      // A time the key no longer waits for: it was moved sooner, or it came and went.
      if (self.waiting.get(key) !== at) return;
      self.waiting.delete(key);
      if (self.queued.has(key) || self.addedWhileSynced(key, sync)) return;
      yield* self.run(key, sync);
    });
  }

  /** addedWhileSynced keeps a key added while it is being synced, to sync again once done (queue.go Add); true when it was. */
  private addedWhileSynced(key: string, sync: () => Steps<Millis | void>): boolean {
    if (!this.processing.has(key)) return false;
    this.dirty.set(key, sync);
    return true;
  }

  /** run syncs a key (processNextWorkItem), then Done: a key added while it ran is queued again. */
  private *run(key: string, sync: () => Steps<Millis | void>): Steps<void> {
    this.processing.add(key);
    const again = yield* sync();
    this.processing.delete(key);
    const next = this.dirty.get(key);
    if (next) {
      this.dirty.delete(key);
      this.add(key, next);
    }
    if (typeof again === 'number') this.add(key, sync, again);
  }
}


/**
 * nodeChanged is !shouldIgnoreNodeUpdate for the fields the sync reads: labels, taints, or the Ready condition's status
 * (daemon_controller.go updateNode, v1.36.3).
 */
function nodeChanged(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (!old) return false;
  const taints = (o: KubeObject) => (o['spec'] as { taints?: unknown } | undefined)?.taints ?? [];
  const ready = (o: KubeObject) => (o['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.find((c) => c.type === 'Ready')?.status;
  return labelsChanged(obj, old) || JSON.stringify(taints(obj)) !== JSON.stringify(taints(old)) || ready(obj) !== ready(old);
}

/** Controllers routes store changes to the deployment, replicaset, replicationcontroller, statefulset, daemonset, job, cronjob, disruption, horizontal pod autoscaler, endpointslice and garbage collector controllers. */
export class Controllers {
  private readonly deployments: WorkQueue;
  private readonly replicaSets: ReplicaSetQueue;
  private readonly replicationControllers: ReplicaSetQueue;
  private readonly jobs: WorkQueue;
  private readonly ttl: WorkQueue;
  private readonly services: WorkQueue;
  private readonly gc: WorkQueue;
  private readonly persistentVolumes: PersistentVolumeController;
  private readonly statefulSets: PodOwnerQueue;
  private readonly daemonSets: PodOwnerQueue;
  private readonly cronJobs: CronJobQueue;
  private readonly disruption: DisruptionController;
  private readonly nodeTaints: WorkQueue;
  private readonly hpas: WorkQueue;
  private readonly hpaMemory = new Map<string, HpaMemory>();
  private readonly hpaSelectors = new HpaSelectors();
  private readonly protectedClaims: WorkQueue;
  private readonly protectedVolumes: WorkQueue;
  private readonly externalDeleter: WorkQueue;
  private readonly queues: WorkQueue[] = [];

  constructor(private readonly ctx: EngineContext, private readonly api: ApiServer) {
    limitClients(api, ctx.profile.controllerManager, ctx.recorder);
    this.deployments = this.workQueue('deployment-controller');
    this.replicaSets = new ReplicaSetQueue(ctx, api, this.workQueue('replicaset-controller'), REPLICA_SET, (pod) => selectingControllers(ctx, 'ReplicaSet', pod).map((rs) => rs.metadata?.name ?? ''));
    // replication_controller.go: the ReplicaSet controller again, its queue named "replicationmanager".
    this.replicationControllers = new ReplicaSetQueue(ctx, api, this.workQueue('replicationmanager'), REPLICATION_CONTROLLER_KIND, (pod) => podReplicationControllers(ctx, pod));
    this.statefulSets = new PodOwnerQueue(ctx, this.workQueue('statefulset-controller'), 'StatefulSet', 'controllers.statefulset', (ns, name) => syncStatefulSet(ctx, api, ns, name));
    this.daemonSets = new PodOwnerQueue(ctx, this.workQueue('daemonset-controller'), 'DaemonSet', 'controllers.daemonset', (ns, name) => syncDaemonSet(ctx, api, ns, name));
    this.jobs = this.workQueue('job-controller');
    this.ttl = this.workQueue('ttl-after-finished-controller');
    this.cronJobs = new CronJobQueue(ctx, api, this.workQueue('cronjob-controller'));
    this.nodeTaints = this.workQueue('node-lifecycle-controller');
    this.hpas = this.workQueue('horizontalpodautoscaler');
    this.protectedClaims = this.workQueue('pvcprotection');
    this.protectedVolumes = this.workQueue('pvprotection');
    this.externalDeleter = this.workQueue('external-provisioner');
    this.disruption = new DisruptionController(ctx, this.workQueue('disruption'), this.workQueue('disruption_recheck'), this.workQueue('stale_pod_disruption'));
    this.services = this.workQueue('endpointslice-controller');
    this.gc = this.workQueue('garbagecollector');
    this.persistentVolumes = new PersistentVolumeController(ctx);
  }

  /** onChange is the informers' event handler. It only queues work: controllers run as their own tasks. */
  onChange(type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
    if (obj.kind === 'Deployment' && type !== 'DELETED') this.enqueueDeployment(obj.metadata?.namespace, obj.metadata?.name);
    if (obj.kind === 'ReplicaSet') this.onReplicaSet(type, obj, old);
    if (obj.kind === 'ReplicationController') this.replicationControllers.onOwner(type, obj);
    // stateful_set.go: the set informer's add, update and delete handlers all enqueue the set.
    if (obj.kind === 'StatefulSet') this.statefulSets.enqueue(obj.metadata?.namespace, obj.metadata?.name);
    // daemon_controller.go: addDaemonset / updateDaemonset enqueue the set (deleteDaemonset too, whose sync finds it gone).
    if (obj.kind === 'DaemonSet') this.daemonSets.enqueue(obj.metadata?.namespace, obj.metadata?.name);
    // addNode / updateNode: a node added, or whose labels, taints or Ready condition changed, syncs every DaemonSet
    // (the real handlers first ask nodeShouldRunDaemonPod; the sync asks it again).
    if (obj.kind === 'Node' && type !== 'DELETED' && (type === 'ADDED' || nodeChanged(obj, old))) {
      for (const ds of this.ctx.store.list('DaemonSet')) this.daemonSets.enqueue(ds.metadata?.namespace, ds.metadata?.name);
    }
    // node_lifecycle_controller.go: a node added or updated goes through doNoScheduleTaintingPass (the cordon taint).
    if (obj.kind === 'Node' && type !== 'DELETED') this.enqueueNodeTaints(obj);
    if (obj.kind === 'Job' && type !== 'DELETED') this.enqueueJob(obj.metadata?.namespace, obj.metadata?.name);
    // cronjob_controllerv2.go: the CronJob informer's handlers, and addJob / updateJob / deleteJob.
    if (obj.kind === 'CronJob') this.cronJobs.onCronJob(type, obj as CronJob, old as CronJob | undefined);
    if (obj.kind === 'Job') this.cronJobs.onJob(type, obj, old);
    // disruption.go addDB / updateDB / removeDB.
    if (obj.kind === 'PodDisruptionBudget') this.disruption.onBudget(obj);
    // horizontal.go addHPA / updateHPA: enqueueHPA, always AddRateLimited (the fixed 15 s interval); deleteHPA forgets it
    // and drops its selector.
    if (obj.kind === 'HorizontalPodAutoscaler' && type === 'DELETED') this.hpaSelectors.remove(obj.metadata?.namespace ?? 'default', obj.metadata?.name ?? '');
    if (obj.kind === 'HorizontalPodAutoscaler') this.enqueueHpa(obj.metadata?.namespace, obj.metadata?.name, type !== 'DELETED');
    if (obj.kind === 'Service' && type !== 'DELETED') this.enqueueService(obj.metadata?.namespace, obj.metadata?.name);
    this.persistentVolumes.onChange(type, obj);
    // pvc_protection_controller.go pvcAddedUpdated / podAddedDeletedUpdated: a claim being deleted, and the claims of
    // a pod that is gone, are looked at again.
    if (obj.kind === 'PersistentVolumeClaim' && type !== 'DELETED' && isDeletionCandidate(obj)) this.enqueueProtectedClaim(obj.metadata?.namespace, obj.metadata?.name);
    if (obj.kind === 'Pod' && type === 'DELETED') for (const claim of claimNamesOf(obj as unknown as Pod)) this.enqueueProtectedClaim(obj.metadata?.namespace, claim);
    if (obj.kind === 'PersistentVolume' && type !== 'DELETED') this.onVolume(obj as unknown as PersistentVolume);
    if (obj.kind === 'Pod') {
      this.replicaSets.onPod(type, obj as unknown as Pod, old as unknown as Pod | undefined);
      this.replicationControllers.onPod(type, obj as unknown as Pod, old as unknown as Pod | undefined);
      this.onPod(type, obj as unknown as Pod, old as unknown as Pod | undefined);
      this.statefulSets.onPod(type, obj as unknown as Pod, old as unknown as Pod | undefined);
      this.daemonSets.onPod(type, obj as unknown as Pod, old as unknown as Pod | undefined);
      this.disruption.onPod(type, obj as unknown as Pod);
    }
    this.onGarbage(type, obj, old);
    if (obj.kind === 'Namespace' && type === 'ADDED') this.populateNamespace(obj);
  }

  /**
   * settling tells whether work is to come that may still change what a run shows: a sync under way or queued (one
   * waiting for its client's rate limiter goes on creating pods), or the PV controller's resync of an unbound claim.
   */
  get settling(): boolean {
    return this.persistentVolumes.resyncDue || this.queues.some((q) => q.busy);
  }

  /** atWork names the controllers with a sync under way or queued, by their work queues' names. */
  get atWork(): string[] {
    return this.queues.filter((q) => q.busy).map((q) => q.name);
  }

  /** workQueue makes one of the controllers' work queues, kept to tell whether any is busy. */
  private workQueue(name: string): WorkQueue {
    const queue = new WorkQueue(this.ctx, name);
    this.queues.push(queue);
    return queue;
  }

  /**
   * resync queues every workload already stored, as the informers' initial list does when the controllers start.
   * The cluster's Services are taken as they are: their slices are reconciled at the first change of a pod they select.
   */
  resync(): void {
    for (const d of this.ctx.store.list('Deployment')) this.enqueueDeployment(d.metadata?.namespace, d.metadata?.name);
    for (const rs of this.ctx.store.list('ReplicaSet')) this.replicaSets.enqueue(rs.metadata?.namespace, rs.metadata?.name);
    for (const rc of this.ctx.store.list('ReplicationController')) this.replicationControllers.enqueue(rc.metadata?.namespace, rc.metadata?.name);
    for (const j of this.ctx.store.list('Job')) this.enqueueJob(j.metadata?.namespace, j.metadata?.name);
    for (const s of this.ctx.store.list('StatefulSet')) this.statefulSets.enqueue(s.metadata?.namespace, s.metadata?.name);
    for (const d of this.ctx.store.list('DaemonSet')) this.daemonSets.enqueue(d.metadata?.namespace, d.metadata?.name);
    for (const c of this.ctx.store.list('CronJob')) this.cronJobs.enqueue(c.metadata?.namespace, c.metadata?.name);
    this.disruption.resync();
    for (const h of this.ctx.store.list('HorizontalPodAutoscaler')) this.enqueueHpa(h.metadata?.namespace, h.metadata?.name);
    for (const c of this.ctx.store.list('PersistentVolumeClaim')) this.enqueueProtectedClaim(c.metadata?.namespace, c.metadata?.name);
    for (const v of this.ctx.store.list<PersistentVolume>('PersistentVolume')) if (isVolumeDeletionCandidate(v)) this.onVolume(v);
    for (const n of this.ctx.store.list('Node')) this.enqueueNodeTaints(n);
  }

  private enqueueNodeTaints(node: KubeObject): void {
    const name = node.metadata?.name ?? '';
    if (name && unschedulableTaintOutOfStep(node as Node)) this.nodeTaints.add(name, () => syncUnschedulableTaint(this.ctx, name));
  }

  /**
   * onVolume is pv_protection_controller.go pvAddedUpdated (a volume being deleted is looked at again) and the external
   * provisioner's volume handler (a Released volume of its own with reclaim policy Delete is deleted).
   */
  private onVolume(pv: PersistentVolume): void {
    const name = pv.metadata?.name ?? '';
    if (isVolumeDeletionCandidate(pv)) this.protectedVolumes.add(name, () => syncProtectedVolume(this.ctx, name));
    if (shouldDeleteExternally(pv)) this.externalDeleter.add(name, () => deleteExternally(this.ctx, name));
  }

  /** enqueueProtectedClaim queues a claim for the PVC protection controller, if it is being deleted. */
  private enqueueProtectedClaim(ns: string | undefined, name: string | undefined): void {
    const claim = name ? this.ctx.store.get<KubeObject>('PersistentVolumeClaim', ns, name) : undefined;
    if (!claim || !isDeletionCandidate(claim)) return;
    this.protectedClaims.add(`${ns}/${name}`, () => syncProtectedClaim(this.ctx, this.api, ns ?? 'default', name ?? ''));
  }

  /**
   * enqueueHpa waits the sync period, as every add does; a sync of an HPA still stored requeues it the same way. An
   * added or updated HPA not yet in the selector map enters it with the Nothing selector (enqueueHPA).
   */
  private enqueueHpa(ns: string | undefined, name: string | undefined, register = true): void {
    if (!name) return;
    const ctx = this.ctx;
    const api = this.api;
    const memory = this.hpaMemory;
    const selectors = this.hpaSelectors;
    if (register) selectors.register(ns ?? 'default', name);
    this.hpas.add(`${ns}/${name}`, function* () {
      const stored = yield* syncHpa(ctx, api, memory, selectors, ns ?? 'default', name);
      return stored ? HPA_SYNC_PERIOD_MS : undefined;
    }, HPA_SYNC_PERIOD_MS);
  }

  private enqueueDeployment(ns: string | undefined, name: string | undefined): void {
    if (!name) return;
    this.deployments.add(`${ns}/${name}`, () => syncDeployment(this.ctx, this.api, ns ?? 'default', name));
  }

  private enqueueJob(ns: string | undefined, name: string | undefined, after = 0): void {
    if (!name) return;
    const ctx = this.ctx;
    const api = this.api;
    this.jobs.add(`${ns}/${name}`, () => syncJob(ctx, api, ns ?? 'default', name), after);
    if (after === 0) this.ttl.add(`${ns}/${name}`, () => syncTtlAfterFinished(ctx, api, ns ?? 'default', name));
  }

  private enqueueService(ns: string | undefined, name: string | undefined, pod?: Pod): void {
    if (!name) return;
    this.services.add(`${ns}/${name}`, () => syncService(this.ctx, ns ?? 'default', name, pod));
  }

  private onReplicaSet(type: WatchEventType, rs: KubeObject, old: KubeObject | undefined): void {
    this.replicaSets.onOwner(type, rs);
    const d = deploymentOf(rs);
    if (d) this.enqueueDeployment(rs.metadata?.namespace, d);
    // deployment_controller.go addReplicaSet / updateReplicaSet: a former controller syncs (it may re-adopt), and the
    // Deployments selecting an orphan sync to see if one wants to adopt it.
    const before = old && type !== 'ADDED' ? deploymentOf(old) : undefined;
    if (before && before !== d) this.enqueueDeployment(rs.metadata?.namespace, before);
    if (!controllerOf(rs) && type !== 'DELETED' && (type === 'ADDED' || labelsChanged(rs, old) || before)) {
      for (const dep of selectingControllers(this.ctx, 'Deployment', rs)) this.enqueueDeployment(dep.metadata?.namespace, dep.metadata?.name);
    }
  }

  private onPod(type: WatchEventType, pod: Pod, old: Pod | undefined): void {
    const ctx = this.ctx;
    const ns = pod.metadata?.namespace;
    const owner = controllerOf(pod as unknown as KubeObject);
    // The deployment controller watches pod deletions, which a Recreate rollout waits for.
    if (owner?.kind === 'ReplicaSet' && type === 'DELETED') {
      const rs = ctx.store.get<KubeObject>('ReplicaSet', ns, owner.name);
      const d = rs && deploymentOf(rs);
      if (d) this.enqueueDeployment(ns, d);
    }
    // The job controller batches pod events: syncJobBatchPeriod, 1 s (pkg/controller/job/job_controller.go).
    if (owner?.kind === 'Job') this.enqueueJob(ns, owner.name, JOB_SYNC_BATCH_PERIOD_MS);
    // The EndpointSlice controller: every Service that selects the pod, now or before this change.
    const services = servicesSelecting(ctx, pod, old);
    for (const svc of services) this.enqueueService(ns, svc, pod);
    const now = endpointConditions(pod);
    const before = old && type !== 'ADDED' ? endpointConditions(old) : undefined;
    const changed = before !== undefined && (before.ready !== now.ready || before.terminating !== now.terminating || old?.status?.podIP !== pod.status?.podIP);
    // A pod no Service selects still gets its one controllers.endpoints step when its address or readiness changes.
    if (services.length === 0 && (type === 'DELETED' || (changed && pod.status?.podIP))) {
      ctx.schedule(0, `endpointslice-controller: ${refOf(pod)}`, () => syncEndpoints(ctx, pod, refOf(pod), type === 'DELETED'));
    }
  }

  /** onGarbage feeds the garbage collector: owners deleted, owners waiting on dependents, dependents gone or born orphans. */
  private onGarbage(type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
    const ctx = this.ctx;
    const api = this.api;
    const key = refOf(obj);
    if (type === 'DELETED') {
      this.gc.add(`dependents of ${key}`, () => collectDependents(ctx, api, obj));
      for (const owner of waitingOwnersOf(ctx, obj)) this.gc.add(refOf(owner), () => processDeletingOwner(ctx, api, owner));
      return;
    }
    // An owner reference added that names no stored uid: a virtual owner node, checked first; when it is absent, its
    // dependents are attempted in turn, a queue hop later (graph_builder.go addDependentToOwners, garbagecollector.go
    // attemptToDeleteItem, enqueueVirtualDeleteEvent). So a pod born with a dangling owner is bound before it goes.
    const gc = this.gc;
    for (const r of missingOwners(ctx, obj, type === 'ADDED' ? undefined : old)) {
      gc.add(`virtual owner ${r.uid}`, function* () {
        if (!(yield* verifyVirtualOwner(ctx, obj, r))) return;
        for (const dep of ctx.store.byIndex('owner', r.uid)) gc.add(refOf(dep), () => attemptToDeleteDependent(ctx, api, dep));
      });
    }
    const finalizers = obj.metadata?.finalizers ?? [];
    if (obj.metadata?.deletionTimestamp && (finalizers.includes('foregroundDeletion') || finalizers.includes('orphan'))) {
      this.gc.add(key, () => processDeletingOwner(ctx, api, obj));
    }
    if (obj.metadata?.deletionTimestamp) for (const owner of waitingOwnersOf(ctx, obj)) this.gc.add(refOf(owner), () => processDeletingOwner(ctx, api, owner));
  }

  /**
   * populateNamespace gives a new namespace what its controllers give it at once: the `default`
   * ServiceAccount (serviceaccounts-controller) and the kube-root-ca.crt ConfigMap (root-ca-cert-publisher).
   * See pkg/controller/serviceaccount/serviceaccounts_controller.go and pkg/controller/certificates/rootcacertpublisher.
   */
  private populateNamespace(ns: KubeObject): void {
    const name = ns.metadata?.name ?? '';
    const store = this.ctx.store;
    const meta = (n: string) => ({ name: n, namespace: name, uid: this.ctx.rng.uuid(), creationTimestamp: this.ctx.clock.timestamp() });
    if (!store.get('ServiceAccount', name, 'default')) store.put({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta('default') });
    const ca = store.get('ConfigMap', 'kube-system', 'kube-root-ca.crt') ?? store.list('ConfigMap').find((c) => c.metadata?.name === 'kube-root-ca.crt');
    if (ca && !store.get('ConfigMap', name, 'kube-root-ca.crt')) {
      store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...meta('kube-root-ca.crt'), annotations: ca.metadata?.annotations ?? {} }, data: ca['data'] });
    }
  }
}
