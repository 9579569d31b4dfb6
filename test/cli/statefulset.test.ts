// The StatefulSet controller through the CLI: a set runs its ordinal pods and claims to Running, a later apply
// scales it up the same way or down from the highest ordinal, and a later apply with a new template rolls it out —
// RollingUpdate from the highest ordinal, one pod at a time, down to the partition; OnDelete not at all — keeping
// revisionHistoryLimit old revisions. See pkg/controller/statefulset (stateful_set_control.go updateStatefulSet,
// getStatefulSetRevisions, truncateHistory; stateful_set_utils.go newVersionedStatefulSetPod, completeRollingUpdate)
// and pkg/features/kube_features.go (MaxUnavailableStatefulSet) at kubernetes v1.36.3.
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
    // The correlator folds each pod's second SuccessfulCreate into its first: count 2, at the last time.
    name: 'a later apply with a new image is a rolling update: db-2, then db-1, then db-0 deleted and made again, Running',
    args: [`${F}/plain.yaml`, '--then-apply', `20s,${F}/plain-new-image.yaml`], status: 0, outcome: 'Running', replicas: 3,
    events: ['27', '24', '21'].map((at, i) => `${at} Create Pod db-${i} in StatefulSet db successful`),
    deleted: ['20 Delete Pod db-2 in StatefulSet db successful', '23 Delete Pod db-1 in StatefulSet db successful', '26 Delete Pod db-0 in StatefulSet db successful'],
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

/** OLD and NEW are the revisions of plain.yaml's template (nginx-slim:0.21) and of its new image (0.22). */
const OLD = 'db-965d5df76';
const NEW = 'db-76559fb795';

/**
 * rollout is the update's timeline from the trace, from `from` seconds on: each pod the controller deletes or creates,
 * and each pod the kubelet reports Ready.
 */
const rollout = (r: Report, from: number): string[] => r.trace
  .filter((e) => (e.at ?? 0) >= from && ((e.phase === 'controllers.statefulset' && /^(deleting|created) pod /.test(e.result)) || (e.phase === 'kubelet.status' && / Ready True/.test(e.result))))
  .map((e) => (e.phase === 'kubelet.status' ? `${e.at} ready ${e.object?.split('/')[2]}` : `${e.at} ${e.result.startsWith('deleting') ? 'delete' : 'create'} ${e.result.split(' ')[2]!.replace(':', '')}`));

/** The whole OrderedReady update: each pod deleted only once the one above it is made again and Ready. */
const ONE_AT_A_TIME = ['20 delete db-2', '21 create db-2', '23 ready db-2', '23 delete db-1', '24 create db-1', '26 ready db-1', '26 delete db-0', '27 create db-0', '27 ready db-0'];

/** DONE is the status of a finished update: completeRollingUpdate made the update revision current. */
const DONE = { observedGeneration: 2, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, currentRevision: NEW, updateRevision: NEW, collisionCount: 0, availableReplicas: 3 };

const rollingCases: { name: string; args: string[]; from?: number; rollout: string[]; status: Record<string, unknown>; revisions: string[]; pods: string[]; strategy?: unknown }[] = [
  {
    name: 'RollingUpdate, OrderedReady: from the highest ordinal, each made again at the new revision and Ready before the next',
    args: [`${F}/plain.yaml`, '--then-apply', `20s,${F}/plain-new-image.yaml`],
    rollout: ONE_AT_A_TIME, status: DONE, revisions: [`${NEW} 2`, `${OLD} 1`], pods: [`db-0 ${NEW}`, `db-1 ${NEW}`, `db-2 ${NEW}`],
  },
  {
    // The update loop is not burst by Parallel: a terminating or unavailable pod stops it whatever the policy.
    name: 'RollingUpdate, Parallel: still one pod at a time',
    args: [`${F}/parallel.yaml`, '--then-apply', `20s,${F}/parallel-new-image.yaml`],
    rollout: ONE_AT_A_TIME, status: DONE, revisions: [`${NEW} 2`, `${OLD} 1`], pods: [`db-0 ${NEW}`, `db-1 ${NEW}`, `db-2 ${NEW}`],
  },
  {
    // MaxUnavailableStatefulSet is off by default in 1.36: the API server drops maxUnavailable, the controller
    // takes the one-at-a-time path.
    name: 'maxUnavailable 2 is dropped and ignored: the MaxUnavailableStatefulSet gate is off in 1.36',
    args: [`${F}/plain.yaml`, '--then-apply', `20s,${F}/plain-max-unavailable.yaml`],
    rollout: ONE_AT_A_TIME, status: DONE, revisions: [`${NEW} 2`, `${OLD} 1`], pods: [`db-0 ${NEW}`, `db-1 ${NEW}`, `db-2 ${NEW}`],
    strategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
  },
  {
    name: 'partition 2: only db-2 is updated; db-0 and db-1 keep the current revision, which stays current',
    args: [`${F}/plain.yaml`, '--then-apply', `20s,${F}/plain-partition-2.yaml`],
    rollout: ['20 delete db-2', '21 create db-2', '23 ready db-2'],
    status: { ...DONE, currentReplicas: 2, updatedReplicas: 1, currentRevision: OLD },
    revisions: [`${NEW} 2`, `${OLD} 1`], pods: [`db-0 ${OLD}`, `db-1 ${OLD}`, `db-2 ${NEW}`],
  },
  {
    // updatedReplicas 0 is omitted (omitempty).
    name: 'OnDelete: the new revision is made and is the update revision, and no pod is replaced',
    args: [`${F}/ondelete.yaml`, '--then-apply', `20s,${F}/ondelete-new-image.yaml`],
    rollout: [], status: { observedGeneration: 2, replicas: 3, readyReplicas: 3, currentReplicas: 3, currentRevision: OLD, updateRevision: NEW, collisionCount: 0, availableReplicas: 3 },
    revisions: [`${NEW} 2`, `${OLD} 1`], pods: [`db-0 ${OLD}`, `db-1 ${OLD}`, `db-2 ${OLD}`],
  },
  {
    // truncateHistory: once status.currentRevision is the new one and no pod is at the old, the old is not live.
    name: 'revisionHistoryLimit 0: the old revision is deleted once the update is done',
    args: [`${F}/history-0.yaml`, '--then-apply', `20s,${F}/history-0-new-image.yaml`],
    rollout: ONE_AT_A_TIME, status: DONE, revisions: [`${NEW} 2`], pods: [`db-0 ${NEW}`, `db-1 ${NEW}`, `db-2 ${NEW}`],
  },
  {
    // isUnavailable: the next delete waits until the new pod has been Ready for minReadySeconds. The run ends with the
    // update done, db-0 Ready and not yet available. Every pod is Running and Ready between two steps: the run goes on.
    name: 'minReadySeconds 5: each pod is deleted 5 s after the one above it is Ready at the new revision',
    args: [`${F}/min-ready.yaml`, '--then-apply', `30s,${F}/min-ready-new-image.yaml`], from: 30,
    rollout: ['30 delete db-2', '31 create db-2', '33 ready db-2', '38 delete db-1', '39 create db-1', '41 ready db-1', '46 delete db-0', '47 create db-0', '47 ready db-0'],
    status: { ...DONE, availableReplicas: 2 }, revisions: [`${NEW} 2`, `${OLD} 1`], pods: [`db-0 ${NEW}`, `db-1 ${NEW}`, `db-2 ${NEW}`],
  },
  {
    // getStatefulSetRevisions: a template equal to an earlier revision rolls back to it, with the next number.
    name: 'the old template applied again rolls back: its revision becomes number 3 and the pods go back to it',
    args: [`${F}/plain.yaml`, '--then-apply', `20s,${F}/plain-new-image.yaml`, '--then-apply', `40s,${F}/plain.yaml`], from: 40,
    rollout: ['40 delete db-2', '41 create db-2', '41 ready db-2', '41 delete db-1', '42 create db-1', '42 ready db-1', '42 delete db-0', '43 create db-0', '43 ready db-0'],
    status: { ...DONE, observedGeneration: 3, currentRevision: OLD, updateRevision: OLD }, revisions: [`${NEW} 2`, `${OLD} 3`], pods: [`db-0 ${OLD}`, `db-1 ${OLD}`, `db-2 ${OLD}`],
  },
];

for (const c of rollingCases) {
  test(`statefulset update: ${c.name}`, () => {
    const { status, report } = runJson('run', ...c.args);
    const r = report as typeof report & { workloads?: Workload[] };
    // A template change is simulated now: never NotSimulated, no note.
    assert.equal(status, 0);
    assert.equal(r.outcome, 'Running');
    assert.equal(r.workloads, undefined);
    assert.deepEqual(rollout(r, c.from ?? 20), c.rollout);
    const set = r.objects.find((o) => o.kind === 'StatefulSet')!;
    assert.deepEqual(set.status, c.status);
    if (c.strategy) assert.deepEqual(set.spec?.['updateStrategy'], c.strategy);
    const revisions = r.objects.filter((o) => o.kind === 'ControllerRevision') as unknown as { metadata: { name: string }; revision: number }[];
    assert.deepEqual(revisions.map((o) => `${o.metadata.name} ${o.revision}`).sort(), c.revisions);
    const pods = r.objects.filter((o) => o.kind === 'Pod' && o.metadata.labels?.['statefulset.kubernetes.io/pod-name']);
    assert.deepEqual(pods.map((p) => `${p.metadata.name} ${p.metadata.labels?.['controller-revision-hash']}`).sort(), c.pods);
    // Each pod runs its revision's image.
    for (const p of pods) {
      const image = (p.spec?.['containers'] as { image: string }[])[0]!.image;
      assert.equal(image, p.metadata.labels?.['controller-revision-hash'] === NEW ? 'registry.k8s.io/nginx-slim:0.22' : 'registry.k8s.io/nginx-slim:0.21', p.metadata.name);
    }
  });
}

test('statefulset update: the status during a rolling update counts the deleted pod out of currentReplicas at once', () => {
  const { report } = runJson('run', `${F}/plain.yaml`, '--then-apply', `20s,${F}/plain-new-image.yaml`);
  // updateStatefulSet: status.CurrentReplicas-- after DeleteStatefulPod; completeRollingUpdate at the end.
  const trail = report.trace.filter((e) => e.phase === 'controllers.statefulset' && e.field === 'status' && (e.at ?? 0) >= 20).map((e) => {
    const s = e.detail['status'] as Record<string, number | string | undefined>;
    return `${e.at} ${s['replicas']} replicas ${s['readyReplicas'] ?? 0} ready, ${s['currentReplicas'] ?? 0} at ${s['currentRevision']}, ${s['updatedReplicas'] ?? 0} at ${s['updateRevision']}`;
  });
  assert.deepEqual(trail, [
    `20 3 replicas 3 ready, 2 at ${OLD}, 0 at ${NEW}`,
    `21 2 replicas 2 ready, 2 at ${OLD}, 0 at ${NEW}`,
    `21 3 replicas 2 ready, 2 at ${OLD}, 1 at ${NEW}`,
    `23 3 replicas 3 ready, 1 at ${OLD}, 1 at ${NEW}`,
    `24 2 replicas 2 ready, 1 at ${OLD}, 1 at ${NEW}`,
    `24 3 replicas 2 ready, 1 at ${OLD}, 2 at ${NEW}`,
    `26 3 replicas 3 ready, 0 at ${OLD}, 2 at ${NEW}`,
    `27 2 replicas 2 ready, 0 at ${OLD}, 2 at ${NEW}`,
    `27 3 replicas 2 ready, 0 at ${OLD}, 3 at ${NEW}`,
    `27 3 replicas 3 ready, 3 at ${NEW}, 3 at ${NEW}`,
  ]);
  // The new revision is created in the sync that sees the new template, before the first delete.
  const first = report.trace.find((e) => e.phase === 'controllers.statefulset' && (e.at ?? 0) >= 20)!;
  assert.equal(first.result, `the pod template is no longer revision ${OLD}: created ControllerRevision ${NEW} (revision 2), the update revision`);
});

test('statefulset update: revisionHistoryLimit 0 deletes the old revision in the sync after completeRollingUpdate', () => {
  const { report } = runJson('run', `${F}/history-0.yaml`, '--then-apply', `20s,${F}/history-0-new-image.yaml`);
  const deletes = report.trace.filter((e) => e.phase === 'controllers.statefulset' && e.result.startsWith('deleted ControllerRevision')).map((e) => `${e.at} ${e.result}`);
  assert.deepEqual(deletes, [`27 deleted ControllerRevision ${OLD} (revision 1): no pod or status names it, and only revisionHistoryLimit 0 old revisions are kept`]);
});

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
