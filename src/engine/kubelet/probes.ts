// A running container's life: its startup and readiness probes, and its exit when its Behavior says it exits.
// See pkg/kubelet/prober/worker.go. Liveness kills and restarts are in restarts.ts.
import type { Container, Probe } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { containerBehavior, fieldOf } from './containers';
import type { Kubelet } from './kubelet';
import type { ContainerRuntimeState, PodRuntimeState } from './pod-state';
import { restartAfterExit, runLiveness } from './restarts';

/** probeDescription prints a probe's handler the way kubectl describe does: `http-get http://:80/healthz`. */
export function probeDescription(p: Probe): string {
  if (p.httpGet) return `http-get ${(p.httpGet.scheme ?? 'HTTP').toLowerCase()}://${p.httpGet.host ?? ''}:${p.httpGet.port}${p.httpGet.path ?? '/'}`;
  if (p.tcpSocket) return `tcp-socket :${p.tcpSocket.port}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}]`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''}`.trim();
  return 'unknown';
}

/**
 * watchContainer follows a started container: it becomes started once its startup probe passes
 * (at once without one), ready once its readiness probe passes (at once without one), and exits
 * when its Behavior says so.
 */
export function* watchContainer(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container): Steps<void> {
  const behavior = containerBehavior(ctx, state.pod.metadata?.name ?? '', c.name);
  const field = fieldOf(state, c);
  const startedAt = c.startedAt ?? ctx.clock.now;
  // A restart gives the container a new id; this watch then belongs to the run before and stops.
  const id = c.containerID;
  const gone = () => state.terminating || c.state !== 'running' || c.containerID !== id;
  const readyAt = startedAt + (behavior.readyAfterSeconds ?? 0) * 1000;
  const exitAt = behavior.exitAfterSeconds !== undefined ? startedAt + behavior.exitAfterSeconds * 1000 : undefined;
  const probes = [spec.startupProbe && 'startup', spec.readinessProbe && 'readiness', spec.livenessProbe && 'liveness'].filter(Boolean);
  yield {
    phase: 'kubelet.probes', object: state.ref, field: spec.startupProbe ? `${field}.startupProbe` : spec.readinessProbe ? `${field}.readinessProbe` : field,
    result: probes.length ? `probing ${c.name}: ${probes.join(', ')}` : `${c.name} has no probes: it counts as started and ready once running`,
    detail: { container: c.name, probes, readyAfterSeconds: behavior.readyAfterSeconds ?? 0 },
  };
  if (spec.startupProbe) {
    const passAt = firstPass(spec.startupProbe, startedAt, readyAt);
    if (exitAt !== undefined && exitAt < passAt) return yield* exitContainer(ctx, kubelet, state, c, spec, exitAt, behavior.exitCode ?? 0);
    yield* sleep(passAt - ctx.clock.now);
    if (gone()) return;
    yield { phase: 'kubelet.probes', object: state.ref, field: `${field}.startupProbe`, step: { kind: 'container', name: c.name }, result: `startup probe succeeded (${probeDescription(spec.startupProbe)})`, detail: {} };
  }
  c.started = true;
  // The liveness probe runs from here, beside the readiness probe. See prober_manager.go (AddPod).
  if (spec.livenessProbe) ctx.schedule(0, `kubelet ${kubelet.name}: liveness ${state.ref} ${c.name}`, () => runLiveness(ctx, kubelet, state, c, spec, exitAt));
  if (spec.readinessProbe) {
    const passAt = Math.max(ctx.clock.now, firstPass(spec.readinessProbe, startedAt, readyAt));
    yield* kubelet.writeStatus(state, `container ${c.name} started`);
    if (exitAt !== undefined && exitAt < passAt) return yield* exitContainer(ctx, kubelet, state, c, spec, exitAt, behavior.exitCode ?? 0);
    yield* sleep(passAt - ctx.clock.now);
    if (gone()) return;
    yield { phase: 'kubelet.probes', object: state.ref, field: `${field}.readinessProbe`, step: { kind: 'container', name: c.name }, result: `readiness probe succeeded (${probeDescription(spec.readinessProbe)})`, detail: {} };
  }
  c.ready = true;
  yield* kubelet.writeStatus(state, `container ${c.name} ready`);
  if (exitAt !== undefined) yield* exitContainer(ctx, kubelet, state, c, spec, exitAt, behavior.exitCode ?? 0);
}

/**
 * firstPass is when a probe first succeeds: the first run at or after initialDelaySeconds, then
 * every periodSeconds, that comes once the container is ready (as its Behavior says).
 */
function firstPass(probe: Probe, startedAt: number, readyAt: number): number {
  const delay = (probe.initialDelaySeconds ?? 0) * 1000;
  const period = (probe.periodSeconds ?? 10) * 1000;
  let at = startedAt + delay;
  while (at < readyAt) at += period;
  return at;
}

function* exitContainer(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, at: number, exitCode: number): Steps<void> {
  const id = c.containerID;
  yield* sleep(Math.max(0, at - ctx.clock.now));
  if (state.terminating || c.state !== 'running' || c.containerID !== id || c.killing) return;
  c.state = 'terminated';
  c.exitCode = exitCode;
  c.reason = exitCode === 0 ? 'Completed' : 'Error';
  c.finishedAt = ctx.clock.now;
  c.ready = false;
  yield {
    phase: 'kubelet.containers', object: state.ref, field: fieldOf(state, c), step: { kind: 'container', name: c.name },
    result: `container ${c.name} exited with code ${exitCode}`, detail: { exitCode }, outcome: exitCode === 0 ? 'ok' : 'failed',
  };
  yield* kubelet.writeStatus(state, `container ${c.name} exited`);
  yield* restartAfterExit(ctx, kubelet, state, c, spec);
}
