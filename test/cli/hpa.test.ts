// The horizontal pod autoscaler of kube-controller-manager 1.36 (pkg/controller/podautoscaler/horizontal.go and
// replica_calculator.go at v1.36.3) as whole runs: a Deployment of 200m-request pods, an HPA at 50% CPU, and the pods'
// usage from the Behavior. The first sync is 15 s after the HPA is created; pods that turned Ready less than the 15 s
// metric window before the sample are unready for CPU, so the 15 s sync finds no usable metric.
import assert from 'node:assert/strict';
import test from 'node:test';
import { type Report, runJson } from './harness';

const F = 'test/fixtures/hpa';
const behavior = (name: string) => ['--behavior', `${F}/${name}.yaml`];

/** hpaEvents lists the autoscaler's events, `at type reason: message`. */
const hpaEvents = (r: Report) => r.events.filter((e) => e.source === 'horizontal-pod-autoscaler').map((e) => `${e.at} ${e.type} ${e.reason}: ${e.message}`);
const hpaStatus = (r: Report) => r.objects.find((o) => o.kind === 'HorizontalPodAutoscaler')?.status as { currentReplicas?: number; desiredReplicas: number; conditions?: { type: string; status: string; reason: string }[]; currentMetrics?: unknown[]; lastScaleTime?: string };
const conditions = (r: Report) => (hpaStatus(r).conditions ?? []).map((c) => `${c.type} ${c.status} ${c.reason}`);
const deploymentReplicas = (r: Report) => r.objects.find((o) => o.kind === 'Deployment')?.spec?.['replicas'];
/** runningPods counts the pods Running and not being deleted (a scale-down's pod may still be in its grace period). */
const runningPods = (r: Report) => r.objects.filter((o) => o.kind === 'Pod' && o.status?.['phase'] === 'Running' && !(o.metadata as { deletionTimestamp?: string }).deletionTimestamp).length;

const NOT_READY_YET = [
  '15 Warning FailedGetResourceMetric: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
  '15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
];

const cases: { name: string; args: string[]; events: string[]; conditions: string[]; replicas: number; status: Record<string, unknown> }[] = [
  {
    // 300m of 200m is 150%, 3 times the target: ceil(3 × 2) = 6; then the 6 pods at 150% propose 18, clamped to 10.
    name: 'usage above target: 2 → 6 → 10 (maxReplicas), the Deployment scaled and every pod Running',
    args: ['run', `${F}/web.yaml`, '--for', '60s', ...behavior('cpu-300m')],
    events: [...NOT_READY_YET,
      '30 Normal SuccessfulRescale: New size: 6; reason: cpu resource utilization (percentage of request) above target',
      '45 Normal SuccessfulRescale: New size: 10; reason: cpu resource utilization (percentage of request) above target'],
    conditions: ['AbleToScale True ReadyForNewScale', 'ScalingActive True ValidMetricFound', 'ScalingLimited True TooManyReplicas'],
    replicas: 10,
    status: { currentReplicas: 10, desiredReplicas: 10, lastScaleTime: '2026-01-01T00:00:45Z', currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 150, averageValue: '300m' } } }] },
  },
  {
    // 105m is 52%: a ratio of 1.04, within the 0.1 tolerance.
    name: 'usage within the tolerance: no rescale',
    args: ['run', `${F}/web.yaml`, '--for', '60s', ...behavior('cpu-105m')],
    events: NOT_READY_YET,
    conditions: ['AbleToScale True ReadyForNewScale', 'ScalingActive True ValidMetricFound', 'ScalingLimited False DesiredWithinRange'],
    replicas: 2,
    status: { currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 52, averageValue: '105m' } } }] },
  },
  {
    // 20m is 10%: 1 replica proposed from 30 s on, held at 2 by the 15 s recommendation of 2 until it leaves the
    // 300 s window (at 315 s).
    name: 'usage below target: the scale-down waits for the 300 s stabilization window',
    args: ['run', `${F}/web.yaml`, '--for', '300s', ...behavior('cpu-20m')],
    events: NOT_READY_YET,
    conditions: ['AbleToScale True ScaleDownStabilized', 'ScalingActive True ValidMetricFound', 'ScalingLimited False DesiredWithinRange'],
    replicas: 2,
    status: { currentReplicas: 2, desiredReplicas: 2 },
  },
  {
    name: 'usage below target: scaled down once the window has passed',
    args: ['run', `${F}/web.yaml`, '--for', '320s', ...behavior('cpu-20m')],
    events: [...NOT_READY_YET, '315 Normal SuccessfulRescale: New size: 1; reason: All metrics below target'],
    conditions: ['AbleToScale True SucceededRescale', 'ScalingActive True ValidMetricFound', 'ScalingLimited False DesiredWithinRange'],
    replicas: 1,
    status: { currentReplicas: 2, desiredReplicas: 1, lastScaleTime: '2026-01-01T00:05:15Z' },
  },
  {
    // scaleUp Pods 1 per 60 s: 3 at 30 s; at 45 s the period began at 2, so 3 again; at 90 s the 30 s change has left
    // the period: 4.
    name: 'behavior.scaleUp Pods 1 per 60 s: one pod a minute, ScalingLimited ScaleUpLimit',
    args: ['run', `${F}/web-slow-up.yaml`, '--for', '95s', ...behavior('cpu-300m')],
    events: [...NOT_READY_YET,
      '30 Normal SuccessfulRescale: New size: 3; reason: cpu resource utilization (percentage of request) above target',
      '90 Normal SuccessfulRescale: New size: 4; reason: cpu resource utilization (percentage of request) above target'],
    conditions: ['AbleToScale True SucceededRescale', 'ScalingActive True ValidMetricFound', 'ScalingLimited True ScaleUpLimit'],
    replicas: 4,
    status: { currentReplicas: 3, desiredReplicas: 4, lastScaleTime: '2026-01-01T00:01:30Z' },
  },
  {
    name: 'maxReplicas 3: 6 proposed, 3 written, ScalingLimited TooManyReplicas',
    args: ['run', `${F}/web-max3.yaml`, '--for', '40s', ...behavior('cpu-300m')],
    events: [...NOT_READY_YET, '30 Normal SuccessfulRescale: New size: 3; reason: cpu resource utilization (percentage of request) above target'],
    conditions: ['AbleToScale True SucceededRescale', 'ScalingActive True ValidMetricFound', 'ScalingLimited True TooManyReplicas'],
    replicas: 3,
    status: { currentReplicas: 2, desiredReplicas: 3 },
  },
  {
    // Below minReplicas the metrics are not read at all.
    name: 'minReplicas 3 over a Deployment of 1: raised to 3 at the first sync',
    args: ['run', `${F}/web-min3.yaml`, '--for', '20s', ...behavior('cpu-105m')],
    events: ['15 Normal SuccessfulRescale: New size: 3; reason: Current number of replicas below Spec.MinReplicas'],
    conditions: ['AbleToScale True SucceededRescale'],
    replicas: 3,
    status: { currentReplicas: 1, desiredReplicas: 3, lastScaleTime: '2026-01-01T00:00:15Z' },
  },
  {
    name: 'no metrics for the pods: the metrics API returns none, ScalingActive False',
    args: ['run', `${F}/web.yaml`, '--for', '20s'],
    events: [
      '15 Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
      '15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
    ],
    conditions: ['AbleToScale True SucceededGetScale', 'ScalingActive False FailedGetResourceMetric'],
    replicas: 2,
    status: { currentReplicas: 2, desiredReplicas: 0, currentMetrics: [{ type: '' }] },
  },
];

for (const c of cases) {
  test(`HPA: ${c.name}`, () => {
    const { status, report } = runJson(...c.args);
    assert.equal(status, 0);
    assert.equal(report.outcome, 'Running');
    assert.deepEqual(hpaEvents(report), c.events);
    assert.deepEqual(conditions(report), c.conditions);
    assert.equal(deploymentReplicas(report), c.replicas);
    // The deployment controller followed the scale: as many pods Running as the Deployment asks for.
    assert.equal(runningPods(report), c.replicas);
    const st = hpaStatus(report);
    for (const [field, want] of Object.entries(c.status)) assert.deepEqual((st as Record<string, unknown>)[field], want, field);
    assert.equal('observedGeneration' in st, false);
  });
}

test('HPA: the trace shows each sync under controllers.hpa, the scale written before the status', () => {
  const { report } = runJson('run', `${F}/web.yaml`, '--for', '31s', ...behavior('cpu-300m'));
  const at30 = report.trace.filter((e) => e.phase === 'controllers.hpa' && e.at === 30).map((e) => e.field);
  assert.deepEqual(at30, ['spec.metrics', 'spec.scaleTargetRef', 'status']);
});

test('HPA: the API server refuses one without maxReplicas or a target name (validateHorizontalPodAutoscalerSpec)', () => {
  const { status, report } = runJson('run', `${F}/invalid.yaml`);
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Rejected');
  assert.equal(report.rejection?.code, 422);
  assert.equal(report.rejection?.message, [
    'HorizontalPodAutoscaler.autoscaling "web" is invalid: [spec.maxReplicas: Required value: must be set and greater than 0, ',
    'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`, spec.scaleTargetRef.name: Required value]',
  ].join(''));
});

test('HPA: a missing target is FailedGetScale, AbleToScale False', () => {
  const { report } = runJson('run', `${F}/missing-target.yaml`, '--for', '20s');
  assert.deepEqual(hpaEvents(report), ['15 Warning FailedGetScale: deployments.apps "web" not found']);
  assert.deepEqual(conditions(report), ['AbleToScale False FailedGetScale']);
});

test('HPA: a StatefulSet target is scaled through its spec.replicas, and the set creates the ordinals', () => {
  const { report } = runJson('run', `${F}/statefulset.yaml`, '--for', '40s', ...behavior('cpu-300m'));
  assert.deepEqual(hpaEvents(report).slice(2), ['30 Normal SuccessfulRescale: New size: 6; reason: cpu resource utilization (percentage of request) above target']);
  assert.equal(report.objects.find((o) => o.kind === 'StatefulSet')?.spec?.['replicas'], 6);
  const names = report.objects.filter((o) => o.kind === 'Pod').map((o) => o.metadata.name).sort();
  assert.deepEqual(names, ['web-0', 'web-1', 'web-2', 'web-3', 'web-4', 'web-5']);
});
