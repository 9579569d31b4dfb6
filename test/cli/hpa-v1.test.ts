// An autoscaling/v1 HorizontalPodAutoscaler in a manifest `run` reads: kubectl maps it through discovery (kube-apiserver
// 1.36 serves autoscaling/v1 beside v2), the API server decodes it against the v1 schema, defaults it as v1 and stores it
// converted to autoscaling/v2, and the autoscaler runs it as a v2 one. See pkg/apis/autoscaling/v1/conversion.go and
// defaults.go, pkg/controlplane/instance.go (kubernetes v1.36.3).
import assert from 'node:assert/strict';
import test from 'node:test';
import { type Report, runJson, runKubectlJson } from './harness';

const F = 'test/fixtures/hpa';

const hpa = (r: Report) => r.objects.find((o) => o.kind === 'HorizontalPodAutoscaler') as (Report['objects'][number] & { apiVersion?: string }) | undefined;
const rescales = (r: Report) => r.events.filter((e) => e.source === 'horizontal-pod-autoscaler' && e.reason === 'SuccessfulRescale').map((e) => `${e.at} ${e.message}`);

/** STORED is the v1 fixture's autoscaler as kube-apiserver stores it: minReplicas defaulted, the CPU target a v2 metric. */
const STORED = {
  scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 10,
  metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
};

const cases: { name: string; run: () => { status: number | null; report: Report }; kubectl: string; spec?: Record<string, unknown>; rescales: string[] }[] = [
  {
    name: 'kubectl apply: created, stored as autoscaling/v2, scaled 2 → 6 → 10 on 300m of 200m',
    run: () => runJson('run', `${F}/web-v1.yaml`, '--for', '60s', '--behavior', `${F}/cpu-300m.yaml`),
    kubectl: 'deployment.apps/web created\nhorizontalpodautoscaler.autoscaling/web created',
    rescales: [
      '30 New size: 6; reason: cpu resource utilization (percentage of request) above target',
      '45 New size: 10; reason: cpu resource utilization (percentage of request) above target',
    ],
  },
  {
    name: 'kubectl create: the same object through the create command',
    run: () => runKubectlJson(['create', '-f', `${F}/web-v1.yaml`], ['--for', '40s', '--behavior', `${F}/cpu-300m.yaml`]),
    kubectl: 'deployment.apps/web created\nhorizontalpodautoscaler.autoscaling/web created',
    rescales: ['30 New size: 6; reason: cpu resource utilization (percentage of request) above target'],
  },
  {
    // The second apply GETs the object as v1, and its three-way patch applies to the v1 form of the stored object.
    name: 'kubectl apply again at v1: configured, maxReplicas 3 stored, the scale-up stops at 3',
    run: () => runJson('run', `${F}/web-v1.yaml`, '--then-apply', `5s,${F}/web-v1-max3.yaml`, '--for', '40s', '--behavior', `${F}/cpu-300m.yaml`),
    kubectl: 'deployment.apps/web created\nhorizontalpodautoscaler.autoscaling/web created\ndeployment.apps/web unchanged\nhorizontalpodautoscaler.autoscaling/web configured',
    spec: { ...STORED, maxReplicas: 3 },
    rescales: ['30 New size: 3; reason: cpu resource utilization (percentage of request) above target'],
  },
];

for (const c of cases) {
  test(`autoscaling/v1 HPA: ${c.name}`, () => {
    const { status, report } = c.run();
    assert.equal(status, 0);
    assert.equal(report.outcome, 'Running');
    assert.equal(report.kubectl.trim(), c.kubectl);
    const stored = hpa(report);
    assert.equal(stored?.apiVersion, 'autoscaling/v2');
    assert.deepEqual(stored?.spec, c.spec ?? STORED);
    assert.deepEqual(rescales(report), c.rescales);
  });
}

test('autoscaling/v1 HPA: a v2 field is refused by strict decoding against the v1 schema', () => {
  const { status, report } = runJson('run', `${F}/invalid-v1.yaml`);
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Rejected');
  assert.equal(report.rejection?.code, 400);
  assert.equal(report.rejection?.message, 'HorizontalPodAutoscaler in version "v1" cannot be handled as a HorizontalPodAutoscaler: strict decoding error: unknown field "spec.metrics"');
});
