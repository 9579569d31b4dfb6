// `explain` on a CronJob that has made no Job by the end of the run: suspended (cronjob_controllerv2.go syncCronJob
// starts none), or its first schedule time still ahead (utils.go mostRecentScheduleTime and nextScheduleTimeDuration,
// v1.36.3: the controller waits for it); once a Job was made there is nothing to explain.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import test from 'node:test';
import { CLI, ROOT } from './harness';

/** explain runs `pod-lifecycle explain` and returns its human output and its --json report's noJobYet. */
function explain(...args: string[]): { stdout: string; noJobYet: unknown } {
  const run = (json: boolean) => spawnSync(process.execPath, [CLI, 'explain', ...args, ...(json ? ['--json'] : [])], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { stdout: run(false).stdout, noJobYet: (JSON.parse(run(true).stdout) as { noJobYet?: unknown }).noJobYet };
}

const cases: { name: string; args: string[]; text?: RegExp; want: unknown }[] = [
  {
    name: 'before its first schedule time, it names that time and how long after the run it comes',
    args: ['examples/cronjob.yaml', '--for', '30s'],
    text: /\nNO JOB YET of CronJob default\/hello\n {2}its first schedule time is 2026-01-01T00:01:00Z \(\*\/1 \* \* \* \*\), 30s after the run ended: the controller waits for it \(run longer with --for\)\n/,
    want: [{ object: 'default/hello', nextScheduleTime: '2026-01-01T00:01:00Z', why: 'its first schedule time is 2026-01-01T00:01:00Z (*/1 * * * *), 30s after the run ended: the controller waits for it (run longer with --for)' }],
  },
  {
    name: 'a suspended CronJob says so, however long the run',
    args: ['test/fixtures/cronjob/suspended.yaml', '--for', '90s'],
    text: /\nNO JOB YET of CronJob default\/hello\n {2}spec\.suspend is true: the controller starts no Job while the CronJob is suspended\n/,
    want: [{ object: 'default/hello', why: 'spec.suspend is true: the controller starts no Job while the CronJob is suspended' }],
  },
  { name: 'a CronJob that made its Job has nothing to explain', args: ['examples/cronjob.yaml', '--for', '70s'], want: undefined },
];

for (const c of cases) {
  test(`explain a CronJob: ${c.name}`, () => {
    const { stdout, noJobYet } = explain(...c.args);
    assert.deepEqual(noJobYet, c.want);
    if (c.text) assert.match(stdout, c.text);
    else assert.doesNotMatch(stdout, /NO JOB YET/);
  });
}
