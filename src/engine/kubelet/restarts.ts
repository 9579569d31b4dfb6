// Container restarts: the restart policy after an exit, the CrashLoopBackOff back-off, and the liveness probe's kill.
// See pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions, doBackOff), pkg/kubelet/kubelet.go
// (backOffPeriod, MaxContainerBackOff), k8s.io/client-go/util/flowcontrol/backoff.go and pkg/kubelet/prober/prober.go.
import type { Container, Probe } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { containerBehavior, ensureImage, fieldOf, startContainer } from './containers';
import type { Kubelet } from './kubelet';
import type { ContainerRuntimeState, PodRuntimeState } from './pod-state';
import { watchContainer } from './probes';
import { DEFAULT_SIGTERM_SECONDS, SIGKILL_EXIT_CODE, SIGTERM_EXIT_CODE } from './terminate';

/** CRASH_BACKOFF_INITIAL_MS is the first CrashLoopBackOff delay (pkg/kubelet/kubelet.go backOffPeriod). */
export const CRASH_BACKOFF_INITIAL_MS = 10_000;
/** CRASH_BACKOFF_MAX_MS caps the delay (pkg/kubelet/kuberuntime MaxContainerBackOff, 300 s). */
export const CRASH_BACKOFF_MAX_MS = 300_000;
/**
 * CRASH_BACKOFF_RESET_MS: an entry not updated for twice the cap (10 minutes) has expired, so a container
 * that ran that long restarts at once and starts again from 10 s. See flowcontrol/backoff.go (hasExpired).
 */
export const CRASH_BACKOFF_RESET_MS = 2 * CRASH_BACKOFF_MAX_MS;

/** goDuration prints milliseconds as Go's time.Duration.String does for whole seconds: 10s, 1m20s, 5m0s. */
export function goDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** shouldRestart applies the restart policy to an exited container. See kuberuntime_manager.go (computePodActions) and ShouldContainerBeRestarted. */
export function shouldRestart(policy: string | undefined, exitCode: number): boolean {
  if (policy === 'Never') return false;
  if (policy === 'OnFailure') return exitCode !== 0;
  return true;
}

/** podLabel is format.Pod: `web_default(<uid>)`. */
function podLabel(state: PodRuntimeState): string {
  return `${state.pod.metadata?.name ?? ''}_${state.pod.metadata?.namespace ?? 'default'}(${state.uid})`;
}

/**
 * restartAfterExit runs once a container has terminated: under its restart policy the kubelet starts it
 * again, at once the first time (or once its back-off entry has expired), else after the back-off, in
 * CrashLoopBackOff meanwhile. The back-off doubles on every restart up to 5 minutes (doBackOff, Backoff.Next).
 */
export function* restartAfterExit(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container): Steps<void> {
  const policy = state.pod.spec?.restartPolicy ?? 'Always';
  const exitCode = c.exitCode ?? 0;
  const field = fieldOf(state, c);
  if (state.terminating || c.init || !shouldRestart(policy, exitCode)) {
    if (!c.init && !state.terminating) {
      yield { phase: 'kubelet.containers', object: state.ref, field: 'spec.restartPolicy', step: { kind: 'container', name: c.name }, result: `restartPolicy ${policy}: ${c.name} (exit code ${exitCode}) is not restarted`, detail: { restartPolicy: policy, exitCode } };
    }
    return;
  }
  const finishedAt = c.finishedAt ?? ctx.clock.now;
  const entry = c.backoff;
  const expired = !entry || finishedAt - entry.lastUpdate > CRASH_BACKOFF_RESET_MS;
  if (entry && !expired && ctx.clock.now - finishedAt < entry.ms) {
    const message = `back-off ${goDuration(entry.ms)} restarting failed container=${c.name} pod=${podLabel(state)}`;
    const emit = () => kubelet.event(state, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${podLabel(state)}`);
    saveLastState(c);
    c.state = 'waiting'; c.reason = 'CrashLoopBackOff'; c.message = message; c.started = false; c.ready = false;
    emit();
    yield {
      phase: 'kubelet.containers', object: state.ref, field: 'spec.restartPolicy', step: { kind: 'container', name: c.name },
      result: `CrashLoopBackOff: ${c.name} restarts in ${goDuration(finishedAt + entry.ms - ctx.clock.now)} (back-off ${goDuration(entry.ms)})`,
      detail: { restartPolicy: policy, exitCode, backoffSeconds: entry.ms / 1000, restartCount: c.restartCount }, outcome: 'waiting',
    };
    yield* kubelet.writeStatus(state, `container ${c.name} in CrashLoopBackOff`);
    yield* sleep(finishedAt + entry.ms - ctx.clock.now);
    if (state.terminating) return;
    entry.ms = Math.min(2 * entry.ms, CRASH_BACKOFF_MAX_MS);
    entry.lastUpdate = ctx.clock.now;
  } else {
    c.backoff = entry && !expired ? { ms: Math.min(2 * entry.ms, CRASH_BACKOFF_MAX_MS), lastUpdate: ctx.clock.now } : { ms: CRASH_BACKOFF_INITIAL_MS, lastUpdate: ctx.clock.now };
    saveLastState(c);
    yield {
      phase: 'kubelet.containers', object: state.ref, field: 'spec.restartPolicy', step: { kind: 'container', name: c.name },
      result: `restartPolicy ${policy}: restarting ${c.name} (exit code ${exitCode}) now${expired && entry ? '; its back-off had expired' : ''}`,
      detail: { restartPolicy: policy, exitCode, backoffSeconds: c.backoff.ms / 1000 },
    };
  }
  c.restartCount++;
  c.started = false;
  c.ready = false;
  const emit = (type: 'Normal' | 'Warning', reason: string, message: string) => kubelet.event(state, type, reason, message);
  if (!(yield* ensureImage(ctx, state, c, spec, kubelet.images, emit))) {
    yield* kubelet.writeStatus(state, `container ${c.name} cannot restart`);
    return;
  }
  if (!(yield* startContainer(ctx, state, c, spec, emit))) {
    if (!state.terminating && c.state === 'terminated') {
      yield* kubelet.writeStatus(state, `container ${c.name} exited`);
      yield* restartAfterExit(ctx, kubelet, state, c, spec);
    }
    return;
  }
  yield { phase: 'kubelet.containers', object: state.ref, field, step: { kind: 'container', name: c.name }, result: `${c.name} restarted (restartCount ${c.restartCount})`, detail: { restartCount: c.restartCount } };
  yield* kubelet.writeStatus(state, `container ${c.name} restarted`);
  yield* watchContainer(ctx, kubelet, state, c, spec);
}

/** saveLastState keeps the run that just ended as lastState.terminated. */
function saveLastState(c: ContainerRuntimeState): void {
  if (c.state !== 'terminated') return;
  c.lastTerminated = { exitCode: c.exitCode ?? 0, reason: c.reason ?? (c.exitCode === 0 ? 'Completed' : 'Error'), startedAt: c.startedAt, finishedAt: c.finishedAt, containerID: c.containerID };
}

/** probeFailure is the prober's output for a failing probe, by handler. See pkg/probe/http/http.go, tcp/tcp.go, grpc/grpc.go. */
export function probeFailure(p: Probe, podIP: string): string {
  if (p.httpGet) return 'HTTP probe failed with statuscode: 500';
  if (p.tcpSocket) return `dial tcp ${p.tcpSocket.host ?? podIP}:${p.tcpSocket.port}: connect: connection refused`;
  if (p.grpc) return 'service unhealthy (responded with "NOT_SERVING")';
  return '';
}

/**
 * livenessKillAt is when the liveness probe's failureThreshold-th consecutive failure comes: probes run
 * from initialDelaySeconds every periodSeconds; the Behavior's livenessFailsAfterSeconds makes every probe
 * from then on fail. Returns the failing probe times up to the kill; empty when it never fails.
 */
export function livenessFailures(p: Probe, startedAt: number, from: number, failsAfterSeconds: number | undefined): number[] {
  if (failsAfterSeconds === undefined) return [];
  const period = (p.periodSeconds ?? 10) * 1000;
  const threshold = p.failureThreshold ?? 3;
  const failFrom = startedAt + failsAfterSeconds * 1000;
  let at = startedAt + (p.initialDelaySeconds ?? 0) * 1000;
  while (at < failFrom || at < from) at += period;
  return Array.from({ length: threshold }, (_, i) => at + i * period);
}

/**
 * runLiveness runs a started container's liveness probe, beside its readiness probe: each failure is a Warning Unhealthy event; after
 * failureThreshold in a row the container is killed with its grace period (SIGTERM, SIGKILL when it runs
 * out) and restarted by the restart policy. It gives up to a scripted exit that comes first (exitAt);
 * a scripted exit during the kill is ignored (killing).
 */
export function* runLiveness(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, exitAt: number | undefined): Steps<void> {
  const probe = spec.livenessProbe;
  if (!probe) return;
  const behavior = containerBehavior(ctx, state.pod.metadata?.name ?? '', c.name);
  const startedAt = c.startedAt ?? ctx.clock.now;
  const id = c.containerID;
  const field = `${fieldOf(state, c)}.livenessProbe`;
  const failures = livenessFailures(probe, startedAt, ctx.clock.now, behavior.livenessFailsAfterSeconds);
  if (failures.length === 0 || (exitAt !== undefined && exitAt <= failures[failures.length - 1]!)) return;
  const output = probeFailure(probe, state.ip ?? '');
  for (const [i, at] of failures.entries()) {
    yield* sleep(at - ctx.clock.now);
    if (state.terminating || c.state !== 'running' || c.containerID !== id) return;
    // Every failed probe is an event (prober.go runProbeWithRetries / recordContainerEvent); the result turns Failure at the threshold.
    kubelet.event(state, 'Warning', 'Unhealthy', `Liveness probe failed: ${output}`);
    yield {
      phase: 'kubelet.probes', object: state.ref, field, step: { kind: 'container', name: c.name },
      result: `liveness probe failed (${i + 1}/${failures.length}): ${output || 'non-zero exit'}`, detail: { failures: i + 1, failureThreshold: failures.length, timeoutSeconds: probe.timeoutSeconds ?? 1 }, outcome: 'failed',
    };
  }
  const policy = state.pod.spec?.restartPolicy ?? 'Always';
  const restart = policy !== 'Never';
  c.killing = true;
  kubelet.event(state, 'Normal', 'Killing', `Container ${c.name} failed liveness probe${restart ? ', will be restarted' : ''}`);
  // A probe's terminationGracePeriodSeconds overrides the pod's for a liveness kill (kuberuntime_container.go killContainer).
  const grace = probe.terminationGracePeriodSeconds ?? state.pod.spec?.terminationGracePeriodSeconds ?? 30;
  const sigterm = behavior.sigtermSeconds ?? DEFAULT_SIGTERM_SECONDS;
  const inTime = sigterm !== 'never' && sigterm <= grace;
  yield {
    phase: 'kubelet.containers', object: state.ref, field, step: { kind: 'container', name: c.name },
    result: `killing ${c.name}: SIGTERM, ${inTime ? `exits after ${sigterm}s` : `SIGKILL after the grace period of ${grace}s`}`, detail: { gracePeriodSeconds: grace, sigtermSeconds: sigterm },
  };
  yield* sleep((inTime ? (sigterm as number) : grace) * 1000);
  c.killing = false;
  if (state.terminating || c.containerID !== id) return;
  c.state = 'terminated';
  c.exitCode = inTime ? SIGTERM_EXIT_CODE : SIGKILL_EXIT_CODE;
  c.reason = 'Error';
  c.finishedAt = ctx.clock.now;
  c.ready = false;
  yield {
    phase: 'kubelet.containers', object: state.ref, field: fieldOf(state, c), step: { kind: 'container', name: c.name },
    result: `container ${c.name} killed after failing its liveness probe, exit code ${c.exitCode}`, detail: { exitCode: c.exitCode, signal: inTime ? 'SIGTERM' : 'SIGKILL' }, outcome: 'failed',
  };
  yield* kubelet.writeStatus(state, `container ${c.name} killed`);
  yield* restartAfterExit(ctx, kubelet, state, c, spec);
}
