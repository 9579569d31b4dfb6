// The horizontal pod autoscaler's failures as whole runs, each with the controller's own event reason, message and
// condition (pkg/controller/podautoscaler/horizontal.go at k8s.io/kubernetes v1.36.3): two autoscalers on one
// Deployment (validateAndParseSelector: AmbiguousSelector), targets without a scale the controller can read
// (reconcileAutoscaler: FailedGetScale), and a rescale the API server refuses (FailedRescale, FailedUpdateScale).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import test from 'node:test';
import { CLI, type Report, ROOT, runJson } from './harness';

const F = 'test/fixtures/hpa';

/** hpaEvents lists the autoscalers' events, `firstAt-at count name type reason: message`. */
const hpaEvents = (r: Report) => r.events.filter((e) => e.source === 'horizontal-pod-autoscaler').map((e) => {
  const { firstAt, count } = e as { firstAt?: number; count?: number };
  return `${firstAt ?? e.at}-${e.at} x${count ?? 1} ${e.object.split('/').pop()} ${e.type} ${e.reason}: ${e.message}`;
});
/** conditions lists each autoscaler's conditions, `name type status reason: message`. */
const conditions = (r: Report) => r.objects.filter((o) => o.kind === 'HorizontalPodAutoscaler').flatMap((o) =>
  ((o.status?.['conditions'] ?? []) as { type: string; status: string; reason: string; message: string }[]).map((c) => `${o.metadata.name} ${c.type} ${c.status} ${c.reason}: ${c.message}`));
const replicasOf = (r: Report, kind: string) => r.objects.find((o) => o.kind === kind)?.spec?.['replicas'];

const AMBIGUOUS = 'pods by selector app=web are controlled by multiple HPAs: [default/web default/web-memory]';
const NOT_READY = 'failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)';
const REFUSED = 'deployments.apps "web" is forbidden: ValidatingAdmissionPolicy \'scale-cap\' with binding \'scale-cap\' denied request: at most 4 replicas';

const cases: { name: string; args: string[]; events: string[]; conditions: string[]; target: [string, number] }[] = [
  {
    // Both enter the selector map with Nothing when created. At 15 s web syncs first and sees only itself (web-memory
    // still selects nothing); web-memory then finds the pods web took. From 30 s both are refused.
    name: 'two autoscalers on one Deployment: AmbiguousSelector for both, the second from its first sync, and no scaling',
    args: ['run', `${F}/two-hpas.yaml`, '--for', '50s', '--behavior', `${F}/cpu-300m.yaml`],
    events: [
      `15-15 x1 web Warning FailedGetResourceMetric: ${NOT_READY}`,
      `15-15 x1 web Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${NOT_READY}`,
      `15-45 x3 web-memory Warning AmbiguousSelector: ${AMBIGUOUS}`,
      `15-45 x3 web-memory Warning FailedComputeMetricsReplicas: ${AMBIGUOUS}`,
      `30-45 x2 web Warning AmbiguousSelector: ${AMBIGUOUS}`,
      `30-45 x2 web Warning FailedComputeMetricsReplicas: ${AMBIGUOUS}`,
    ],
    conditions: [
      'web AbleToScale True SucceededGetScale: the HPA controller was able to get the target\'s current scale',
      `web ScalingActive False AmbiguousSelector: ${AMBIGUOUS}`,
      'web-memory AbleToScale True SucceededGetScale: the HPA controller was able to get the target\'s current scale',
      `web-memory ScalingActive False AmbiguousSelector: ${AMBIGUOUS}`,
    ],
    target: ['Deployment', 2],
  },
  {
    // A DaemonSet has no scale subresource (go-restful's 404); extensions/v1beta1 is not served in 1.36 (the
    // RESTMapper's NoKindMatchError); a ReplicationController has a scale and is raised to minReplicas.
    name: 'targets: a DaemonSet and an unserved group are FailedGetScale, a ReplicationController is scaled',
    args: ['run', `${F}/target-kinds.yaml`, '--for', '20s'],
    events: [
      '15-15 x1 legacy Normal SuccessfulRescale: New size: 2; reason: Current number of replicas below Spec.MinReplicas',
      '15-15 x1 agents Warning FailedGetScale: the server could not find the requested resource',
      '15-15 x1 old-web Warning FailedGetScale: no matches for kind "Deployment" in group "extensions"',
    ],
    conditions: [
      'agents AbleToScale False FailedGetScale: the HPA controller was unable to get the target\'s current scale: the server could not find the requested resource',
      'legacy AbleToScale True SucceededRescale: the HPA controller was able to update the target scale to 2',
      'old-web AbleToScale False FailedGetScale: the HPA controller was unable to get the target\'s current scale: no matches for kind "Deployment" in group "extensions"',
    ],
    target: ['ReplicationController', 2],
  },
  {
    // The scale update goes through admission as the controller's service account; a policy on deployments/scale
    // refuses it. The status keeps desiredReplicas as it was (setCurrentReplicasAndMetricsInStatus).
    name: 'a ValidatingAdmissionPolicy refuses the rescale: FailedRescale at each sync, AbleToScale False FailedUpdateScale',
    args: ['run', `${F}/web.yaml`, '--cluster', 'test/fixtures/webhooks/nodes.yaml', '--cluster', `${F}/scale-policy.yaml`, '--for', '50s', '--behavior', `${F}/cpu-300m.yaml`],
    events: [
      `15-15 x1 web Warning FailedGetResourceMetric: ${NOT_READY}`,
      `15-15 x1 web Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${NOT_READY}`,
      `30-45 x2 web Warning FailedRescale: New size: 6; reason: cpu resource utilization (percentage of request) above target; error: ${REFUSED}`,
    ],
    conditions: [
      `web AbleToScale False FailedUpdateScale: the HPA controller was unable to update the target scale: ${REFUSED}`,
      'web ScalingActive True ValidMetricFound: the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
      'web ScalingLimited False DesiredWithinRange: the desired count is within the acceptable range',
    ],
    target: ['Deployment', 2],
  },
];

for (const c of cases) {
  test(`HPA failures: ${c.name}`, () => {
    const { status, report } = runJson(...c.args);
    assert.equal(status, 0);
    assert.deepEqual(hpaEvents(report), c.events);
    assert.deepEqual(conditions(report), c.conditions);
    assert.equal(replicasOf(report, c.target[0]), c.target[1]);
  });
}

test('HPA failures: a refused rescale leaves desiredReplicas as it was and no lastScaleTime', () => {
  const { report } = runJson('run', `${F}/web.yaml`, '--cluster', 'test/fixtures/webhooks/nodes.yaml', '--cluster', `${F}/scale-policy.yaml`, '--for', '35s', '--behavior', `${F}/cpu-300m.yaml`);
  const status = report.objects.find((o) => o.kind === 'HorizontalPodAutoscaler')?.status ?? {};
  assert.equal(status['desiredReplicas'], 0);
  assert.equal(status['currentReplicas'], 2);
  assert.equal('lastScaleTime' in status, false);
  // The refusal is the API server's: the validating admission step of the scale update, as the controller's account.
  const refusal = report.trace.find((e) => e.phase === 'apiserver.admit.validating' && e.step?.name === 'ValidatingAdmissionPolicy' && e.outcome === 'rejected');
  assert.equal(refusal?.object, 'HorizontalPodAutoscaler/default/web');
  assert.equal(refusal?.result, `refused: ${REFUSED}`);
});

test('HPA failures: the status as the controller writes it: currentMetrics null without a metric read, currentReplicas 0 omitted', () => {
  const statuses = (r: Report) => Object.fromEntries(r.objects.filter((o) => o.kind === 'HorizontalPodAutoscaler').map((o) => {
    const { conditions: _conditions, ...rest } = (o.status ?? {}) as Record<string, unknown>;
    return [o.metadata.name, JSON.stringify(rest)];
  }));
  assert.deepEqual(statuses(runJson('run', `${F}/two-hpas.yaml`, '--for', '35s').report), {
    web: '{"currentReplicas":2,"desiredReplicas":0,"currentMetrics":null}', 'web-memory': '{"currentReplicas":2,"desiredReplicas":0,"currentMetrics":null}',
  });
  assert.deepEqual(statuses(runJson('run', `${F}/target-kinds.yaml`, '--for', '20s').report), {
    agents: '{"desiredReplicas":0,"currentMetrics":null}', 'old-web': '{"desiredReplicas":0,"currentMetrics":null}',
    legacy: '{"lastScaleTime":"2026-01-01T00:00:15Z","currentReplicas":1,"desiredReplicas":2,"currentMetrics":null}',
  });
});

/** explainWhy runs `explain --json` and gives each autoscaler's why. */
function explainWhy(...args: string[]): Record<string, string> {
  const r = spawnSync(process.execPath, [CLI, 'explain', ...args, '--json'], { cwd: ROOT, encoding: 'utf8' });
  const autoscalers = (JSON.parse(r.stdout) as { autoscalers?: { hpa: string; why: string }[] }).autoscalers ?? [];
  return Object.fromEntries(autoscalers.map((a) => [a.hpa, a.why]));
}

const explainCases: { name: string; args: string[]; why: Record<string, string> }[] = [
  {
    name: 'two autoscalers on one Deployment: the selector both claim, and the way out',
    args: [`${F}/two-hpas.yaml`, '--for', '35s'],
    why: Object.fromEntries(['default/web', 'default/web-memory'].map((h) => [h,
      `it cannot compute a replica count (AmbiguousSelector): ${AMBIGUOUS}; no autoscaler scales pods another one also selects: keep one autoscaler per workload (one HPA can hold several metrics)`])),
  },
  {
    name: 'a DaemonSet target has no scale subresource; a ReplicationController raised to minReplicas read no metric',
    args: [`${F}/target-kinds.yaml`, '--for', '20s'],
    why: {
      'default/agents': 'it cannot scale its target (FailedGetScale): the HPA controller was unable to get the target\'s current scale: the server could not find the requested resource; its kind has no scale subresource (Deployment, ReplicaSet, StatefulSet and ReplicationController have one)',
      'default/legacy': 'it scaled its target from 1 to 2 without reading its metrics: Current number of replicas below Spec.MinReplicas',
      'default/old-web': 'it cannot scale its target (FailedGetScale): the HPA controller was unable to get the target\'s current scale: no matches for kind "Deployment" in group "extensions"',
    },
  },
  {
    name: 'a rescale the API server refuses',
    args: [`${F}/web.yaml`, '--cluster', 'test/fixtures/webhooks/nodes.yaml', '--cluster', `${F}/scale-policy.yaml`, '--for', '35s', '--behavior', `${F}/cpu-300m.yaml`],
    why: { 'default/web': `it cannot scale its target (FailedUpdateScale): the HPA controller was unable to update the target scale: ${REFUSED}` },
  },
];

for (const c of explainCases) {
  test(`explain says why the autoscaler did not scale: ${c.name}`, () => {
    assert.deepEqual(explainWhy(...c.args), c.why);
  });
}
