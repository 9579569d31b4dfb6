// The scheme defaulting of an autoscaling/v2 HorizontalPodAutoscaler: pkg/apis/autoscaling/v2/defaults.go (v1.36.3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultHorizontalPodAutoscaler } from '../../../src/engine/api/hpa-defaults';

const hpa = (spec: Record<string, unknown>) => ({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec } });
const CPU_80 = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
const UP = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
const DOWN = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

const cases: { name: string; spec: Record<string, unknown>; want: Record<string, unknown>; changes: string[] }[] = [
  { name: 'no minReplicas, no metrics: 1 and CPU at 80% of requests, no behavior', spec: {}, want: { minReplicas: 1, metrics: CPU_80 }, changes: ['spec.minReplicas', 'spec.metrics'] },
  { name: 'given metrics and minReplicas stay as they are', spec: { minReplicas: 2, metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } }] }, want: { minReplicas: 2 }, changes: [] },
  { name: 'an empty behavior gets both rules whole (scale-down without a window: the controller\'s flag)', spec: { behavior: {} }, want: { behavior: { scaleUp: UP, scaleDown: DOWN } }, changes: ['spec.minReplicas', 'spec.metrics', 'spec.behavior'] },
  {
    name: 'a rule given in part keeps what it sets and takes the rest from the default',
    spec: { behavior: { scaleDown: { stabilizationWindowSeconds: 60 }, scaleUp: { selectPolicy: 'Min' } } },
    want: { behavior: { scaleUp: { ...UP, selectPolicy: 'Min' }, scaleDown: { stabilizationWindowSeconds: 60, ...DOWN } } }, changes: ['spec.minReplicas', 'spec.metrics', 'spec.behavior'],
  },
];

for (const c of cases) {
  test(`HPA defaulting: ${c.name}`, () => {
    const { object, changes } = defaultHorizontalPodAutoscaler(hpa(c.spec));
    const spec = object['spec'] as Record<string, unknown>;
    for (const [k, v] of Object.entries(c.want)) assert.deepEqual(spec[k], v, k);
    assert.deepEqual(changes, c.changes);
  });
}
