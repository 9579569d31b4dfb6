// What a diagnosis reads about one pod, gathered from what Kubernetes exposes: the stored pod and its node, the events
// about it, and the engine's trace steps on it, each with its virtual time. Pure: it only reads the input it is given.
import type { Container, ContainerStatus, KubeObject, Node, Pod, PodCondition } from '../api/types';

/** DiagnosisEvent is a Kubernetes Event as a run reports it (`at` is the virtual second of its last occurrence). */
export interface DiagnosisEvent {
  at: number;
  type: string;
  reason: string;
  /** object is the involved object, `Pod/default/web` or `Node/worker-1`. */
  object: string;
  /** fieldPath is the involved object's fieldPath: the container a kubelet event is about (`spec.containers{app}`). */
  fieldPath?: string;
  source?: string;
  message: string;
  /** count is how many times the event repeated. */
  count?: number;
}

/** DiagnosisTraceEntry is one step of the engine's trace, as a run reports it. */
export interface DiagnosisTraceEntry {
  phase: string;
  at: number;
  object?: string;
  field?: string;
  result: string;
  detail?: Record<string, unknown>;
  step?: { kind: string; name: string };
  outcome?: string;
}

/** DiagnosisInput is what a diagnosis reads: a SimulationResult, or anything shaped like one. */
export interface DiagnosisInput {
  objects: readonly KubeObject[];
  events: readonly DiagnosisEvent[];
  trace: readonly DiagnosisTraceEntry[];
  /** now is the virtual second the run ended at; without it, the latest time in the trace and events. */
  now?: number;
  /** epoch is the wall-clock instant of virtual second 0, to read the objects' timestamps; without it, it is derived. */
  epoch?: Date | string;
}

/** ContainerView is one container of the pod with its status and the paths of both. */
export interface ContainerView {
  name: string;
  /** init tells an init container (a restartable one is a sidecar) from a regular one. */
  init: boolean;
  sidecar: boolean;
  spec: Container;
  status?: ContainerStatus;
  /** field is the manifest path of the container (`spec.containers[0]`). */
  field: string;
  /** statusField is the path of its status (`status.containerStatuses[0]`). */
  statusField: string;
}

/** PodView is one pod and what is known about it at the end of a run. */
export interface PodView {
  pod: Pod;
  ref: string;
  name: string;
  namespace: string;
  nodeName?: string;
  node?: Node;
  /** events are the events about the pod, in the order they last happened. */
  events: DiagnosisEvent[];
  /** nodeEvents are the events about the pod's node. */
  nodeEvents: DiagnosisEvent[];
  /** trace are the trace steps on the pod. */
  trace: DiagnosisTraceEntry[];
  containers: ContainerView[];
  now: number;
  /** seconds turns an RFC 3339 timestamp of the objects into virtual seconds, when the epoch is known. */
  seconds(timestamp: string | undefined | null): number | undefined;
}

function podRef(pod: Pod): string {
  return `Pod/${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
}

/** epochOf finds the wall-clock instant of virtual second 0: given, or from the pod's creation and its etcd.persist step. */
function epochOf(input: DiagnosisInput, pod: Pod, trace: readonly DiagnosisTraceEntry[]): number | undefined {
  if (input.epoch !== undefined) return new Date(input.epoch).getTime();
  const created = pod.metadata?.creationTimestamp;
  const persisted = trace.find((e) => e.phase === 'etcd.persist');
  if (!created || !persisted) return undefined;
  return Date.parse(created) - Math.floor(persisted.at) * 1000;
}

/** endOf is the run's last virtual second: given, or the latest step or event. */
export function endOf(input: DiagnosisInput): number {
  if (input.now !== undefined) return input.now;
  let now = 0;
  for (const e of input.trace) now = Math.max(now, e.at);
  for (const e of input.events) now = Math.max(now, e.at);
  return now;
}

function containerViews(pod: Pod): ContainerView[] {
  const out: ContainerView[] = [];
  const statuses = (list: readonly ContainerStatus[] | undefined, name: string): { status?: ContainerStatus; index: number } => {
    const index = (list ?? []).findIndex((s) => s.name === name);
    return index >= 0 ? { status: list![index]!, index } : { index: -1 };
  };
  (pod.spec?.initContainers ?? []).forEach((c, i) => {
    const s = statuses(pod.status?.initContainerStatuses, c.name);
    out.push({
      name: c.name, init: true, sidecar: c.restartPolicy === 'Always', spec: c, field: `spec.initContainers[${i}]`,
      ...(s.status ? { status: s.status } : {}), statusField: `status.initContainerStatuses[${s.index >= 0 ? s.index : i}]`,
    });
  });
  (pod.spec?.containers ?? []).forEach((c, i) => {
    const s = statuses(pod.status?.containerStatuses, c.name);
    out.push({
      name: c.name, init: false, sidecar: false, spec: c, field: `spec.containers[${i}]`,
      ...(s.status ? { status: s.status } : {}), statusField: `status.containerStatuses[${s.index >= 0 ? s.index : i}]`,
    });
  });
  return out;
}

/** podView gathers one pod's view from a run's result. */
export function podView(input: DiagnosisInput, pod: Pod): PodView {
  const ref = podRef(pod);
  const nodeName = pod.spec?.nodeName;
  const node = nodeName ? (input.objects.find((o) => o.kind === 'Node' && o.metadata?.name === nodeName) as Node | undefined) : undefined;
  const trace = input.trace.filter((e) => e.object === ref);
  const epoch = epochOf(input, pod, trace);
  return {
    pod, ref, name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? 'default',
    ...(nodeName ? { nodeName } : {}), ...(node ? { node } : {}),
    events: input.events.filter((e) => e.object === ref),
    nodeEvents: nodeName ? input.events.filter((e) => e.object === `Node/${nodeName}`) : [],
    trace,
    containers: containerViews(pod),
    now: endOf(input),
    seconds: (timestamp) => (epoch === undefined || !timestamp ? undefined : (Date.parse(timestamp) - epoch) / 1000),
  };
}

/**
 * containerFieldPath is the fieldPath of the kubelet's events about a container: `spec.containers{app}`,
 * `spec.initContainers{init}` (pkg/kubelet/container/ref.go GenerateContainerRef, v1.36.3).
 */
export function containerFieldPath(c: ContainerView): string {
  return `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}`;
}

/** onContainer: an event on the container's reference, or one that carries no fieldPath (a report that predates it). */
export function onContainer(e: DiagnosisEvent, c: ContainerView): boolean {
  return e.fieldPath === undefined || e.fieldPath === containerFieldPath(c);
}

/** condition finds a pod condition by type. */
export function condition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** isReady tells whether the pod's Ready condition is True. */
export function isReady(pod: Pod): boolean {
  return condition(pod, 'Ready')?.status === 'True';
}

/** nodeReady is the node's Ready condition. */
export function nodeReady(node: Node | undefined): { status: string; reason?: string; message?: string; lastTransitionTime?: string } | undefined {
  const c = node?.status?.conditions?.find((x) => x.type === 'Ready');
  return c ? { status: c.status, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}), ...(c.lastTransitionTime ? { lastTransitionTime: c.lastTransitionTime } : {}) } : undefined;
}

/** kubectlPod is how a person names the pod on the kubectl command line: `web`, or `web -n shop` outside default. */
export function kubectlPod(view: PodView): string {
  return view.namespace === 'default' ? view.name : `${view.name} -n ${view.namespace}`;
}

/** formatSeconds prints virtual seconds for a person: `12s`, `2.5s`, `5m0s` as Go prints a duration. */
export function formatSeconds(s: number): string {
  const rounded = Math.round(s * 10) / 10;
  if (rounded < 60) return `${rounded}s`;
  const h = Math.floor(rounded / 3600);
  const m = Math.floor((rounded % 3600) / 60);
  const sec = Math.round((rounded % 60) * 10) / 10;
  return h > 0 ? `${h}h${m}m${sec}s` : `${m}m${sec}s`;
}
