// An autoscaler on a cluster without metrics-server (Behavior `metricsServer: false`): listing PodMetricses is answered
// 404, so a Resource or ContainerResource metric fails as kube-controller-manager 1.36.3 words it. The Resource case's
// status and events are the real ones, copied from the oracle's `test/fixtures/hpa/web.yaml (pods run)` case (a reference
// cluster serving no metrics.k8s.io); see pkg/controller/podautoscaler/metrics/client.go (GetResourceMetric) and
// replica_calculator.go (GetResourceReplicas) at k8s.io/kubernetes v1.36.3.
import assert from 'node:assert/strict';
import test from 'node:test';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT, type Report, runJson } from './harness';

const NO_METRICS_SERVER = 'test/fixtures/hpa/no-metrics-server-behavior.yaml';
const NOT_FOUND = 'unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)';

interface AutoscalerStatus { currentReplicas?: number; desiredReplicas?: number; currentMetrics?: unknown[]; conditions?: { type: string; status: string; reason: string; message: string }[] }
const statusOf = (r: Report) => (r.objects.find((o) => o.kind === 'HorizontalPodAutoscaler') as { status?: AutoscalerStatus } | undefined)?.status;
const events = (r: Report) => [...new Set(r.events.filter((e) => e.source === 'horizontal-pod-autoscaler').map((e) => `${e.type} ${e.reason}: ${e.message}`))].sort();

const cases = [
  {
    name: 'a Resource metric: ScalingActive False (FailedGetResourceMetric) with the NotFound of the PodMetricses list, and no scale',
    manifest: 'test/fixtures/hpa/web.yaml',
    reason: 'FailedGetResourceMetric',
    events: [
      `Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: ${NOT_FOUND}`,
      `Warning FailedGetResourceMetric: failed to get cpu utilization: ${NOT_FOUND}`,
    ],
  },
  {
    name: 'a ContainerResource metric: the same NotFound, under FailedGetContainerResourceMetric',
    manifest: 'test/fixtures/hpa/sources/container-app.yaml',
    reason: 'FailedGetContainerResourceMetric',
    events: [
      `Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get app container metric value: failed to get cpu utilization: ${NOT_FOUND}`,
      `Warning FailedGetContainerResourceMetric: failed to get cpu utilization: ${NOT_FOUND}`,
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { report } = runJson('run', c.manifest, '--behavior', NO_METRICS_SERVER, '--for', '40s');
    const status = statusOf(report);
    assert.deepEqual({ currentReplicas: status?.currentReplicas, desiredReplicas: status?.desiredReplicas, currentMetrics: status?.currentMetrics }, { currentReplicas: 2, desiredReplicas: 0, currentMetrics: [{ type: '' }] });
    assert.deepEqual(status?.conditions?.map(({ type, status: s, reason, message }) => ({ type, status: s, reason, message })), [
      { type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale" },
      { type: 'ScalingActive', status: 'False', reason: c.reason, message: `the HPA was unable to compute the replica count: failed to get cpu utilization: ${NOT_FOUND}` },
    ]);
    assert.deepEqual(events(report), c.events);
  });
}

test('metricsServer must be a boolean: the Behavior is refused (exit 2) with its file, line and field', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', 'test/fixtures/hpa/web.yaml', '--behavior', 'test/fixtures/hpa/bad-metrics-server-behavior.yaml', '--json'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim(), 'error: test/fixtures/hpa/bad-metrics-server-behavior.yaml:4: metricsServer: expected a boolean, got string "no"');
});
