// The horizontal pod autoscaler's arithmetic against the Go formulas (pkg/controller/podautoscaler/replica_calculator.go
// GetResourceReplicas / GetRawResourceReplicas / groupPods, metrics/utilization.go, and horizontal.go
// stabilizeRecommendationWithBehaviors / convertDesiredReplicasWithBehaviorRate at k8s.io/kubernetes v1.36.3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CalcPod, defaultRules, type HpaMemory, perPodReplicas, rateLimit, resourceReplicas, stabilize, usageRatioReplicas } from '../../../src/engine/controllers/hpa-calc';
import { containerMetrics, externalMetric, podUsage } from '../../../src/engine/controllers/hpa-metrics';
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
  // The metrics API answered (its own "no metrics returned" error is the caller's), but with no sample of these pods.
  { name: 'no sample for any pod: every pod is missing, so none is left to count', current: 2, pods: [pod('a', undefined), pod('b', undefined)], target: { utilization: 50 }, want: { error: 'did not receive metrics for targeted pods (pods might be unready)' } },
  { name: 'no pods: the lister\'s error before any grouping', current: 2, pods: [], target: { utilization: 50 }, want: { error: 'no pods returned by selector while calculating replica count' } },
  {
    name: 'CPU sampled within 15 s of turning Ready, inside the initialization period: unready', current: 2, now: 10_000,
    pods: [pod('a', 300), pod('b', 300)], target: { utilization: 50 }, want: { error: 'did not receive metrics for targeted pods (pods might be unready)' },
  },
  { name: 'memory has no readiness rule', current: 2, now: 10_000, resource: 'memory', pods: [pod('a', 300), pod('b', 300)], target: { utilization: 50 }, want: { replicas: 6, utilization: 150, rawAverage: 300 } },
  { name: 'a container without a request', current: 2, pods: [pod('a', 300, { noRequestIn: 'app' })], target: { utilization: 50 }, want: { error: 'missing request for cpu in container app of Pod a' } },
  { name: 'a ContainerResource container the pod lacks', current: 2, pods: [pod('a', 300, { requestError: 'container sidecar not found in Pod a' })], target: { utilization: 50 }, want: { error: 'container sidecar not found in Pod a' } },
  // A Pods metric (GetMetricReplicas): no resource, so no CPU readiness rule; missing pods count as the target or 0.
  { name: 'Pods metric sampled within 15 s of turning Ready still counts', current: 2, now: 10_000, resource: '', pods: [pod('a', 3000), pod('b', 3000)], target: { averageMilli: 1000 }, want: { replicas: 6, rawAverage: 3000 } },
  { name: 'Pods metric scale-up with a missing pod: it counts 0, (3000 + 0) / 2 = 1.5 times, ceil(1.5 × 2) = 3', current: 2, resource: '', pods: [pod('a', 3000), pod('b', undefined)], target: { averageMilli: 1000 }, want: { replicas: 3, rawAverage: 3000 } },
  { name: 'Pods metric scale-down with a missing pod: it counts the target, (100 + 1000) / 2 = 0.55, ceil(1.1) = 2', current: 2, resource: '', pods: [pod('a', 100), pod('b', undefined)], target: { averageMilli: 1000 }, want: { replicas: 2, rawAverage: 100 } },
  { name: 'Pods metric scale-down with a missing pod of three: (100 + 100 + 1000) / 3 = 0.4, ceil(1.2) = 2', current: 3, resource: '', pods: [pod('a', 100), pod('b', 100), pod('c', undefined)], target: { averageMilli: 1000 }, want: { replicas: 2, rawAverage: 100 } },
];

for (const c of replicaCases) {
  test(`resourceReplicas: ${c.name}`, () => {
    const now = c.now ?? NOW;
    assert.deepEqual(resourceReplicas(c.current, c.pods, c.resource ?? 'cpu', c.target, now, now), c.want);
  });
}

// spec.behavior's tolerances (HPAConfigurableTolerance, on by default in 1.36): Tolerances.isWithin per direction.
const LOOSE_UP = { scaleDown: 0.05, scaleUp: 0.5 };
const toleranceCases: { name: string; run: () => unknown; want: unknown }[] = [
  { name: 'ratio 1.4 is within a scale-up tolerance of 0.5', run: () => resourceReplicas(2, [pod('a', 140), pod('b', 140)], 'cpu', { utilization: 50 }, NOW, NOW, LOOSE_UP), want: { replicas: 2, utilization: 70, rawAverage: 140 } },
  { name: 'ratio 1.6 is past it: ceil(1.6 × 2) = 4', run: () => resourceReplicas(2, [pod('a', 160), pod('b', 160)], 'cpu', { utilization: 50 }, NOW, NOW, LOOSE_UP), want: { replicas: 4, utilization: 80, rawAverage: 160 } },
  { name: 'ratio 0.92 is past a scale-down tolerance of 0.05, yet ceil(0.92 × 5) = 5 keeps 5', run: () => resourceReplicas(5, ['a', 'b', 'c', 'd', 'e'].map((n) => pod(n, 92)), 'cpu', { utilization: 50 }, NOW, NOW, LOOSE_UP), want: { replicas: 5, utilization: 46, rawAverage: 92 } },
  { name: 'ratio 0.9 of 10 pods with a scale-down tolerance of 0.05: 9', run: () => resourceReplicas(10, Array.from({ length: 10 }, (_, i) => pod(`p${i}`, 90)), 'cpu', { utilization: 50 }, NOW, NOW, LOOSE_UP), want: { replicas: 9, utilization: 45, rawAverage: 90 } },
  { name: 'a Value target at ratio 1.3 with a scale-up tolerance of 0.5 keeps the count', run: () => usageRatioReplicas(2, 1.3, [pod('a', undefined)], LOOSE_UP), want: { replicas: 2 } },
  { name: 'an AverageValue target at ratio 0.9 with a scale-down tolerance of 0.05 scales down', run: () => perPodReplicas(10, 9_000, 1_000, LOOSE_UP), want: { replicas: 9, usage: 900 } },
];

for (const c of toleranceCases) test(`configurable tolerances: ${c.name}`, () => assert.deepEqual(c.run(), c.want));

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

const ratioCases: { name: string; run: () => unknown; want: unknown }[] = [
  { name: 'Value within the tolerance keeps the count', run: () => usageRatioReplicas(2, 1.05, [pod('a', undefined)]), want: { replicas: 2 } },
  { name: 'Value at 3 times the target: ceil(3 × the Running and Ready pods)', run: () => usageRatioReplicas(2, 3, [pod('a', undefined), pod('b', undefined), pod('c', undefined, { phase: 'Pending' }), pod('d', undefined, { ready: { status: 'False', lastTransition: 0 } })]), want: { replicas: 6 } },
  { name: 'Value without pods: getReadyPodsCount\'s error', run: () => usageRatioReplicas(2, 3, []), want: { error: 'unable to calculate ready pods: no pods returned by selector while calculating replica count' } },
  { name: 'AverageValue: the total over status.replicas, ceil(total / target)', run: () => perPodReplicas(2, 30_000, 500), want: { replicas: 60, usage: 15_000 } },
  { name: 'AverageValue within the tolerance keeps status.replicas', run: () => perPodReplicas(4, 4_100, 1_000), want: { replicas: 4, usage: 1025 } },
  { name: 'AverageValue with status.replicas 0: ceil(total / target), and the usage Go\'s int64(+Inf) gives on amd64', run: () => perPodReplicas(0, 3_000, 1_000), want: { replicas: 3, usage: -(2n ** 63n) } },
];

for (const c of ratioCases) test(`Object and External replicas: ${c.name}`, () => assert.deepEqual(c.run(), c.want));

test('podUsage: the last sample at or before the time, by exact name before a pattern', () => {
  const b = { ...defaultBehavior(), metrics: { 'web-*': { cpu: [{ at: 0, value: 100 }, { at: 60, value: 450 }] }, 'web-x': { cpu: [{ at: 10, value: 7 }] } } };
  const table: [string, number, number | undefined][] = [['web-a', 0, 100], ['web-a', 59_999, 100], ['web-a', 60_000, 450], ['web-x', 5000, undefined], ['web-x', 10_000, 7], ['db-a', 60_000, undefined]];
  for (const [name, at, want] of table) assert.equal(podUsage(b, { name, namespace: 'default', containers: ['app'] }, 'cpu', at), want, `${name} at ${at}`);
});

test('podUsage and containerMetrics: per-container samples sum to the pod; a single container is the pod', () => {
  const b = { ...defaultBehavior(), metrics: {
    'two-*': { containers: { app: { cpu: [{ at: 0, value: 300 }] }, proxy: { cpu: [{ at: 0, value: 50 }] } } },
    'one-*': { cpu: [{ at: 0, value: 120 }] },
    'half-*': { containers: { app: { cpu: [{ at: 0, value: 300 }] } } },
  } };
  const two = { name: 'two-a', namespace: 'default', containers: ['app', 'proxy'] };
  const one = { name: 'one-a', namespace: 'default', containers: ['app'] };
  const half = { name: 'half-a', namespace: 'default', containers: ['app', 'proxy'] };
  assert.equal(podUsage(b, two, 'cpu', 0), 350);
  assert.equal(podUsage(b, half, 'cpu', 0), undefined, 'a container without a sample leaves the pod without one (getPodMetrics)');
  assert.deepEqual(containerMetrics(b, [two, one, half], 'app', 'cpu', 0), new Map([['two-a', 300], ['one-a', 120], ['half-a', 300]]));
  assert.deepEqual(containerMetrics(b, [two, half], 'proxy', 'cpu', 0), new Map([['two-a', 50]]));
  assert.deepEqual(containerMetrics(b, [one], 'proxy', 'cpu', 0), new Map(), 'a pod without the container is left out, no error (getContainerMetrics only logs it)');
  assert.deepEqual(containerMetrics(b, [{ name: 'db-a', namespace: 'default', containers: ['app'] }], 'app', 'cpu', 0), { error: 'no metrics returned from resource metrics API' });
});

test('externalMetric: the series the selector matches; a nil selector matches every series', () => {
  const b = { ...defaultBehavior(), externalMetrics: { queue: [{ labels: { q: 'a' }, samples: [{ at: 0, value: 3000 }] }, { labels: { q: 'b' }, samples: [{ at: 30, value: 5000 }] }] } };
  assert.deepEqual(externalMetric(b, 'queue', undefined, 30_000), [3000, 5000]);
  assert.deepEqual(externalMetric(b, 'queue', { matchLabels: { q: 'b' } }, 30_000), [5000]);
  assert.deepEqual(externalMetric(b, 'queue', { matchLabels: { q: 'b' } }, 0), { error: 'no metrics returned from external metrics API' });
  assert.deepEqual(externalMetric(b, 'other', undefined, 0), { error: 'no metrics returned from external metrics API' });
});
