// The metric selector of a Pods or Object metric as the custom metrics API applies it (sent as metricLabelSelector by
// GetRawMetric and GetObjectMetric in pkg/controller/podautoscaler/metrics/client.go, v1.36.3): it picks the Behavior's
// series whose labels it matches. A Deployment of 2 pods and an autoscaler of 1 to 10 replicas, written per case; the
// series are in test/fixtures/hpa/sources/selectors-behavior.yaml.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT, type Report, runJson } from './harness';

const F = 'test/fixtures/hpa/sources';
const DEPLOYMENT = readFileSync(join(ROOT, F, 'pods.yaml'), 'utf8').split('\n---\n')[0]!;
const dir = mkdtempSync(join(tmpdir(), 'hpa-selectors-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Selector = { matchLabels: Record<string, string> };
const INGRESS = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main-route' };
const podsMetric = (selector?: Selector) => ({ type: 'Pods', pods: { metric: { name: 'packets-per-second', ...(selector ? { selector } : {}) }, target: { type: 'AverageValue', averageValue: '1k' } } });
const objectMetric = (selector?: Selector) => ({ type: 'Object', object: { describedObject: INGRESS, metric: { name: 'requests-per-second', ...(selector ? { selector } : {}) }, target: { type: 'Value', value: '10k' } } });

/** run writes the Deployment and an autoscaler of that one metric, and runs them for 20 s with the series. */
function run(name: string, metric: object): Report {
  const hpa = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 10, metrics: [metric] } };
  const file = join(dir, `${name.replace(/\W+/g, '-').slice(0, 60)}.yaml`);
  writeFileSync(file, `${DEPLOYMENT}\n---\n${JSON.stringify(hpa)}\n`);
  const { status, report } = runJson('run', file, '--for', '20s', '--behavior', `${F}/selectors-behavior.yaml`);
  assert.equal(status, 0);
  return report;
}

const hpaEvents = (r: Report) => r.events.filter((e) => e.source === 'horizontal-pod-autoscaler').map((e) => `${e.at} ${e.type} ${e.reason}: ${e.message}`);
const hpaStatus = (r: Report) => r.objects.find((o) => o.kind === 'HorizontalPodAutoscaler')?.status as { currentMetrics?: unknown[] };
const deploymentReplicas = (r: Report) => r.objects.find((o) => o.kind === 'Deployment')?.spec?.['replicas'];

const OBJECT_ERROR = 'unable to get metric requests-per-second: Ingress on default main-route/unable to fetch metrics from custom metrics API: ';
const cases: { name: string; metric: object; events: string[]; replicas: number; currentMetrics: unknown[] }[] = [
  {
    name: 'Pods: a selector of direction=in counts the inbound series only, 3k against 1k scales 2 → 6',
    metric: podsMetric({ matchLabels: { direction: 'in' } }),
    events: ['15 Normal SuccessfulRescale: New size: 6; reason: pods metric packets-per-second above target'],
    replicas: 6,
    currentMetrics: [{ type: 'Pods', pods: { metric: { name: 'packets-per-second', selector: { matchLabels: { direction: 'in' } } }, current: { averageValue: '3k' } } }],
  },
  {
    // GetRawMetric keeps one value a pod: of the two series the last one listed (outbound, 500) stands.
    name: 'Pods: without a selector every series is an item, and a pod keeps the last one listed',
    metric: podsMetric(),
    events: [], replicas: 2,
    currentMetrics: [{ type: 'Pods', pods: { metric: { name: 'packets-per-second' }, current: { averageValue: '500' } } }],
  },
  {
    name: 'Pods: a selector no series matches leaves the custom metrics API with nothing to return',
    metric: podsMetric({ matchLabels: { direction: 'sideways' } }),
    events: [
      '15 Warning FailedGetPodsMetric: unable to get metric packets-per-second: no metrics returned from custom metrics API',
      '15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get pods metric value: unable to get metric packets-per-second: no metrics returned from custom metrics API',
    ],
    replicas: 2, currentMetrics: [{ type: '' }],
  },
  {
    name: 'Object: a selector of verb=GET reads the GET series only, 30k against 10k scales 2 → 6',
    metric: objectMetric({ matchLabels: { verb: 'GET' } }),
    events: ['15 Normal SuccessfulRescale: New size: 6; reason: Ingress metric requests-per-second above target'],
    replicas: 6,
    currentMetrics: [{ type: 'Object', object: { metric: { name: 'requests-per-second', selector: { matchLabels: { verb: 'GET' } } }, current: { value: '30k' }, describedObject: INGRESS } }],
  },
  {
    name: 'Object: without a selector both series answer, and the client wants exactly one',
    metric: objectMetric(),
    events: [
      `15 Warning FailedGetObjectMetric: ${OBJECT_ERROR}the custom metrics API server returned 2 results when we asked for exactly one`,
      `15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get object metric value: ${OBJECT_ERROR}the custom metrics API server returned 2 results when we asked for exactly one`,
    ],
    replicas: 2, currentMetrics: [{ type: '' }],
  },
  {
    name: 'Object: a selector no series matches is the adapter\'s NotFound',
    metric: objectMetric({ matchLabels: { verb: 'PUT' } }),
    events: [
      `15 Warning FailedGetObjectMetric: ${OBJECT_ERROR}the server could not find the metric requests-per-second for ingresses.networking.k8s.io main-route`,
      `15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get object metric value: ${OBJECT_ERROR}the server could not find the metric requests-per-second for ingresses.networking.k8s.io main-route`,
    ],
    replicas: 2, currentMetrics: [{ type: '' }],
  },
];

for (const c of cases) {
  test(`HPA metric selectors: ${c.name}`, () => {
    const report = run(c.name, c.metric);
    assert.deepEqual(hpaEvents(report), c.events);
    assert.equal(deploymentReplicas(report), c.replicas);
    assert.deepEqual(hpaStatus(report).currentMetrics, c.currentMetrics);
  });
}
