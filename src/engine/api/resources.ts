// A pod's effective resource requests: the larger of its init containers' and its containers' needs, plus overhead.
// See staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests).
import type { Container, Pod } from './types';
import { parseQuantity } from './quantity';

/** ResourceAmounts maps a resource name to an amount: millicores for cpu, plain units (bytes) for the rest. */
export type ResourceAmounts = Map<string, number>;

function amount(resource: string, value: string | number): number {
  const q = parseQuantity(value);
  return resource === 'cpu' ? q.milliValue() : q.value();
}

/** containerRequests reads one container's requests. */
export function containerRequests(c: Container): ResourceAmounts {
  const out: ResourceAmounts = new Map();
  for (const [r, v] of Object.entries(c.resources?.requests ?? {})) out.set(r, amount(r, v as string | number));
  return out;
}

function addInto(target: ResourceAmounts, add: ResourceAmounts): void {
  for (const [r, v] of add) target.set(r, (target.get(r) ?? 0) + v);
}

function maxInto(target: ResourceAmounts, other: ResourceAmounts): void {
  for (const [r, v] of other) target.set(r, Math.max(target.get(r) ?? 0, v));
}

/**
 * podRequests is the pod's effective request of each resource: the sum of the regular containers
 * and restartable (sidecar) init containers, at least the largest need while an init container
 * runs (itself plus the sidecars started before it), plus spec.overhead.
 */
export function podRequests(pod: Pod): ResourceAmounts {
  const total: ResourceAmounts = new Map();
  for (const c of pod.spec?.containers ?? []) addInto(total, containerRequests(c));
  const sidecars: ResourceAmounts = new Map();
  const initPeak: ResourceAmounts = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const req = containerRequests(c);
    if (c.restartPolicy === 'Always') {
      addInto(sidecars, req);
      maxInto(initPeak, sidecars);
    } else {
      const during = new Map(sidecars);
      addInto(during, req);
      maxInto(initPeak, during);
    }
  }
  addInto(total, sidecars);
  maxInto(total, initPeak);
  for (const [r, v] of Object.entries(pod.spec?.overhead ?? {})) total.set(r, (total.get(r) ?? 0) + amount(r, v as string | number));
  return total;
}
