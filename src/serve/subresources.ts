// The subresources serve answers itself around the engine: a workload's scale (autoscaling/v1 Scale, read from and
// written to its spec.replicas) and a pod's log (the container's log lines, or the kubelet's refusal).
// See pkg/registry/apps/deployment/storage/storage.go (ScaleREST) and pkg/registry/core/pod/strategy.go (LogLocation).
import { SelectorError } from '../engine/api/labels';
import { type ScaleObject, scaleOf as engineScaleOf } from '../engine/api/scale';
import type { KubeObject } from '../engine/api/types';
import type { LogLine } from '../engine/cluster/inputs';
import { applyPatch, type PatchType } from '../engine/apiserver/patch';
import { badRequest, invalid, qualifiedResource, StatusError } from '../engine/apiserver/request';

/** SCALABLE are the resources with a scale subresource (their ScaleREST). */
export const SCALABLE: ReadonlySet<string> = new Set(['deployments', 'replicasets', 'statefulsets', 'replicationcontrollers']);

/** Scale is an autoscaling/v1 Scale. */
export type Scale = ScaleObject;

/**
 * scaleOf is the engine's Scale of a workload (api/scale.ts: scaleFromDeployment and its ReplicaSet, StatefulSet,
 * ReplicationController twins); a selector the registry could not convert is left out here.
 */
export function scaleOf(obj: KubeObject): Scale {
  try {
    return engineScaleOf(obj);
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
    const scale = engineScaleOf({ ...obj, spec: { ...(obj['spec'] as Record<string, unknown> | undefined), selector: {} } });
    return { ...scale, status: { replicas: scale.status.replicas } };
  }
}

/**
 * scaledReplicas is the spec.replicas a PUT (the new Scale) or PATCH (applied to the current Scale) asks for, after
 * the scale's own checks: its resourceVersion as a precondition (a 409), then ValidateScale (a 422).
 * See storage.go (scaleUpdatedObjectInfo.UpdatedObject) and pkg/apis/autoscaling/validation (ValidateScale).
 */
export function scaledReplicas(current: KubeObject, resource: string, group: string, change: { scale: Record<string, unknown> } | { patch: unknown; patchType: PatchType }): number {
  const old = scaleOf(current);
  const next = ('scale' in change ? change.scale : applyPatch(old as unknown as KubeObject, change.patch, change.patchType)) as unknown as Scale;
  const name = current.metadata?.name ?? '';
  const rv = next.metadata?.resourceVersion;
  if (rv && rv !== current.metadata?.resourceVersion) {
    throw new StatusError({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409, details: { name, ...(group ? { group } : {}), kind: resource },
      message: `Operation cannot be fulfilled on ${qualifiedResource(resource, group)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    });
  }
  const replicas = next.spec?.replicas ?? 0;
  if (!Number.isInteger(replicas) || replicas < 0) {
    throw invalid('Scale', 'autoscaling', name, [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${replicas}: must be greater than or equal to 0` }]);
  }
  return replicas;
}

interface ContainerState {
  waiting?: { reason?: string };
  running?: { startedAt?: string };
  terminated?: { containerID?: string; startedAt?: string; finishedAt?: string };
}

interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
}

interface PodForLog {
  metadata?: { name?: string; namespace?: string };
  spec?: { nodeName?: string; containers?: { name: string }[]; initContainers?: { name: string }[]; ephemeralContainers?: { name: string }[] };
  status?: { containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[]; ephemeralContainerStatuses?: ContainerStatus[] };
}

/** PodLog is a log answer: the text, the container it is of, and whether that container runs (a follow stays open). */
export interface PodLog {
  text: string;
  container: string;
  running: boolean;
}

/** LogSource gives the lines a container writes (the Behavior's `logs`) and the wall-clock instant the cluster stands at. */
export interface LogSource {
  lines(container: string): readonly LogLine[];
  nowMs: number;
}

/**
 * logText is what one run of a container wrote: its lines up to `untilMs` (its end, or now), counted from its start.
 * Each line ends with a newline, as a container's stdout is read back.
 */
export function logText(lines: readonly LogLine[], startedAt: string | undefined, untilMs: number): string {
  const start = startedAt ? Date.parse(startedAt) : NaN;
  if (!Number.isFinite(start)) return '';
  return lines.filter((l) => start + l.at * 1000 <= untilMs).map((l) => `${l.line}\n`).join('');
}

/**
 * podLog is what GET pods/NAME/log answers: the lines the container wrote in its current run (its last run when asked
 * for the previous one, or while it waits to restart), as the Behavior's `logs` say, or the 400 of validateContainer
 * (strategy.go) or of the kubelet's validateContainerLogStatus (pkg/kubelet/kubelet_pods.go), which the API server
 * passes on as a BadRequest (GenericHttpResponseChecker).
 * A pod not yet on a node has no log location: an empty body.
 */
export function podLog(obj: KubeObject, container: string, previous: boolean, source?: LogSource): PodLog {
  const pod = obj as unknown as PodForLog;
  const podName = pod.metadata?.name ?? '';
  const spec = pod.spec ?? {};
  const all = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => c.name);
  if (!container) {
    const main = spec.containers ?? [];
    if (main.length === 0) throw badRequest(`a container name must be specified for pod ${podName}`);
    // Go prints a []string with %s as [a b] (VisitContainers: init containers, containers, ephemeral containers).
    if (main.length > 1) throw badRequest(`a container name must be specified for pod ${podName}, choose one of: [${all.join(' ')}]`);
    container = main[0]!.name;
  } else if (!all.includes(container)) throw badRequest(`container ${container} is not valid for pod ${podName}`);
  const lines = source?.lines(container) ?? [];
  const now = source?.nowMs ?? 0;
  /** ran is one run of the container: its lines from its start to its end (or now, while it runs). */
  const ran = (run: { startedAt?: string; finishedAt?: string } | undefined, running = false): PodLog => ({
    text: run ? logText(lines, run.startedAt, running ? now : Math.min(now, Date.parse(run.finishedAt ?? '') || now)) : '', container, running,
  });
  const text = (running = false): PodLog => ({ text: '', container, running });
  if (!spec.nodeName) return text();
  const st = pod.status ?? {};
  const cs = [...(st.containerStatuses ?? []), ...(st.initContainerStatuses ?? []), ...(st.ephemeralContainerStatuses ?? [])].find((c) => c.name === container);
  const q = (s: string): string => JSON.stringify(s);
  const refuse = (message: string): never => {
    throw badRequest(message);
  };
  if (!cs) return refuse(`container ${q(container)} in pod ${q(podName)} is not available`);
  const last = cs.lastState ?? {};
  const state = cs.state ?? {};
  if (previous) {
    if (!last.terminated?.containerID) refuse(`previous terminated container ${q(container)} in pod ${q(podName)} not found`);
    return ran(last.terminated);
  }
  if (state.running) return ran(state.running, true);
  if (state.terminated) {
    if (!state.terminated.containerID && !last.terminated?.containerID) refuse(`container ${q(container)} in pod ${q(podName)} is terminated`);
    return ran(state.terminated.containerID ? state.terminated : last.terminated);
  }
  // A container waiting to restart shows the logs of its last run (validateContainerLogStatus: the last terminated ID).
  if (last.terminated) {
    if (!last.terminated.containerID) refuse(`container ${q(container)} in pod ${q(podName)} is terminated`);
    return ran(last.terminated);
  }
  if (!state.waiting) return refuse(`container ${q(container)} in pod ${q(podName)} is waiting to start - no logs yet`);
  const reason = state.waiting.reason ?? '';
  if (reason === 'ErrImagePull') refuse(`container ${q(container)} in pod ${q(podName)} is waiting to start: image can't be pulled`);
  if (reason === 'ImagePullBackOff') refuse(`container ${q(container)} in pod ${q(podName)} is waiting to start: trying and failing to pull image`);
  return refuse(`container ${q(container)} in pod ${q(podName)} is waiting to start: ${reason}`);
}

/** isRunning tells whether a pod's container runs (a followed log ends when it stops or the pod goes). */
export function isRunning(obj: KubeObject | undefined, container: string): boolean {
  const st = (obj as unknown as PodForLog | undefined)?.status ?? {};
  const cs = [...(st.containerStatuses ?? []), ...(st.initContainerStatuses ?? []), ...(st.ephemeralContainerStatuses ?? [])].find((c) => c.name === container);
  return cs?.state?.running !== undefined;
}
