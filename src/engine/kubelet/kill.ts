// Killing one container outside a pod deletion: after a failed liveness or startup probe, a failed
// postStart hook, or when a pod that is done (completed, failed, past its deadline) is stopped.
// See pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer, setTerminationGracePeriod).
import type { Container } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { containerBehavior, fieldOf } from './containers';
import type { Kubelet } from './kubelet';
import type { ContainerRuntimeState, PodRuntimeState } from './pod-state';

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
  kubelet.event(state, 'Normal', 'Killing', message || `Stopping container ${c.name}`);
  const phase = c.init ? 'kubelet.initContainers' : 'kubelet.containers';
  const hook = spec.lifecycle?.preStop;
  let hookSeconds = 0;
  if (hook && grace > 0) {
    hookSeconds = Math.min(hook.sleep?.seconds ?? behavior.preStopSeconds ?? 0, grace);
    yield { phase, object: state.ref, field: `${field}.lifecycle.preStop`, step: { kind: 'container', name: c.name }, result: `preStop hook of ${c.name} runs for ${hookSeconds}s before SIGTERM`, detail: { seconds: hookSeconds } };
    yield* sleep(hookSeconds * 1000);
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
