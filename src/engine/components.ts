// The programs of the simulated cluster that act on the store's changes: kube-scheduler, the controllers of
// kube-controller-manager (the taint eviction and pod GC controllers among them), one kubelet per node and kube-proxy; and how a
// change reaches each, as their informers would deliver it.
import type { KubeObject, Pod } from './api/types';
import type { ApiServer } from './apiserver/server';
import type { Behavior, InformerComponent, SimulationInputs } from './cluster/inputs';
import type { WatchEventType } from './cluster/store';
import type { EngineContext } from './context';
import { Controllers } from './controllers/manager';
import { PodGC } from './controllers/podgc';
import { TaintEviction } from './controllers/taint-eviction';
import { Kubelet } from './kubelet/kubelet';
import { KubeProxy } from './kubeproxy/proxy';
import { KubeScheduler } from './scheduler/kube-scheduler';

/** Components are the cluster's programs, the kubelets by node name. */
export interface Components {
  scheduler: KubeScheduler;
  controllers: Controllers;
  taintEviction: TaintEviction;
  podGC: PodGC;
  kubelets: Map<string, Kubelet>;
  kubeProxy: KubeProxy;
}

/** startComponents starts a kubelet for every stored Node, the scheduler with its configuration, and the controllers. */
export function startComponents(ctx: EngineContext, api: ApiServer, config: SimulationInputs['cluster']['config']): Components {
  const kubelets = new Map<string, Kubelet>();
  for (const node of ctx.store.list('Node')) kubelets.set(node.metadata?.name ?? '', new Kubelet(ctx, node as never));
  return {
    scheduler: new KubeScheduler(ctx, config), controllers: new Controllers(ctx, api),
    taintEviction: new TaintEviction(ctx, api), podGC: new PodGC(ctx, api), kubelets, kubeProxy: new KubeProxy(ctx),
  };
}

/** deliver hands one change of the store to every program that watches it: a pod's to the kubelet of its node. */
export function deliver(c: Components, type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
  c.scheduler.onChange(type, obj, old);
  c.controllers.onChange(type, obj, old);
  c.podGC.onChange(type, obj);
  c.kubeProxy.onChange(obj);
  if (obj.kind !== 'Pod') return;
  const pod = obj as Pod;
  const nodeName = pod.spec?.nodeName;
  const kubelet = nodeName ? c.kubelets.get(nodeName) : undefined;
  if (type === 'DELETED') {
    kubelet?.onPodRemoved(pod);
    c.taintEviction.onPodDeleted(pod);
  } else {
    kubelet?.onPodChange(pod);
    if (nodeName && !(old as Pod | undefined)?.spec?.nodeName) c.taintEviction.onPodBound(pod);
  }
}

/**
 * deliverTo hands one change to one program alone, as its own informers would (deliver's share of it): the
 * kube-controller-manager share is its controllers, pod GC and taint eviction; a kubelet's, the pods bound to its node.
 */
export function deliverTo(c: Components, component: InformerComponent, type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
  if (component === 'kube-scheduler') c.scheduler.onChange(type, obj, old);
  else if (component === 'kube-proxy') c.kubeProxy.onChange(obj);
  else if (component === 'kube-controller-manager') {
    c.controllers.onChange(type, obj, old);
    c.podGC.onChange(type, obj);
    if (obj.kind !== 'Pod') return;
    const pod = obj as Pod;
    if (type === 'DELETED') c.taintEviction.onPodDeleted(pod);
    else if (pod.spec?.nodeName && !(old as Pod | undefined)?.spec?.nodeName) c.taintEviction.onPodBound(pod);
  } else if (obj.kind === 'Pod') {
    const pod = obj as Pod;
    const kubelet = pod.spec?.nodeName ? c.kubelets.get(pod.spec.nodeName) : undefined;
    if (type === 'DELETED') kubelet?.onPodRemoved(pod);
    else kubelet?.onPodChange(pod);
  }
}

/**
 * kubeletTaskDown makes the test of whether a task belongs to a kubelet the Behavior has stopped by now (its label is
 * `kubelet NODE: ...`). Most runs stop no kubelet: the label is read only when the Behavior stops one.
 */
export function kubeletTaskDown(behavior: Behavior, kubelets: ReadonlyMap<string, Kubelet>): (label: string) => boolean {
  let stopsKubelets: boolean | undefined;
  return (label) => {
    if (!(stopsKubelets ??= Object.values(behavior.nodes).some((n) => n?.kubelet === 'down'))) return false;
    const node = /^kubelet ([^:]+): /.exec(label)?.[1];
    return node !== undefined && kubelets.get(node)?.down === true;
  };
}
