// What the kubelet and the container runtime know of a pod on the node: sandbox, IP, and each container's state.
import type { Container, Pod } from '../api/types';
import type { Millis } from '../runtime/clock';

/** ContainerState is a container as the runtime reports it. */
export interface ContainerRuntimeState {
  name: string;
  /** image as written in the spec; imageRef is its normalized reference (docker.io/library/nginx:1.27). */
  image: string;
  imageRef: string;
  imageID?: string;
  containerID?: string;
  state: 'waiting' | 'running' | 'terminated';
  reason?: string;
  message?: string;
  createdAt?: Millis;
  startedAt?: Millis;
  finishedAt?: Millis;
  exitCode?: number;
  /** started is true once the startup probe (if any) passed. */
  started: boolean;
  ready: boolean;
  restartCount: number;
  init: boolean;
  /** sidecar is true for an init container with restartPolicy Always: it keeps running beside the containers. */
  sidecar: boolean;
  /** index is the container's position in spec.initContainers or spec.containers. */
  index: number;
  /** lastTerminated is the previous run of a restarted container (the status's lastState.terminated). */
  lastTerminated?: { exitCode: number; reason: string; startedAt?: Millis; finishedAt?: Millis; containerID?: string };
  /** backoff is the kubelet's CrashLoopBackOff entry for the container: the current delay and its last update. */
  backoff?: { ms: number; lastUpdate: Millis };
  /** killing is set while the kubelet kills the container (liveness or startup failure, postStart failure, the pod's end). */
  killing?: boolean;
  /** probeResults are the probe managers' cached results for the current container id. See pkg/kubelet/prober/results. */
  probeResults: { startup?: 'Success' | 'Failure'; liveness?: 'Success' | 'Failure'; readiness?: 'Success' | 'Failure' };
  /** syncError is the kubelet's reason cache for the container: why its last start failed (CrashLoopBackOff, ImagePullBackOff...). */
  syncError?: { reason: string; message: string };
  /** imageBackoff is the image manager's back-off entry for the container's image pulls. */
  imageBackoff?: { ms: number; lastUpdate: Millis };
  /** lastPullError is the runtime's error of the container's last failed image pull. */
  lastPullError?: string;
  /** hookRunning is set while the container's postStart hook runs. */
  hookRunning?: boolean;
  /** everStarted is true once the runtime has started the container at least once. */
  everStarted?: boolean;
}

/** ConditionMark remembers a condition's status and when it last changed. */
export interface ConditionMark {
  status: 'True' | 'False';
  at: Millis;
  reason?: string;
  message?: string;
}

/** PodRuntimeState is everything the kubelet tracks for one pod. */
export interface PodRuntimeState {
  uid: string;
  ref: string;
  pod: Pod;
  admittedAt?: Millis;
  sandboxId?: string;
  ip?: string;
  containers: ContainerRuntimeState[];
  conditions: Map<string, ConditionMark>;
  /** terminating is set once the kubelet started killing the pod; sync work stops then. */
  terminating: boolean;
  terminated: boolean;
  /**
   * gracePeriodSeconds is the pod worker's grace period once it began the kill (podSyncStatus.gracePeriod): later
   * updates may only lower it. killGracePeriodSeconds is the one the kill in progress uses, which they do not change.
   */
  gracePeriodSeconds?: number;
  killGracePeriodSeconds?: number;
  /** finalDelete is set once the status manager sends the pod's final delete: its removal is then the kubelet's own doing. */
  finalDelete?: boolean;
  rejected?: { reason: string; message: string };
  /** worker is the pod worker's bookkeeping: a sync queued or running, and when the probe workers began. */
  worker?: { queued: boolean; running: boolean; again: boolean; probesStartedAt?: Millis };
  /** evicted is the pod-level failure a sync handler decided (activeDeadlineSeconds): the phase turns Failed with it. */
  evicted?: { reason: string; message: string };
  /** podTerminal is set once the kubelet decided the pod is done (KillPod): no container is started again. */
  podTerminal?: boolean;
  /** stopping is set while the kubelet stops the containers of a pod that is done; the phase stays as it was meanwhile. */
  stopping?: boolean;
  /** reportedPhase is the last phase sent to the API server. */
  reportedPhase?: string;
}

/** newPodRuntimeState starts the tracking of a pod the kubelet was given. */
export function newPodRuntimeState(pod: Pod, ref: string): PodRuntimeState {
  // Every container waits as PodInitializing when the pod has init containers, else as ContainerCreating.
  // See pkg/kubelet/kubelet_pods.go (convertToAPIContainerStatuses, defaultWaitingState).
  const hasInit = (pod.spec?.initContainers ?? []).length > 0;
  const entry = (c: Container, init: boolean, index: number): ContainerRuntimeState => ({
    name: c.name, image: c.image ?? '', imageRef: normalizeImage(c.image ?? ''), state: 'waiting',
    reason: hasInit ? 'PodInitializing' : 'ContainerCreating', started: false, ready: false, restartCount: 0, init,
    sidecar: init && c.restartPolicy === 'Always', index, probeResults: {},
  });
  return {
    uid: pod.metadata?.uid ?? '', ref, pod,
    containers: [...(pod.spec?.initContainers ?? []).map((c, i) => entry(c, true, i)), ...(pod.spec?.containers ?? []).map((c, i) => entry(c, false, i))],
    conditions: new Map(), terminating: false, terminated: false,
  };
}

/**
 * normalizeImage completes an image reference as the container runtime reports it: the default
 * registry docker.io, the library/ namespace of official images, and the :latest tag.
 * See github.com/distribution/reference (ParseNormalizedNamed, TagNameOnly).
 */
export function normalizeImage(image: string): string {
  if (!image) return image;
  const [withoutDigest, digest] = image.split('@') as [string, string | undefined];
  const firstSlash = withoutDigest.indexOf('/');
  const first = firstSlash < 0 ? '' : withoutDigest.slice(0, firstSlash);
  const hasRegistry = first !== '' && (first.includes('.') || first.includes(':') || first === 'localhost');
  let name = hasRegistry ? withoutDigest : `docker.io/${firstSlash < 0 ? `library/${withoutDigest}` : withoutDigest}`;
  const lastPart = name.slice(name.lastIndexOf('/') + 1);
  if (!lastPart.includes(':') && !digest) name = `${name}:latest`;
  return digest ? `${name}@${digest}` : name;
}
