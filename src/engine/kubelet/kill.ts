// Killing one container outside a pod deletion: after a failed liveness or startup probe, a failed
// postStart hook, or when a pod that is done (completed, failed, past its deadline) is stopped.
// See pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer, setTerminationGracePeriod).
import type { Container } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { containerBehavior, fieldOf, hookAlwaysFails } from './containers';
import type { Kubelet } from './kubelet';
import { containerRef, type ContainerRuntimeState, type PodRuntimeState } from './pod-state';

/** MINIMUM_GRACE_SECONDS: a container always gets at least this long after SIGTERM (minimumGracePeriodInSeconds). */
export const MINIMUM_GRACE_SECONDS = 2;
/** DEFAULT_EXIT_SECONDS is how long a process takes to exit after SIGTERM when its Behavior does not say (DESIGN: within 1 s). */
export const DEFAULT_EXIT_SECONDS = 1;
/** Exit codes of a process ended by SIGTERM and SIGKILL (128 + 15, 128 + 9). */
export const EXIT_SIGTERM = 143;
export const EXIT_SIGKILL = 137;

/** KillReason says why the kubelet kills a container; it picks the grace period (setTerminationGracePeriod). */
export type KillReason = 'livenessProbe' | 'startupProbe' | 'postStartHook' | 'podStop';

/**
 * gracePeriodFor is setTerminationGracePeriod: the pod's terminationGracePeriodSeconds (default 30), or
 * the failing probe's own terminationGracePeriodSeconds when a liveness or startup probe kills it.
 */
export function gracePeriodFor(state: PodRuntimeState, spec: Container, reason: KillReason): number {
  if (state.pod.metadata?.deletionGracePeriodSeconds !== undefined) return state.pod.metadata.deletionGracePeriodSeconds;
  const podGrace = state.pod.spec?.terminationGracePeriodSeconds ?? 30;
  if (reason === 'livenessProbe' && spec.livenessProbe?.terminationGracePeriodSeconds !== undefined) return spec.livenessProbe.terminationGracePeriodSeconds;
  if (reason === 'startupProbe' && spec.startupProbe?.terminationGracePeriodSeconds !== undefined) return spec.startupProbe.terminationGracePeriodSeconds;
  return podGrace;
}

/**
 * killContainer stops one container: a Normal Killing event with the kubelet's message ("Stopping
 * container X" when none is given), the preStop hook inside the grace period, SIGTERM, and SIGKILL
 * once the grace period (at least 2 s) runs out. The container ends terminated with reason Error.
 */
export function* killContainer(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, message: string, reason: KillReason): Steps<void> {
  const field = fieldOf(state, c);
  const id = c.containerID;
  const behavior = containerBehavior(ctx, state.pod.metadata?.name ?? '', c.name);
  let grace = gracePeriodFor(state, spec, reason);
  c.killing = true;
  // recordContainerEvent: the Killing event is on the container's reference (kuberuntime_container.go, v1.36.3).
  kubelet.event(state, 'Normal', 'Killing', message || `Stopping container ${c.name}`, containerRef(c));
  const phase = c.init ? 'kubelet.initContainers' : 'kubelet.containers';
  const hook = spec.lifecycle?.preStop;
  let hookSeconds = 0;
  if (hook && grace > 0) {
    // An httpGet hook on a port the kubelet cannot resolve fails at once, whatever the Behavior says.
    const unresolvable = hookAlwaysFails(hook, spec);
    const runs = unresolvable ? 0 : hook.sleep?.seconds ?? behavior.preStopSeconds ?? 0;
    hookSeconds = Math.min(runs, grace);
    yield { phase, object: state.ref, field: `${field}.lifecycle.preStop`, step: { kind: 'container', name: c.name }, result: `preStop hook of ${c.name} runs for ${hookSeconds}s before SIGTERM`, detail: { seconds: hookSeconds } };
    yield* sleep(hookSeconds * 1000);
    // kuberuntime_container.go executePreStopHook: a hook that returns an error within the grace period is a
    // Warning FailedPreStopHook "PreStopHook failed", without its message so that secrets do not leak.
    if (runs <= grace && (unresolvable || (hook.sleep === undefined && behavior.preStopFails === true))) {
      kubelet.event(state, 'Warning', 'FailedPreStopHook', 'PreStopHook failed', containerRef(c));
    }
    grace -= hookSeconds;
  }
  grace = Math.max(grace, MINIMUM_GRACE_SECONDS);
  const sigterm = behavior.sigtermSeconds ?? DEFAULT_EXIT_SECONDS;
  const inTime = sigterm !== 'never' && sigterm <= grace;
  yield {
    phase, object: state.ref, field, step: { kind: 'container', name: c.name },
    result: `killing ${c.name} (${message || `Stopping container ${c.name}`}): SIGTERM, ${inTime ? `exits after ${sigterm}s` : `SIGKILL after the grace period of ${grace}s`}`,
    detail: { gracePeriodSeconds: grace, sigtermSeconds: sigterm, reason },
  };
  yield* sleep((inTime ? (sigterm as number) : grace) * 1000);
  c.killing = false;
  if (c.containerID !== id || c.state === 'terminated') return;
  c.state = 'terminated';
  c.exitCode = inTime ? EXIT_SIGTERM : EXIT_SIGKILL;
  c.reason = 'Error';
  c.message = undefined;
  c.finishedAt = ctx.clock.now;
  c.ready = false;
  c.started = false;
  yield {
    phase, object: state.ref, field, step: { kind: 'container', name: c.name },
    result: `container ${c.name} stopped, exit code ${c.exitCode}`, detail: { exitCode: c.exitCode, signal: inTime ? 'SIGTERM' : 'SIGKILL' }, outcome: 'failed',
  };
}

/**
 * stopContainers stops a pod's running containers as killContainersWithSyncResult does: every container
 * is killed at once (each Killing event and preStop hook right away); containers get SIGTERM after their
 * hooks, while sidecars wait for the containers and for the sidecars after them (terminationOrdering), then
 * get what is left of their grace period, at least 2 s.
 */
export function* stopContainers(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, containers: ContainerRuntimeState[]): Steps<void> {
  const start = ctx.clock.now;
  const podName = state.pod.metadata?.name ?? '';
  const plans = containers.map((c) => {
    const spec = specOfContainer(state, c);
    const grace = gracePeriodFor(state, spec, 'podStop');
    const hook = spec.lifecycle?.preStop;
    const hookSeconds = hook && grace > 0 ? Math.min(hook.sleep?.seconds ?? containerBehavior(ctx, podName, c.name).preStopSeconds ?? 0, grace) : 0;
    return { c, id: c.containerID, grace, hookSeconds, sigterm: containerBehavior(ctx, podName, c.name).sigtermSeconds ?? DEFAULT_EXIT_SECONDS };
  });
  for (const p of plans) {
    p.c.killing = true;
    kubelet.event(state, 'Normal', 'Killing', `Stopping container ${p.c.name}`, containerRef(p.c));
  }
  const exitOf = (p: (typeof plans)[number], sigtermAt: number, grace: number) => {
    const window = Math.max(grace, MINIMUM_GRACE_SECONDS);
    const inTime = p.sigterm !== 'never' && p.sigterm <= window;
    return { at: sigtermAt + (inTime ? (p.sigterm as number) : window) * 1000, code: inTime ? EXIT_SIGTERM : EXIT_SIGKILL, window };
  };
  const finish = function* (p: (typeof plans)[number], at: number, code: number): Steps<void> {
    yield* sleep(at - ctx.clock.now);
    p.c.killing = false;
    if (p.c.containerID !== p.id || p.c.state === 'terminated') return;
    Object.assign(p.c, { state: 'terminated', exitCode: code, reason: 'Error', message: undefined, finishedAt: ctx.clock.now, ready: false, started: false });
    yield {
      phase: p.c.init ? 'kubelet.initContainers' : 'kubelet.containers', object: state.ref, field: fieldOf(state, p.c), step: { kind: 'container', name: p.c.name },
      result: `container ${p.c.name} stopped, exit code ${code}${code === EXIT_SIGKILL ? ' (SIGKILL at the end of its grace period)' : ''}`, detail: { exitCode: code, signal: code === EXIT_SIGKILL ? 'SIGKILL' : 'SIGTERM' }, outcome: 'failed',
    };
  };
  // Containers: SIGTERM after their own preStop hook, all in parallel.
  const mains = plans.filter((p) => !p.c.sidecar).map((p) => ({ p, ...exitOf(p, start + p.hookSeconds * 1000, p.grace - p.hookSeconds) }));
  for (const m of mains) {
    yield {
      phase: 'kubelet.containers', object: state.ref, field: fieldOf(state, m.p.c), step: { kind: 'container', name: m.p.c.name },
      result: `SIGTERM to ${m.p.c.name}${m.p.hookSeconds ? ` after its preStop hook (${m.p.hookSeconds}s)` : ''}; ${m.code === EXIT_SIGTERM ? `it exits after ${m.p.sigterm}s` : `SIGKILL after ${m.window}s`}`,
      detail: { gracePeriodSeconds: m.window, sigtermSeconds: m.p.sigterm, preStopSeconds: m.p.hookSeconds },
    };
  }
  for (const m of [...mains].sort((a, b) => a.at - b.at)) yield* finish(m.p, m.at, m.code);
  // Sidecars: the last one first, each once the ones it waits for are gone; the wait is taken from its grace period.
  for (const p of plans.filter((x) => x.c.sidecar).sort((a, b) => b.c.index - a.c.index)) {
    const hookEnd = start + p.hookSeconds * 1000;
    if (ctx.clock.now < hookEnd) yield* sleep(hookEnd - ctx.clock.now);
    const waited = Math.trunc((ctx.clock.now - hookEnd) / 1000);
    const e = exitOf(p, ctx.clock.now, p.grace - p.hookSeconds - waited);
    yield {
      phase: 'kubelet.initContainers', object: state.ref, field: fieldOf(state, p.c), step: { kind: 'container', name: p.c.name },
      result: `SIGTERM to sidecar ${p.c.name} once the containers after it stopped; ${e.code === EXIT_SIGTERM ? `it exits after ${p.sigterm}s` : `SIGKILL after ${e.window}s`}`,
      detail: { gracePeriodSeconds: e.window, sigtermSeconds: p.sigterm, waitedSeconds: waited },
    };
    yield* finish(p, e.at, e.code);
  }
}

function specOfContainer(state: PodRuntimeState, c: ContainerRuntimeState): Container {
  const list = c.init ? state.pod.spec?.initContainers ?? [] : state.pod.spec?.containers ?? [];
  return list[c.index] ?? { name: c.name };
}
