// The pod worker's terminating path: the effective grace period, then each running container killed in parallel
// (Killing event, preStop hook, the sidecars' turn, SIGTERM, SIGKILL when the window runs out), then cleanup.
// See pkg/kubelet/pod_workers.go (calculateEffectiveGracePeriod), pkg/kubelet/kuberuntime/kuberuntime_container.go
// (killContainer, executePreStopHook, killContainersWithSyncResult) and kuberuntime_termination_order.go.
import type { Container, LifecycleHandler, Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { TraceInput } from '../runtime/recorder';
import { sleep, type Steps } from '../runtime/step';
import { containerBehavior, fieldOf, hookAlwaysFails } from './containers';
import type { Kubelet } from './kubelet';
import { cleanupPod } from './pod-cleanup';
import { containerRef, type ContainerRuntimeState, type PodRuntimeState } from './pod-state';

/** MINIMUM_GRACE_PERIOD_SECONDS is the shortest window a container gets before SIGKILL (kuberuntime_container.go minimumGracePeriodInSeconds). */
export const MINIMUM_GRACE_PERIOD_SECONDS = 2;

/** DEFAULT_SIGTERM_SECONDS is how long a process takes to exit after SIGTERM when its Behavior does not say (DESIGN: within 1 s). */
export const DEFAULT_SIGTERM_SECONDS = 1;

/** SIGTERM_EXIT_CODE and SIGKILL_EXIT_CODE are the exit codes of a process ended by those signals (128 + 15, 128 + 9). */
export const SIGTERM_EXIT_CODE = 143;
export const SIGKILL_EXIT_CODE = 137;

/**
 * effectiveGracePeriod is the grace period the pod worker kills with: the API server's deletionGracePeriodSeconds
 * when set (0 included), else the spec's terminationGracePeriodSeconds, and never less than 1.
 * See pod_workers.go (calculateEffectiveGracePeriod: "no matter what, we always supply a grace period of 1").
 */
export function effectiveGracePeriod(pod: Pod): { seconds: number; from: 'deletionGracePeriodSeconds' | 'terminationGracePeriodSeconds' } {
  const override = pod.metadata?.deletionGracePeriodSeconds;
  const overridden = override !== undefined && override !== null;
  const seconds = overridden ? override : pod.spec?.terminationGracePeriodSeconds ?? 0;
  return { seconds: Math.max(seconds, 1), from: overridden ? 'deletionGracePeriodSeconds' : 'terminationGracePeriodSeconds' };
}

/** KillInput is one running container as the kill planner sees it. */
export interface KillInput {
  name: string;
  /** sidecar: an init container with restartPolicy Always (a restartable init container). */
  sidecar: boolean;
  /** hookSeconds is how long the preStop hook runs; undefined when the container has none. */
  hookSeconds?: number;
  hookFails?: boolean;
  sigtermSeconds: number | 'never';
}

/** KillPlan is when each step of one container's kill happens, in seconds after the kill began. */
export interface KillPlan {
  name: string;
  sidecar: boolean;
  /** hookEnd is when the kubelet stops waiting for the preStop hook (its end, or the grace period's). */
  hookEnd: number;
  hookOverran: boolean;
  hookFails: boolean;
  /** waited is how long a sidecar waited for its turn after its hook. */
  waited: number;
  sigtermAt: number;
  /** window is the grace period StopContainer gets: what is left, at least the 2 s minimum. */
  window: number;
  exitAt: number;
  exitCode: number;
  killed: boolean;
}

/**
 * planKill works out killContainer for every running container at once (they are killed in parallel): the grace
 * period loses the preStop hook's whole seconds (the hook is cut off at the grace period); a sidecar then waits,
 * inside what is left, for every main container and every later sidecar to exit (termination ordering: sidecars
 * stop after the main containers, in reverse order); the window before SIGKILL is what remains, at least 2 s.
 */
export function planKill(grace: number, containers: KillInput[]): KillPlan[] {
  const plans = new Map<string, KillPlan>();
  const stop = (c: KillInput, hookEnd: number, left: number, waited: number): KillPlan => {
    const window = Math.max(left, MINIMUM_GRACE_PERIOD_SECONDS);
    const sigtermAt = hookEnd + waited;
    const inTime = c.sigtermSeconds !== 'never' && c.sigtermSeconds <= window;
    const after = inTime ? (c.sigtermSeconds as number) : window;
    return {
      name: c.name, sidecar: c.sidecar, hookEnd, hookOverran: c.hookSeconds !== undefined && c.hookSeconds > grace, hookFails: c.hookFails === true,
      waited, sigtermAt, window, exitAt: sigtermAt + after, exitCode: inTime ? SIGTERM_EXIT_CODE : SIGKILL_EXIT_CODE, killed: !inTime,
    };
  };
  const afterHook = (c: KillInput) => {
    // executePreStopHook returns whole seconds; the hook is waited for at most the grace period.
    if (c.hookSeconds === undefined || grace <= 0) return { hookEnd: 0, left: grace };
    const ran = Math.min(c.hookSeconds, grace);
    return { hookEnd: ran, left: grace - Math.floor(ran) };
  };
  for (const c of containers.filter((x) => !x.sidecar)) {
    const { hookEnd, left } = afterHook(c);
    plans.set(c.name, stop(c, hookEnd, left, 0));
  }
  const mainsDone = Math.max(0, ...[...plans.values()].map((p) => p.exitAt));
  let laterSidecarDone = 0;
  for (const c of containers.filter((x) => x.sidecar).reverse()) {
    const { hookEnd, left } = afterHook(c);
    // waitForTurn: until the prerequisites exit or the remaining grace period runs out; truncated to whole seconds.
    const waited = left > 0 ? Math.min(Math.max(Math.max(mainsDone, laterSidecarDone) - hookEnd, 0), left) : 0;
    const plan = stop(c, hookEnd, left - Math.floor(waited), waited);
    plans.set(c.name, plan);
    laterSidecarDone = plan.exitAt;
  }
  return containers.map((c) => plans.get(c.name)!);
}

/** killPod stops a pod whose deletion was requested, then cleans up and tells the API server it may remove it. */
export function* killPod(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): Steps<void> {
  const grace = effectiveGracePeriod(state.pod);
  state.gracePeriodSeconds = grace.seconds;
  state.killGracePeriodSeconds = grace.seconds;
  const podName = state.pod.metadata?.name ?? '';
  const running = state.containers.filter((c) => c.state === 'running');
  const specs = new Map(running.map((c) => [c.name, specOf(state.pod, c)]));
  // Main containers in spec order, then the sidecars in spec order (the planner reverses them).
  const ordered = [...running.filter((c) => !isSidecar(specs.get(c.name)!, c)), ...running.filter((c) => isSidecar(specs.get(c.name)!, c))];
  const inputs: KillInput[] = ordered.map((c) => {
    const spec = specs.get(c.name)!;
    const behavior = containerBehavior(ctx, podName, c.name);
    const hook = spec.lifecycle?.preStop;
    // An httpGet hook on a port the kubelet cannot resolve fails at once, whatever the Behavior says.
    const unresolvable = hook !== undefined && hookAlwaysFails(hook, spec);
    return {
      name: c.name, sidecar: isSidecar(spec, c), sigtermSeconds: behavior.sigtermSeconds ?? DEFAULT_SIGTERM_SECONDS,
      ...(hook ? { hookSeconds: unresolvable ? 0 : hookDuration(hook, behavior.preStopSeconds), hookFails: unresolvable || (hook.sleep === undefined && behavior.preStopFails === true) } : {}),
    };
  });
  const plans = planKill(grace.seconds, inputs);
  const withHooks = inputs.filter((i) => i.hookSeconds !== undefined).map((i) => i.name);
  const byName = new Map(ordered.map((c) => [c.name, c]));
  const hookField = (name: string) => `${fieldOf(state, byName.get(name)!)}.lifecycle.preStop`;
  yield {
    phase: 'kubelet.preStop', object: state.ref, field: withHooks.length ? hookField(withHooks[0]!) : grace.from === 'terminationGracePeriodSeconds' ? 'spec.terminationGracePeriodSeconds' : undefined,
    result: `killing ${running.length} running container(s) with a grace period of ${grace.seconds}s (from ${grace.from})${withHooks.length ? `; preStop hooks: ${withHooks.join(', ')}` : '; no preStop hooks'}`,
    detail: { gracePeriodSeconds: grace.seconds, from: grace.from, containers: plans.map((p) => ({ ...p })) },
  };
  const start = ctx.clock.now;
  // killContainer records Killing (on the container's reference: recordContainerEvent) before it runs the hook, for
  // every container at once.
  for (const p of plans) kubelet.event(state, 'Normal', 'Killing', `Stopping container ${p.name}`, containerRef(byName.get(p.name)!));
  for (const p of plans.filter((x) => withHooks.includes(x.name))) {
    const input = inputs.find((i) => i.name === p.name)!;
    const handler = specs.get(p.name)!.lifecycle!.preStop!;
    yield {
      phase: 'kubelet.preStop', object: state.ref, field: hookField(p.name), step: { kind: 'container', name: p.name },
      result: `preStop ${handlerKind(handler)} hook of ${p.name} starts; it runs ${input.hookSeconds}s${p.hookOverran ? `, past the grace period of ${grace.seconds}s: the kubelet stops waiting at ${grace.seconds}s` : ''}`,
      detail: { handler, seconds: input.hookSeconds, gracePeriodSeconds: grace.seconds },
    };
  }
  const steps: { at: number; seq: number; run: () => TraceInput | undefined }[] = [];
  const add = (at: number, run: () => TraceInput | undefined) => steps.push({ at: start + at * 1000, seq: steps.length, run });
  for (const p of plans) {
    const c = byName.get(p.name)!;
    const field = fieldOf(state, c);
    if (withHooks.includes(p.name)) {
      add(p.hookEnd, () => {
        // executePreStopHook: a failed hook is a Warning without its output, "so that secrets won't leak from the server".
        if (p.hookFails) kubelet.event(state, 'Warning', 'FailedPreStopHook', 'PreStopHook failed', containerRef(c));
        const how = p.hookOverran ? `still running when the grace period of ${grace.seconds}s ran out` : p.hookFails ? 'failed (FailedPreStopHook)' : 'completed';
        return {
          phase: 'kubelet.preStop', object: state.ref, field: `${field}.lifecycle.preStop`, step: { kind: 'container', name: p.name },
          result: `preStop hook of ${p.name} ${how}; ${p.sidecar && p.waited > 0 ? `the sidecar waits for its turn, then ` : ''}SIGTERM with ${p.window}s before SIGKILL`,
          detail: { hookEnd: p.hookEnd, window: p.window }, outcome: p.hookFails ? 'failed' : 'ok',
        };
      });
    }
    add(p.sigtermAt, () => ({
      phase: 'kubelet.terminate', object: state.ref, field, step: { kind: 'container', name: p.name },
      result: `StopContainer ${p.name}: SIGTERM, SIGKILL after ${p.window}s${p.window === MINIMUM_GRACE_PERIOD_SECONDS && !p.killed ? ' (the minimum)' : ''}${p.sidecar ? `; sidecar stopped after the main containers${p.waited ? ` (waited ${p.waited}s)` : ''}` : ''}`,
      detail: { gracePeriodSeconds: p.window, waitedSeconds: p.waited, sigtermSeconds: inputs.find((i) => i.name === p.name)!.sigtermSeconds },
    }));
    add(p.exitAt, () => {
      if (c.state === 'terminated') return undefined;
      c.state = 'terminated';
      c.exitCode = p.exitCode;
      c.reason = 'Error';
      c.finishedAt = ctx.clock.now;
      c.ready = false;
      return {
        phase: 'kubelet.terminate', object: state.ref, field, step: { kind: 'container', name: p.name },
        result: p.killed ? `grace period over: SIGKILL to ${p.name}, exit code ${p.exitCode}` : `${p.name} exited on SIGTERM, exit code ${p.exitCode}`,
        detail: { exitCode: p.exitCode, signal: p.killed ? 'SIGKILL' : 'SIGTERM' }, outcome: p.killed ? 'failed' : 'ok',
      };
    });
  }
  steps.sort((a, b) => a.at - b.at || a.seq - b.seq);
  for (const s of steps) {
    yield* sleep(s.at - ctx.clock.now);
    const entry = s.run();
    if (entry) yield entry;
  }
  yield* cleanupPod(ctx, kubelet, state);
}

/** isSidecar tells whether a container is a restartable init container (restartPolicy Always), as types.IsRestartableInitContainer. */
function isSidecar(spec: Container, c: ContainerRuntimeState): boolean {
  return c.init && (spec as { restartPolicy?: string }).restartPolicy === 'Always';
}

function specOf(pod: Pod, c: ContainerRuntimeState): Container {
  const list = c.init ? pod.spec?.initContainers ?? [] : pod.spec?.containers ?? [];
  return list.find((s) => s.name === c.name) ?? { name: c.name };
}

/** hookDuration is how long a preStop hook runs: a sleep hook its seconds, exec and httpGet as the Behavior says. */
function hookDuration(hook: LifecycleHandler, behaviorSeconds: number | undefined): number {
  if (hook.sleep?.seconds !== undefined) return hook.sleep.seconds;
  return behaviorSeconds ?? 0;
}

function handlerKind(hook: LifecycleHandler): string {
  if (hook.exec) return 'exec';
  if (hook.httpGet) return 'httpGet';
  if (hook.sleep) return 'sleep';
  return 'tcpSocket';
}
