// What the kubelet does once a terminating pod's containers stopped: StopPodSandbox (CNI DEL frees the IP), the
// terminal status, the wait for its volumes to unmount, and the status manager's final delete.
// See pkg/kubelet/kuberuntime/kuberuntime_manager.go (killPodWithSyncResult), pkg/kubelet/kubelet.go
// (SyncTerminatingPod, SyncTerminatedPod), pkg/kubelet/volumemanager/volume_manager.go (WaitForUnmount) and
// pkg/kubelet/status/status_manager.go (syncPod, canBeDeleted).
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import type { Kubelet } from './kubelet';
import type { PodRuntimeState } from './pod-state';

/** UNMOUNT_TIMEOUT_SECONDS is how long WaitForUnmount polls before it gives up (volume_manager.go podAttachAndMountTimeout, 2 min). */
export const UNMOUNT_TIMEOUT_SECONDS = 120;

/** SYNC_BACKOFF_SECONDS is when the pod worker retries a sync that failed (kubelet.go backOffPeriod, 10 s). */
export const SYNC_BACKOFF_SECONDS = 10;

/** cleanupPod tears a stopped pod down and asks the API server to remove it. */
export function* cleanupPod(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): Steps<void> {
  // killPodWithSyncResult stops the sandbox after the containers: the CNI DEL releases the address.
  const hostNetwork = state.pod.spec?.hostNetwork === true;
  if (state.sandboxId) {
    if (!hostNetwork) kubelet.ipam.release(state.sandboxId);
    yield {
      phase: 'kubelet.cleanup', object: state.ref, field: hostNetwork ? 'spec.hostNetwork' : undefined,
      result: `StopPodSandbox: the pause container stopped${hostNetwork ? ' (host network: no CNI DEL)' : `, CNI DEL released ${state.ip ?? 'no address'}`}; the container garbage collector removes the sandbox later`,
      detail: { sandboxId: state.sandboxId, podIP: state.ip ?? null },
    };
  } else {
    yield { phase: 'kubelet.cleanup', object: state.ref, result: 'no sandbox was created: nothing to stop', detail: {} };
  }
  // SyncTerminatingPod reports the terminal phase once every container stopped.
  state.terminated = true;
  yield* kubelet.writeStatus(state, 'all containers stopped', true);
  if (!(yield* unmountVolumes(ctx, state))) return;
  // The status manager deletes the pod with a grace period of 0 once it is terminal and its volumes are gone.
  state.finalDelete = true;
  yield* kubelet.deletePod(state);
}

/**
 * unmountVolumes is SyncTerminatedPod's wait for the volume manager to tear the pod's volumes down. Each volume
 * takes its Behavior's unmountSeconds (default at once); WaitForUnmount gives up after 2 min and the pod worker
 * retries 10 s later. A volume that never unmounts keeps the pod Terminating. Returns whether all are gone.
 */
function* unmountVolumes(ctx: EngineContext, state: PodRuntimeState): Steps<boolean> {
  const volumes = state.pod.spec?.volumes ?? [];
  if (volumes.length === 0) return true;
  const start = ctx.clock.now;
  const done = volumes.map((v, i) => {
    const seconds = ctx.behavior.volumes[v.name]?.unmountSeconds ?? 0;
    return { name: v.name, index: i, at: seconds === 'never' ? Infinity : start + seconds * 1000 };
  });
  yield {
    phase: 'kubelet.cleanup', object: state.ref, field: 'spec.volumes',
    result: `waiting for ${volumes.length} volume(s) to unmount: ${volumes.map((v) => v.name).join(', ')}`,
    detail: { volumes: done.map((d) => ({ name: d.name, unmountSeconds: ctx.behavior.volumes[d.name]?.unmountSeconds ?? 0 })) },
  };
  // WaitForUnmount: attempts of at most 2 min, each failed one retried after the back-off.
  const lastAt = Math.max(...done.map((d) => d.at));
  const timeouts: number[] = [];
  let attempt = start;
  while (attempt + UNMOUNT_TIMEOUT_SECONDS * 1000 < lastAt) {
    timeouts.push(attempt + UNMOUNT_TIMEOUT_SECONDS * 1000);
    if (lastAt === Infinity) break;
    attempt += (UNMOUNT_TIMEOUT_SECONDS + SYNC_BACKOFF_SECONDS) * 1000;
  }
  const timeline = [
    ...done.filter((d) => d.at !== Infinity).map((d) => ({ at: d.at, order: d.index, volume: d })),
    ...timeouts.map((at) => ({ at, order: volumes.length, volume: undefined })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  for (const t of timeline) {
    yield* sleep(t.at - ctx.clock.now);
    if (t.volume) {
      yield {
        phase: 'kubelet.cleanup', object: state.ref, field: `spec.volumes[${t.volume.index}]`, step: { kind: 'volume', name: t.volume.name },
        result: `UnmountVolume.TearDown succeeded for volume "${t.volume.name}"`, detail: { volume: t.volume.name },
      };
      continue;
    }
    const mounted = done.filter((d) => d.at > ctx.clock.now).sort((a, b) => a.name.localeCompare(b.name));
    const forever = lastAt === Infinity;
    yield {
      phase: 'kubelet.cleanup', object: state.ref, field: `spec.volumes[${mounted[0]!.index}]`,
      result: `WaitForUnmount gave up after 2m0s: mounted volumes=[${mounted.map((d) => d.name).join(' ')}]: context deadline exceeded; the pod worker logs "Error syncing pod, skipping" and retries${forever ? ' (after 10s, then every 2m10s): the pod stays Terminating' : ` in ${SYNC_BACKOFF_SECONDS}s`}`,
      detail: { mountedVolumes: mounted.map((d) => d.name), timeoutSeconds: UNMOUNT_TIMEOUT_SECONDS, backOffSeconds: SYNC_BACKOFF_SECONDS }, outcome: forever ? 'waiting' : 'failed',
    };
    if (forever) return false;
  }
  yield* sleep(Math.max(attempt, lastAt) - ctx.clock.now);
  yield {
    phase: 'kubelet.cleanup', object: state.ref, field: 'spec.volumes',
    result: `all volumes unmounted; the pod's cgroup and directories are removed`, detail: { volumes: done.map((d) => d.name) },
  };
  return true;
}
