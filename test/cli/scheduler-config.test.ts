// The pod-lifecycle CLI as a process with a KubeSchedulerConfiguration in a --cluster file: its profiles schedule, and a
// configuration kube-scheduler would refuse at start is unusable input (exit 2) named by file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FIXTURES = 'test/fixtures/scheduler-config';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Report {
  outcome: string;
  events: { reason: string; object: string; source: string; message: string }[];
  trace: { phase: string; object?: string; result: string }[];
}

test('A pod naming the second profile of the cluster file\'s KubeSchedulerConfiguration is scheduled by it and runs', () => {
  const run = cli('run', `${FIXTURES}/batch-pod.yaml`, '--cluster', `${FIXTURES}/cluster.yaml`, '--json');
  assert.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout) as Report;
  assert.equal(report.outcome, 'Running');
  const scheduled = report.events.filter((e) => e.object === 'Pod/default/web' && e.reason === 'Scheduled');
  assert.deepEqual(scheduled.map((e) => e.source), ['batch-scheduler']);
  assert.match(scheduled[0]!.message, /^Successfully assigned default\/web to worker-[12]$/);
  const scored = report.trace.filter((e) => e.object === 'Pod/default/web' && e.phase === 'scheduler.score').map((e) => e.result);
  assert.ok(!scored.some((r) => r.startsWith('ImageLocality')), 'ImageLocality is disabled at Score in that profile');
});

const refusals: { name: string; file: string; line: number; problem: string }[] = [
  { name: 'A percentage of nodes to score above 100 is refused with the line of the field', file: 'bad-config.yaml', line: 344, problem: 'profiles[0].percentageOfNodesToScore: Invalid value: 120: not in valid range [0-100]' },
  { name: 'A misspelt field is refused by the strict decoder', file: 'unknown-field.yaml', line: 344, problem: 'strict decoding error: unknown field "profiles[0].plugin"' },
];

for (const c of refusals) {
  test(c.name, () => {
    const run = cli('run', 'examples/pod.yaml', '--cluster', `${FIXTURES}/${c.file}`, '--json');
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, `error: ${FIXTURES}/${c.file}:${c.line}: ${c.problem}\n`);
  });
}
