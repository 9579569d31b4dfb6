// Adoption, release and a paused Deployment through the CLI: clusters holding orphan pods and ReplicaSets, or
// objects whose labels a manifest changes, and Deployments paused or resumed by kubectl apply. Every expected
// reason and message sits beside the Kubernetes source it comes from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { CLI, type Report, ROOT, runJson, type StoredObject } from './harness';

const F = 'test/fixtures/controllers';
const run = (manifest: string, cluster: string, ...more: string[]) =>
  runJson('run', `${F}/${manifest}`, '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', `${F}/${cluster}`, ...more);

/** generated names: `-<pod-template-hash>[-<5>]` and a pod's `-<5>` suffix, both in SafeEncodeString's alphabet. */
const HASH = /-[bcdfghjklmnpqrstvwxz2456789]{6,10}(-[bcdfghjklmnpqrstvwxz2456789]{5})?\b|-[bcdfghjklmnpqrstvwxz2456789]{5}$/g;
/** controllerEvents are the Deployment and ReplicaSet events as [at, reason, message], generated names as `-*`. */
const controllerEvents = (r: Report): [number, string, string][] =>
  r.events.filter((e) => /^(Deployment|ReplicaSet)\//.test(e.object)).map((e) => [e.at, e.reason, e.message.replace(HASH, '-*')]);
/** claims are the adoption and release steps as [at, controller, object, adopting | releasing]. */
const claims = (r: Report): [number, string, string, string][] =>
  r.trace.filter((e) => /^controllers\./.test(e.phase) && e.field === 'metadata.ownerReferences')
    .map((e) => [e.at ?? -1, e.object ?? '', e.step?.name ?? '', e.result.split(' ')[0] ?? '']);
const objects = (r: Report, kind: string): StoredObject[] => r.objects.filter((o) => o.kind === kind);
const owners = (o: StoredObject) => ((o.metadata as { ownerReferences?: { kind: string; name: string; controller?: boolean }[] }).ownerReferences ?? []).map((x) => `${x.kind}/${x.name}`);
const progressing = (r: Report) => {
  const d = objects(r, 'Deployment')[0];
  const c = (d?.status?.['conditions'] as { type: string; status: string; reason: string; message: string }[] | undefined)?.find((x) => x.type === 'Progressing');
  return c && [c.status, c.reason, c.message.replace(/"web-[a-z0-9]+"/, '"web-*"')];
};

/** ROLLOUT_FROM_LEGACY is a rolling update of 3 replicas from the ReplicaSet web-legacy to a new one, a pod at a time. */
const ROLLOUT_FROM_LEGACY: [number, string, string][] = [
  [0, 'ScalingReplicaSet', 'Scaled up replica set web-* from 0 to 1'], [0, 'SuccessfulCreate', 'Created pod: web-*'],
  [2, 'ScalingReplicaSet', 'Scaled down replica set web-legacy from 3 to 2'], [2, 'SuccessfulDelete', 'Deleted pod: web-legacy-*'],
  [2, 'ScalingReplicaSet', 'Scaled up replica set web-* from 1 to 2'], [2, 'SuccessfulCreate', 'Created pod: web-*'],
  [4, 'ScalingReplicaSet', 'Scaled down replica set web-legacy from 2 to 1'], [4, 'SuccessfulDelete', 'Deleted pod: web-legacy-*'],
  [4, 'ScalingReplicaSet', 'Scaled up replica set web-* from 2 to 3'], [4, 'SuccessfulCreate', 'Created pod: web-*'],
  [4, 'ScalingReplicaSet', 'Scaled down replica set web-legacy from 1 to 0'], [4, 'SuccessfulDelete', 'Deleted pod: web-legacy-*'],
];

const cases: {
  name: string; manifest: string; cluster: string; kubectl: string;
  claims: [number, string, string, string][]; events: [number, string, string][];
  check?: (r: Report) => void;
}[] = [
  {
    // replica_set.go syncReplicaSet -> claimPods -> controller_ref_manager.go ClaimPods/AdoptPod; no event is recorded
    // for an adoption. manageReplicas then creates only what is missing: "Created pod: %v" (controller_utils.go).
    name: 'a new ReplicaSet of 3 adopts the 2 bare pods its selector matches and creates 1 more',
    manifest: 'frontend-rs-3.yaml', cluster: 'frontend-orphans-cluster.yaml', kubectl: 'replicaset.apps/frontend created',
    claims: [[0, 'ReplicaSet/default/frontend', 'frontend-a', 'adopting'], [0, 'ReplicaSet/default/frontend', 'frontend-b', 'adopting']],
    events: [[0, 'SuccessfulCreate', 'Created pod: frontend-*']],
    check: (r) => {
      const pods = objects(r, 'Pod');
      assert.deepEqual(pods.map((p) => [p.metadata.name.replace(HASH, '-*'), owners(p)]).sort(), [
        ['backend-a', []], ['frontend-*', ['ReplicaSet/frontend']], ['frontend-a', ['ReplicaSet/frontend']], ['frontend-b', ['ReplicaSet/frontend']],
      ]);
      // The patch goes through the API server as a strategic merge patch (RealPodControl.PatchPod, types.StrategicMergePatchType).
      const step = r.trace.find((e) => e.step?.name === 'frontend-a' && e.field === 'metadata.ownerReferences');
      assert.equal(step?.detail['contentType'], 'application/strategic-merge-patch+json');
      assert.ok(r.trace.some((e) => e.phase === 'apiserver.admit.mutating' && /merged the strategic merge patch into Pod "frontend-a"/.test(e.result)));
    },
  },
  {
    // All matching orphans are adopted (ClaimPods has no limit), then manageReplicas deletes the surplus in
    // getPodsToDelete's order: "Deleted pod: %v" (controller_utils.go RealPodControl.DeletePod).
    name: 'a new ReplicaSet of 1 adopts both matching bare pods, then deletes one of them',
    manifest: 'frontend-rs-1.yaml', cluster: 'frontend-orphans-cluster.yaml', kubectl: 'replicaset.apps/frontend created',
    claims: [[0, 'ReplicaSet/default/frontend', 'frontend-a', 'adopting'], [0, 'ReplicaSet/default/frontend', 'frontend-b', 'adopting']],
    events: [[0, 'SuccessfulDelete', 'Deleted pod: frontend-b']],
  },
  {
    // ClaimPods/ReleasePod: an owned pod whose labels stopped matching loses its controller reference; the ReplicaSet
    // then has 2 of 3 and creates a replacement. The released pod keeps running, owned by nobody.
    name: 'relabelling a pod a ReplicaSet adopted makes the ReplicaSet release it and create a replacement',
    manifest: 'frontend-manual-relabel.yaml', cluster: 'frontend-adopted-cluster.yaml', kubectl: 'pod/frontend-manual configured',
    claims: [[0, 'ReplicaSet/default/frontend', 'frontend-manual', 'releasing']],
    events: [[0, 'SuccessfulCreate', 'Created pod: frontend-*']],
    check: (r) => {
      const manual = objects(r, 'Pod').find((p) => p.metadata.name === 'frontend-manual');
      assert.deepEqual(manual && owners(manual), []);
      const step = r.trace.find((e) => e.step?.name === 'frontend-manual' && e.field === 'metadata.ownerReferences');
      assert.match(String(step?.detail['body']), /^\{"metadata":\{"uid":"[0-9a-f-]+","ownerReferences":\[\{"\$patch":"delete","uid":"[0-9a-f-]+"\}\]\}\}$/);
    },
  },
  {
    // deployment_controller.go getReplicaSetsForDeployment -> ClaimReplicaSets/AdoptReplicaSet. The adopted
    // ReplicaSet has the Deployment's template (EqualIgnoreHash), so it is the new one: no ReplicaSet and no pod is
    // made, it only gets the revision annotations (sync.go getNewReplicaSet, deployment_util.go SetNewReplicaSetAnnotations).
    name: 'a new Deployment adopts the bare ReplicaSet with its template and makes no ReplicaSet of its own',
    manifest: 'web-unchanged.yaml', cluster: 'web-legacy-cluster.yaml', kubectl: 'deployment.apps/web created',
    claims: [[0, 'Deployment/default/web', 'web-legacy', 'adopting']],
    events: [],
    check: (r) => {
      const sets = objects(r, 'ReplicaSet');
      assert.deepEqual(sets.map((s) => [s.metadata.name, owners(s), s.metadata.annotations?.['deployment.kubernetes.io/revision']]), [['web-legacy', ['Deployment/web'], '1']]);
      // progress.go: NewReplicaSetAvailable `ReplicaSet %q has successfully progressed.`
      assert.deepEqual(progressing(r), ['True', 'NewReplicaSetAvailable', 'ReplicaSet "web-*" has successfully progressed.']);
    },
  },
  {
    // The adopted ReplicaSet has another template: it is an old one and the rolling update scales it down
    // (sync.go "Scaled up replica set %s from 0 to %d", scaleReplicaSet "Scaled %s replica set %s from %d to %d").
    name: 'a new Deployment with another image adopts the bare ReplicaSet as its old one and rolls out from it',
    manifest: 'web-v2.yaml', cluster: 'web-legacy-cluster.yaml', kubectl: 'deployment.apps/web created',
    claims: [[0, 'Deployment/default/web', 'web-legacy', 'adopting']],
    events: ROLLOUT_FROM_LEGACY,
  },
  {
    // ClaimReplicaSets/ReleaseReplicaSet: the relabelled ReplicaSet is released (it keeps its pods); the Deployment,
    // left without a ReplicaSet, makes one (sync.go "Scaled up replica set %s from 0 to %d").
    name: 'relabelling a ReplicaSet a Deployment adopted makes the Deployment release it and make its own',
    manifest: 'web-legacy-relabel.yaml', cluster: 'web-adopted-legacy-cluster.yaml', kubectl: 'replicaset.apps/web-legacy configured',
    claims: [[0, 'Deployment/default/web', 'web-legacy', 'releasing']],
    events: [[0, 'ScalingReplicaSet', 'Scaled up replica set web-* from 0 to 3'], [0, 'SuccessfulCreate', 'Created pod: web-*'], [0, 'SuccessfulCreate', 'Created pod: web-*'], [0, 'SuccessfulCreate', 'Created pod: web-*']],
    check: (r) => {
      const legacy = objects(r, 'ReplicaSet').find((s) => s.metadata.name === 'web-legacy');
      assert.deepEqual(legacy && owners(legacy), []);
      assert.equal(objects(r, 'Pod').length, 6, 'the released ReplicaSet keeps its 3 pods beside the new 3');
    },
  },
  {
    // deployment_controller.go syncDeployment: paused -> sync (sync.go), which makes no new ReplicaSet;
    // checkPausedConditions: Progressing Unknown DeploymentPaused "Deployment is paused". No event.
    name: 'a paused Deployment given a new image rolls nothing out and says it is paused',
    manifest: 'web-v2-paused.yaml', cluster: 'web-v1-cluster.yaml', kubectl: 'deployment.apps/web configured',
    claims: [], events: [],
    check: (r) => {
      assert.equal(objects(r, 'ReplicaSet').length, 1);
      assert.deepEqual(progressing(r), ['Unknown', 'DeploymentPaused', 'Deployment is paused']);
      assert.ok(r.trace.some((e) => e.field === 'spec.paused' && /none is made while paused/.test(e.result)));
      const d = objects(r, 'Deployment')[0];
      // No replica has the new template (sync.go calculateStatus); updatedReplicas 0 is omitted (omitempty).
      assert.equal(d?.status?.['updatedReplicas'], undefined);
      assert.equal(d?.status?.['replicas'], 3);
    },
  },
  {
    // sync.go sync -> scale: a paused Deployment still scales its one active ReplicaSet ("Scaled %s replica set %s from %d to %d").
    name: 'a paused Deployment given a new image and 5 replicas scales the ReplicaSet it has from 3 to 5',
    manifest: 'web-scale-up-paused.yaml', cluster: 'web-v1-cluster.yaml', kubectl: 'deployment.apps/web configured',
    claims: [],
    events: [[0, 'ScalingReplicaSet', 'Scaled up replica set web-* from 3 to 5'], [0, 'SuccessfulCreate', 'Created pod: web-*'], [0, 'SuccessfulCreate', 'Created pod: web-*']],
    check: (r) => {
      const sets = objects(r, 'ReplicaSet');
      assert.equal(sets.length, 1);
      const image = (sets[0]?.spec?.['template'] as { spec: { containers: { image: string }[] } }).spec.containers[0]?.image;
      assert.equal(image, 'nginx:1.27', 'the scaled ReplicaSet keeps the old template');
    },
  },
  {
    // checkPausedConditions on resume: Progressing Unknown DeploymentResumed "Deployment is resumed"; the rollout
    // follows (sync.go "Scaled up replica set %s from 0 to %d"; progress.go NewReplicaSetAvailable).
    name: 'applying a paused Deployment without spec.paused resumes it: DeploymentResumed, then its first ReplicaSet',
    manifest: 'web-unchanged.yaml', cluster: 'web-paused-cluster.yaml', kubectl: 'deployment.apps/web configured',
    claims: [],
    events: [[0, 'ScalingReplicaSet', 'Scaled up replica set web-* from 0 to 3'], [0, 'SuccessfulCreate', 'Created pod: web-*'], [0, 'SuccessfulCreate', 'Created pod: web-*'], [0, 'SuccessfulCreate', 'Created pod: web-*']],
    check: (r) => {
      const resumed = r.trace.find((e) => e.phase === 'controllers.deployment' && /Progressing=Unknown \(DeploymentResumed\)/.test(e.result));
      assert.equal(resumed?.at, 0);
      const conditions = (resumed?.detail['status'] as { conditions: { reason: string; message: string }[] }).conditions;
      assert.deepEqual(conditions.find((c) => c.reason === 'DeploymentResumed')?.message, 'Deployment is resumed');
      assert.deepEqual(progressing(r), ['True', 'NewReplicaSetAvailable', 'ReplicaSet "web-*" has successfully progressed.']);
    },
  },
  {
    // The paused Deployment had adopted web-legacy (nginx:1.27) and made nothing for nginx:1.28; resumed, it rolls out.
    name: 'resuming a paused Deployment whose new image was never rolled out rolls it out from the ReplicaSet it has',
    manifest: 'web-v2.yaml', cluster: 'web-paused-legacy-cluster.yaml', kubectl: 'deployment.apps/web configured',
    claims: [],
    events: ROLLOUT_FROM_LEGACY,
    check: (r) => assert.deepEqual(progressing(r), ['True', 'NewReplicaSetAvailable', 'ReplicaSet "web-*" has successfully progressed.']),
  },
];

test('a Deployment created paused gets no ReplicaSet: Progressing Unknown DeploymentPaused, Available False, outcome Pending', () => {
  const { status, report } = runJson('run', `${F}/web-paused-new.yaml`);
  assert.equal(status, 1, 'Pending stops short of the lifecycle (src/cli/main.ts exitCodeOf)');
  assert.equal(report.kubectl, 'deployment.apps/web created');
  assert.equal(report.outcome, 'Pending');
  assert.equal(objects(report, 'ReplicaSet').length, 0);
  assert.deepEqual(controllerEvents(report), []);
  // sync.go checkPausedConditions, then calculateStatus: MinimumReplicasUnavailable "Deployment does not have minimum availability."
  const d = objects(report, 'Deployment')[0];
  assert.deepEqual((d?.status?.['conditions'] as { type: string; status: string; reason: string; message: string }[]).map((c) => [c.type, c.status, c.reason, c.message]), [
    ['Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused'],
    ['Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'],
  ]);
});

for (const c of cases) {
  test(c.name, () => {
    const { status, report } = run(c.manifest, c.cluster);
    assert.equal(status, 0);
    // staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go: "created" for a new object, "configured" for a non-empty patch.
    assert.equal(report.kubectl, c.kubectl);
    assert.deepEqual(claims(report), c.claims);
    assert.deepEqual(controllerEvents(report), c.events);
    c.check?.(report);
  });
}

test('while paused the progress deadline is not counted: a 10 s deadline, 60 s later, still DeploymentPaused', () => {
  // sync.go sync writes the status with syncDeploymentStatus, which never estimates progress (progress.go is not reached).
  const { status, report } = run('web-v2-paused-deadline.yaml', 'web-v1-cluster.yaml', '--for', '60s');
  assert.equal(status, 0);
  assert.deepEqual(progressing(report), ['Unknown', 'DeploymentPaused', 'Deployment is paused']);
  assert.ok(!report.events.some((e) => e.reason === 'ProgressDeadlineExceeded'));
});

test('--then-apply pauses a rollout after its first step and resumes it later: it waits paused, then finishes', () => {
  // kubectl apply of spec.paused true mid-rollout, then of the manifest without it (apply.go prints "configured"
  // each time). Paused: sync.go sync only scales, so the new ReplicaSet stays at 1 and the old one at 3;
  // checkPausedConditions writes DeploymentPaused, then DeploymentResumed on resume, and the rollout goes on.
  const { status, report } = runJson('run', `${F}/web-v2.yaml`, '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', `${F}/web-v1-cluster.yaml`,
    '--then-apply', `1s,${F}/web-v2-paused.yaml`, '--then-apply', `20s,${F}/web-v2.yaml`);
  assert.equal(status, 0);
  assert.equal(report.kubectl, 'deployment.apps/web configured\ndeployment.apps/web configured\ndeployment.apps/web configured');
  const reasons = report.trace.filter((e) => e.phase === 'controllers.deployment' && /Progressing=Unknown/.test(e.result)).map((e) => [e.at, /\((Deployment\w+)\)$/.exec(e.result)?.[1]]);
  assert.deepEqual(reasons[0], [1, 'DeploymentPaused']);
  assert.deepEqual(reasons.find((x) => x[1] === 'DeploymentResumed'), [20, 'DeploymentResumed']);
  assert.deepEqual(controllerEvents(report).filter(([, reason]) => reason === 'ScalingReplicaSet'), [
    [0, 'ScalingReplicaSet', 'Scaled up replica set web-* from 0 to 1'],
    [20, 'ScalingReplicaSet', 'Scaled down replica set web-* from 3 to 2'],
    [20, 'ScalingReplicaSet', 'Scaled up replica set web-* from 1 to 2'],
    [22, 'ScalingReplicaSet', 'Scaled down replica set web-* from 2 to 1'],
    [22, 'ScalingReplicaSet', 'Scaled up replica set web-* from 2 to 3'],
    [22, 'ScalingReplicaSet', 'Scaled down replica set web-* from 1 to 0'],
  ]);
  assert.deepEqual(progressing(report), ['True', 'NewReplicaSetAvailable', 'ReplicaSet "web-*" has successfully progressed.']);
});

test('--then-apply without a file is a usage error', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', `${F}/web-v2.yaml`, '--then-apply', '5s'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /invalid value for --then-apply: "5s" \(AFTER,FILE/);
});

// progress.go syncRolloutStatus / DeploymentTimedOut and requeueStuckDeployment (a sync at lastUpdateTime + deadline
// + 1 s): ProgressDeadlineExceeded `ReplicaSet %q has timed out progressing.`. While paused the controller runs
// sync.go sync, which never estimates progress; the resume's DeploymentResumed condition restarts the count.
const deadlineCases: { name: string; thenApply: string[]; want: [number, string][] }[] = [
  {
    name: 'a rollout whose new pod never gets ready times out 30 s (+1 s requeue) after its last progress',
    thenApply: [], want: [[0, 'ReplicaSetUpdated'], [31, 'ProgressDeadlineExceeded']],
  },
  {
    name: 'paused at 5 s and resumed at 100 s, the same rollout times out only 30 s (+1 s) after the resume',
    thenApply: ['--then-apply', `5s,${F}/web-stuck-paused.yaml`, '--then-apply', `100s,${F}/web-stuck.yaml`],
    want: [[0, 'ReplicaSetUpdated'], [5, 'DeploymentPaused'], [100, 'DeploymentResumed'], [131, 'ProgressDeadlineExceeded']],
  },
];
for (const c of deadlineCases) {
  test(`progress deadline: ${c.name}`, () => {
    const { report } = runJson('run', `${F}/web-stuck.yaml`, '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', `${F}/web-v1-cluster.yaml`, ...c.thenApply);
    const seen: [number, string][] = [];
    for (const e of report.trace) {
      const reason = e.phase === 'controllers.deployment' ? /Progressing=\w+ \((\w+)\)$/.exec(e.result)?.[1] : undefined;
      if (reason && reason !== 'NewReplicaSetCreated' && seen.at(-1)?.[1] !== reason) seen.push([e.at ?? -1, reason]);
    }
    assert.deepEqual(seen, c.want);
    assert.deepEqual(progressing(report), ['False', 'ProgressDeadlineExceeded', 'ReplicaSet "web-*" has timed out progressing.']);
  });
}
