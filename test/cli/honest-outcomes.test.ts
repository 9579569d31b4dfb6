// No run reports a success it did not have: a PodDisruptionBudget is no workload (the disruption controller runs, and a
// budget runs no pod), so the run is judged by the workloads beside it; a manifest of several workloads says what became
// of each; a crash-looping pod is CrashLoopBackOff; a ReplicationController, once NotSimulated, is run and judged as a
// ReplicaSet is. No stored kind is NotSimulated any more (test/engine/outcome.test.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import test from 'node:test';
import { CLI, ROOT, runJson } from './harness';

interface Workload {
  object: string;
  outcome: string;
  note?: string;
}

const CJ = 'test/fixtures/outcomes/pdb.yaml';
const MIXED = 'test/fixtures/outcomes/pod-and-pdb.yaml';
const CRONJOB = 'test/fixtures/outcomes/cronjob.yaml';
const CRONJOB_MIXED = 'test/fixtures/outcomes/pod-and-cronjob.yaml';
const HINT = 'note: --allow-unsimulated judges the run by the workloads the engine runs';

const cases: { name: string; args: string[]; status: number; outcome: string; workloads: Workload[] | undefined; hint: boolean }[] = [
  { name: 'a PodDisruptionBudget alone runs nothing: Succeeded once stored, as a ConfigMap is, exit 0', args: [CJ], status: 0, outcome: 'Succeeded', hint: false, workloads: undefined },
  { name: 'a PodDisruptionBudget alone is Succeeded with --allow-unsimulated too: nothing is left unsimulated', args: [CJ, '--allow-unsimulated'], status: 0, outcome: 'Succeeded', hint: false, workloads: undefined },
  { name: 'a pod beside a PodDisruptionBudget speaks by the outcome alone: the budget is no workload', args: [MIXED], status: 0, outcome: 'Running', hint: false, workloads: undefined },
  { name: 'one pod speaks by the outcome alone', args: ['examples/pod.yaml'], status: 0, outcome: 'Running', hint: false, workloads: undefined },
  { name: 'a deleted PodDisruptionBudget is Deleted: its deletion is the API server\'s and the garbage collector\'s', args: [CJ, '--delete'], status: 0, outcome: 'Deleted', hint: false, workloads: undefined },
  // The CronJob controller runs: before its first schedule time (03:00, past the 10-minute run) a CronJob is Pending.
  { name: 'a CronJob is simulated: Pending before its first schedule time, no longer NotSimulated', args: [CRONJOB], status: 1, outcome: 'Pending', hint: false, workloads: undefined },
  {
    name: 'a pod beside a CronJob that has not run yet: Pending, each workload with its own',
    args: [CRONJOB_MIXED], status: 1, outcome: 'Pending', hint: false,
    workloads: [{ object: 'Pod/default/web', outcome: 'Running' }, { object: 'CronJob/default/nightly', outcome: 'Pending' }],
  },
  { name: 'a deleted CronJob is Deleted', args: [CRONJOB, '--delete'], status: 0, outcome: 'Deleted', hint: false, workloads: undefined },
];

for (const c of cases) {
  test(`honest outcome: ${c.name}`, () => {
    const { status, report, stderr } = runJson('run', ...c.args);
    const r = report as typeof report & { workloads?: Workload[] };
    assert.equal(status, c.status);
    assert.equal(r.outcome, c.outcome);
    assert.deepEqual(r.workloads, c.workloads);
    assert.equal(stderr.includes(HINT), c.hint);
    // Nothing made a pod for a workload the engine did not run.
    assert.deepEqual(r.objects.filter((o) => o.kind === 'Pod').map((o) => o.metadata.name), c.args[0] === MIXED || c.args[0] === CRONJOB_MIXED ? ['web'] : c.args[0] === CJ || c.args[0] === CRONJOB ? [] : ['web']);
  });
}

test('honest outcome: the human report lists each workload under the outcome', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', CRONJOB_MIXED], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 1);
  assert.match(r.stdout, /\nOUTCOME Pending\n {2}Pod\/default\/web: Running\n {2}CronJob\/default\/nightly: Pending\n$/);
  assert.equal(r.stderr, '');
});

test('honest outcome: a crash-looping pod is CrashLoopBackOff, as kubectl get pods shows it, exit 1', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', 'test/fixtures/kubelet/crash-loop.yaml', '--for', '5m'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 1);
  assert.match(r.stdout, /\nOUTCOME CrashLoopBackOff\n$/);
});

test('honest outcome: a ReplicationController is run as a ReplicaSet is: its pods Running, the outcome Running, exit 0', () => {
  const { status, report } = runJson('run', 'test/fixtures/outcomes/replication-controller.yaml');
  const r = report as typeof report & { workloads?: Workload[] };
  // kubectl maps replicationcontrollers (core v1) through discovery as the real one does: the apply succeeds.
  assert.equal(report.kubectl, 'replicationcontroller/web created');
  assert.equal(report.outcome, 'Running');
  assert.equal(r.workloads, undefined);
  assert.equal(status, 0);
  const pods = report.objects.filter((o) => o.kind === 'Pod' && o.metadata.name.startsWith('web-'));
  assert.equal(pods.length, 2, 'its controller made its two pods');
});
