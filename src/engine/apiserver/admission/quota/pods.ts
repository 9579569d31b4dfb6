// The pod quota evaluator: which quota resources a pod uses, which quota scopes it falls in, and the cpu/memory
// "must specify" constraint. See pkg/quota/v1/evaluator/core/pods.go.
import { isLabelKey } from '../../../api/labels-validation';
import { newRequirement, requirementMatches, type SelectorOperator } from '../../../api/labels';
import { fromValue, parseQuantity } from '../../../api/quantity';
import { getPodQOS } from '../../../api/qos';
import type { PodAffinityTerm } from 'kubernetes-types/core/v1';
import type { Container, KubeObject, Pod } from '../../../api/types';
import { isPodLevelResourcesSet, podLimits, podRequests, QUOTA_OPTIONS } from './pod-resources';
import { add, byteOrder, intersection, parseResourceList, resourceNames, type ResourceList } from './resources';

/** ScopeRequirement is a ScopedResourceSelectorRequirement; a quota's spec.scopes become Exists requirements. */
export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: readonly string[];
}

/** POD_OBJECT_COUNT is the object count name of pods (generic.ObjectCountQuotaResourceNameFor). */
export const POD_OBJECT_COUNT = 'count/pods';

// podResources: the names quota tracks for pods besides the prefixed and extended ones.
const POD_RESOURCES = [
  POD_OBJECT_COUNT, 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
];
const POD_RESOURCE_PREFIXES = ['hugepages-', 'requests.hugepages-'];
const REQUESTS_PREFIX = 'requests.';
// resourceapi.ResourceDeviceClassPrefix: the implicit extended resource names of DRA device classes.
const DEVICE_CLASS_PREFIX = 'deviceclass.resource.kubernetes.io/';

// Why: validationSet in pods.go, "it was a mistake": a quota on these makes every container set them.
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** isNativeResource is helper.IsNativeResource: no "/" in the name, or a kubernetes.io/ prefix. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** isExtendedResourceName is helper.IsExtendedResourceName: not native, not requests.*, and requests.<name> is a qualified name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  return isLabelKey(REQUESTS_PREFIX + name).length === 0;
}

/** isExtendedResourceNameForQuota: requests.<extended or device class resource>, the only form quota takes for them. */
function isExtendedResourceNameForQuota(name: string): boolean {
  const implicit = name.startsWith(REQUESTS_PREFIX + DEVICE_CLASS_PREFIX);
  return (!isNativeResource(name) || implicit) && name.startsWith(REQUESTS_PREFIX);
}

/** podMatchingResources is podEvaluator.MatchingResources: the quota names that pods use. */
export function podMatchingResources(input: readonly string[]): string[] {
  const result = intersection(input, POD_RESOURCES);
  for (const name of input) {
    if (POD_RESOURCE_PREFIXES.some((p) => name.startsWith(p))) result.push(name);
    if (isExtendedResourceNameForQuota(name)) result.push(name);
  }
  return result;
}

/**
 * podComputeUsageHelper turns requests and limits into quota names: cpu/memory/ephemeral-storage requests
 * count under both the bare and the requests.* name, limits under limits.*, hugepages under both, and
 * extended resources only as requests.<name>; "pods" is 1.
 */
export function podComputeUsageHelper(requests: ResourceList, limits: ResourceList): ResourceList {
  const result: ResourceList = new Map([['pods', parseQuantity('1')]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(name);
    if (request) {
      result.set(name, request);
      result.set(`requests.${name}`, request);
    }
    const limit = limits.get(name);
    if (limit) result.set(`limits.${name}`, limit);
  }
  for (const [name, request] of requests) {
    if (name.startsWith('hugepages-')) {
      result.set(name, request);
      result.set(REQUESTS_PREFIX + name, request);
    }
    // schedutil.IsDRAExtendedResourceName: an extended resource, or a device class's implicit one.
    if (isExtendedResourceName(name) || name.startsWith(DEVICE_CLASS_PREFIX)) result.set(REQUESTS_PREFIX + name, request);
  }
  return result;
}

/** isTerminating: spec.activeDeadlineSeconds is set and not negative (the Terminating scope). */
export function isTerminating(pod: Pod): boolean {
  const d = pod.spec?.activeDeadlineSeconds;
  return typeof d === 'number' && d >= 0;
}

/**
 * quotaV1Pod tells whether a pod's compute resources count: not Succeeded or Failed, and not past its
 * deletion grace period (a pod stuck terminating on a lost node does not hold quota). now is in epoch ms.
 */
export function quotaV1Pod(pod: Pod, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const deletion = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (deletion && typeof grace === 'number' && now > Date.parse(deletion) + grace * 1000) return false;
  return true;
}

/** podUsage is PodUsageFunc: count/pods always, the compute resources while the pod counts. */
export function podUsage(pod: Pod, now: number): ResourceList {
  const result: ResourceList = new Map([[POD_OBJECT_COUNT, fromValue(1)]]);
  if (!quotaV1Pod(pod, now)) return result;
  return add(result, podComputeUsageHelper(podRequests(pod, QUOTA_OPTIONS), podLimits(pod, QUOTA_OPTIONS)));
}

const SCOPE_OPERATORS: Readonly<Record<string, SelectorOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * podMatchesScope is podMatchesScopeFunc. A PriorityClass requirement other than Exists is a label selector
 * on the set {PriorityClass: <spec.priorityClassName>} (helper.ScopedResourceSelectorRequirementsAsSelector);
 * it throws for an operator or values such a selector cannot take.
 */
export function podMatchesScope(selector: ScopeRequirement, pod: Pod): boolean {
  switch (selector.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return getPodQOS(pod) === 'BestEffort';
    case 'NotBestEffort':
      return getPodQOS(pod) !== 'BestEffort';
    case 'PriorityClass': {
      const className = pod.spec?.priorityClassName ?? '';
      if (selector.operator === 'Exists') return className !== '';
      const op = SCOPE_OPERATORS[selector.operator];
      if (!op) throw new Error(`"${selector.operator}" is not a valid scope selector operator`);
      const r = newRequirement('PriorityClass', op, selector.values ? [...selector.values] : null);
      return requirementMatches(r, className ? { PriorityClass: className } : undefined);
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}

const crossNamespace = (t: PodAffinityTerm | undefined): boolean => !!t && ((t.namespaces?.length ?? 0) > 0 || t.namespaceSelector != null);

function usesCrossNamespacePodAffinity(pod: Pod): boolean {
  const a = pod.spec?.affinity;
  for (const kind of [a?.podAffinity, a?.podAntiAffinity]) {
    if (!kind) continue;
    if ((kind.requiredDuringSchedulingIgnoredDuringExecution ?? []).some(crossNamespace)) return true;
    if ((kind.preferredDuringSchedulingIgnoredDuringExecution ?? []).some((w) => crossNamespace(w.podAffinityTerm))) return true;
  }
  return false;
}

/**
 * podConstraints is podEvaluator.Constraints: when a matching quota tracks cpu or memory, every container and
 * init container must set them — `must specify limits.cpu for: app; limits.memory for: app,sidecar` (resources
 * and container names sorted). Skipped when the pod sets pod-level resources (PodLevelResources is on in 1.36).
 */
export function podConstraints(required: readonly string[], pod: Pod): string | undefined {
  if (isPodLevelResourcesSet(pod)) return undefined;
  const requiredSet = new Set(required.filter((r) => VALIDATION_SET.has(r)));
  const missing = new Map<string, Set<string>>();
  const check = (c: Container): void => {
    const usage = podComputeUsageHelper(parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits));
    const have = new Set(resourceNames(usage));
    for (const name of requiredSet) {
      if (have.has(name)) continue;
      if (!missing.has(name)) missing.set(name, new Set());
      missing.get(name)!.add(c.name);
    }
  };
  for (const c of pod.spec?.containers ?? []) check(c);
  for (const c of pod.spec?.initContainers ?? []) check(c);
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort(byteOrder).map((name) => `${name} for: ${[...missing.get(name)!].sort(byteOrder).join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

/** asPod narrows a stored or admitted object to a Pod for the evaluator. */
export const asPod = (obj: KubeObject): Pod => obj as Pod;
