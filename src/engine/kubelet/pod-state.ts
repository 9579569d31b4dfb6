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
  /** lastTerminated is the previous run of a restarted container (the status's lastState.terminated). */
  lastTerminated?: { exitCode: number; reason: string; startedAt?: Millis; finishedAt?: Millis; containerID?: string };
  /** backoff is the kubelet's CrashLoopBackOff entry for the container: the current delay and its last update. */
  backoff?: { ms: number; lastUpdate: Millis };
  /** killing is set while the kubelet kills the container after a failed liveness probe. */
  killing?: boolean;
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
  rejected?: { reason: string; message: string };
}

/** newPodRuntimeState starts the tracking of a pod the kubelet was given. */
export function newPodRuntimeState(pod: Pod, ref: string): PodRuntimeState {
  const entry = (c: Container, init: boolean): ContainerRuntimeState => ({
    name: c.name, image: c.image ?? '', imageRef: normalizeImage(c.image ?? ''), state: 'waiting',
    reason: init ? 'PodInitializing' : 'ContainerCreating', started: false, ready: false, restartCount: 0, init,
  });
  return {
    uid: pod.metadata?.uid ?? '', ref, pod,
    containers: [...(pod.spec?.initContainers ?? []).map((c) => entry(c, true)), ...(pod.spec?.containers ?? []).map((c) => entry(c, false))],
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
