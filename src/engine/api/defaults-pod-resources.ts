// Pod-level resources (PodLevelResources, beta and on since 1.34): defaultHugePagePodLimits,
// defaultPodRequests and defaultPodLimits in pkg/apis/core/v1/defaults.go, with the aggregation of
// k8s.io/component-helpers/resource (AggregateContainerRequests / AggregateContainerLimits).
import { ensure, list, rec, type Rec, type Recorder } from './defaulting-base';
import { quantityOf, type Quantity } from './quantity';

const isHugePages = (name: string): boolean => name.startsWith('hugepages-');
const isPodLevelResource = (name: string): boolean => name === 'cpu' || name === 'memory' || isHugePages(name);

type Amounts = Map<string, Quantity>;

function amountsOf(values: unknown): Amounts {
  const out: Amounts = new Map();
  for (const [name, value] of Object.entries(rec(values) ?? {})) {
    const q = quantityOf(value);
    if (q) out.set(name, q);
  }
  return out;
}

// addResourceList and maxResourceList of k8s.io/component-helpers/resource/helpers.go.
function addAmounts(into: Amounts, from: Amounts): void {
  for (const [name, q] of from) {
    const prev = into.get(name);
    into.set(name, prev ? prev.add(q) : q);
  }
}

function maxAmounts(into: Amounts, from: Amounts): void {
  for (const [name, q] of from) {
    const prev = into.get(name);
    if (!prev || q.cmp(prev) > 0) into.set(name, q);
  }
}

/** aggregateContainers is AggregateContainerRequests/Limits: regular and sidecar sums, maxed with each init container. */
function aggregateContainers(spec: Rec, key: 'requests' | 'limits'): Amounts {
  const total: Amounts = new Map();
  for (const c of list(spec['containers'])) addAmounts(total, amountsOf(rec(c['resources'])?.[key]));
  const sidecars: Amounts = new Map();
  const initMax: Amounts = new Map();
  for (const c of list(spec['initContainers'])) {
    const own = amountsOf(rec(c['resources'])?.[key]);
    let effective: Amounts;
    if (c['restartPolicy'] === 'Always') {
      addAmounts(total, own);
      addAmounts(sidecars, own);
      effective = sidecars;
    } else {
      effective = new Map();
      addAmounts(effective, own);
      addAmounts(effective, sidecars);
    }
    maxAmounts(initMax, effective);
  }
  maxAmounts(total, initMax);
  return total;
}

export function defaultPodLevelResources(r: Recorder, spec: Rec): void {
  const resources = rec(spec['resources']);
  if (!resources) return;
  const limits = rec(resources['limits']) ?? {};
  const requests = rec(resources['requests']) ?? {};
  const hasLimits = Object.keys(limits).length > 0;
  const hasRequests = Object.keys(requests).length > 0;
  // defaultHugePagePodLimits
  if (hasLimits || hasRequests) {
    for (const [name, a] of aggregateContainers(spec, 'limits')) {
      if (!isHugePages(name) || name in requests || name in limits) continue;
      r.set(ensure(resources, 'limits'), name, a.toString(), 'spec.resources.limits');
    }
  }
  // defaultPodRequests: only when pod-level limits are set.
  const podLimits = rec(resources['limits']) ?? {};
  if (Object.keys(podLimits).length > 0) {
    for (const [name, a] of aggregateContainers(spec, 'requests')) {
      if (name in requests || !isPodLevelResource(name) || isHugePages(name)) continue;
      r.set(ensure(resources, 'requests'), name, a.toString(), 'spec.resources.requests');
    }
    for (const [name, value] of Object.entries(podLimits)) {
      const podRequests = rec(resources['requests']) ?? {};
      if (!(name in podRequests) && isPodLevelResource(name)) r.set(ensure(resources, 'requests'), name, value, 'spec.resources.requests');
    }
    return;
  }
  // defaultPodLimits: pod-level requests set, no pod-level limits; every container limits the resource.
  if (!Object.keys(requests).some(isPodLevelResource)) return;
  const all = [...list(spec['initContainers']), ...list(spec['containers'])];
  for (const [name, a] of aggregateContainers(spec, 'limits')) {
    if (!isPodLevelResource(name) || isHugePages(name)) continue;
    if (!all.every((c) => rec(rec(c['resources'])?.['limits'])?.[name] !== undefined)) continue;
    r.set(ensure(resources, 'limits'), name, a.toString(), 'spec.resources.limits');
  }
}
