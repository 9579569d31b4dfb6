// No run reports a success it did not have: a workload whose controller the engine does not run (a PodDisruptionBudget) makes the outcome NotSimulated and the exit status 1, unless --allow-unsimulated asks to judge the run by
// the rest; a manifest of several workloads says what became of each; a crash-looping pod is CrashLoopBackOff.
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
const NOTE = (kind: string, controller = kind) => `${kind} is stored, but the ${controller} controller is not simulated: nothing it would do in a cluster happened`;
const HINT = 'note: --allow-unsimulated judges the run by the workloads the engine runs';

const cases: { name: string; args: string[]; status: number; outcome: string; workloads: Workload[] | undefined; hint: boolean }[] = [
  {
    name: 'a PodDisruptionBudget alone is NotSimulated, exit 1, with why and how to judge the rest',
    args: [CJ], status: 1, outcome: 'NotSimulated', hint: true,
    workloads: [{ object: 'PodDisruptionBudget/default/nightly', outcome: 'NotSimulated', note: NOTE('PodDisruptionBudget', 'disruption') }],
  },
  {
    name: 'a PodDisruptionBudget alone stays NotSimulated with --allow-unsimulated: there is nothing else to judge by',
    args: [CJ, '--allow-unsimulated'], status: 1, outcome: 'NotSimulated', hint: false,
    workloads: [{ object: 'PodDisruptionBudget/default/nightly', outcome: 'NotSimulated', note: NOTE('PodDisruptionBudget', 'disruption') }],
  },
  {
    name: 'a pod beside a PodDisruptionBudget: NotSimulated overall, and each workload says what became of it',
    args: [MIXED], status: 1, outcome: 'NotSimulated', hint: true,
    workloads: [{ object: 'Pod/default/web', outcome: 'Running' }, { object: 'PodDisruptionBudget/default/nightly', outcome: 'NotSimulated', note: NOTE('PodDisruptionBudget', 'disruption') }],
  },
  {
    name: 'a pod beside a PodDisruptionBudget with --allow-unsimulated is judged by the pod: Running, exit 0',
    args: [MIXED, '--allow-unsimulated'], status: 0, outcome: 'Running', hint: false,
    workloads: [{ object: 'Pod/default/web', outcome: 'Running' }, { object: 'PodDisruptionBudget/default/nightly', outcome: 'NotSimulated', note: NOTE('PodDisruptionBudget', 'disruption') }],
  },
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
  const r = spawnSync(process.execPath, [CLI, 'run', MIXED], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 1);
  assert.match(r.stdout, /\nOUTCOME NotSimulated\n {2}Pod\/default\/web: Running\n {2}PodDisruptionBudget\/default\/nightly: NotSimulated \(PodDisruptionBudget is stored, but the disruption controller is not simulated: nothing it would do in a cluster happened\)\n$/);
  assert.equal(r.stderr, `${HINT}\n`);
});

test('honest outcome: a crash-looping pod is CrashLoopBackOff, as kubectl get pods shows it, exit 1', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', 'test/fixtures/kubelet/crash-loop.yaml', '--for', '5m'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 1);
  assert.match(r.stdout, /\nOUTCOME CrashLoopBackOff\n$/);
});
