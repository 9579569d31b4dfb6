// Image pulls: the pull policy decision, images already on the node, and the events the image manager records.
// See pkg/kubelet/images/image_manager.go (EnsureImageExists) and pkg/kubelet/events/event.go.
import { createHash } from 'node:crypto';
import type { Container } from '../api/types';
import type { ImageBehavior } from '../cluster/inputs';
import { goDuration } from '../runtime/durations';
import { BoundedCache } from '../runtime/bounded-cache';

/** DEFAULT_PULL_SECONDS is how long a pull takes when the Behavior does not say (DESIGN: images pull in 2 s). */
export const DEFAULT_PULL_SECONDS = 2;

/** DEFAULT_IMAGE_SIZE is the size reported for an image whose Behavior gives none. */
export const DEFAULT_IMAGE_SIZE = 50 * 1024 * 1024;

/** PullDecision is what the image manager decides for a container's image. */
export type PullDecision =
  | { action: 'present'; message: string }
  | { action: 'pull'; pullingMessage: string }
  | { action: 'neverPull'; message: string };

/**
 * decidePull applies the pull policy: Always pulls; IfNotPresent pulls only an absent image; Never
 * fails on an absent one with ErrImageNeverPull.
 */
export function decidePull(container: Container, present: boolean): PullDecision {
  const image = container.image ?? '';
  const policy = container.imagePullPolicy ?? 'IfNotPresent';
  if (policy === 'Never' && !present) {
    return { action: 'neverPull', message: `Container image "${image}" is not present with pull policy of Never` };
  }
  if (policy !== 'Always' && present) {
    return { action: 'present', message: `Container image "${image}" already present on machine and can be accessed by the pod` };
  }
  return { action: 'pull', pullingMessage: `Pulling image "${image}"` };
}

/**
 * pulledMessage is the Pulled event of a fresh pull: the time the pull took and, including the wait
 * behind other pulls of the node (pulls are serialized by default), and the image size in bytes.
 */
export function pulledMessage(image: string, pullMs: number, totalMs: number, size: number): string {
  return `Successfully pulled image "${image}" in ${goDuration(pullMs)} (${goDuration(totalMs)} including waiting). Image size: ${size} bytes.`;
}

/** pullSeconds is how long an image takes to pull under the Behavior. */
export function pullSeconds(b: ImageBehavior | undefined): number {
  return b?.pullSeconds ?? DEFAULT_PULL_SECONDS;
}

/** imageSize is the size of an image under the Behavior. */
export function imageSize(b: ImageBehavior | undefined): number {
  return b?.size ?? DEFAULT_IMAGE_SIZE;
}

/** imageDigest is a stable sha256 digest for an image reference, standing in for the registry's manifest digest. */
export function imageDigest(imageRef: string): string {
  return `sha256:${createHash('sha256').update(imageRef).digest('hex')}`;
}

/** imageID is the repo digest the runtime reports as a container's imageID: `docker.io/library/nginx@sha256:...`. */
export function imageID(imageRef: string): string {
  return IMAGE_IDS.get(imageRef, imageIdOnce);
}

/** IMAGE_IDS are the image IDs made so far, by image reference. */
const IMAGE_IDS = new BoundedCache<string, string>(1024);

/** imageIdOnce is kept once per image and joined into one piece: every container of the image shares it. */
function imageIdOnce(imageRef: string): string {
  const repo = imageRef.split('@')[0]!.replace(/:[^:/]+$/, '');
  return [repo, '@', imageDigest(imageRef)].join('');
}
