// The pod worker's retry after a failed sync: the next SyncPod comes 10 to 15 s later, and retries what failed.
// See pkg/kubelet/pod_workers.go (completeWork: wait.Jitter(backOffPeriod, workerBackOffPeriodJitterFactor)) and
// pkg/kubelet/kubelet.go (backOffPeriod).
import type { Container } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { ensureImage, fieldOf, startContainer } from './containers';
import { CREATE_CONTAINER_CONFIG_ERROR } from './env';
import type { Kubelet } from './kubelet';
import type { ContainerRuntimeState, PodRuntimeState } from './pod-state';

/** POD_WORKER_BACKOFF_MS is the kubelet's backOffPeriod: a pod whose sync failed is synced again after it. */
export const POD_WORKER_BACKOFF_MS = 10_000;
/** POD_WORKER_BACKOFF_JITTER is workerBackOffPeriodJitterFactor: the delay grows by up to half of itself. */
export const POD_WORKER_BACKOFF_JITTER = 0.5;

/** syncRetryDelay is wait.Jitter(backOffPeriod, 0.5): 10 s plus a random share of up to 5 s, from the seeded source. */
export function syncRetryDelay(ctx: EngineContext): number {
  const fraction = ctx.rng.nextUint32() / 0x1_0000_0000;
  return Math.round(POD_WORKER_BACKOFF_MS + fraction * POD_WORKER_BACKOFF_JITTER * POD_WORKER_BACKOFF_MS);
}

/**
 * awaitContainerConfig keeps a container in CreateContainerConfigError retried at every pod sync: the image manager runs
 * again (its image is on the node now: a Normal Pulled event), then the container config; it returns true once the
 * container started, when the referenced ConfigMap or Secret (and key) exists; false when the pod is deleted first.
 */
export function* awaitContainerConfig(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, writeStatus = true): Steps<boolean> {
  const emit = (type: 'Normal' | 'Warning', reason: string, message: string) => kubelet.event(state, type, reason, message);
  if (writeStatus) yield* kubelet.writeStatus(state, `container ${c.name} in ${CREATE_CONTAINER_CONFIG_ERROR}`);
  while (!state.terminating && c.reason === CREATE_CONTAINER_CONFIG_ERROR) {
    const delay = syncRetryDelay(ctx);
    yield {
      phase: c.init ? 'kubelet.initContainers' : 'kubelet.containers', object: state.ref, field: fieldOf(state, c), step: { kind: 'container', name: c.name },
      result: `the pod sync failed (${CREATE_CONTAINER_CONFIG_ERROR}); the pod worker syncs again in ${delay / 1000}s`,
      detail: { backOffSeconds: POD_WORKER_BACKOFF_MS / 1000, jitterFactor: POD_WORKER_BACKOFF_JITTER, delaySeconds: delay / 1000 }, outcome: 'waiting',
    };
    yield* sleep(delay);
    if (state.terminating) return false;
    if (!(yield* ensureImage(ctx, state, c, spec, kubelet.images, emit))) {
      yield* kubelet.writeStatus(state, `container ${c.name} cannot start`);
      return false;
    }
    if (yield* startContainer(ctx, state, c, spec, emit)) {
      yield* kubelet.writeStatus(state, `container ${c.name} started`);
      return true;
    }
  }
  return false;
}

/** retryContainerConfig is awaitContainerConfig for a regular container, on its own: the others run meanwhile. */
export function* retryContainerConfig(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, onStarted: () => void): Steps<void> {
  if (yield* awaitContainerConfig(ctx, kubelet, state, c, spec, false)) onStarted();
}
