// The horizontal pod autoscaler's arithmetic against the Go formulas (pkg/controller/podautoscaler/replica_calculator.go
// GetResourceReplicas / GetRawResourceReplicas / groupPods, metrics/utilization.go, and horizontal.go
// stabilizeRecommendationWithBehaviors / convertDesiredReplicasWithBehaviorRate at k8s.io/kubernetes v1.36.3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CalcPod, defaultRules, type HpaMemory, rateLimit, resourceReplicas, stabilize } from '../../../src/engine/controllers/hpa-calc';
import { usageAt } from '../../../src/engine/controllers/hpa-metrics';
import { defaultBehavior } from '../../../src/engine/cluster/inputs';

/** NOW is past the 5 minute CPU initialization period of pods started at 0 and Ready at 1 s. */
const NOW = 600_000;
const pod = (name: string, usage: number | undefined, extra: Partial<CalcPod> = {}): CalcPod => ({
  name, phase: 'Running', deleting: false, request: 200, startTime: 0, ready: { status: 'True', lastTransition: 1000 },
  ...(usage !== undefined ? { usage } : {}), ...extra,
});

const replicaCases: { name: string; current: number; pods: CalcPod[]; target: { utilization: number } | { averageMilli: number }; resource?: string; now?: number; want: unknown }[] = [
  { name: '150% of request at a 50% target: ceil(3 × 2) = 6', current: 2, pods: [pod('a', 300), pod('b', 300)], target: { utilization: 50 }, want: { replicas: 6, utilization: 150, rawAverage: 300 } },
  { name: '52%: ratio 1.04, within the 0.1 tolerance', current: 2, pods: [pod('a', 105), pod('b', 105)], target: { utilization: 50 }, want: { replicas: 2, utilization: 52, rawAverage: 105 } },
  { name: '55%: ratio 1.1, the tolerance bound included', current: 2, pods: [pod('a', 110), pod('b', 110)], target: { utilization: 50 }, want: { replicas: 2, utilization: 55, rawAverage: 110 } },
  { name: '56%: ratio 1.12, ceil(2.24) = 3', current: 2, pods: [pod('a', 112), pod('b', 112)], target: { utilization: 50 }, want: { replicas: 3, utilization: 56, rawAverage: 112 } },
  { name: 'scale-up with a missing pod: it counts 0, (300 + 0) / 400 = 75%, ceil(1.5 × 2) = 3', current: 2, pods: [pod('a', 300), pod('b', undefined)], target: { utilization: 50 }, want: { replicas: 3, utilization: 150, rawAverage: 300 } },
  { name: 'scale-down with a missing pod: it counts 100% of its request, 55%: within the tolerance', current: 2, pods: [pod('a', 20), pod('b', undefined)], target: { utilization: 50 }, want: { replicas: 2, utilization: 10, rawAverage: 20 } },
  { name: 'scale-up with a Pending pod: it counts 0, ceil(1.5 × 2) = 3', current: 2, pods: [pod('a', 300), pod('b', undefined, { phase: 'Pending' })], target: { utilization: 50 }, want: { replicas: 3, utilization: 150, rawAverage: 300 } },
  { name: 'a pod being deleted is ignored', current: 2, pods: [pod('a', 300), pod('b', 10, { deleting: true })], target: { utilization: 50 }, want: { replicas: 3, utilization: 150, rawAverage: 300 } },
  { name: 'AverageValue 100m, 300m each: ceil(3 × 2) = 6', current: 2, pods: [pod('a', 300), pod('b', 300)], target: { averageMilli: 100 }, want: { replicas: 6, rawAverage: 300 } },
  { name: 'no sample for any pod', current: 2, pods: [pod('a', undefined), pod('b', undefined)], target: { utilization: 50 }, want: { error: 'unable to get metrics for resource cpu: no metrics returned from resource metrics API' } },
  {
    name: 'CPU sampled within 15 s of turning Ready, inside the initialization period: unready', current: 2, now: 10_000,
    pods: [pod('a', 300), pod('b', 300)], target: { utilization: 50 }, want: { error: 'did not receive metrics for targeted pods (pods might be unready)' },
  },
  { name: 'memory has no readiness rule', current: 2, now: 10_000, resource: 'memory', pods: [pod('a', 300), pod('b', 300)], target: { utilization: 50 }, want: { replicas: 6, utilization: 150, rawAverage: 300 } },
  { name: 'a container without a request', current: 2, pods: [pod('a', 300, { noRequestIn: 'app' })], target: { utilization: 50 }, want: { error: 'missing request for cpu in container app of Pod a' } },
];

for (const c of replicaCases) {
  test(`resourceReplicas: ${c.name}`, () => {
    const now = c.now ?? NOW;
    assert.deepEqual(resourceReplicas(c.current, c.pods, c.resource ?? 'cpu', c.target, now, now), c.want);
  });
}

const fresh = (): HpaMemory => ({ recommendations: [{ replicas: 2, at: 0 }], up: [], down: [] });
const UP = defaultRules('up', undefined);
const DOWN = defaultRules('down', undefined);

const stabilizeCases: { name: string; now: number; current: number; desired: number; want: { replicas: number; reason: string } }[] = [
  { name: 'a lower proposal inside the 300 s window keeps the highest recommendation', now: 30_000, current: 2, desired: 1, want: { replicas: 2, reason: 'ScaleDownStabilized' } },
  { name: 'the window passed: the lower proposal goes through', now: 300_001, current: 2, desired: 1, want: { replicas: 1, reason: 'ScaleDownStabilized' } },
  { name: 'scale-up has no window by default', now: 30_000, current: 2, desired: 5, want: { replicas: 5, reason: 'ScaleUpStabilized' } },
];
for (const c of stabilizeCases) {
  test(`stabilize: ${c.name}`, () => {
    const v = stabilize(fresh(), c.now, c.current, c.desired, UP, DOWN);
    assert.deepEqual({ replicas: v.replicas, reason: v.reason }, c.want);
  });
}

const rateCases: { name: string; mem?: HpaMemory; current: number; desired: number; min: number; max: number; down?: ReturnType<typeof defaultRules>; want: { replicas: number; reason: string } }[] = [
  { name: 'default scale-up: max(2 + 4, 2 × 200%) = 6', current: 2, desired: 20, min: 1, max: 100, want: { replicas: 6, reason: 'ScaleUpLimit' } },
  { name: 'maxReplicas below the rate limit', current: 2, desired: 20, min: 1, max: 5, want: { replicas: 5, reason: 'TooManyReplicas' } },
  { name: 'a scale-up 5 s ago counts against the 15 s period', mem: { recommendations: [], up: [{ change: 4, at: NOW - 5000, outdated: false }], down: [] }, current: 6, desired: 20, min: 1, max: 100, want: { replicas: 6, reason: 'ScaleUpLimit' } },
  { name: 'Pods 1 per 60 s down', current: 5, desired: 1, min: 1, max: 10, down: defaultRules('down', { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] }), want: { replicas: 4, reason: 'ScaleDownLimit' } },
  { name: 'selectPolicy Disabled down', current: 5, desired: 1, min: 1, max: 10, down: defaultRules('down', { selectPolicy: 'Disabled' }), want: { replicas: 5, reason: 'ScaleDownLimit' } },
  { name: 'minReplicas above the rate limit', current: 5, desired: 1, min: 3, max: 10, want: { replicas: 3, reason: 'TooFewReplicas' } },
  { name: 'within range', current: 5, desired: 4, min: 1, max: 10, want: { replicas: 4, reason: 'DesiredWithinRange' } },
];
for (const c of rateCases) {
  test(`rateLimit: ${c.name}`, () => {
    const v = rateLimit(c.mem ?? { recommendations: [], up: [], down: [] }, NOW, c.current, c.desired, c.min, c.max, UP, c.down ?? DOWN);
    assert.deepEqual({ replicas: v.replicas, reason: v.reason }, c.want);
  });
}

test('usageAt: the last sample at or before the time, by exact name before a pattern', () => {
  const b = { ...defaultBehavior(), metrics: { 'web-*': { cpu: [{ at: 0, value: 100 }, { at: 60, value: 450 }] }, 'web-x': { cpu: [{ at: 10, value: 7 }] } } };
  const table: [string, number, number | undefined][] = [['web-a', 0, 100], ['web-a', 59_999, 100], ['web-a', 60_000, 450], ['web-x', 5000, undefined], ['web-x', 10_000, 7], ['db-a', 60_000, undefined]];
  for (const [name, at, want] of table) assert.equal(usageAt(b, name, 'cpu', at), want, `${name} at ${at}`);
});
