// A pod's effective resource requests: containers summed, init containers and sidecars folded in, pod-level resources and overhead.
// See staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests) and pkg/scheduler/util/pod_resources.go.
import { parseQuantity } from '../../api/quantity';
import type { Container, Pod, ResourceRequirements } from '../../api/types';
import { MILLI, ResourceName, type ResourceList } from './resource';
import { BoundedCache } from '../../runtime/bounded-cache';

/** DEFAULT_MILLI_CPU_REQUEST is the cpu a container without a cpu request counts for when scoring (100m). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
/** DEFAULT_MEMORY_REQUEST is the memory in bytes a container without a memory request counts for when scoring (200Mi). */
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** NON_ZERO_DEFAULTS is the NonMissingContainerRequests list the scorers use: 100m cpu and 200Mi memory. */
export const NON_ZERO_DEFAULTS: ResourceList = new Map([
  [ResourceName.CPU, DEFAULT_MILLI_CPU_REQUEST],
  [ResourceName.Memory, DEFAULT_MEMORY_REQUEST * MILLI],
]);

/** CONTAINER_RESTART_POLICY_ALWAYS marks an init container as a sidecar (restartable init container). */
export const CONTAINER_RESTART_POLICY_ALWAYS = 'Always';

/** PodResourcesOptions controls podRequests, as resource.PodResourcesOptions does. */
export interface PodResourcesOptions {
  /** nonMissingContainerRequests replaces requests a container does not set (not those set to zero). */
  nonMissingContainerRequests?: ResourceList;
  /** skipPodLevelResources ignores spec.resources; false in 1.36, where PodLevelResources is on by default. */
  skipPodLevelResources?: boolean;
  /** excludeOverhead leaves spec.overhead out. */
  excludeOverhead?: boolean;
}

/** PodSpecResources is the part of a 1.36 PodSpec that the kubernetes-types package predates: pod-level resources. */
interface PodSpecResources {
  resources?: ResourceRequirements;
  overhead?: Record<string, string | number>;
}

/** The caches of parsed quantities, each of at most 4096; invalid quantities throw as before and are not kept. */
const milliCache = new BoundedCache<string | number, number>(4096);
const valueCache = new BoundedCache<string | number, number>(4096);
const milliOf = (q: string | number): number => parseQuantity(q).milliValue();
const wholeOf = (q: string | number): number => parseQuantity(q).value() * MILLI;

/**
 * milliValueOf is parseQuantity(q).milliValue(), remembered: a cluster's pods repeat a few quantities ("100m", "500Mi"),
 * and every cycle parses the pod's requests in PreFilter and PreScore and again when it is assumed.
 */
export function milliValueOf(q: string | number): number {
  return milliCache.get(q, milliOf);
}

/**
 * wholeValueOf is parseQuantity(q).value() in milli-units, remembered like milliValueOf: the scheduler reads every
 * resource but cpu with Quantity.Value (pkg/scheduler/framework/types.go Resource.Add, v1.36.3), which a quantity
 * capped at the int64 maximum (`99999999999999999999999Ei`) keeps, where MilliValue would overflow.
 */
function wholeValueOf(q: string | number): number {
  return valueCache.get(q, wholeOf);
}

/** resourceListOf parses a requests (or limits) map into milli-units: cpu by MilliValue, the rest by Value. */
export function resourceListOf(quantities: Readonly<Record<string, string | number>> | undefined): ResourceList {
  const list: ResourceList = new Map();
  if (!quantities) return list;
  for (const [name, q] of Object.entries(quantities)) list.set(name, name === ResourceName.CPU ? milliValueOf(q) : wholeValueOf(q));
  return list;
}

/** podRequests computes a pod's total requests: max(sum of containers and sidecars, each init container's peak) + overhead. */
export function podRequests(pod: Pod, opts: PodResourcesOptions = {}): ResourceList {
  const reqs = aggregateContainerRequests(pod, opts);
  const spec = pod.spec as PodSpecResources | undefined;
  if (!opts.skipPodLevelResources && isPodLevelRequestsSet(pod)) {
    for (const [name, milli] of resourceListOf(spec?.resources?.requests)) {
      if (isSupportedPodLevelResource(name)) reqs.set(name, milli);
    }
  }
  if (!opts.excludeOverhead && spec?.overhead) addInto(reqs, resourceListOf(spec.overhead));
  return reqs;
}

/**
 * aggregateContainerRequests folds the containers: regular containers and sidecars run together (sum); each
 * init container runs with the sidecars started before it, and the pod needs the peak of those.
 * See the sidecar KEP formula in component-helpers/resource/helpers.go (aggregateContainerResourcesByFn).
 */
export function aggregateContainerRequests(pod: Pod, opts: PodResourcesOptions = {}): ResourceList {
  const result: ResourceList = new Map();
  for (const c of pod.spec?.containers ?? []) addInto(result, containerRequests(c, opts));
  const sidecars: ResourceList = new Map();
  const initPeak: ResourceList = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = containerRequests(c, opts);
    if (c.restartPolicy === CONTAINER_RESTART_POLICY_ALWAYS) {
      addInto(result, own);
      addInto(sidecars, own);
      maxInto(initPeak, sidecars);
    } else {
      const combined = new Map(own);
      addInto(combined, sidecars);
      maxInto(initPeak, combined);
    }
  }
  maxInto(result, initPeak);
  return result;
}

/** isPodLevelRequestsSet tells whether spec.resources.requests sets cpu, memory or hugepages. */
export function isPodLevelRequestsSet(pod: Pod): boolean {
  const requests = (pod.spec as PodSpecResources | undefined)?.resources?.requests;
  return requests !== undefined && Object.keys(requests).some(isSupportedPodLevelResource);
}

function isSupportedPodLevelResource(name: string): boolean {
  return name === ResourceName.CPU || name === ResourceName.Memory || name.startsWith('hugepages-');
}

function containerRequests(c: Container, opts: PodResourcesOptions): ResourceList {
  const own = resourceListOf(c.resources?.requests);
  if (!opts.nonMissingContainerRequests || opts.nonMissingContainerRequests.size === 0) return own;
  for (const [name, milli] of opts.nonMissingContainerRequests) if (!own.has(name)) own.set(name, milli);
  return own;
}

/** addInto adds every amount of src into dst. */
export function addInto(dst: ResourceList, src: ResourceList): void {
  for (const [name, milli] of src) dst.set(name, (dst.get(name) ?? 0) + milli);
}

/** maxInto raises every amount of dst to src's, adding names dst lacks. */
export function maxInto(dst: ResourceList, src: ResourceList): void {
  for (const [name, milli] of src) {
    const cur = dst.get(name);
    if (cur === undefined || milli > cur) dst.set(name, milli);
  }
}
