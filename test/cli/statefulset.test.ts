// The StatefulSet controller through the CLI: a set runs its ordinal pods and claims to Running, a later apply
// scales it up the same way or down from the highest ordinal, and a later apply it does not follow (a new template)
// is NotSimulated with a note, never a false success. See pkg/controller/statefulset at kubernetes v1.36.3.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { CLI, ROOT, runJson, type Report } from './harness';

const F = 'test/fixtures/statefulset';

interface Workload {
  object: string;
  outcome: string;
  note?: string;
}

const created = (r: Report) => r.events.filter((e) => e.source === 'statefulset-controller' && e.reason === 'SuccessfulCreate').map((e) => `${e.at} ${e.message}`);

const deletedOf = (r: Report) => r.events.filter((e) => e.source === 'statefulset-controller' && e.reason === 'SuccessfulDelete').map((e) => `${e.at} ${e.message}`);

const cases: { name: string; args: string[]; status: number; outcome: string; events: string[]; deleted?: string[]; workloads?: Workload[]; replicas: number }[] = [
  {
    name: 'the docs example on local volumes: claim then pod, one ordinal at a time, Running',
    args: [`${F}/web-local.yaml`], status: 0, outcome: 'Running', replicas: 2,
    events: [
      '0 Create Claim www-web-0 Pod web-0 in StatefulSet web success', '0 Create Pod web-0 in StatefulSet web successful',
      '2 Create Claim www-web-1 Pod web-1 in StatefulSet web success', '2 Create Pod web-1 in StatefulSet web successful',
    ],
  },
  {
    name: 'Parallel creates the three pods in its first sync',
    args: [`${F}/parallel.yaml`], status: 0, outcome: 'Running', replicas: 3,
    events: ['0 Create Pod db-0 in StatefulSet db successful', '0 Create Pod db-1 in StatefulSet db successful', '0 Create Pod db-2 in StatefulSet db successful'],
  },
  {
    // db-3's node already holds the image: it is Running and Ready at once, so db-4 follows in the same second.
    name: 'a later apply with more replicas creates the new ordinals in order',
    args: [`${F}/plain.yaml`, '--then-apply', `20s,${F}/plain-5.yaml`], status: 0, outcome: 'Running', replicas: 5,
    events: ['0', '2', '4', '20', '20'].map((at, i) => `${at} Create Pod db-${i} in StatefulSet db successful`),
  },
  {
    // processCondemned: db-2 first; db-1 only once db-2 is gone (OrderedReady waits for a terminating pod).
    name: 'a later apply with fewer replicas deletes the highest ordinals one at a time, then Running',
    args: [`${F}/plain.yaml`, '--then-apply', `20s,${F}/plain-1.yaml`], status: 0, outcome: 'Running', replicas: 1,
    events: ['0', '2', '4'].map((at, i) => `${at} Create Pod db-${i} in StatefulSet db successful`),
    deleted: ['20 Delete Pod db-2 in StatefulSet db successful', '21 Delete Pod db-1 in StatefulSet db successful'],
  },
  {
    name: 'Parallel scales down by deleting every pod outside its ordinals at once, from the highest',
    args: [`${F}/parallel.yaml`, '--then-apply', `20s,${F}/parallel-1.yaml`], status: 0, outcome: 'Running', replicas: 1,
    events: ['0 Create Pod db-0 in StatefulSet db successful', '0 Create Pod db-1 in StatefulSet db successful', '0 Create Pod db-2 in StatefulSet db successful'],
    deleted: ['20 Delete Pod db-2 in StatefulSet db successful', '20 Delete Pod db-1 in StatefulSet db successful'],
  },
  {
    name: 'a later apply with a new image is NotSimulated: no rolling update replaces the pods',
    args: [`${F}/plain.yaml`, '--then-apply', `20s,${F}/plain-new-image.yaml`], status: 1, outcome: 'NotSimulated', replicas: 3,
    events: ['0', '2', '4'].map((at, i) => `${at} Create Pod db-${i} in StatefulSet db successful`),
    workloads: [{ object: 'StatefulSet/default/db', outcome: 'NotSimulated', note: 'updating a StatefulSet\'s pod template (a rolling update) is not simulated yet: the template is no longer revision db-965d5df76 and no pod was replaced' }],
  },
];

for (const c of cases) {
  test(`statefulset: ${c.name}`, () => {
    const { status, report } = runJson('run', ...c.args);
    const r = report as typeof report & { workloads?: Workload[] };
    assert.equal(status, c.status);
    assert.equal(r.outcome, c.outcome);
    assert.deepEqual(created(r), c.events);
    assert.deepEqual(deletedOf(r), c.deleted ?? []);
    assert.deepEqual(r.workloads, c.workloads);
    assert.equal(r.objects.filter((o) => o.kind === 'Pod' && o.metadata.labels?.['statefulset.kubernetes.io/pod-name']).length, c.replicas);
    // Every step of the controller is in the trace under its own phase.
    assert.ok(r.trace.some((e) => e.phase === 'controllers.statefulset'));
  });
}

test('statefulset: the stored set, its revision and a pod as the report lists them', () => {
  const { report } = runJson('run', `${F}/web-local.yaml`);
  const set = report.objects.find((o) => o.kind === 'StatefulSet')!;
  assert.equal(set.status?.['currentRevision'], 'web-f99c84b4b');
  assert.equal(set.status?.['readyReplicas'], 2);
  const revision = report.objects.find((o) => o.kind === 'ControllerRevision')!;
  assert.equal(revision.metadata.name, 'web-f99c84b4b');
  assert.deepEqual(revision.metadata.labels, { app: 'nginx', 'controller.kubernetes.io/hash': 'f99c84b4b' });
  const pod = report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web-1')!;
  assert.equal(pod.spec?.['hostname'], 'web-1');
  assert.equal(pod.spec?.['subdomain'], 'nginx');
});

test('statefulset: explain says which ordinal was not created and why, in the controller\'s words', () => {
  const args = ['explain', `${F}/plain.yaml`, '--behavior', `${F}/stuck-behavior.yaml`];
  const json = spawnSync(process.execPath, [CLI, ...args, '--json'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(json.status, 1);
  const report = JSON.parse(json.stdout) as { outcome: string; notCreated?: { object: string; missing: string[]; why: string }[] };
  assert.equal(report.outcome, 'CrashLoopBackOff');
  assert.deepEqual(report.notCreated, [{ object: 'default/db', missing: ['db-2'], why: 'waiting for pod db-1 to be Running and Ready before the next ordinal' }]);
  const human = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.match(human.stdout, /\nNOT CREATED db-2 of StatefulSet default\/db\n {2}waiting for pod db-1 to be Running and Ready before the next ordinal\n/);
});
