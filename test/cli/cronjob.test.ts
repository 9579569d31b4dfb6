// The CronJob controller of kube-controller-manager 1.36 (pkg/controller/cronjob/cronjob_controllerv2.go, utils.go at
// v1.36.3): a Job `<cronjob>-<minutes since the epoch>` at each schedule time on the virtual clock (which starts at
// 2026-01-01T00:00:00Z), the history limits, Forbid and Replace, suspend, the API server's defaults and validation,
// and the outcome: the last finished Job's verdict, Pending before one finished.
import assert from 'node:assert/strict';
import test from 'node:test';
import { type Report, runJson } from './harness';

const F = 'test/fixtures/cronjob';
const OK = ['--behavior', `${F}/ok-behavior.yaml`];
const SLOW = ['--behavior', `${F}/slow-behavior.yaml`];

/** created lists `at name` of every Job the API server stored. */
const created = (r: Report) => r.trace.filter((e) => e.phase === 'etcd.persist' && e.object?.startsWith('Job/')).map((e) => `${e.at} ${e.object!.split('/')[2]}`);
const jobs = (r: Report) => r.objects.filter((o) => o.kind === 'Job').map((o) => o.metadata.name);
const cronEvents = (r: Report) => r.events.filter((e) => e.source === 'cronjob-controller').map((e) => `${e.at} ${e.type} ${e.reason}: ${e.message}`);

const cases: { name: string; args: string[]; status: number; outcome: string; created: string[]; jobs: string[]; events: string[] }[] = [
  {
    name: '*/1 over 3m30s: three Jobs, one a minute, each run and succeeded (default history limit 3 keeps them)',
    args: [`${F}/every-minute.yaml`, '--for', '3m30s', ...OK], status: 0, outcome: 'Succeeded',
    created: ['60.1 hello-29453761', '120.1 hello-29453762', '180.1 hello-29453763'],
    jobs: ['hello-29453761', 'hello-29453762', 'hello-29453763'],
    events: [
      '60.1 Normal SuccessfulCreate: Created job hello-29453761', '68.1 Normal SawCompletedJob: Saw completed job: hello-29453761, condition: Complete',
      '120.1 Normal SuccessfulCreate: Created job hello-29453762', '126.1 Normal SawCompletedJob: Saw completed job: hello-29453762, condition: Complete',
      '180.1 Normal SuccessfulCreate: Created job hello-29453763', '186.1 Normal SawCompletedJob: Saw completed job: hello-29453763, condition: Complete',
    ],
  },
  {
    name: 'successfulJobsHistoryLimit 1: each success deletes the one before',
    args: [`${F}/history-1.yaml`, '--for', '3m30s', ...OK], status: 0, outcome: 'Succeeded',
    created: ['60.1 hello-29453761', '120.1 hello-29453762', '180.1 hello-29453763'],
    jobs: ['hello-29453763'],
    events: [
      '60.1 Normal SuccessfulCreate: Created job hello-29453761', '68.1 Normal SawCompletedJob: Saw completed job: hello-29453761, condition: Complete',
      '120.1 Normal SuccessfulCreate: Created job hello-29453762', '126.1 Normal SuccessfulDelete: Deleted job hello-29453761',
      '126.1 Normal SawCompletedJob: Saw completed job: hello-29453762, condition: Complete',
      '180.1 Normal SuccessfulCreate: Created job hello-29453763', '186.1 Normal SuccessfulDelete: Deleted job hello-29453762',
      '186.1 Normal SawCompletedJob: Saw completed job: hello-29453763, condition: Complete',
    ],
  },
  {
    name: 'failing Jobs: Failed, and failedJobsHistoryLimit 1 (the default) keeps only the last',
    args: [`${F}/failing.yaml`, '--for', '3m30s', '--behavior', `${F}/fail-behavior.yaml`], status: 1, outcome: 'Failed',
    created: ['60.1 hello-29453761', '120.1 hello-29453762', '180.1 hello-29453763'],
    jobs: ['hello-29453763'],
    events: [
      '60.1 Normal SuccessfulCreate: Created job hello-29453761', '68.1 Normal SawCompletedJob: Saw completed job: hello-29453761, condition: Failed',
      '120.1 Normal SuccessfulCreate: Created job hello-29453762', '126.1 Normal SuccessfulDelete: Deleted job hello-29453761',
      '126.1 Normal SawCompletedJob: Saw completed job: hello-29453762, condition: Failed',
      '180.1 Normal SuccessfulCreate: Created job hello-29453763', '186.1 Normal SuccessfulDelete: Deleted job hello-29453762',
      '186.1 Normal SawCompletedJob: Saw completed job: hello-29453763, condition: Failed',
    ],
  },
  {
    // The 00:02 run is skipped while the first runs; once it finished (153 s) the unmet 00:02 time starts late, as
    // the controller does without startingDeadlineSeconds; at 00:03 that one still runs.
    name: 'Forbid: no second Job while a 90 s one runs (JobAlreadyActive)',
    args: [`${F}/forbid.yaml`, '--for', '3m30s', ...SLOW], status: 0, outcome: 'Succeeded',
    created: ['60.1 slow-29453761', '153.1 slow-29453762'],
    jobs: ['slow-29453761', 'slow-29453762'],
    events: [
      '60.1 Normal SuccessfulCreate: Created job slow-29453761',
      '180.1 Normal JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid',
      '153.1 Normal SawCompletedJob: Saw completed job: slow-29453761, condition: Complete', '153.1 Normal SuccessfulCreate: Created job slow-29453762',
    ],
  },
  {
    name: 'Replace: the running Job is deleted at the next schedule time and a new one made; none ever finishes: Pending',
    args: [`${F}/replace.yaml`, '--for', '3m30s', ...SLOW], status: 1, outcome: 'Pending',
    created: ['60.1 slow-29453761', '120.1 slow-29453762', '180.1 slow-29453763'],
    jobs: ['slow-29453763'],
    events: [
      '60.1 Normal SuccessfulCreate: Created job slow-29453761',
      '120.1 Normal SuccessfulDelete: Deleted job slow-29453761', '120.1 Normal SuccessfulCreate: Created job slow-29453762',
      '180.1 Normal SuccessfulDelete: Deleted job slow-29453762', '180.1 Normal SuccessfulCreate: Created job slow-29453763',
    ],
  },
  {
    name: 'suspend: no Job; Pending',
    args: [`${F}/suspended.yaml`, '--for', '3m30s', ...OK], status: 1, outcome: 'Pending', created: [], jobs: [], events: [],
  },
  {
    // With nothing else to settle the run ends at the 10-minute limit: the 00:10 run is past it.
    name: 'without --for: it runs to the 10-minute limit (nine Jobs, the last three kept)',
    args: [`${F}/every-minute.yaml`, ...OK], status: 0, outcome: 'Succeeded',
    created: [61, 62, 63, 64, 65, 66, 67, 68, 69].map((m, i) => `${60 * (i + 1) + 0.1} hello-294537${m}`),
    jobs: ['hello-29453767', 'hello-29453768', 'hello-29453769'],
    events: [],
  },
];

for (const c of cases) {
  test(`cronjob: ${c.name}`, () => {
    const { status, report } = runJson('run', ...c.args);
    assert.equal(report.outcome, c.outcome);
    assert.equal(status, c.status);
    assert.deepEqual(created(report), c.created);
    assert.deepEqual(jobs(report), c.jobs);
    if (c.events.length) assert.deepEqual(cronEvents(report), c.events);
  });
}

test('cronjob: the Job carries the template\'s labels and annotations, the scheduled-timestamp annotation and the controller reference; the CronJob its status and defaults', () => {
  const { report } = runJson('run', `${F}/every-minute.yaml`, '--for', '1m30s', ...OK);
  const job = report.objects.find((o) => o.kind === 'Job')! as Report['objects'][number] & { metadata: { ownerReferences?: unknown[] } };
  assert.equal(job.metadata.labels?.['team'], 'batch');
  assert.deepEqual(job.metadata.annotations, { owner: 'ops', 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-01T00:01:00Z' });
  const cj = report.objects.find((o) => o.kind === 'CronJob')! as Report['objects'][number] & { metadata: { uid: string } };
  assert.deepEqual(job.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(cj.status, { lastScheduleTime: '2026-01-01T00:01:00Z', lastSuccessfulTime: '2026-01-01T00:01:08Z' });
  const spec = cj.spec as Record<string, unknown>;
  assert.deepEqual([spec['concurrencyPolicy'], spec['suspend'], spec['successfulJobsHistoryLimit'], spec['failedJobsHistoryLimit']], ['Allow', false, 3, 1]);
});

test('cronjob: a schedule out of range and an unknown time zone are refused with the API server\'s messages', () => {
  const { status, report } = runJson('run', `${F}/bad-schedule.yaml`);
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Rejected');
  assert.equal(report.rejection?.message, 'CronJob.batch "hello" is invalid: [spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61, spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus]');
});
