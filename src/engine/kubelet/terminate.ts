// The pod worker's termination path: preStop hooks, SIGTERM, the grace period, SIGKILL, cleanup, and the final delete.
// See pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer, executePreStopHook) and pkg/kubelet/status/status_manager.go.
import { finalizeDelete } from '../apiserver/delete';
import type { LifecycleHandler } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { containerBehavior, fieldOf } from './containers';
import type { Kubelet } from './kubelet';
import type { ContainerRuntimeState, PodRuntimeState } from './pod-state';

/** MINIMUM_GRACE_PERIOD_SECONDS is the shortest window a container gets after its preStop hook (minimumGracePeriodInSeconds). */
export const MINIMUM_GRACE_PERIOD_SECONDS = 2;

/** DEFAULT_SIGTERM_SECONDS is how long a process takes to exit after SIGTERM when its Behavior does not say (DESIGN: within 1 s). */
export const DEFAULT_SIGTERM_SECONDS = 1;

/** SIGTERM_EXIT_CODE and SIGKILL_EXIT_CODE are the exit codes of a process ended by those signals (128 + 15, 128 + 9). */
export const SIGTERM_EXIT_CODE = 143;
export const SIGKILL_EXIT_CODE = 137;

/** killPod stops a pod whose deletion was requested, then tells the API server it may remove it. */
export function* killPod(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): Steps<void> {
  const grace = state.pod.metadata?.deletionGracePeriodSeconds ?? state.pod.spec?.terminationGracePeriodSeconds ?? 30;
  const running = state.containers.filter((c) => c.state === 'running');
  const podName = state.pod.metadata?.name ?? '';
  // Containers are killed in parallel; each runs its preStop hook first, inside the grace period.
  const plans = running.map((c) => {
    const spec = [...(state.pod.spec?.initContainers ?? []), ...(state.pod.spec?.containers ?? [])].find((s) => s.name === c.name);
    const behavior = containerBehavior(ctx, podName, c.name);
    const hook = spec?.lifecycle?.preStop;
    const hookSeconds = hook ? hookDuration(hook, behavior.preStopSeconds) : 0;
    return { c, hook, hookSeconds: Math.min(hookSeconds, grace), behavior };
  });
  const withHooks = plans.filter((p) => p.hook);
  yield {
    phase: 'kubelet.preStop', object: state.ref, field: withHooks.length ? `${fieldOf(state, withHooks[0]!.c)}.lifecycle.preStop` : 'spec.terminationGracePeriodSeconds',
    result: withHooks.length ? `running preStop hooks of ${withHooks.map((p) => p.c.name).join(', ')} (grace period ${grace}s)` : `no preStop hooks; grace period ${grace}s`,
    detail: { gracePeriodSeconds: grace, hooks: withHooks.map((p) => ({ container: p.c.name, seconds: p.hookSeconds })) },
  };
  const start = ctx.clock.now;
  for (const p of withHooks) {
    yield {
      phase: 'kubelet.preStop', object: state.ref, field: `${fieldOf(state, p.c)}.lifecycle.preStop`, step: { kind: 'container', name: p.c.name },
      result: `preStop hook of ${p.c.name} runs for ${p.hookSeconds}s`, detail: { seconds: p.hookSeconds, handler: p.hook },
    };
  }
  // Each container's SIGTERM follows its own hook; the shortest hook ends first.
  const order = [...plans].sort((a, b) => a.hookSeconds - b.hookSeconds);
  const exits: { c: ContainerRuntimeState; at: number; code: number; killed: boolean }[] = [];
  for (const [i, p] of order.entries()) {
    yield* sleep(start + p.hookSeconds * 1000 - ctx.clock.now);
    if (i === 0) {
      yield {
        phase: 'kubelet.terminate', object: state.ref, field: 'spec.terminationGracePeriodSeconds',
        result: `stopping ${running.length} container(s): SIGTERM, then SIGKILL when the grace period of ${grace}s runs out`,
        detail: { gracePeriodSeconds: grace, containers: running.map((c) => c.name) },
      };
    }
    const window = Math.max(grace - p.hookSeconds, MINIMUM_GRACE_PERIOD_SECONDS);
    kubelet.event(state, 'Normal', 'Killing', `Stopping container ${p.c.name}`);
    const sigterm = p.behavior.sigtermSeconds ?? DEFAULT_SIGTERM_SECONDS;
    const exitsInTime = sigterm !== 'never' && sigterm <= window;
    const after = exitsInTime ? (sigterm as number) : window;
    exits.push({ c: p.c, at: ctx.clock.now + after * 1000, code: exitsInTime ? SIGTERM_EXIT_CODE : SIGKILL_EXIT_CODE, killed: !exitsInTime });
    yield {
      phase: 'kubelet.terminate', object: state.ref, field: fieldOf(state, p.c), step: { kind: 'container', name: p.c.name },
      result: `SIGTERM to ${p.c.name}; it has ${window}s before SIGKILL${exitsInTime ? `, and exits after ${sigterm}s` : sigterm === 'never' ? ', and ignores SIGTERM' : `, but needs ${sigterm}s`}`,
      detail: { gracePeriodSeconds: window, sigtermSeconds: sigterm },
    };
  }
  for (const e of exits.sort((a, b) => a.at - b.at)) {
    yield* sleep(e.at - ctx.clock.now);
    e.c.state = 'terminated';
    e.c.exitCode = e.code;
    e.c.reason = 'Error';
    e.c.finishedAt = ctx.clock.now;
    e.c.ready = false;
    yield {
      phase: 'kubelet.terminate', object: state.ref, field: fieldOf(state, e.c), step: { kind: 'container', name: e.c.name },
      result: e.killed ? `grace period over: SIGKILL to ${e.c.name}, exit code ${e.code}` : `${e.c.name} exited on SIGTERM, exit code ${e.code}`,
      detail: { exitCode: e.code, signal: e.killed ? 'SIGKILL' : 'SIGTERM' }, outcome: e.killed ? 'failed' : 'ok',
    };
  }
  yield* cleanup(ctx, kubelet, state);
}

function* cleanup(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): Steps<void> {
  const volumes = state.pod.spec?.volumes ?? [];
  yield {
    phase: 'kubelet.cleanup', object: state.ref, field: volumes.length ? 'spec.volumes' : undefined,
    result: `unmounted ${volumes.length} volume(s), CNI DEL released ${state.ip ?? 'no address'}, sandbox stopped and removed`,
    detail: { volumes: volumes.map((v) => v.name), podIP: state.ip ?? null, sandboxId: state.sandboxId ?? null },
  };
  if (state.sandboxId && state.pod.spec?.hostNetwork !== true) kubelet.ipam.release(state.sandboxId);
  state.terminated = true;
  yield* kubelet.writeStatus(state, 'all containers stopped', true);
  // The status manager deletes the pod with a grace period of 0 once it is terminal. See status_manager.go (canBeDeleted).
  const meta = state.pod.metadata ?? {};
  yield* finalizeDelete(ctx, 'Pod', meta.namespace, meta.name ?? '', state.ref, 'Background');
  kubelet.pods.delete(state.uid);
}

/** hookDuration is how long a preStop hook runs: a sleep hook its seconds, others as the Behavior says. */
function hookDuration(hook: LifecycleHandler, behaviorSeconds: number | undefined): number {
  if (hook.sleep?.seconds !== undefined) return hook.sleep.seconds;
  return behaviorSeconds ?? 0;
}
