// Runaway runs are bounded: a run stops at its budget of steps or stored objects, or at its time limit while a
// controller is still at work, says which and how to raise it, exits 1 (it stopped short) and, with --json, reports
// `stopped` in a valid report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT } from './harness';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000, maxBuffer: 512 * 1024 * 1024 });
  assert.equal(r.error, undefined, `pod-lifecycle ${args.join(' ')}: ${r.error?.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const cases: { name: string; args: string[]; stopped: { budget: string; limit: number; busy?: string[] }; message: string }[] = [
  {
    name: 'a Deployment of 100,000 replicas, at a budget of steps', args: ['run', 'test/fixtures/budget/replicas-100000.yaml', '--max-steps', '20000'],
    stopped: { budget: 'steps', limit: 20000 }, message: 'stopped: the run reached its budget of 20000 steps (trace entries) before the workload settled; raise it with --max-steps N',
  },
  {
    name: 'a Deployment of 100,000 replicas, at a budget of objects', args: ['run', 'test/fixtures/budget/replicas-100000.yaml', '--max-objects', '400'],
    stopped: { budget: 'objects', limit: 400 }, message: 'stopped: the run reached its budget of 400 stored objects before the workload settled; raise it with --max-objects N',
  },
  {
    name: 'a Job of 100,000 completions', args: ['run', 'test/fixtures/budget/job-100000.yaml', '--max-steps', '3000'],
    stopped: { budget: 'steps', limit: 3000 }, message: 'stopped: the run reached its budget of 3000 steps (trace entries) before the workload settled; raise it with --max-steps N',
  },
  {
    name: 'a crash loop run for eleven thousand years', args: ['run', 'test/fixtures/kubelet/crash-loop.yaml', '--for', '99999999h', '--max-steps', '5000'],
    stopped: { budget: 'steps', limit: 5000 }, message: 'stopped: the run reached its budget of 5000 steps (trace entries) before the workload settled; raise it with --max-steps N',
  },
  {
    name: 'a ReplicaSet still creating pods at the 10-minute limit (its client limited to one request every 10 s)',
    args: ['run', 'test/fixtures/apps/deployment-100.yaml', '--cluster', 'test/fixtures/webhooks/nodes.yaml', '--cluster', 'test/fixtures/budget/controller-manager-slow.yaml'],
    stopped: { budget: 'time', limit: 600, busy: ['replicaset-controller'] },
    message: 'stopped: the run reached its time limit of 10 minutes of virtual time before the workload settled: replicaset-controller still at work; give it longer with --for DURATION',
  },
];

for (const c of cases) {
  test(`the run stops at its budget: ${c.name}`, () => {
    const human = cli(...c.args);
    assert.equal(human.status, 1);
    assert.equal(human.stderr.trim(), c.message);
    const json = cli(...c.args, '--json');
    assert.equal(json.status, 1);
    const report = JSON.parse(json.stdout) as { stopped?: unknown; trace: unknown[]; traceLeftOut?: { entries: number } };
    assert.deepEqual(report.stopped, c.stopped);
    // Every step is counted: in the summary trace, or among the steps of later pods it leaves out.
    if (c.stopped.budget === 'steps') assert.equal(report.trace.length + (report.traceLeftOut?.entries ?? 0), c.stopped.limit);
  });
}

test('a run within its budget reports no stop', () => {
  const r = cli('run', 'examples/pod.yaml', '--json');
  assert.equal(r.status, 0);
  assert.equal((JSON.parse(r.stdout) as { stopped?: unknown }).stopped, undefined);
});

const usage: { args: string[]; error: string }[] = [
  { args: ['--max-steps', '0'], error: 'error: invalid value for --max-steps: "0" (a positive integer)' },
  { args: ['--max-objects', '-5'], error: 'error: invalid value for --max-objects: "-5" (a positive integer)' },
  { args: ['--max-steps', '99999999999999999999'], error: 'error: invalid value for --max-steps: "99999999999999999999" (a positive integer)' },
  { args: ['--seed', '99999999999999999999999'], error: 'error: invalid value for --seed: "99999999999999999999999" (a non-negative integer up to 9007199254740991)' },
];

for (const u of usage) {
  test(`a bad budget or seed is a usage error: ${u.args.join(' ')}`, () => {
    const r = cli('run', 'examples/pod.yaml', ...u.args);
    assert.equal(r.status, 2);
    assert.equal(r.stderr.split('\n')[0], u.error);
  });
}
