// kube-controller-manager: the controllers' informers, turning watch events into controller syncs.
import type { Deployment, KubeObject, Pod, ReplicaSet } from '../api/types';
import { refOf } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext } from '../context';
import { deploymentStatus, syncDeployment } from './deployment';
import { syncEndpoints, endpointConditions } from './endpoints';
import { collectDependents } from './garbage-collector';
import { controllerOf } from './owner';
import { PersistentVolumeController } from './persistentvolume';
import { syncReplicaSet } from './replicaset';

/** Controllers routes store changes to the deployment, replicaset, endpointslice and garbage collector controllers. */
export class Controllers {
  private readonly persistentVolumes: PersistentVolumeController;

  constructor(private readonly ctx: EngineContext, private readonly api: ApiServer) {
    this.persistentVolumes = new PersistentVolumeController(ctx);
  }

  /** onChange is the informers' event handler. It only queues work: controllers run as their own tasks. */
  onChange(type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
    const ctx = this.ctx;
    if (obj.kind === 'Deployment' && type === 'ADDED') {
      ctx.schedule(0, `deployment-controller: sync ${refOf(obj)}`, () => syncDeployment(ctx, this.api, obj as unknown as Deployment));
    }
    if (obj.kind === 'ReplicaSet' && type === 'ADDED') {
      ctx.schedule(0, `replicaset-controller: sync ${refOf(obj)}`, () => syncReplicaSet(ctx, this.api, obj as unknown as ReplicaSet));
    }
    if (type === 'DELETED' && (obj.kind === 'Deployment' || obj.kind === 'ReplicaSet')) {
      ctx.schedule(0, `garbagecollector: dependents of ${refOf(obj)}`, () => collectDependents(ctx, this.api, obj));
    }
    this.persistentVolumes.onChange(type, obj);
    if (obj.kind === 'Pod') this.onPod(type, obj as unknown as Pod, old as unknown as Pod | undefined);
    if (obj.kind === 'Namespace' && type === 'ADDED') this.populateNamespace(obj);
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

  private onPod(type: WatchEventType, pod: Pod, old: Pod | undefined): void {
    const ctx = this.ctx;
    const ref = refOf(pod);
    const now = endpointConditions(pod);
    const before = old && type !== 'ADDED' ? endpointConditions(old) : undefined;
    const deleted = type === 'DELETED';
    const changed = before !== undefined && (before.ready !== now.ready || before.terminating !== now.terminating || old?.status?.podIP !== pod.status?.podIP);
    // The endpoints controller speaks once the pod has an address, again when its readiness or termination changes, and when it goes.
    if (deleted || (changed && pod.status?.podIP)) {
      ctx.schedule(0, `endpointslice-controller: ${ref}`, () => syncEndpoints(ctx, pod, ref, deleted));
    }
    const rsRef = controllerOf(pod as unknown as KubeObject);
    if (rsRef?.kind === 'ReplicaSet' && (changed || deleted)) {
      const rs = ctx.store.get<ReplicaSet>('ReplicaSet', pod.metadata?.namespace, rsRef.name);
      const depRef = rs && controllerOf(rs as unknown as KubeObject);
      if (depRef?.kind === 'Deployment') this.refreshDeployment(pod.metadata?.namespace ?? 'default', depRef.name);
    }
  }

  /** refreshDeployment writes the Deployment's status from its pods, as the deployment controller's syncStatusOnly does. */
  private refreshDeployment(namespace: string, name: string): void {
    const d = this.ctx.store.get<Deployment>('Deployment', namespace, name);
    if (!d) return;
    const status = deploymentStatus(this.ctx, d);
    this.ctx.store.update<Deployment>('Deployment', namespace, name, (obj) => { obj.status = status as typeof obj.status; });
  }
}
