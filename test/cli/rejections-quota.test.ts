// ResourceQuota and LimitRanger through the CLI as a process: who refuses in which pass, with what status and what
// kubectl prints, and what a LimitRange's defaults leave on a stored pod. Fixtures in test/fixtures/quota/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pluginStep, runJson } from './harness';

const FIXTURES = 'test/fixtures/quota';

/** run runs `pod-lifecycle run <manifest> --cluster nodes.yaml --cluster <policy> --json` and parses the report. */
function run(manifest: string, policy: string): ReturnType<typeof runJson> {
  return runJson('run', `${FIXTURES}/${manifest}`, '--cluster', `${FIXTURES}/nodes.yaml`, '--cluster', `${FIXTURES}/${policy}`);
}


const rejections: { name: string; manifest: string; policy: string; phase: string; code: number; reason: string; message: string; kubectl: string }[] = [
  {
    name: 'A pod over its namespace\'s quota is refused by ResourceQuota in the validating pass',
    manifest: 'pod-over-quota.yaml', policy: 'quota-compute.yaml', phase: 'apiserver.admit.validating', code: 403, reason: 'Forbidden',
    // controller.go checkRequest: "exceeded quota: %s, requested: %s, used: %s, limited: %s" with prettyPrint lists.
    message: 'pods "web" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=3, limited: requests.cpu=4',
    kubectl: `Error from server (Forbidden): error when creating "${FIXTURES}/pod-over-quota.yaml": pods "web" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=3, limited: requests.cpu=4`,
  },
  {
    name: 'A container over the LimitRange maximum is refused by LimitRanger in the validating pass',
    manifest: 'pod-over-limit.yaml', policy: 'limit-range.yaml', phase: 'apiserver.admit.validating', code: 403, reason: 'Forbidden',
    // limitranger/admission.go maxConstraint: "maximum %s usage per %s is %s, but limit is %s".
    message: 'pods "web" is forbidden: maximum cpu usage per Container is 2, but limit is 3',
    kubectl: `Error from server (Forbidden): error when creating "${FIXTURES}/pod-over-limit.yaml": pods "web" is forbidden: maximum cpu usage per Container is 2, but limit is 3`,
  },
  {
    name: 'A pod both invalid and over quota gets the 422 of validation, which comes before validating admission',
    manifest: 'pod-invalid-over-quota.yaml', policy: 'quota-compute.yaml', phase: 'apiserver.validate', code: 422, reason: 'Invalid',
    message: 'Pod "web" is invalid: spec.containers[0].image: Required value',
    kubectl: 'The Pod "web" is invalid: spec.containers[0].image: Required value',
  },
];

for (const c of rejections) {
  test(c.name, () => {
    const { status, report, stderr } = run(c.manifest, c.policy);
    assert.equal(status, 1, stderr);
    assert.equal(report.outcome, 'Rejected');
    assert.deepEqual([report.rejection?.phase, report.rejection?.code, report.rejection?.reason], [c.phase, c.code, c.reason]);
    assert.equal(report.rejection?.message, c.message);
    assert.equal(report.kubectl, c.kubectl);
    assert.ok(!report.objects.some((o) => o.kind === 'Pod' && o.metadata.name === 'web'), 'the refused pod is not stored');
  });
}

test('LimitRanger sets the defaults in the mutating pass without refusing and refuses only when validating', () => {
  const { report } = run('pod-over-limit.yaml', 'limit-range.yaml');
  const mutating = pluginStep(report, 'apiserver.admit.mutating', 'LimitRanger');
  assert.equal(mutating?.outcome, 'ok');
  assert.match(mutating?.result ?? '', /^changed spec\.containers\[0\]\.resources\.limits\.memory, spec\.containers\[0\]\.resources\.requests\.memory, metadata\.annotations\["kubernetes\.io\/limit-ranger"\]/);
  const validating = pluginStep(report, 'apiserver.admit.validating', 'LimitRanger');
  assert.equal(validating?.outcome, 'rejected');
  assert.deepEqual(validating?.detail['violations'], ['maximum cpu usage per Container is 2, but limit is 3']);
  assert.equal(pluginStep(report, 'apiserver.admit.validating', 'ResourceQuota'), undefined, 'the chain ends at the first refusal');
});

test('A pod without resources is stored with the LimitRange defaults and the annotation that names them', () => {
  const { status, report, stderr } = run('pod-no-resources.yaml', 'limit-range.yaml');
  assert.equal(status, 0, stderr);
  assert.equal(report.outcome, 'Running');
  assert.equal(report.kubectl, 'pod/web created');
  const pod = report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web');
  const containers = pod?.spec?.['containers'] as { resources?: unknown }[] | undefined;
  assert.deepEqual(containers?.[0]?.resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '250m', memory: '128Mi' } });
  assert.equal(pod?.metadata.annotations?.['kubernetes.io/limit-ranger'],
    'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app');
  assert.equal(pod?.status?.['qosClass'], 'Burstable');
});

test('An admitted pod is charged to the quota\'s status.used before it is stored', () => {
  const { status, report, stderr } = run('pod-within-quota.yaml', 'quota-compute.yaml');
  assert.equal(status, 0, stderr);
  assert.equal(report.outcome, 'Running');
  const quota = report.objects.find((o) => o.kind === 'ResourceQuota' && o.metadata.name === 'compute');
  assert.deepEqual(quota?.status, { hard: { 'requests.cpu': '4' }, used: { 'requests.cpu': '3500m' } });
  const charged = report.trace.findIndex((e) => e.phase === 'apiserver.admit.validating' && e.step?.name === 'ResourceQuota');
  const stored = report.trace.findIndex((e) => e.phase === 'etcd.persist');
  assert.ok(charged >= 0 && charged < stored, 'the quota is charged before etcd.persist');
  assert.deepEqual(report.trace[charged]?.detail['statusWritten'], ['compute']);
});

test('A pod that sets no cpu request is refused by a quota on requests.cpu, which charges nothing', () => {
  const { status, report, stderr } = run('pod-no-resources.yaml', 'quota-compute.yaml');
  assert.equal(status, 1, stderr);
  // pods.go Constraints: a quota on cpu or memory makes every container set it.
  assert.equal(report.kubectl, `Error from server (Forbidden): error when creating "${FIXTURES}/pod-no-resources.yaml": pods "web" is forbidden: failed quota: compute: must specify requests.cpu for: app`);
  const quota = report.objects.find((o) => o.kind === 'ResourceQuota' && o.metadata.name === 'compute');
  assert.deepEqual(quota?.status, { hard: { 'requests.cpu': '4' }, used: { 'requests.cpu': '3' } });
});
