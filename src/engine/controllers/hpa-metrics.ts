// The resource metrics API as the horizontal pod autoscaler reads it: a pod's CPU or memory usage at a virtual time,
// from the Behavior's `metrics` (by pod name, or a pattern where `*` stands for any run of characters).
import type { Behavior, PodMetrics } from '../cluster/inputs';

const patterns = new Map<string, RegExp>();

function matches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  let re = patterns.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    patterns.set(pattern, re);
  }
  return re.test(name);
}

/** metricsOf is the pod's entry: its exact name first, else the first pattern that matches it. */
function metricsOf(behavior: Behavior, pod: string): PodMetrics | undefined {
  const exact = behavior.metrics[pod];
  if (exact) return exact;
  for (const [pattern, m] of Object.entries(behavior.metrics)) if (matches(pattern, pod)) return m;
  return undefined;
}

/** usageAt is the pod's usage of cpu or memory (milli-units) at `now` ms: the last sample at or before it; none before the first. */
export function usageAt(behavior: Behavior, pod: string, resource: string, now: number): number | undefined {
  const samples = resource === 'cpu' || resource === 'memory' ? metricsOf(behavior, pod)?.[resource] : undefined;
  let value: number | undefined;
  for (const s of samples ?? []) {
    if (s.at * 1000 > now) break;
    value = s.value;
  }
  return value;
}
