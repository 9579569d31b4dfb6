// The pod worker's container loop: each sync computes what to do with the pod's containers, as
// computePodActions does, and does it: kill, start init containers one by one (sidecars kept running),
// start and restart containers with the CrashLoopBackOff back-off, and stop the pod once it is done.
// A sync runs when something changed: a container exited, a probe result changed, a back-off ran out.
// See pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions, SyncPod, doBackOff),
// pkg/kubelet/kuberuntime/kuberuntime_container.go (computeInitContainerActions) and pkg/kubelet/pod_workers.go.
import type { Container } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { containerBehavior, ensureImage, fieldOf, podLabel, startContainer } from './containers';
import { imagePullBackOff, recordPullFailure } from './image-backoff';
import { killContainer, stopContainers } from './kill';
import type { Kubelet } from './kubelet';
import { containerRef, type ContainerRuntimeState, type PodRuntimeState } from './pod-state';
import { probeTimings, startProbeWorkers } from './probes';
import { goDuration } from '../runtime/durations';
import { failedSyncDelay } from './pod-worker-backoff';
import { hasExpired, isInBackOffSince, lastExit, nextBackoff } from './restarts';
import { specOf } from './status';
import { computePodActions, runtimeRunning, shouldContainerBeRestarted } from './pod-actions';

/** DEADLINE_REASON and DEADLINE_MESSAGE are the eviction of a pod past activeDeadlineSeconds. See pkg/kubelet/active_deadline.go. */
export const DEADLINE_REASON = 'DeadlineExceeded';
export const DEADLINE_MESSAGE = 'Pod was active on the node longer than the specified deadline';

/** resyncs holds each pod's pending back-off resync. */
const resyncs = new WeakMap<PodRuntimeState, { cancelled: boolean }>();

/**
 * requestSync asks the pod worker for a sync after `delayMs` (at once by default). A sync asked for
 * while one runs follows it; a later back-off resync is dropped when an earlier one is due.
 */
export function requestSync(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, why: string, delayMs = 0): void {
  const w = (state.worker ??= { queued: false, running: false, again: false });
  if (state.terminating || state.terminated || state.podTerminal || state.evicted) return;
  if (delayMs > 0) {
    // The kubelet's work queue holds one time per pod: a new requeue replaces the pending one (pkg/kubelet/util/queue).
    if (resyncs.get(state)) resyncs.get(state)!.cancelled = true;
    const task = ctx.schedule(delayMs, `kubelet ${kubelet.name}: resync ${state.ref} (${why})`, function* () {
      resyncs.delete(state);
      requestSync(ctx, kubelet, state, why);
    });
    resyncs.set(state, task);
    return;
  }
  w.why = why;
  if (w.running) { w.again = true; return; }
  if (w.queued) return;
  w.queued = true;
  ctx.schedule(0, `kubelet ${kubelet.name}: sync ${state.ref} (${why})`, () => runSyncs(ctx, kubelet, state));
}

function* runSyncs(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): Steps<void> {
  const w = state.worker!;
  w.queued = false;
  w.running = true;
  try {
    do {
      w.again = false;
      if (state.terminating || state.terminated || state.podTerminal || state.evicted) break;
      yield* syncContainers(ctx, kubelet, state);
    } while (w.again);
  } finally {
    w.running = false;
  }
}

/** beginContainers hands a pod whose sandbox is up to the pod worker: its probe workers, its deadline, its first sync. */
export function beginContainers(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): void {
  const deadline = state.pod.spec?.activeDeadlineSeconds;
  if (deadline !== undefined && state.admittedAt !== undefined) {
    // startTime is stored with second precision; the pod is past its deadline once that long has passed since.
    const due = Math.floor(state.admittedAt / 1000) * 1000 + deadline * 1000;
    ctx.schedule(Math.max(0, due - ctx.clock.now), `kubelet ${kubelet.name}: activeDeadlineSeconds ${state.ref}`, () => enforceDeadline(ctx, kubelet, state));
  }
  requestSync(ctx, kubelet, state, 'sandbox ready');
  state.worker!.sandboxStarted = true;
}

/** startProbing starts the pod's probe workers, as SyncPod does before the runtime starts containers (probeManager.AddPod). */
export function startProbing(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): void {
  const w = (state.worker ??= { queued: false, running: false, again: false });
  if (w.probesStartedAt !== undefined) return;
  w.probesStartedAt = ctx.clock.now;
  startProbeWorkers(ctx, kubelet, state);
}

/**
 * syncContainers is one sync of the pod's containers (the runtime half of SyncPod). As the kubelet's SyncPod does, it
 * first sends the status as things stand — the runtime's containers and the reason cache the previous sync left
 * (generateAPIPodStatus, then statusManager.SetPodStatus, which sends nothing when nothing changed) — and then acts;
 * what it changes shows from the next sync on, which the PLEG's report of the change asks for at once
 * (pkg/kubelet/kubelet.go SyncPod, reasonCache.Update after containerRuntime.SyncPod; v1.36.3).
 */
function* syncContainers(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): Steps<void> {
  // The first sync after the sandbox is the rest of the SyncPod that made it: its status went out before the sandbox.
  // The PLEG's report of the sandbox's start reaches the pod worker while this sync runs.
  const sandboxStarted = state.worker?.sandboxStarted === true;
  if (state.worker) state.worker.sandboxStarted = false;
  if (!sandboxStarted) yield* kubelet.writeStatus(state, state.worker?.why ?? 'pod synced', false, true);
  if (state.terminating) return;
  const actions = computePodActions(state);
  // A sync with nothing to do changes nothing the trace would show.
  if (!actions.killPod && !actions.toKill.length && !actions.initToStart.length && !actions.toStart.length) {
    if (sandboxStarted) plegSync(ctx, kubelet, state, 'PLEG: sandbox started');
    return;
  }
  const names = (list: ContainerRuntimeState[]) => list.map((c) => c.name).join(', ') || 'none';
  yield {
    phase: actions.initialized ? 'kubelet.containers' : 'kubelet.initContainers', object: state.ref,
    field: actions.killPod || actions.toKill.length ? 'spec.restartPolicy' : actions.initialized ? 'spec.containers' : 'spec.initContainers',
    result: actions.killPod
      ? `computePodActions: the pod is done (restartPolicy ${state.pod.spec?.restartPolicy ?? 'Always'}): stop it`
      : `computePodActions: ${[
        actions.toKill.length ? `kill ${names(actions.toKill.map((k) => k.c))}` : '',
        !actions.initialized && actions.initToStart.length ? `start init container ${names(actions.initToStart)}` : '',
        actions.initialized && actions.initToStart.length ? `restart sidecar ${names(actions.initToStart)}` : '',
        actions.toStart.length ? `start ${names(actions.toStart)}` : '',
      ].filter(Boolean).join(', then ')}`,
    detail: {
      killPod: actions.killPod, initialized: actions.initialized, initContainersToStart: actions.initToStart.map((c) => c.name),
      containersToStart: actions.toStart.map((c) => c.name), containersToKill: actions.toKill.map((k) => ({ name: k.c.name, message: k.message })),
    },
  };
  if (actions.killPod) {
    yield* stopPod(ctx, kubelet, state, 'the pod is done');
    return;
  }
  // The latest exit of each container as the sync began: a container killed now restarts without a back-off
  // unless an earlier run exited (doBackOff reads the runtime's exited containers).
  const exits = new Map(state.containers.map((c) => [c, lastExit(c)]));
  for (const k of actions.toKill) {
    yield* killContainer(ctx, kubelet, state, k.c, specOf(state.pod, k.c), k.message, k.reason);
    if (state.terminating) return;
  }
  let failed = false;
  let initStarted = false;
  for (const c of actions.initToStart) {
    const started = yield* startOne(ctx, kubelet, state, c, exits.get(c));
    if (state.terminating) return;
    initStarted ||= started && c.sidecar && !specOf(state.pod, c).startupProbe;
    if (!started) {
      failed = true;
      if (!c.sidecar) break;
    }
  }
  // The PLEG reports a started sidecar, and the next sync moves on to the next init container.
  if (initStarted && !actions.initialized) requestSync(ctx, kubelet, state, 'init container started');
  for (const c of actions.toStart) {
    if (!(yield* startOne(ctx, kubelet, state, c, exits.get(c)))) failed = true;
    if (state.terminating) return;
  }
  const waiting = state.containers.filter((c) => c.state === 'waiting' && c.syncError);
  const started = [...actions.initToStart, ...actions.toStart].filter((c) => c.state === 'running');
  if (failed) {
    // completeWork: a CrashLoopBackOff error carries when its back-off runs out, and the pod is synced again then;
    // any other failed sync is retried after the back-off period. Both jittered.
    const expirations = waiting.map(crashBackoffExpiration).filter((t): t is number => t !== undefined);
    requestSync(ctx, kubelet, state, 'back-off', failedSyncDelay(ctx, expirations));
  }
  if (sandboxStarted || started.length > 0 || actions.toKill.length > 0) {
    // A change the PLEG reports during the sync (sandbox or container started, container killed) is a pending update:
    // completeWork requeues at once, and that sync sends the status this one brought about. Else a status update
    // alone syncs nothing (config.go checkAndUpdatePod, kubelet.go HandlePodReconcile: Ready only) (v1.36.3).
    const what = [...(sandboxStarted ? ['sandbox'] : []), ...started.map((c) => c.name)];
    plegSync(ctx, kubelet, state, `PLEG: ${what.length ? `${what.join(', ')} started` : ''}${what.length && actions.toKill.length ? ', ' : ''}${actions.toKill.length ? `${actions.toKill.map((k) => k.c.name).join(', ')} killed` : ''}`);
  }
}

/**
 * plegSync is the sync the PLEG's report of a change the pod worker made asks for: it comes after what else is due at
 * that moment (a container that exits as soon as it starts is seen exited), as the PLEG reports from its next relist.
 */
function plegSync(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, why: string): void {
  ctx.schedule(0, `kubelet ${kubelet.name}: ${why} (${state.ref})`, function* () {
    requestSync(ctx, kubelet, state, why);
  });
}

/** crashBackoffExpiration is the BackoffError doBackOff returns: the container's last exit plus its current back-off. */
function crashBackoffExpiration(c: ContainerRuntimeState): number | undefined {
  if (c.reason !== 'CrashLoopBackOff' || !c.backoff) return undefined;
  const exit = lastExit(c);
  return exit ? exit.finishedAt + c.backoff.ms : undefined;
}

/** toWaiting puts a container whose start failed in the waiting state the status shows, keeping its last run. */
export function toWaiting(c: ContainerRuntimeState, reason: string, message: string): void {
  if (c.state === 'terminated' && c.containerID) {
    c.lastTerminated = { exitCode: c.exitCode ?? 0, reason: c.reason ?? (c.exitCode === 0 ? 'Completed' : 'Error'), startedAt: c.startedAt, finishedAt: c.finishedAt, containerID: c.containerID };
  }
  c.state = 'waiting';
  c.reason = reason;
  c.message = message || undefined;
  c.syncError = { reason, message };
  c.started = false;
  c.ready = false;
}

/**
 * startOne is SyncPod's start(): doBackOff first (a container that exited less than its back-off ago
 * waits in CrashLoopBackOff, with a BackOff event), then the image, then startContainer.
 */
function* startOne(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, exit: { finishedAt: number; exitCode: number } | undefined): Steps<boolean> {
  const spec = specOf(state.pod, c);
  const field = fieldOf(state, c);
  const phase = c.init ? 'kubelet.initContainers' : 'kubelet.containers';
  const now = ctx.clock.now;
  if (exit) {
    if (isInBackOffSince(c.backoff, exit.finishedAt, now)) {
      const label = podLabel(state);
      // kuberuntime_manager.go doBackOff (v1.36.3): on the container's reference (GenerateContainerRef).
      kubelet.event(state, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${label}`, containerRef(c));
      toWaiting(c, 'CrashLoopBackOff', `back-off ${goDuration(c.backoff!.ms)} restarting failed container=${c.name} pod=${label}`);
      yield {
        phase, object: state.ref, field: 'spec.restartPolicy', step: { kind: 'container', name: c.name },
        result: `CrashLoopBackOff: ${c.name} exited ${goDuration(now - exit.finishedAt)} ago (code ${exit.exitCode}); back-off ${goDuration(c.backoff!.ms)}, restart in ${goDuration(exit.finishedAt + c.backoff!.ms - now)}`,
        detail: { restartPolicy: state.pod.spec?.restartPolicy ?? 'Always', exitCode: exit.exitCode, backoffSeconds: c.backoff!.ms / 1000, restartCount: c.restartCount }, outcome: 'waiting',
      };
      return false;
    }
    const before = c.backoff;
    c.backoff = nextBackoff(c.backoff, exit.finishedAt, now);
    yield {
      phase, object: state.ref, field: c.init && !c.sidecar ? field : 'spec.restartPolicy', step: { kind: 'container', name: c.name },
      result: `restarting ${c.name} (last exit code ${exit.exitCode}) now; its back-off is ${goDuration(c.backoff.ms)} from here${before && hasExpired(before, exit.finishedAt) ? ' (the earlier back-off had expired)' : ''}`,
      detail: { restartPolicy: state.pod.spec?.restartPolicy ?? 'Always', exitCode: exit.exitCode, backoffSeconds: c.backoff.ms / 1000 },
    };
  }
  const emit = (type: 'Normal' | 'Warning', reason: string, message: string, fieldPath: string) => kubelet.event(state, type, reason, message, fieldPath);
  // The run that ended stays the container's last state whatever becomes of this start.
  if (c.state === 'terminated' && c.containerID) {
    c.lastTerminated = { exitCode: c.exitCode ?? 0, reason: c.reason ?? (c.exitCode === 0 ? 'Completed' : 'Error'), startedAt: c.startedAt, finishedAt: c.finishedAt, containerID: c.containerID };
  }
  if (yield* imagePullBackOff(ctx, kubelet, state, c, spec)) return false;
  if (!(yield* ensureImage(ctx, state, c, spec, kubelet.images, emit))) {
    if (state.terminating) return false;
    recordPullFailure(ctx, c);
    c.syncError = { reason: c.reason ?? 'ErrImagePull', message: c.message ?? '' };
    return false;
  }
  const result = yield* startContainer(ctx, state, c, spec, emit);
  if (state.terminating) return false;
  if (!result.ok) {
    if (result.reason === 'PostStartHookError') {
      // kuberuntime_container.go startContainer: killContainer(..., "FailedPostStartHook", reasonFailedPostStartHook),
      // so the Killing event reads "FailedPostStartHook"; the start fails with ErrPostStartHook ("PostStartHookError")
      // and the handler's message, which the status shows as the waiting reason and message (kubelet_pods.go,
      // convertToAPIContainerStatuses, from the reason cache).
      yield* killContainer(ctx, kubelet, state, c, spec, 'FailedPostStartHook', 'postStartHook');
      // The PLEG sees the container die: the pod worker syncs again at once.
      requestSync(ctx, kubelet, state, `${c.name} killed after its postStart hook failed`);
      // The container is waiting to be restarted when the policy restarts it; otherwise it stays terminated.
      if (shouldContainerBeRestarted(state, c)) toWaiting(c, result.reason, result.message);
      else c.syncError = { reason: result.reason, message: result.message };
    } else {
      // CreateContainerConfigError and the like: the container waits with the reason, and the failed sync is retried.
      c.syncError = { reason: result.reason, message: result.message };
    }
    return false;
  }
  c.syncError = undefined;
  scheduleExit(ctx, kubelet, state, c, spec);
  const probes = (['startup', 'readiness', 'liveness'] as const).filter((t) => spec[`${t}Probe`]);
  yield {
    phase: 'kubelet.probes', object: state.ref, field: probes.length ? `${field}.${probes[0]}Probe` : field, step: { kind: 'container', name: c.name },
    result: probes.length
      ? `probing ${c.name}: ${probes.map((t) => { const p = probeTimings(spec[`${t}Probe`]!); return `${t} every ${p.periodSeconds}s after ${p.initialDelaySeconds}s (timeout ${p.timeoutSeconds}s, success ${p.successThreshold}, failure ${p.failureThreshold})`; }).join('; ')}`
      : `${c.name} has no probes: it counts as started and ready once running`,
    detail: { container: c.name, probes },
  };
  return true;
}

/**
 * scheduleExit makes a started container exit when its Behavior says: a regular init container after
 * exitAfterSeconds (at once by default) with exitCode; a container or sidecar only when exitAfterSeconds is set.
 */
function scheduleExit(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container): void {
  const behavior = containerBehavior(ctx, state.pod.metadata?.name ?? '', c.name);
  const after = behavior.exitAfterSeconds ?? (c.init && !c.sidecar ? 0 : undefined);
  if (after === undefined) return;
  const id = c.containerID;
  const at = (c.startedAt ?? ctx.clock.now) + after * 1000;
  ctx.schedule(Math.max(0, at - ctx.clock.now), `kubelet ${kubelet.name}: ${state.ref} ${c.name} exits`, function* () {
    if (state.terminating || c.containerID !== id || c.state !== 'running' || c.killing) return;
    const code = behavior.exitCode ?? 0;
    c.state = 'terminated';
    c.exitCode = code;
    c.reason = code === 0 ? 'Completed' : 'Error';
    c.message = undefined;
    c.finishedAt = ctx.clock.now;
    c.ready = false;
    c.started = false;
    yield {
      phase: c.init ? 'kubelet.initContainers' : 'kubelet.containers', object: state.ref, field: fieldOf(state, c), step: { kind: 'container', name: c.name },
      result: `${c.sidecar ? 'sidecar' : c.init ? 'init container' : 'container'} ${c.name} exited with code ${code}`, detail: { exitCode: code, spec: spec.name }, outcome: code === 0 ? 'ok' : 'failed',
    };
    // The PLEG sees the container die and the pod worker syncs the pod, which sends the status first.
    requestSync(ctx, kubelet, state, `PLEG: ${c.name} exited`);
  });
}

/**
 * stopPod ends a pod that is done (KillPod): its running containers (sidecars, last first) are killed,
 * its sandbox stopped, and the phase turns terminal once nothing runs. See killPodWithSyncResult.
 */
export function* stopPod(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, why: string): Steps<void> {
  state.podTerminal = true;
  state.stopping = true;
  const running = state.containers.filter((c) => runtimeRunning(c) && !c.killing);
  // Containers stop before sidecars; sidecars in the reverse of their order (terminationOrdering).
  const order = [...running.filter((c) => !c.sidecar), ...running.filter((c) => c.sidecar).reverse()];
  yield {
    phase: 'kubelet.containers', object: state.ref, field: state.evicted ? 'spec.activeDeadlineSeconds' : 'spec.restartPolicy',
    result: `${why}: stopping ${order.length ? order.map((c) => c.name).join(', ') : 'no running containers'} and the sandbox`,
    detail: { containers: order.map((c) => c.name) },
  };
  if (order.length) yield* stopContainers(ctx, kubelet, state, order);
  if (state.terminating) { state.stopping = false; return; }
  kubelet.markSandboxReady(state, false);
  state.stopping = false;
  yield* kubelet.writeStatus(state, 'all containers stopped, sandbox stopped', true);
}

/** enforceDeadline fails a pod still active at activeDeadlineSeconds: Failed, DeadlineExceeded, its containers killed. */
function* enforceDeadline(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): Steps<void> {
  if (state.terminating || state.terminated || state.podTerminal) return;
  const phase = state.pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return;
  state.evicted = { reason: DEADLINE_REASON, message: DEADLINE_MESSAGE };
  kubelet.event(state, 'Normal', DEADLINE_REASON, DEADLINE_MESSAGE);
  yield {
    phase: 'kubelet.status', object: state.ref, field: 'spec.activeDeadlineSeconds',
    result: `activeDeadlineSeconds ${state.pod.spec?.activeDeadlineSeconds}s passed since startTime: ${DEADLINE_REASON}: ${DEADLINE_MESSAGE}`,
    detail: { activeDeadlineSeconds: state.pod.spec?.activeDeadlineSeconds, reason: DEADLINE_REASON }, outcome: 'failed',
  };
  // Wait for a sync in progress (a container being started) to end, then stop the pod.
  while (state.worker?.running) yield* sleep(100);
  if (state.terminating || state.podTerminal) return;
  yield* kubelet.writeStatus(state, 'pod past its active deadline');
  yield* stopPod(ctx, kubelet, state, 'DeadlineExceeded');
}
