// Pod quality-of-service class (Guaranteed, Burstable, BestEffort), computed as kube-apiserver does on create
// and stores in status.qosClass: pkg/apis/core/helper/qos/qos.go (ComputePodQOS).
import { isObject, type Pod } from './types';
import { parseQuantity, type Quantity } from './quantity';

/** PodQOSClass is one of the three quality-of-service classes. */
export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

// Only cpu and memory count for QoS (supportedQoSComputeResources); hugepages and the rest do not.
const QOS_RESOURCES = ['cpu', 'memory'] as const;

interface ResourceLists {
  requests?: unknown;
  limits?: unknown;
}

/**
 * collect adds the positive cpu and memory quantities of one resource list into sums, as processResourceList
 * does (zero counts as unset), and returns the names it found positive. A value that does not parse counts
 * as unset: decoding would have refused it before.
 */
function collect(sums: Map<string, Quantity>, values: unknown): Set<string> {
  const found = new Set<string>();
  if (!isObject(values)) return found;
  for (const name of QOS_RESOURCES) {
    const raw = values[name];
    if (typeof raw !== 'string' && typeof raw !== 'number') continue;
    let q: Quantity;
    try {
      q = parseQuantity(raw);
    } catch {
      continue;
    }
    if (q.sign() <= 0) continue;
    found.add(name);
    const prev = sums.get(name);
    sums.set(name, prev ? q.add(prev) : q);
  }
  return found;
}

/**
 * getPodQOS returns the pod's QoS class: status.qosClass when it is already set (GetPodQOS), computed from
 * the resources otherwise (ComputePodQOS). BestEffort when no cpu or memory request or limit is set anywhere;
 * Guaranteed when every container (init containers included) limits both cpu and memory and the summed
 * requests equal the summed limits; Burstable otherwise. With pod-level resources (spec.resources,
 * PodLevelResources is on in 1.36) the pod-level requests and limits decide alone. Ephemeral containers never count.
 */
export function getPodQOS(pod: Pod): PodQOSClass {
  const stored = pod.status?.qosClass;
  if (stored === 'Guaranteed' || stored === 'Burstable' || stored === 'BestEffort') return stored;
  return computePodQOS(pod);
}

/** computePodQOS evaluates the QoS class from the pod's resources, ignoring status.qosClass. */
export function computePodQOS(pod: Pod): PodQOSClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let isGuaranteed = true;
  const podResources = (pod.spec as { resources?: ResourceLists } | undefined)?.resources;
  if (isObject(podResources)) {
    collect(requests, podResources.requests);
    if (isObject(podResources.limits) && Object.keys(podResources.limits).length > 0) {
      const found = collect(limits, podResources.limits);
      if (!found.has('cpu') || !found.has('memory')) isGuaranteed = false;
    }
  } else {
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
    for (const container of containers) {
      const resources: ResourceLists = container.resources ?? {};
      collect(requests, resources.requests);
      const found = collect(limits, resources.limits);
      if (!found.has('cpu') || !found.has('memory')) isGuaranteed = false;
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || lim.cmp(req) !== 0) {
        isGuaranteed = false;
        break;
      }
    }
  }
  return isGuaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
