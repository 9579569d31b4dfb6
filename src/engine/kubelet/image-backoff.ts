// ImagePullBackOff: a failed pull is retried only after a back-off that starts at 10 s and doubles up to 5 minutes;
// a sync in between leaves the container in ImagePullBackOff.
// See pkg/kubelet/images/image_manager.go (EnsureImageExists) and pkg/kubelet/kubelet.go (MaxImageBackOff, imageBackOff).
import type { Container } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { fieldOf } from './containers';
import type { Kubelet } from './kubelet';
import { containerRef, type ContainerRuntimeState, type PodRuntimeState } from './pod-state';
import { isInBackOffSinceUpdate, nextBackoff } from './restarts';

/** IMAGE_BACKOFF_INITIAL_MS and IMAGE_BACKOFF_MAX_MS bound the image pull back-off (backOffPeriod, MaxImageBackOff). */
export const IMAGE_BACKOFF_INITIAL_MS = 10_000;
export const IMAGE_BACKOFF_MAX_MS = 300_000;

/** recordPullFailure moves the image back-off on after a failed pull (Backoff.Next at the failure). */
export function recordPullFailure(ctx: EngineContext, c: ContainerRuntimeState): void {
  if (c.reason !== 'ErrImagePull') return;
  c.lastPullError = c.message;
  c.imageBackoff = nextBackoff(c.imageBackoff, ctx.clock.now, ctx.clock.now, IMAGE_BACKOFF_INITIAL_MS, IMAGE_BACKOFF_MAX_MS);
}

/**
 * imagePullBackOff checks the image back-off before a pull: while it runs, the container waits in
 * ImagePullBackOff with the image manager's BackOff event and the runtime manager's "Error: ImagePullBackOff".
 * Returns true when the start must wait.
 */
export function* imagePullBackOff(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container): Steps<boolean> {
  if (!isInBackOffSinceUpdate(c.imageBackoff, ctx.clock.now, IMAGE_BACKOFF_MAX_MS)) return false;
  const entry = c.imageBackoff!;
  const previous = c.lastPullError ?? '';
  c.state = 'waiting';
  c.reason = 'ImagePullBackOff';
  c.message = `Back-off pulling image "${spec.image}": ErrImagePull: ${previous}`;
  c.syncError = { reason: c.reason, message: c.message };
  // image_manager.go pullImage (v1.36.3): the Normal BackOff event is recorded with `Back-off pulling image "<image>"`
  // alone; only the message returned for the status gets ": <reason>: <error>" of the last pull (prevPullErrMsg).
  // startContainer then records "Error: ImagePullBackOff". Both on the container's reference.
  kubelet.event(state, 'Normal', 'BackOff', `Back-off pulling image "${spec.image}"`, containerRef(c));
  kubelet.event(state, 'Warning', 'Failed', 'Error: ImagePullBackOff', containerRef(c));
  yield {
    phase: 'kubelet.imagePull', object: state.ref, field: `${fieldOf(state, c)}.image`, step: { kind: 'container', name: c.name },
    result: `ImagePullBackOff: the next pull of ${spec.image} is in ${(entry.lastUpdate + entry.ms - ctx.clock.now) / 1000}s (back-off ${entry.ms / 1000}s)`,
    detail: { backoffSeconds: entry.ms / 1000 }, outcome: 'waiting',
  };
  return true;
}
