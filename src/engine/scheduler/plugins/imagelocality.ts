// ImageLocality: prefers nodes that already have the pod's images (node.status.images), scaled by how widely they spread.
// See pkg/scheduler/framework/plugins/imagelocality/image_locality.go.
import type { Pod } from '../../api/types';
import type { CycleState } from '../framework/cycle-state';
import type { Handle, NodeInfo, Plugin, ScorePlugin } from '../framework/interfaces';
import type { ImageStateSummary } from '../framework/node-info';
import { MAX_NODE_SCORE } from '../framework/profile';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.ImageLocality;

const MB = 1024 * 1024;
/** MIN_THRESHOLD is the image size sum below which a node scores 0 (23 MiB). */
export const MIN_THRESHOLD = 23 * MB;
/** MAX_CONTAINER_THRESHOLD is the image size per image source at and above which a node scores 100 (1000 MiB). */
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;
/** DEFAULT_IMAGE_TAG is the tag an image reference without one gets. */
export const DEFAULT_IMAGE_TAG = 'latest';

/** PodSpecImageVolumes is the part of a 1.36 PodSpec the kubernetes-types package predates: image volumes. */
interface ImageVolume {
  image?: { reference?: string };
}

/** normalizedImageName adds `:latest` to a reference without a tag, as the CRI reports it. Digests and registries are kept. */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:${DEFAULT_IMAGE_TAG}` : name;
}

/** imageSources lists the pod's image references: init containers, containers and image volumes. */
export function imageSources(pod: Pod): string[] {
  const images: string[] = [];
  for (const c of pod.spec?.initContainers ?? []) if (c.image) images.push(c.image);
  for (const c of pod.spec?.containers ?? []) if (c.image) images.push(c.image);
  for (const v of (pod.spec?.volumes ?? []) as ImageVolume[]) if (v.image?.reference) images.push(v.image.reference);
  return images;
}

/** scaledImageScore is an image's size times the share of nodes that have it, which keeps pods off a few "hot" nodes. */
export function scaledImageScore(state: ImageStateSummary, totalNumNodes: number): number {
  return Math.trunc(state.size * (state.numNodes / totalNumNodes));
}

/** calculatePriority maps the summed image score from [23 MiB, 1000 MiB × sources] onto [0, 100]. */
export function calculatePriority(sumScores: number, numSources: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numSources;
  let clamped = sumScores;
  if (clamped < MIN_THRESHOLD) clamped = MIN_THRESHOLD;
  else if (clamped > maxThreshold) clamped = maxThreshold;
  return Math.trunc((MAX_NODE_SCORE * (clamped - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

/** PodImages is what ImageLocality reads of the pod in a cycle: its images (normalized), the cluster's size, a bare node's score. */
interface PodImages {
  state: CycleState;
  pod: Pod;
  images: string[];
  totalNumNodes: number;
  noImageScore: number;
}

/** ImageLocality scores nodes by the images they already hold. */
export class ImageLocality implements ScorePlugin {
  readonly name = Name;
  private readonly handle: Handle;
  /** podImages is the current cycle's pod data, so that scoring a node only looks the images up (no PreScore in Kubernetes). */
  private podImages: PodImages | undefined;

  constructor(handle: Handle) {
    this.handle = handle;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    let p = this.podImages;
    if (p === undefined || p.state !== state || p.pod !== pod) {
      const images = imageSources(pod).map(normalizedImageName);
      const totalNumNodes = this.handle.snapshot().numNodes;
      p = { state, pod, images, totalNumNodes, noImageScore: calculatePriority(0, images.length) };
      this.podImages = p;
    }
    if (nodeInfo.imageStates.size === 0) return p.noImageScore;
    let sum = 0;
    for (const image of p.images) {
      const imageState = nodeInfo.imageStates.get(image);
      if (imageState) sum += scaledImageScore(imageState, p.totalNumNodes);
    }
    return calculatePriority(sum, p.images.length);
  }

  fieldPath(): string {
    return 'spec.containers[0].image';
  }
}

/** New builds the plugin. */
export function New(handle: Handle): Plugin {
  return new ImageLocality(handle);
}
