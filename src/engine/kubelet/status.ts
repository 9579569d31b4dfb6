// The pod status the kubelet computes: container statuses, phase and conditions.
// See pkg/kubelet/kubelet_pods.go (generateAPIPodStatus, convertToAPIContainerStatuses, getPhase),
// pkg/kubelet/status/generate.go, pkg/kubelet/status/status_manager.go (mergePodStatus) and
// pkg/kubelet/prober/prober_manager.go (UpdatePodStatus).
import { type Container, type ContainerStatus, type Pod, type PodCondition, type PodStatus, sameShape } from '../api/types';
import type { VirtualClock } from '../runtime/clock';
import type { ConditionMark, ContainerRuntimeState, PodRuntimeState } from './pod-state';

/** Status reasons of the kubelet's conditions. See pkg/kubelet/status/generate.go. */
export const PodCompleted = 'PodCompleted';
export const PodFailed = 'PodFailed';
export const ContainersNotReady = 'ContainersNotReady';
export const ContainersNotInitialized = 'ContainersNotInitialized';
export const ReadinessGatesNotReady = 'ReadinessGatesNotReady';

/** KUBELET_CONDITIONS are the condition types the kubelet owns, in the order it lists them (generateAPIPodStatus). */
const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

/** setCondition records a condition's status, keeping its transition time when the status did not change. */
export function setCondition(state: PodRuntimeState, type: string, status: 'True' | 'False', now: number, reason?: string, message?: string): void {
  const prev = state.conditions.get(type);
  const mark: ConditionMark = { status, at: prev && prev.status === status ? prev.at : now, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
  state.conditions.set(type, mark);
}

/**
 * podScheduledCondition is the PodScheduled condition the kubelet generates for every pod it runs, scheduled or bound by
 * spec.nodeName: status True with no reason or message, the pod's generation as observedGeneration
 * (PodObservedGenerationTracking, GA and locked on since 1.35), and the last transition time of the condition it
 * replaces when that was True already (the binding's), else now. See pkg/kubelet/kubelet_pods.go
 * (generateAPIPodStatus) and pkg/kubelet/status/status_manager.go (updateStatusInternal, updateLastTransitionTime),
 * v1.36.3.
 */
export function podScheduledCondition(old: PodCondition | undefined, clock: VirtualClock, generation: number | undefined): PodCondition {
  return {
    lastProbeTime: null as unknown as string,
    lastTransitionTime: old?.status === 'True' && old.lastTransitionTime ? old.lastTransitionTime : clock.timestamp(clock.now),
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    status: 'True', type: 'PodScheduled',
  } as PodCondition;
}

/** specOf finds a container's spec in the pod. */
export function specOf(pod: Pod, c: ContainerRuntimeState): Container {
  const list = c.init ? pod.spec?.initContainers ?? [] : pod.spec?.containers ?? [];
  return list[c.index] ?? list.find((s) => s.name === c.name) ?? { name: c.name };
}

/**
 * refreshProbeStatus sets each container's started and ready flags as the probe manager does: started
 * once running and its startup probe passed (at once without one); ready once started and its readiness
 * probe passed (at once without one); a regular init container is ready once it exited 0.
 * See pkg/kubelet/prober/prober_manager.go (UpdatePodStatus).
 */
export function refreshProbeStatus(state: PodRuntimeState): void {
  for (const c of state.containers) {
    const spec = specOf(state.pod, c);
    if (c.init && !c.sidecar) {
      c.started = c.state === 'running';
      c.ready = c.state === 'terminated' && c.exitCode === 0;
      continue;
    }
    const running = c.state === 'running';
    c.started = running && (spec.startupProbe ? c.probeResults.startup === 'Success' : true);
    c.ready = c.started && (spec.readinessProbe ? c.probeResults.readiness === 'Success' : true);
  }
}

/** containerStatusOf renders one container as the API's ContainerStatus. See convertToAPIContainerStatuses. */
export function containerStatusOf(c: ContainerRuntimeState, clock: VirtualClock, pod: Pod): ContainerStatus {
  let state: ContainerStatus['state'];
  if (c.state === 'running') state = { running: { startedAt: clock.timestamp(c.startedAt) } };
  else if (c.state === 'terminated') {
    state = { terminated: {
      ...(c.containerID ? { containerID: c.containerID } : {}), exitCode: c.exitCode ?? 0,
      finishedAt: clock.timestamp(c.finishedAt), reason: c.reason ?? (c.exitCode === 0 ? 'Completed' : 'Error'),
      startedAt: clock.timestamp(c.startedAt),
    } };
  } else state = { waiting: { ...(c.message ? { message: c.message } : {}), reason: c.reason ?? 'ContainerCreating' } };
  const spec = specOf(pod, c);
  const mounts = (spec.volumeMounts ?? []).map((m) => ({ mountPath: m.mountPath, name: m.name, ...(m.readOnly ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}) }));
  // Copied field by field: the thousands of statuses a big run keeps share one hidden class (sameShape).
  return sameShape({
    ...(c.containerID ? { containerID: c.containerID } : {}),
    image: c.everStarted ? c.imageRef : c.image,
    imageID: c.everStarted ? c.imageID ?? '' : '',
    lastState: c.lastTerminated ? { terminated: {
      ...(c.lastTerminated.containerID ? { containerID: c.lastTerminated.containerID } : {}), exitCode: c.lastTerminated.exitCode,
      finishedAt: clock.timestamp(c.lastTerminated.finishedAt), reason: c.lastTerminated.reason, startedAt: clock.timestamp(c.lastTerminated.startedAt),
    } } : {},
    name: c.name,
    ready: c.ready,
    ...(spec.resources && Object.keys(spec.resources).length && c.state === 'running' ? { resources: spec.resources } : {}),
    restartCount: c.restartCount,
    started: c.started,
    state,
    ...(mounts.length ? { volumeMounts: mounts } : {}),
  }) as ContainerStatus;
}

const byName = (statuses: ContainerStatus[], name: string) => statuses.find((s) => s.name === name);
const isSidecar = (c: Container) => c.restartPolicy === 'Always';

/**
 * hasAnyRegularContainerStarted: a regular container runs, ran, or waits after having run.
 * See pkg/kubelet/container/helpers.go (HasAnyRegularContainerStarted).
 */
export function hasAnyRegularContainerStarted(pod: Pod, statuses: ContainerStatus[]): boolean {
  return (pod.spec?.containers ?? []).some((c) => {
    const s = byName(statuses, c.name);
    if (!s) return false;
    return !!s.state?.running || !!s.state?.terminated || (!!s.state?.waiting && !!s.lastState?.terminated);
  });
}

/** getPhase is the pod phase from its container statuses. See pkg/kubelet/kubelet_pods.go (getPhase). */
export function getPhase(pod: Pod, info: ContainerStatus[], podIsTerminal: boolean, podHasInitialized: boolean): NonNullable<PodStatus['phase']> {
  const spec = pod.spec ?? { containers: [] };
  let pendingInitialization = 0;
  let failedInitialization = 0;
  for (const c of spec.initContainers ?? []) {
    if (isSidecar(c)) continue;
    const s = byName(info, c.name);
    if (!s) { pendingInitialization++; continue; }
    if (s.state?.running) pendingInitialization++;
    else if (s.state?.terminated) { if (s.state.terminated.exitCode !== 0) failedInitialization++; }
    else if (s.state?.waiting) {
      if (s.lastState?.terminated) { if (s.lastState.terminated.exitCode !== 0) failedInitialization++; }
      else pendingInitialization++;
    } else pendingInitialization++;
  }
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of spec.initContainers ?? []) {
    if (!isSidecar(c)) continue;
    const s = byName(info, c.name);
    if (!s) { unknown++; continue; }
    if (s.state?.running) {
      if (!s.started) pendingInitialization++;
      running++;
    } else if (s.state?.terminated) {
      // Terminated sidecars do not count for the phase.
    } else if (s.state?.waiting) {
      if (!s.lastState?.terminated) { pendingInitialization++; waiting++; }
    } else { pendingInitialization++; unknown++; }
  }
  for (const c of spec.containers ?? []) {
    const s = byName(info, c.name);
    if (!s) { unknown++; continue; }
    if (s.state?.running) running++;
    else if (s.state?.terminated) { stopped++; if (s.state.terminated.exitCode === 0) succeeded++; }
    else if (s.state?.waiting) { if (s.lastState?.terminated) stopped++; else waiting++; }
    else unknown++;
  }
  const policy = spec.restartPolicy ?? 'Always';
  if (failedInitialization > 0 && policy === 'Never') return 'Failed';
  if ((pendingInitialization > 0 && !podHasInitialized) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

interface Cond { status: 'True' | 'False'; reason?: string; message?: string }

/** goList prints a string slice as Go's %s does: [a b]. */
const goList = (names: string[]) => `[${names.join(' ')}]`;

/** containersReadyCondition: GenerateContainersReadyCondition of pkg/kubelet/status/generate.go. */
export function containersReadyCondition(pod: Pod, statuses: ContainerStatus[], phase: string): Cond {
  const unknown: string[] = [];
  const unready: string[] = [];
  for (const c of pod.spec?.initContainers ?? []) {
    if (!isSidecar(c)) continue;
    const s = byName(statuses, c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  for (const c of pod.spec?.containers ?? []) {
    const s = byName(statuses, c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return { status: 'False', reason: PodCompleted };
  if (phase === 'Failed') return { status: 'False', reason: PodFailed };
  const messages: string[] = [];
  if (unknown.length) messages.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready.length) messages.push(`containers with unready status: ${goList(unready)}`);
  if (messages.length) return { status: 'False', reason: ContainersNotReady, message: messages.join(', ') };
  return { status: 'True' };
}

/** podReadyCondition: GeneratePodReadyCondition, with the readiness gates' messages. */
export function podReadyCondition(pod: Pod, conditions: { type: string; status: string }[], statuses: ContainerStatus[], phase: string): Cond {
  const containersReady = containersReadyCondition(pod, statuses, phase);
  if (containersReady.status !== 'True') return containersReady;
  const messages: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const c = conditions.find((x) => x.type === gate.conditionType);
    if (!c) messages.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True') messages.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  if (messages.length) return { status: 'False', reason: ReadinessGatesNotReady, message: messages.join(', ') };
  return { status: 'True' };
}

/** initializedCondition: GeneratePodInitializedCondition. */
export function initializedCondition(pod: Pod, statuses: ContainerStatus[], phase: string): Cond {
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of pod.spec?.initContainers ?? []) {
    const s = byName(statuses, c.name);
    if (!s) { unknown.push(c.name); continue; }
    const initialized = isSidecar(c) ? s.started === true : s.ready;
    if (!initialized) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return { status: 'True', reason: PodCompleted };
  if (hasAnyRegularContainerStarted(pod, statuses)) return { status: 'True' };
  const messages: string[] = [];
  if (unknown.length) messages.push(`containers with unknown status: ${goList(unknown)}`);
  if (incomplete.length) messages.push(`containers with incomplete status: ${goList(incomplete)}`);
  if (messages.length) return { status: 'False', reason: ContainersNotInitialized, message: messages.join(', ') };
  return { status: 'True' };
}

/** PodStatusInput is what the kubelet knows beyond the containers when it writes a status. */
export interface PodStatusInput {
  hostIP: string;
  /** terminal is set once every container of a pod that is done has stopped (the pod worker finished it). */
  terminal: boolean;
}

/**
 * buildPodStatus renders the runtime state as the PodStatus the kubelet sends to the API server:
 * container statuses, the phase by getPhase (an eviction such as activeDeadlineSeconds makes it Failed),
 * the kubelet's conditions, and the status manager's rule that a pod turns terminal only once none of
 * its containers can still run.
 */
export function buildPodStatus(state: PodRuntimeState, stored: Pod, clock: VirtualClock, input: PodStatusInput): PodStatus {
  const prev = stored.status ?? {};
  const pod = stored;
  const now = clock.now;
  refreshProbeStatus(state);
  const toStatus = (c: ContainerRuntimeState): ContainerStatus => containerStatusOf(c, clock, pod);
  const containerStatuses = state.containers.filter((c) => !c.init).map(toStatus);
  const initContainerStatuses = state.containers.filter((c) => c.init).map(toStatus);
  const all = [...initContainerStatuses, ...containerStatuses];
  const podHasInitialized = hasAnyRegularContainerStarted(pod, all);
  let phase: string = getPhase(pod, all, input.terminal, podHasInitialized);
  let reason: string | undefined;
  let message: string | undefined;
  if (state.evicted) { phase = 'Failed'; reason = state.evicted.reason; message = state.evicted.message; }
  if (state.rejected) { phase = 'Failed'; reason = state.rejected.reason; message = state.rejected.message; }
  // A terminal phase is never left (generateAPIPodStatus: "pods are not allowed to transition out of terminal phases").
  if (prev.phase === 'Failed' || prev.phase === 'Succeeded') { phase = prev.phase; reason = prev.reason; message = prev.message; }
  const conditionPhase = phase;
  // mergePodStatus: the phase turns terminal only once no container can still be running.
  const couldHaveRunning = state.stopping === true || state.containers.some((c) => c.state === 'running' || c.killing);
  if ((phase === 'Failed' || phase === 'Succeeded') && prev.phase !== phase && couldHaveRunning && !state.rejected) {
    phase = prev.phase ?? 'Pending';
    reason = prev.reason;
    message = prev.message;
  }
  const generated: { type: string; cond: Cond }[] = [];
  const sandbox = state.conditions.get('PodReadyToStartContainers');
  if (sandbox) generated.push({ type: 'PodReadyToStartContainers', cond: { status: sandbox.status } });
  if (state.admittedAt !== undefined && !state.rejected) {
    generated.push({ type: 'Initialized', cond: initializedCondition(pod, all, conditionPhase) });
    const others = (prev.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.includes(c.type));
    generated.push({ type: 'Ready', cond: podReadyCondition(pod, others, all, conditionPhase) });
    generated.push({ type: 'ContainersReady', cond: containersReadyCondition(pod, all, conditionPhase) });
  }
  for (const g of generated) setCondition(state, g.type, g.cond.status, now, g.cond.reason, g.cond.message);
  const generation = stored.metadata?.generation;
  const conditions: PodCondition[] = [];
  // Conditions the kubelet does not own (readiness gates' conditions, DisruptionTarget) are kept as they are.
  for (const c of prev.conditions ?? []) if (!KUBELET_CONDITIONS.includes(c.type)) conditions.push(c);
  for (const type of KUBELET_CONDITIONS) {
    if (type === 'PodScheduled') {
      const scheduled = prev.conditions?.find((c) => c.type === 'PodScheduled');
      if (state.admittedAt !== undefined && !state.rejected) conditions.push(podScheduledCondition(scheduled, clock, generation));
      else if (scheduled) conditions.push(scheduled);
      continue;
    }
    if (!generated.some((g) => g.type === type)) continue;
    const mark = state.conditions.get(type)!;
    conditions.push({
      lastProbeTime: null as unknown as string, lastTransitionTime: clock.timestamp(mark.at),
      ...(mark.message ? { message: mark.message } : {}),
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
      ...(mark.reason ? { reason: mark.reason } : {}),
      status: mark.status, type,
    } as PodCondition);
  }
  const status: PodStatus = {
    conditions,
    containerStatuses,
    hostIP: input.hostIP, hostIPs: [{ ip: input.hostIP }],
    ...(initContainerStatuses.length ? { initContainerStatuses } : {}),
    ...(message ? { message } : {}),
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    phase,
    ...(state.ip ? { podIP: state.ip, podIPs: [{ ip: state.ip }] } : {}),
    qosClass: prev.qosClass,
    ...(reason ? { reason } : {}),
    ...(state.admittedAt !== undefined ? { startTime: clock.timestamp(state.admittedAt) } : {}),
  } as PodStatus;
  state.reportedPhase = phase;
  return status;
}
