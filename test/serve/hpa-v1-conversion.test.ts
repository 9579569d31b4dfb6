// The autoscaling/v1 conversions of a HorizontalPodAutoscaler, table-driven: what v1 shows of a stored v2 object
// (each metric source in v1's shape inside the annotations, the behavior as the internal type marshals it), and that
// reading a v1 object back gives the v2 object again, the CPU metric last. See pkg/apis/autoscaling/v1/conversion.go (v1.36.3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/engine/api/types';
import { ANNOTATIONS, hpaFromV1, hpaToV1 } from '../../src/engine/api/hpa-v1';

const cpu50 = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } };

/** makeHpa is a stored autoscaling/v2 HorizontalPodAutoscaler with these metrics and more of its spec. */
function makeHpa(metrics: unknown[], more: Record<string, unknown> = {}, status: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'default', annotations: { owner: 'ops' } },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 10, metrics, ...more },
    status: { currentReplicas: 2, desiredReplicas: 2, ...status },
  } as KubeObject;
}

const cases: { name: string; hpa: KubeObject; annotations: Record<string, string>; cpu?: number; roundTrip: unknown[] }[] = [
  {
    name: 'a CPU utilization target alone is targetCPUUtilizationPercentage, with no annotation',
    hpa: makeHpa([cpu50]), annotations: { owner: 'ops' }, cpu: 50, roundTrip: [cpu50],
  },
  {
    name: 'Object metrics keep their target value (zero when absent) and average value',
    hpa: makeHpa([
      { type: 'Object', object: { describedObject: { apiVersion: 'v1', kind: 'Service', name: 'front' }, metric: { name: 'rps' }, target: { type: 'Value', value: '10k' } } },
      { type: 'Object', object: { describedObject: { kind: 'Service', name: 'front' }, metric: { name: 'rps', selector: { matchLabels: { z: '1', a: '2' } } }, target: { type: 'AverageValue', averageValue: '500' } } },
      cpu50,
    ]),
    annotations: {
      owner: 'ops',
      [ANNOTATIONS.metrics]: '[{"type":"Object","object":{"target":{"kind":"Service","name":"front","apiVersion":"v1"},"metricName":"rps","targetValue":"10k"}},'
        + '{"type":"Object","object":{"target":{"kind":"Service","name":"front"},"metricName":"rps","targetValue":"0","selector":{"matchLabels":{"a":"2","z":"1"}},"averageValue":"500"}}]',
    },
    cpu: 50,
    roundTrip: [
      { type: 'Object', object: { describedObject: { apiVersion: 'v1', kind: 'Service', name: 'front' }, metric: { name: 'rps' }, target: { type: 'Value', value: '10k' } } },
      { type: 'Object', object: { describedObject: { kind: 'Service', name: 'front' }, metric: { name: 'rps', selector: { matchLabels: { a: '2', z: '1' } } }, target: { type: 'AverageValue', averageValue: '500' } } },
      cpu50,
    ],
  },
  {
    name: 'External, ContainerResource and a memory Resource metric go to the annotation; no CPU target leaves the field unset',
    hpa: makeHpa([
      { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
    ]),
    annotations: {
      owner: 'ops',
      [ANNOTATIONS.metrics]: '[{"type":"External","external":{"metricName":"queue","targetAverageValue":"30"}},'
        + '{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":60,"container":"app"}},'
        + '{"type":"Resource","resource":{"name":"memory","targetAverageValue":"512Mi"}}]',
    },
    roundTrip: [
      { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 }, container: 'app' } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
    ],
  },
  {
    name: 'the behavior is marshalled with the internal type\'s Go field names, nil rules as null',
    hpa: makeHpa([cpu50], { behavior: { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }], tolerance: '50m' } } }),
    annotations: { owner: 'ops', [ANNOTATIONS.behavior]: '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}],"Tolerance":"50m"},"ScaleDown":null}' },
    cpu: 50, roundTrip: [cpu50],
  },
];

for (const c of cases) {
  test(`v1 conversion: ${c.name}`, () => {
    const v1 = hpaToV1(c.hpa);
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.deepEqual(v1.metadata?.annotations, c.annotations);
    assert.equal((v1.spec as { targetCPUUtilizationPercentage?: number }).targetCPUUtilizationPercentage, c.cpu);
    const back = hpaFromV1(v1);
    assert.equal(back.apiVersion, 'autoscaling/v2');
    assert.deepEqual(back.metadata?.annotations, { owner: 'ops' }, 'the round-trip annotations are dropped');
    assert.deepEqual((back.spec as { metrics: unknown[] }).metrics, c.roundTrip);
    assert.deepEqual((back.spec as { behavior?: unknown }).behavior, (c.hpa.spec as { behavior?: unknown }).behavior);
  });
}

test('v1 conversion: the status keeps the current CPU utilization, every current metric and the conditions', () => {
  const hpa = makeHpa([cpu50], {}, {
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 150, averageValue: '300m' } } }, { type: 'Pods', pods: { metric: { name: 'pps' }, current: { averageValue: '800' } } }],
    conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-01T00:00:15Z', reason: 'ReadyForNewScale', message: 'recommended size matches current size' }],
  });
  const v1 = hpaToV1(hpa);
  assert.deepEqual(v1.status, { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 150 });
  assert.equal(v1.metadata?.annotations?.[ANNOTATIONS.currentMetrics], '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":150,"currentAverageValue":"300m"}},{"type":"Pods","pods":{"metricName":"pps","currentAverageValue":"800"}}]');
  assert.equal(v1.metadata?.annotations?.[ANNOTATIONS.conditions], '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:15Z","reason":"ReadyForNewScale","message":"recommended size matches current size"}]');
  assert.deepEqual(Object.keys(v1.metadata?.annotations ?? {}), [ANNOTATIONS.conditions, ANNOTATIONS.currentMetrics, 'owner'], 'keys sorted, as Go encodes a map');
  const back = hpaFromV1(v1).status as Record<string, unknown>;
  assert.deepEqual(back.currentMetrics, (hpa.status as Record<string, unknown>).currentMetrics);
  assert.deepEqual(back.conditions, (hpa.status as Record<string, unknown>).conditions);
});

test('v1 defaulting: minReplicas 1, and CPU at 80% when neither a target nor an annotation names a metric', () => {
  const v1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'a', annotations: { [ANNOTATIONS.metrics]: 'not json' } }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 } } as KubeObject;
  const spec = hpaFromV1(v1).spec as Record<string, unknown>;
  assert.equal(spec.minReplicas, 1);
  assert.deepEqual(spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  assert.equal(hpaFromV1(v1).metadata?.annotations, undefined, 'an annotation that does not decode is ignored, and dropped');
});

test('v1 conversion: behavior rules written without Policies are read back with none, for validation to refuse', () => {
  const v1 = { ...hpaToV1(makeHpa([cpu50])), metadata: { name: 'web', annotations: { [ANNOTATIONS.behavior]: '{"ScaleUp":{"StabilizationWindowSeconds":30},"ScaleDown":{}}' } } } as KubeObject;
  assert.deepEqual((hpaFromV1(v1).spec as { behavior?: unknown }).behavior, { scaleUp: { stabilizationWindowSeconds: 30, policies: [] }, scaleDown: { policies: [] } });
});
