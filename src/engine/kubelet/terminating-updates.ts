// A pod update or removal that reaches the pod worker while it is already killing the pod: a later delete that
// shortened the grace period, or a force delete that removed the pod from the API server. The pod worker lowers
// its grace period and cancels its sync's context (pkg/kubelet/pod_workers.go UpdatePod: "once a pod is
// terminating, all updates are kills and the grace period can only decrease"; calculateEffectiveGracePeriod), but
// SyncTerminatingPod kills on a context of its own, so the kill in progress keeps the window it began with
// (pkg/kubelet/kubelet.go SyncTerminatingPod: "TODO(#113606): connect this with the incoming context parameter,
// which comes from the pod worker. Currently, using that context causes test failures."). Once that kill returns,
// the pod is terminated, and a terminated pod's updates carry no grace period (UpdatePod, case status.IsTerminated).
import type { Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { Kubelet } from './kubelet';
import type { PodRuntimeState } from './pod-state';

/** EffectiveGracePeriod is calculateEffectiveGracePeriod's answer: the pod worker's new grace period and whether it went down. */
export interface EffectiveGracePeriod {
  seconds: number;
  shortened: boolean;
}

/**
 * calculateEffectiveGracePeriod is pod_workers.go's: the API server's deletionGracePeriodSeconds replaces the pod
 * worker's grace period when there is none yet or it is shorter ("this value is bedrock truth"); with none, the
 * spec's terminationGracePeriodSeconds; "no matter what, we always supply a grace period of 1". It is shortened when
 * there was one and it changed.
 */
export function calculateEffectiveGracePeriod(current: number, pod: Pod): EffectiveGracePeriod {
  let seconds = current;
  let overridden = false;
  const override = pod.metadata?.deletionGracePeriodSeconds;
  if (override !== undefined && override !== null && (seconds === 0 || override < seconds)) {
    seconds = override;
    overridden = true;
  }
  if (!overridden && seconds === 0 && pod.spec?.terminationGracePeriodSeconds !== undefined) seconds = pod.spec.terminationGracePeriodSeconds;
  if (seconds < 1) seconds = 1;
  return { seconds, shortened: current !== 0 && current !== seconds };
}

/** killInProgress tells whether the pod worker has begun the kill (SyncTerminatingPod) and not finished it. */
function killInProgress(state: PodRuntimeState): boolean {
  return state.killGracePeriodSeconds !== undefined && !state.terminated;
}

/**
 * podUpdatedWhileTerminating is UpdatePod for an update of a pod being killed: a shorter deletionGracePeriodSeconds
 * lowers the pod worker's grace period, which the kill in progress does not see (phase kubelet.terminate).
 */
export function podUpdatedWhileTerminating(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, pod: Pod): void {
  if (!killInProgress(state) || state.gracePeriodSeconds === undefined) return;
  const before = state.gracePeriodSeconds;
  const effective = calculateEffectiveGracePeriod(before, pod);
  state.gracePeriodSeconds = effective.seconds;
  if (!effective.shortened) return;
  const kill = state.killGracePeriodSeconds!;
  const requested = pod.metadata?.deletionGracePeriodSeconds;
  ctx.schedule(0, `kubelet ${kubelet.name}: update ${state.ref}`, function* () {
    yield {
      phase: 'kubelet.terminate', object: state.ref, field: 'metadata.deletionGracePeriodSeconds',
      result: `UpdatePod: deletionGracePeriodSeconds is now ${requested}: calculateEffectiveGracePeriod lowers the pod worker's grace period from ${before}s to ${effective.seconds}s and cancels its sync's context, but SyncTerminatingPod kills on a context of its own (TODO #113606): the kill in progress keeps its ${kill}s window`,
      detail: { deletionGracePeriodSeconds: requested ?? null, gracePeriodSeconds: effective.seconds, previousGracePeriodSeconds: before, killGracePeriodSeconds: kill, shortened: true },
    };
  });
}

/**
 * podRemovedWhileTerminating is HandlePodRemoves for a pod the kubelet is killing or cleaning up when it is removed
 * from the API server by someone else (a delete with a grace period of 0): UpdatePod(SyncPodKill) changes nothing
 * for the kill in progress, and the status manager finds no pod to update or delete (phase kubelet.terminate).
 */
export function podRemovedWhileTerminating(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, pod: Pod): void {
  if (state.killGracePeriodSeconds === undefined || state.finalDelete) return;
  const killing = !state.terminated;
  const kill = state.killGracePeriodSeconds;
  if (killing && state.gracePeriodSeconds !== undefined) state.gracePeriodSeconds = calculateEffectiveGracePeriod(state.gracePeriodSeconds, pod).seconds;
  ctx.schedule(0, `kubelet ${kubelet.name}: removed ${state.ref}`, function* () {
    yield {
      phase: 'kubelet.terminate', object: state.ref,
      result: killing
        ? `HandlePodRemoves: the pod is gone from the API server while its containers are being killed: UpdatePod(SyncPodKill) leaves the kill in progress as it is (its ${kill}s window); the containers still stop, and the status manager finds no pod to update or delete`
        : 'HandlePodRemoves: the pod is gone from the API server while the kubelet cleans it up: the pod worker finishes the cleanup; the status manager finds no pod to delete',
      detail: { removedFromApiServer: true, killInProgress: killing, killGracePeriodSeconds: kill },
    };
  });
}
