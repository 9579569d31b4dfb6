// A pod's requests and limits as exact quantities: containers summed, sidecars and init containers folded in,
// pod-level resources and overhead, the two ways quota and LimitRanger count them.
import type { Container, Pod, ResourceRequirements } from '../../../api/types';
import { parseResourceList, type ResourceList } from './resources';

/** PodLevel says which pod-level override applies: component-helpers' (quota), LimitRanger's own copy, or none. */
export type PodLevel = 'helpers' | 'limitranger';

/** PodResourcesOptions choose between component-helpers' PodRequests (quota) and LimitRanger's local podRequests. */
export interface PodResourcesOptions {
  podLevel: PodLevel;
  /** excludeOverhead leaves spec.overhead out; LimitRanger's copy never adds it. */
  excludeOverhead: boolean;
}

/** QUOTA_OPTIONS are PodUsageFunc's: PodLevelResources on (1.36), overhead counted. */
export const QUOTA_OPTIONS: PodResourcesOptions = { podLevel: 'helpers', excludeOverhead: false };
/** LIMIT_RANGER_OPTIONS are LimitRanger's podResourcesOptions: pod-level cpu and memory, no overhead. */
export const LIMIT_RANGER_OPTIONS: PodResourcesOptions = { podLevel: 'limitranger', excludeOverhead: true };

/** PodSpecResources is what a 1.36 PodSpec has that the kubernetes-types package predates. */
interface PodSpecResources {
  resources?: ResourceRequirements;
  overhead?: Record<string, string | number>;
}

const specResources = (pod: Pod): PodSpecResources => (pod.spec ?? {}) as PodSpecResources;

/**
 * isSupportedPodLevelResource: component-helpers accepts cpu, memory and hugepages-*; LimitRanger's
 * local copy only cpu and memory. See plugin/pkg/admission/limitranger/admission.go (supportedPodLevelResources)
 * and staging/src/k8s.io/component-helpers/resource/helpers.go (IsSupportedPodLevelResource).
 */
function isSupportedPodLevelResource(name: string, level: PodLevel): boolean {
  return name === 'cpu' || name === 'memory' || (level === 'helpers' && name.startsWith('hugepages-'));
}

/** isPodLevelResourcesSet is component-helpers' IsPodLevelResourcesSet: spec.resources sets a supported resource. */
export function isPodLevelResourcesSet(pod: Pod): boolean {
  const r = specResources(pod).resources;
  if (!r) return false;
  const names = [...Object.keys(r.requests ?? {}), ...Object.keys(r.limits ?? {})];
  return names.some((n) => isSupportedPodLevelResource(n, 'helpers'));
}

function isPodLevelRequestsSet(pod: Pod): boolean {
  const requests = specResources(pod).resources?.requests;
  return !!requests && Object.keys(requests).some((n) => isSupportedPodLevelResource(n, 'helpers'));
}

/** addInto is addResourceList: each amount added into dst, a name dst lacks copied. */
function addInto(dst: ResourceList, src: ResourceList): void {
  for (const [name, q] of src) {
    const cur = dst.get(name);
    dst.set(name, cur ? cur.add(q) : q);
  }
}

/** maxInto is maxResourceList: dst raised to src's amount where src's is greater, names dst lacks copied. */
function maxInto(dst: ResourceList, src: ResourceList): void {
  for (const [name, q] of src) {
    const cur = dst.get(name);
    if (!cur || q.cmp(cur) > 0) dst.set(name, q);
  }
}

const isSidecar = (c: Container): boolean => c.restartPolicy === 'Always';

/**
 * aggregate folds one list of every container: regular containers and sidecars run together (sum); each
 * init container runs with the sidecars started before it, and the pod needs the peak of those.
 * See aggregateContainerRequests/Limits in component-helpers/resource/helpers.go (the sidecar KEP formula).
 */
function aggregate(pod: Pod, key: 'requests' | 'limits'): ResourceList {
  const result: ResourceList = new Map();
  for (const c of pod.spec?.containers ?? []) addInto(result, parseResourceList(c.resources?.[key]));
  const sidecars: ResourceList = new Map();
  const initPeak: ResourceList = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = parseResourceList(c.resources?.[key]);
    if (isSidecar(c)) {
      addInto(result, own);
      addInto(sidecars, own);
      maxInto(initPeak, sidecars);
    } else {
      const running = new Map(own);
      addInto(running, sidecars);
      maxInto(initPeak, running);
    }
  }
  maxInto(result, initPeak);
  return result;
}

/**
 * podRequests is PodRequests: the aggregate, pod-level requests in place of the containers' where set, plus
 * overhead. LimitRanger's copy overrides whenever spec.resources exists and never adds overhead.
 */
export function podRequests(pod: Pod, opts: PodResourcesOptions): ResourceList {
  const reqs = aggregate(pod, 'requests');
  const spec = specResources(pod);
  const override = opts.podLevel === 'limitranger' ? !!spec.resources : isPodLevelRequestsSet(pod);
  if (override) {
    for (const [name, q] of parseResourceList(spec.resources?.requests)) {
      if (isSupportedPodLevelResource(name, opts.podLevel)) reqs.set(name, q);
    }
  }
  if (!opts.excludeOverhead && spec.overhead) addInto(reqs, parseResourceList(spec.overhead));
  return reqs;
}

/**
 * podLimits is PodLimits: the aggregate, pod-level limits in place of the containers' where set, and
 * overhead added only to the limits that are already there.
 */
export function podLimits(pod: Pod, opts: PodResourcesOptions): ResourceList {
  const limits = aggregate(pod, 'limits');
  const spec = specResources(pod);
  const override = opts.podLevel === 'limitranger' ? !!spec.resources : isPodLevelResourcesSet(pod);
  if (override) {
    for (const [name, q] of parseResourceList(spec.resources?.limits)) {
      if (isSupportedPodLevelResource(name, opts.podLevel)) limits.set(name, q);
    }
  }
  if (!opts.excludeOverhead && spec.overhead) {
    for (const [name, q] of parseResourceList(spec.overhead)) {
      const cur = limits.get(name);
      if (cur) limits.set(name, cur.add(q));
    }
  }
  return limits;
}
