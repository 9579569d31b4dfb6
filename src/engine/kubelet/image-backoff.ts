// ImagePullBackOff: a failed pull is retried after a back-off that starts at 10 s and doubles up to 5 minutes.
// See pkg/kubelet/images/image_manager.go (EnsureImageExists, backOff) and pkg/kubelet/kubelet.go (imageBackOff).
import type { Container } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { ensureImage, fieldOf, startContainer } from './containers';
import type { Kubelet } from './kubelet';
import type { ContainerRuntimeState, PodRuntimeState } from './pod-state';

/** IMAGE_BACKOFF_INITIAL_MS and IMAGE_BACKOFF_MAX_MS bound the image pull back-off (backOffPeriod, MaxContainerBackOff). */
export const IMAGE_BACKOFF_INITIAL_MS = 10_000;
export const IMAGE_BACKOFF_MAX_MS = 300_000;

/** retryImagePull keeps a container whose image failed to pull in ImagePullBackOff, retrying until the pull works. */
export function* retryImagePull(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, onStarted: () => void): Steps<void> {
  const emit = (type: 'Normal' | 'Warning', reason: string, message: string) => kubelet.event(state, type, reason, message);
  const field = fieldOf(state, c);
  for (let backoff = IMAGE_BACKOFF_INITIAL_MS; !state.terminating; backoff = Math.min(2 * backoff, IMAGE_BACKOFF_MAX_MS)) {
    const previous = c.message ?? '';
    c.reason = 'ImagePullBackOff';
    c.message = `Back-off pulling image "${spec.image}": ErrImagePull: ${previous}`;
    emit('Normal', 'BackOff', `Back-off pulling image "${spec.image}"`);
    emit('Warning', 'Failed', 'Error: ImagePullBackOff');
    yield {
      phase: 'kubelet.imagePull', object: state.ref, field: `${field}.image`, step: { kind: 'container', name: c.name },
      result: `ImagePullBackOff: the next pull of ${spec.image} is in ${backoff / 1000}s`, detail: { backoffSeconds: backoff / 1000 }, outcome: 'waiting',
    };
    yield* kubelet.writeStatus(state, `container ${c.name} in ImagePullBackOff`);
    yield* sleep(backoff);
    if (state.terminating) return;
    if (yield* ensureImage(ctx, state, c, spec, kubelet.images, emit)) {
      if (yield* startContainer(ctx, state, c, spec, emit)) onStarted();
      return;
    }
    yield* kubelet.writeStatus(state, `container ${c.name} cannot pull its image`);
  }
}
