// Builders for the diagnosis tests: a pod, its node, its events and trace steps as a run would report them, with
// virtual seconds turned into the objects' timestamps.
import type { Container, ContainerStatus, KubeObject, Node, Pod, PodCondition, Taint } from '../../../src/engine/api/types';
import type { DiagnosisEvent, DiagnosisInput, DiagnosisTraceEntry } from '../../../src/engine/explain/pod-view';

/** EPOCH is the wall-clock instant of virtual second 0. */
export const EPOCH = '2026-01-01T00:00:00Z';

/** ts turns virtual seconds into an RFC 3339 timestamp. */
export function ts(seconds: number): string {
  return new Date(Date.parse(EPOCH) + seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

/** PodBuilder makes a pod bound to worker-1 with one container `app`, phase Running and Ready. */
export class PodBuilder {
  readonly pod: { apiVersion: string; kind: string; metadata: Record<string, unknown>; spec: Record<string, unknown> & { containers: Container[] }; status: Record<string, unknown> };

  constructor(name = 'web', namespace = 'default') {
    this.pod = {
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name, namespace, uid: 'uid-1', creationTimestamp: ts(0) },
      spec: { nodeName: 'worker-1', containers: [{ name: 'app', image: 'nginx:1.27' }], restartPolicy: 'Always', terminationGracePeriodSeconds: 30 },
      status: { phase: 'Running', startTime: ts(0), conditions: conditions(true), containerStatuses: [running('app', 2, true)] },
    };
  }

  container(c: Partial<Container> & { name?: string }, index = 0): this {
    this.pod.spec.containers[index] = { ...this.pod.spec.containers[index], ...c } as Container;
    return this;
  }

  initContainer(c: Container, status: ContainerStatus): this {
    this.pod.spec.initContainers = [c];
    this.pod.status.initContainerStatuses = [status];
    return this;
  }

  spec(fields: Record<string, unknown>): this {
    Object.assign(this.pod.spec, fields);
    return this;
  }

  status(s: Partial<ContainerStatus>, index = 0): this {
    const list = this.pod.status.containerStatuses as ContainerStatus[];
    list[index] = { ...list[index]!, ...s };
    return this;
  }

  podStatus(fields: Record<string, unknown>): this {
    Object.assign(this.pod.status, fields);
    return this;
  }

  notReady(reason = 'ContainersNotReady', message = 'containers with unready status: [app]'): this {
    this.pod.status.conditions = conditions(false, reason, message);
    return this;
  }

  condition(c: PodCondition): this {
    (this.pod.status.conditions as PodCondition[]).push(c);
    return this;
  }

  deleted(at: number, grace: number): this {
    this.pod.metadata.deletionTimestamp = ts(at + grace);
    this.pod.metadata.deletionGracePeriodSeconds = grace;
    return this;
  }

  finalizers(...f: string[]): this {
    this.pod.metadata.finalizers = f;
    return this;
  }

  build(): Pod {
    return this.pod as unknown as Pod;
  }
}

/** conditions are the kubelet's five pod conditions, Ready and ContainersReady as given. */
export function conditions(ready: boolean, reason?: string, message?: string): PodCondition[] {
  const r = (type: string): PodCondition => ({ type, status: ready ? 'True' : 'False', ...(ready ? {} : { reason: reason!, message: message! }) });
  return [{ type: 'PodReadyToStartContainers', status: 'True' }, { type: 'Initialized', status: 'True' }, r('Ready'), r('ContainersReady'), { type: 'PodScheduled', status: 'True' }];
}

/** running is the status of a container running since a virtual second. */
export function running(name: string, since: number, ready: boolean): ContainerStatus {
  return { name, image: 'nginx:1.27', imageID: '', ready, started: true, restartCount: 0, state: { running: { startedAt: ts(since) } } };
}

/** node makes a Node with its Ready condition and taints. */
export function node(name: string, ready: { status: string; reason: string; message: string }, taints: Taint[] = []): Node {
  return {
    apiVersion: 'v1', kind: 'Node', metadata: { name },
    spec: taints.length > 0 ? { taints } : {},
    status: { conditions: [{ type: 'Ready', ...ready }] },
  } as Node;
}

// pkg/kubelet/nodestatus/setters.go (ReadyCondition): Ready True, KubeletReady, "kubelet is posting ready status".
export const NODE_READY = { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' };

/** ev is an Event about the pod default/web (or another object). */
export function ev(at: number, type: string, reason: string, message: string, count = 1, object = 'Pod/default/web'): DiagnosisEvent {
  return { at, type, reason, object, source: 'kubelet', message, count };
}

/** step is a trace step on the pod default/web. */
export function step(at: number, phase: string, result: string, more: Partial<DiagnosisTraceEntry> = {}): DiagnosisTraceEntry {
  return { phase, at, object: 'Pod/default/web', result, detail: {}, ...more };
}

/** CREATED are the steps every pod has: stored at 0, bound to worker-1 at 0, admitted by its kubelet at 0. */
export const CREATED: DiagnosisTraceEntry[] = [
  step(0, 'etcd.persist', 'stored Pod "web"'),
  step(0, 'scheduler.bind', 'Bind DefaultBinder: POST pods/web/binding to worker-1'),
  step(0, 'kubelet.admit', 'admitted on worker-1'),
];

/** input makes a run's result of one pod on worker-1. */
export function input(pod: Pod, more: { events?: DiagnosisEvent[]; trace?: DiagnosisTraceEntry[]; nodes?: Node[]; now: number }): DiagnosisInput {
  return {
    objects: [pod, ...(more.nodes ?? [node('worker-1', NODE_READY)])] as unknown as KubeObject[],
    events: more.events ?? [],
    trace: [...CREATED, ...(more.trace ?? [])],
    now: more.now,
    epoch: EPOCH,
  };
}
