// The pod status the kubelet computes: phase, conditions and container statuses.
// See pkg/kubelet/kubelet_pods.go (generateAPIPodStatus, getPhase) and pkg/kubelet/status/generate.go.
import type { ContainerStatus, Pod, PodCondition, PodStatus } from '../api/types';
import type { VirtualClock } from '../runtime/clock';
import type { ConditionMark, ContainerRuntimeState, PodRuntimeState } from './pod-state';

/** CONDITION_ORDER is the order the kubelet lists the pod's conditions in. */
const CONDITION_ORDER = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

/** setCondition records a condition's status, keeping its transition time when the status did not change. */
export function setCondition(state: PodRuntimeState, type: string, status: 'True' | 'False', now: number, reason?: string, message?: string): void {
  const prev = state.conditions.get(type);
  const mark: ConditionMark = { status, at: prev && prev.status === status ? prev.at : now, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
  state.conditions.set(type, mark);
}

/**
 * podPhase computes the phase from the containers' states, as getPhase does: Pending until every
 * regular container has started; Running while one runs; terminal when all have exited and the
 * restart policy (or the pod's termination) keeps them down.
 */
export function podPhase(state: PodRuntimeState, podIsTerminal: boolean): PodStatus['phase'] {
  const regular = state.containers.filter((c) => !c.init);
  const policy = state.pod.spec?.restartPolicy ?? 'Always';
  const running = regular.filter((c) => c.state === 'running').length;
  // A waiting container that ran before (CrashLoopBackOff) counts as stopped, as getPhase does.
  const stopped = regular.filter((c) => c.state === 'terminated' || (c.state === 'waiting' && c.lastTerminated)).length;
  const succeeded = regular.filter((c) => c.state === 'terminated' && c.exitCode === 0).length;
  const waiting = regular.length - running - stopped;
  const initPending = state.containers.some((c) => c.init && !(c.state === 'terminated' && c.exitCode === 0));
  if (initPending && !podIsTerminal) return 'Pending';
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    return policy === 'Never' ? 'Failed' : 'Running';
  }
  return 'Pending';
}

/** refreshReadiness sets the Initialized, ContainersReady and Ready conditions from the containers. See pkg/kubelet/status/generate.go. */
export function refreshReadiness(state: PodRuntimeState, now: number, terminal: boolean): void {
  const inits = state.containers.filter((c) => c.init);
  const pendingInit = inits.filter((c) => !(c.state === 'terminated' && c.exitCode === 0)).map((c) => c.name);
  if (pendingInit.length === 0) setCondition(state, 'Initialized', 'True', now);
  else setCondition(state, 'Initialized', 'False', now, 'ContainersNotInitialized', `containers with incomplete status: [${pendingInit.join(' ')}]`);
  const unready = state.containers.filter((c) => !c.init && !c.ready).map((c) => c.name);
  if (terminal) {
    setCondition(state, 'ContainersReady', 'False', now, 'PodCompleted');
    setCondition(state, 'Ready', 'False', now, 'PodCompleted');
  } else if (unready.length === 0) {
    setCondition(state, 'ContainersReady', 'True', now);
    setCondition(state, 'Ready', 'True', now);
  } else {
    const message = `containers with unready status: [${unready.join(' ')}]`;
    setCondition(state, 'ContainersReady', 'False', now, 'ContainersNotReady', message);
    setCondition(state, 'Ready', 'False', now, 'ContainersNotReady', message);
  }
}

/** buildPodStatus renders the runtime state as the PodStatus the kubelet sends to the API server. */
export function buildPodStatus(state: PodRuntimeState, stored: Pod, clock: VirtualClock, hostIP: string, podIsTerminal: boolean): PodStatus {
  const prev = stored.status ?? {};
  const conditions: PodCondition[] = [];
  const generation = stored.metadata?.generation;
  for (const type of CONDITION_ORDER) {
    if (type === 'PodScheduled') {
      const scheduled = prev.conditions?.find((c) => c.type === 'PodScheduled');
      if (scheduled) conditions.push(scheduled);
      continue;
    }
    const mark = state.conditions.get(type);
    if (!mark) continue;
    conditions.push({
      lastProbeTime: null as unknown as string, lastTransitionTime: clock.timestamp(mark.at),
      ...(mark.message ? { message: mark.message } : {}),
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
      ...(mark.reason ? { reason: mark.reason } : {}),
      status: mark.status, type,
    } as PodCondition);
  }
  const toStatus = (c: ContainerRuntimeState): ContainerStatus => containerStatus(c, clock, stored);
  const status: PodStatus = {
    conditions,
    containerStatuses: state.containers.filter((c) => !c.init).map(toStatus),
    hostIP, hostIPs: [{ ip: hostIP }],
    ...(state.containers.some((c) => c.init) ? { initContainerStatuses: state.containers.filter((c) => c.init).map(toStatus) } : {}),
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    phase: podPhase(state, podIsTerminal),
    ...(state.ip ? { podIP: state.ip, podIPs: [{ ip: state.ip }] } : {}),
    qosClass: prev.qosClass,
    ...(state.admittedAt !== undefined ? { startTime: clock.timestamp(state.admittedAt) } : {}),
  } as PodStatus;
  return status;
}

function containerStatus(c: ContainerRuntimeState, clock: VirtualClock, pod: Pod): ContainerStatus {
  let state: ContainerStatus['state'];
  if (c.state === 'running') state = { running: { startedAt: clock.timestamp(c.startedAt) } };
  else if (c.state === 'terminated') {
    state = { terminated: {
      ...(c.containerID ? { containerID: c.containerID } : {}), exitCode: c.exitCode ?? 0,
      finishedAt: clock.timestamp(c.finishedAt), reason: c.reason ?? (c.exitCode === 0 ? 'Completed' : 'Error'),
      startedAt: clock.timestamp(c.startedAt),
    } };
  } else state = { waiting: { ...(c.message ? { message: c.message } : {}), reason: c.reason ?? 'ContainerCreating' } };
  const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find((s) => s.name === c.name);
  const mounts = (spec?.volumeMounts ?? []).map((m) => ({ mountPath: m.mountPath, name: m.name, ...(m.readOnly ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}) }));
  return {
    ...(c.containerID ? { containerID: c.containerID } : {}),
    image: c.state === 'waiting' ? c.image : c.imageRef,
    imageID: c.imageID ?? '',
    lastState: c.lastTerminated ? { terminated: {
      ...(c.lastTerminated.containerID ? { containerID: c.lastTerminated.containerID } : {}), exitCode: c.lastTerminated.exitCode,
      finishedAt: clock.timestamp(c.lastTerminated.finishedAt), reason: c.lastTerminated.reason, startedAt: clock.timestamp(c.lastTerminated.startedAt),
    } } : {},
    name: c.name,
    ready: c.ready,
    ...(spec?.resources && Object.keys(spec.resources).length ? { resources: spec.resources } : {}),
    restartCount: c.restartCount,
    started: c.started,
    state,
    ...(mounts.length ? { volumeMounts: mounts } : {}),
  } as ContainerStatus;
}
