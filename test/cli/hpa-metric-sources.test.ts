// The horizontal pod autoscaler's other metric sources as whole runs (pkg/controller/podautoscaler/horizontal.go
// computeReplicasForMetric and replica_calculator.go at v1.36.3): ContainerResource, Pods, Object (Value and
// AverageValue) and External (Value and AverageValue) from the Behavior's `metrics`, `customMetrics` and
// `externalMetrics`; the largest proposal of several metrics; the events and ScalingActive condition of a metric the
// metrics APIs do not have; spec.behavior's tolerances; pod-level requests; and the API server's validation of the
// metrics. A Deployment of 2 pods (containers app, 200m of CPU, and proxy, 50m) and an autoscaler of 1 to 10
// replicas; its first sync is 15 s after it is created.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import test from 'node:test';
import { CLI, ROOT, type Report, runJson } from './harness';

const F = 'test/fixtures/hpa/sources';
const withMetrics = ['--behavior', `${F}/behavior.yaml`];

/** hpaEvents lists the autoscaler's events, `at type reason: message`, a pod's generated name as web-POD. */
const hpaEvents = (r: Report) => r.events.filter((e) => e.source === 'horizontal-pod-autoscaler')
  .map((e) => `${e.at} ${e.type} ${e.reason}: ${e.message}`.replace(/web-[a-z0-9]+-[a-z0-9]+/g, 'web-POD'));
const hpaStatus = (r: Report) => r.objects.find((o) => o.kind === 'HorizontalPodAutoscaler')?.status as { currentMetrics?: unknown[]; conditions?: { type: string; status: string; reason: string; message: string }[] };
const conditions = (r: Report) => (hpaStatus(r).conditions ?? []).map((c) => `${c.type} ${c.status} ${c.reason}`);
const activeMessage = (r: Report) => hpaStatus(r).conditions?.find((c) => c.type === 'ScalingActive')?.message;
const deploymentReplicas = (r: Report) => r.objects.find((o) => o.kind === 'Deployment')?.spec?.['replicas'];

const SCALED = ['AbleToScale True SucceededRescale', 'ScalingActive True ValidMetricFound', 'ScalingLimited False DesiredWithinRange'];
const EXTERNAL_SELECTOR = '&LabelSelector{MatchLabels:map[string]string{queue: worker_tasks,},MatchExpressions:[]LabelSelectorRequirement{},}';

const cases: { name: string; args: string[]; events: string[]; conditions: string[]; replicas: number; currentMetrics: unknown[]; active?: string }[] = [
  {
    // The app container at 300m of 200m is 150%: ceil(3 × 2) = 6, once the pods are past the 15 s CPU window.
    name: 'ContainerResource: the app container\'s CPU at 3 times its target scales 2 → 6 at the second sync',
    args: ['run', `${F}/container-app.yaml`, '--for', '35s', ...withMetrics],
    events: [
      '15 Warning FailedGetContainerResourceMetric: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
      '15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get app container metric value: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
      '30 Normal SuccessfulRescale: New size: 6; reason: cpu container resource utilization (percentage of request) above target',
    ],
    conditions: SCALED, replicas: 6,
    currentMetrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', current: { averageValue: '300m', averageUtilization: 150 }, container: 'app' } }],
  },
  {
    // getContainerMetrics (1.36) only logs a pod without the container: every pod is then missing a sample, still at the
    // 30 s sync, past the CPU window (the same events again: the recorder counts them on the first ones, now last seen at 30).
    name: 'ContainerResource of a container the pods do not have: every pod misses a sample, FailedGetContainerResourceMetric',
    args: ['run', `${F}/container-sidecar.yaml`, '--for', '35s', ...withMetrics],
    events: [
      '30 Warning FailedGetContainerResourceMetric: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
      '30 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get sidecar container metric value: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
    ],
    conditions: ['AbleToScale True SucceededGetScale', 'ScalingActive False FailedGetContainerResourceMetric'], replicas: 2, currentMetrics: [{ type: '' }],
  },
  {
    // 3k a pod against 1k: ceil(3 × 2) = 6. A custom metric has no CPU readiness window: the first sync scales.
    name: 'Pods: packets-per-second at 3 times its per-pod target scales 2 → 6 at the first sync',
    args: ['run', `${F}/pods.yaml`, '--for', '20s', ...withMetrics],
    events: ['15 Normal SuccessfulRescale: New size: 6; reason: pods metric packets-per-second above target'],
    conditions: SCALED, replicas: 6,
    currentMetrics: [{ type: 'Pods', pods: { metric: { name: 'packets-per-second' }, current: { averageValue: '3k' } } }],
  },
  {
    // calculateRequests reads PodRequests when the pod sets pod-level requests: 600m of the pod's 400m is 150%.
    name: 'Resource with pod-level requests: utilization against the pod\'s own request scales 2 → 6 at the second sync',
    args: ['run', `${F}/pod-level.yaml`, '--for', '35s', '--behavior', `${F}/cpu-600m.yaml`],
    events: [
      '15 Warning FailedGetResourceMetric: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
      '15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
      '30 Normal SuccessfulRescale: New size: 6; reason: cpu resource utilization (percentage of request) above target',
    ],
    conditions: SCALED, replicas: 6,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '600m', averageUtilization: 150 } } }],
  },
  {
    // 3k a pod against 2k is a ratio of 1.5: within spec.behavior.scaleUp.tolerance 0.6 (tolerancesForHpa), no scaling.
    name: 'Pods with configurable tolerances: a ratio of 1.5 within a scale-up tolerance of 0.6 keeps 2',
    args: ['run', `${F}/tolerance.yaml`, '--for', '20s', ...withMetrics],
    events: [],
    conditions: ['AbleToScale True ReadyForNewScale', 'ScalingActive True ValidMetricFound', 'ScalingLimited False DesiredWithinRange'], replicas: 2,
    currentMetrics: [{ type: 'Pods', pods: { metric: { name: 'packets-per-second' }, current: { averageValue: '3k' } } }],
  },
  {
    name: 'Pods without samples: FailedGetPodsMetric, ScalingActive False with the metrics client\'s words',
    args: ['run', `${F}/pods.yaml`, '--for', '20s'],
    events: [
      '15 Warning FailedGetPodsMetric: unable to get metric packets-per-second: no metrics returned from custom metrics API',
      '15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get pods metric value: unable to get metric packets-per-second: no metrics returned from custom metrics API',
    ],
    conditions: ['AbleToScale True SucceededGetScale', 'ScalingActive False FailedGetPodsMetric'], replicas: 2, currentMetrics: [{ type: '' }],
    active: 'the HPA was unable to compute the replica count: unable to get metric packets-per-second: no metrics returned from custom metrics API',
  },
  {
    // 30k against a Value of 10k: ratio 3 times the 2 Ready pods.
    name: 'Object Value: an Ingress\'s requests-per-second at 3 times its target scales 2 → 6',
    args: ['run', `${F}/object-value.yaml`, '--for', '20s', ...withMetrics],
    events: ['15 Normal SuccessfulRescale: New size: 6; reason: Ingress metric requests-per-second above target'],
    conditions: SCALED, replicas: 6,
    currentMetrics: [{ type: 'Object', object: { metric: { name: 'requests-per-second' }, current: { value: '30k' }, describedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main-route' } } }],
  },
  {
    // 30k over status.replicas 2 is 15k a pod against 500: ceil(30k / 500) = 60, limited to 6 by the scale-up policies.
    name: 'Object AverageValue: the controller names it "external metric"; the status keeps the described object',
    args: ['run', `${F}/object-average.yaml`, '--for', '20s', ...withMetrics],
    events: ['15 Normal SuccessfulRescale: New size: 6; reason: external metric requests-per-second(nil) above target'],
    conditions: ['AbleToScale True SucceededRescale', 'ScalingActive True ValidMetricFound', 'ScalingLimited True ScaleUpLimit'], replicas: 6,
    currentMetrics: [{ type: 'Object', object: { metric: { name: 'requests-per-second' }, current: { averageValue: '15k' }, describedObject: { kind: 'Ingress', name: 'main-route', apiVersion: 'networking.k8s.io/v1' } } }],
  },
  {
    name: 'Object without a value: FailedGetObjectMetric in GetObjectMetricReplicas\' own argument order',
    args: ['run', `${F}/object-value.yaml`, '--for', '20s'],
    events: [
      '15 Warning FailedGetObjectMetric: unable to get metric requests-per-second: Ingress on default main-route/unable to fetch metrics from custom metrics API: the server could not find the metric requests-per-second for ingresses.networking.k8s.io main-route',
      '15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get object metric value: unable to get metric requests-per-second: Ingress on default main-route/unable to fetch metrics from custom metrics API: the server could not find the metric requests-per-second for ingresses.networking.k8s.io main-route',
    ],
    conditions: ['AbleToScale True SucceededGetScale', 'ScalingActive False FailedGetObjectMetric'], replicas: 2, currentMetrics: [{ type: '' }],
  },
  {
    // The selector picks the worker_tasks series (30) and leaves the reports one (1000) out.
    name: 'External Value with a selector: only the selected series counts, 30 against 10 scales 2 → 6',
    args: ['run', `${F}/external-value.yaml`, '--for', '20s', ...withMetrics],
    events: [`15 Normal SuccessfulRescale: New size: 6; reason: external metric queue_messages_ready(${EXTERNAL_SELECTOR}) above target`],
    conditions: SCALED, replicas: 6,
    currentMetrics: [{ type: 'External', external: { metric: { name: 'queue_messages_ready', selector: { matchLabels: { queue: 'worker_tasks' } } }, current: { value: '30' } } }],
  },
  {
    name: 'External AverageValue: 12 over 2 replicas against 2 a pod scales 2 → 6',
    args: ['run', `${F}/external-average.yaml`, '--for', '20s', ...withMetrics],
    events: ['15 Normal SuccessfulRescale: New size: 6; reason: external metric queue_length(nil) above target'],
    conditions: SCALED, replicas: 6,
    currentMetrics: [{ type: 'External', external: { metric: { name: 'queue_length' }, current: { averageValue: '6' } } }],
  },
  {
    // LabelSelectorAsSelector's error comes back bare from GetExternalPerPodMetricReplicas, before any fetch.
    name: 'External with a selector operator no selector knows: the conversion\'s error, FailedGetExternalMetric',
    args: ['run', `${F}/external-bad-selector.yaml`, '--for', '20s', ...withMetrics],
    events: [
      '15 Warning FailedGetExternalMetric: "Foo" is not a valid label selector operator',
      '15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get queue_length external metric value: failed to get queue_length external metric: "Foo" is not a valid label selector operator',
    ],
    conditions: ['AbleToScale True SucceededGetScale', 'ScalingActive False FailedGetExternalMetric'], replicas: 2, currentMetrics: [{ type: '' }],
  },
  {
    // CPU fails (the pods are inside the CPU window); packets-per-second proposes 6: one valid metric is enough to scale up.
    name: 'two metrics, one failing: the other\'s scale-up goes ahead and ScalingActive stays True',
    args: ['run', `${F}/resource-and-pods.yaml`, '--for', '20s', '--behavior', `${F}/cpu-within-packets-high.yaml`],
    events: [
      '15 Warning FailedGetResourceMetric: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
      '15 Normal SuccessfulRescale: New size: 6; reason: pods metric packets-per-second above target',
    ],
    conditions: SCALED, replicas: 6,
    currentMetrics: [{ type: '' }, { type: 'Pods', pods: { metric: { name: 'packets-per-second' }, current: { averageValue: '3k' } } }],
  },
  {
    // CPU at 52% (within the tolerance: 2) against packets-per-second at 3 times its target (6): the largest wins.
    name: 'two metrics: the largest proposal wins',
    args: ['run', `${F}/resource-and-pods.yaml`, '--for', '35s', '--behavior', `${F}/cpu-within-packets-high.yaml`],
    events: [
      '15 Warning FailedGetResourceMetric: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
      '15 Normal SuccessfulRescale: New size: 6; reason: pods metric packets-per-second above target',
      '30 Normal SuccessfulRescale: New size: 10; reason: pods metric packets-per-second above target',
    ],
    conditions: ['AbleToScale True SucceededRescale', 'ScalingActive True ValidMetricFound', 'ScalingLimited True TooManyReplicas'], replicas: 10,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '131m', averageUtilization: 52 } } }, { type: 'Pods', pods: { metric: { name: 'packets-per-second' }, current: { averageValue: '3k' } } }],
  },
  {
    // packets-per-second alone would scale down to 1; with the external metric missing the controller does not.
    name: 'two metrics, one failing, the other below target: no scale-down, the failing metric\'s condition',
    args: ['run', `${F}/pods-and-external.yaml`, '--for', '20s', '--behavior', `${F}/low-packets.yaml`],
    events: [
      '15 Warning FailedGetExternalMetric: unable to get external metric default/queue_length/nil: no metrics returned from external metrics API',
      '15 Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 2), first error is: failed to get queue_length external metric value: failed to get queue_length external metric: unable to get external metric default/queue_length/nil: no metrics returned from external metrics API',
    ],
    conditions: ['AbleToScale True SucceededGetScale', 'ScalingActive False FailedGetExternalMetric'], replicas: 2,
    currentMetrics: [{ type: 'Pods', pods: { metric: { name: 'packets-per-second' }, current: { averageValue: '100' } } }, { type: '' }],
  },
  {
    name: 'every source missing: one event each, the first metric\'s condition',
    args: ['run', `${F}/all-missing.yaml`, '--for', '20s'],
    events: [
      '15 Warning FailedGetPodsMetric: unable to get metric packets-per-second: no metrics returned from custom metrics API',
      '15 Warning FailedGetObjectMetric: unable to get metric requests-per-second: Ingress on default main-route/unable to fetch metrics from custom metrics API: the server could not find the metric requests-per-second for ingresses.networking.k8s.io main-route',
      '15 Warning FailedGetExternalMetric: unable to get external metric default/queue_length/nil: no metrics returned from external metrics API',
      '15 Warning FailedGetContainerResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
      '15 Warning FailedComputeMetricsReplicas: invalid metrics (4 invalid out of 4), first error is: failed to get pods metric value: unable to get metric packets-per-second: no metrics returned from custom metrics API',
    ],
    conditions: ['AbleToScale True SucceededGetScale', 'ScalingActive False FailedGetPodsMetric'], replicas: 2,
    currentMetrics: [{ type: '' }, { type: '' }, { type: '' }, { type: '' }],
  },
];

for (const c of cases) {
  test(`HPA metric sources: ${c.name}`, () => {
    const { status, report } = runJson(...c.args);
    assert.equal(status, 0);
    assert.deepEqual(hpaEvents(report), c.events);
    assert.deepEqual(conditions(report), c.conditions);
    assert.equal(deploymentReplicas(report), c.replicas);
    assert.deepEqual(hpaStatus(report).currentMetrics, c.currentMetrics);
    if (c.active) assert.equal(activeMessage(report), c.active);
  });
}

test('HPA metric sources: the API server refuses metrics that validateMetricSpec refuses, every error in its order', () => {
  const { status, report } = runJson('run', `${F}/invalid-metrics.yaml`);
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Rejected');
  assert.equal(report.rejection?.code, 422);
  assert.equal(report.rejection?.message, `HorizontalPodAutoscaler.autoscaling "web" is invalid: [${[
    'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
    'spec.metrics[1].external: Required value: must populate information for the given metric source',
    'spec.metrics[2].object.describedObject.name: Required value',
    'spec.metrics[2].object.metric.name: Invalid value: "a/b": may not contain \'/\'',
    'spec.metrics[2].object.target.type: Invalid value: "Foo": must be either Utilization, Value, or AverageValue',
    'spec.metrics[2].object.target.averageValue: Invalid value: "-1": must be positive',
    'spec.metrics[3].pods: Forbidden: must populate the given metric source only',
  ].join(', ')}]`);
});

test('HPA metric sources: the API server refuses references, resource names and values as validateHorizontalPodAutoscalerSpec does', () => {
  const { status, report } = runJson('run', `${F}/invalid-refs.yaml`);
  assert.equal(status, 1);
  assert.equal(report.rejection?.code, 422);
  assert.equal(report.rejection?.message, `HorizontalPodAutoscaler.autoscaling "web" is invalid: [${[
    'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group',
    'spec.metrics[0].containerResource.name: Invalid value: "foo": must be a standard resource type or fully qualified',
    'spec.metrics[0].containerResource.name: Invalid value: "foo": must be a standard resource for containers',
    'spec.metrics[1].pods.target.averageValue: Invalid value: "-500m": must be positive',
    'spec.metrics[2].object.describedObject.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    'spec.metrics[2].object: Forbidden: must populate the given metric source only',
    'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
  ].join(', ')}]`);
});

const badBehaviors: { name: string; file: string; error: string }[] = [
  { name: 'a customMetrics object without its kind', file: 'bad-custom-key', error: 'bad-custom-key.yaml:6: customMetrics.requests-per-second.main-route: expected the described object as Kind/name, such as Ingress/main-route, got string "main-route"' },
  { name: 'an external series label that is not a string', file: 'bad-external-labels', error: 'bad-external-labels.yaml:6: externalMetrics.queue_messages_ready[0].labels.queue: expected a string, got number 7' },
  { name: 'a container sample under a misspelled resource', file: 'bad-container-field', error: 'bad-container-field.yaml:7: metrics["web-*"].containers.app: unknown field "cpus" (did you mean "cpu"?)' },
  { name: 'custom pod metric samples out of order', file: 'bad-pods-samples', error: 'bad-pods-samples.yaml:7: metrics["web-*"].pods.packets-per-second[1].at: samples must be in rising order of at (5 after 10)' },
];

for (const c of badBehaviors) {
  test(`HPA metric sources: a Behavior with ${c.name} is unusable input, named at its line`, () => {
    const r = spawnSync(process.execPath, [CLI, 'run', `${F}/pods.yaml`, '--behavior', `${F}/${c.file}.yaml`], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim(), `error: ${F}/${c.error}`);
  });
}
