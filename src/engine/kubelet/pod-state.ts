// What the kubelet and the container runtime know of a pod on the node: sandbox, IP, and each container's state.
import type { Container, Pod } from '../api/types';
import type { Millis } from '../runtime/clock';
import { normalizedImage } from './image-reference';
import { BoundedCache } from '../runtime/bounded-cache';

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
  /**
   * worker is the pod worker's bookkeeping: a sync queued or running, when the probe workers began, and whether the
   * PLEG has a change of the runtime to report (the sandbox just started) that the next sync has not seen yet.
   */
  worker?: { queued: boolean; running: boolean; again: boolean; probesStartedAt?: Millis; sandboxStarted?: boolean; why?: string };
  /** evicted is the pod-level failure a sync handler decided (activeDeadlineSeconds): the phase turns Failed with it. */
  evicted?: { reason: string; message: string };
  /** podTerminal is set once the kubelet decided the pod is done (KillPod): no container is started again. */
  podTerminal?: boolean;
  /** stopping is set while the kubelet stops the containers of a pod that is done; the phase stays as it was meanwhile. */
  stopping?: boolean;
  /** reportedPhase is the last phase sent to the API server. */
  reportedPhase?: string;
}

/**
 * containerRef is the fieldPath of the ObjectReference the kubelet records a container's events on:
 * `spec.containers{app}`, `spec.initContainers{init}` (a container always has a name in a stored pod).
 * See pkg/kubelet/container/ref.go (GenerateContainerRef, fieldPath) at v1.36.3.
 */
export function containerRef(c: Pick<ContainerRuntimeState, 'init' | 'name'>): string {
  return `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}`;
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
 * registry docker.io, the library/ namespace of official images, and the :latest tag; an image the
 * kubelet cannot parse is kept as written (it is never pulled). See image-reference.ts (ParseNormalizedNamed).
 */
export function normalizeImage(image: string): string {
  if (!image) return image;
  return NORMALIZED.get(image, normalizedOnce);
}

/** NORMALIZED are the image references completed so far. */
const NORMALIZED = new BoundedCache<string, string>(1024);

/** normalizedOnce is kept once per image, in one piece: every container of the image shares it. */
function normalizedOnce(image: string): string {
  return [normalizedImage(image)].join('');
}
