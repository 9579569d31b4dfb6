// A suspended Job through the CLI: created suspended, suspended mid-run and resumed with --then-apply. Each expected
// reason, message and time sits beside the Kubernetes source it follows: pkg/controller/job/job_controller.go
// (syncJob's suspend branch, manageJob, deleteJobPods, pastActiveDeadline, ensureJobConditionStatus) and
// pkg/printers/internalversion/printers.go (printJob).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Report, runJson, type StoredObject } from './harness';

const F = 'test/fixtures/controllers';
const SUFFIX = /pi-[bcdfghjklmnpqrstvwxz2456789]{5}/;

/** jobEvents are the Job's events as [at, type, reason, message], pod names' random suffix as `*`. */
const jobEvents = (r: Report) => r.events.filter((e) => e.object === 'Job/default/pi').map((e) => [e.at, e.type, e.reason, e.message.replace(SUFFIX, 'pi-*')]);
const job = (r: Report): StoredObject => r.objects.find((o) => o.kind === 'Job')!;
const conditions = (o: StoredObject) => ((o.status?.['conditions'] ?? []) as { type: string; status: string; reason: string; message: string; lastTransitionTime: string }[]).map((c) => [c.type, c.status, c.reason, c.message, c.lastTransitionTime]);
/** kubectlStatus is the STATUS column the Job's last status write printed (printJob). */
const kubectlStatus = (r: Report) => r.trace.filter((e) => e.phase === 'controllers.job' && e.field === 'status').at(-1)?.result.match(/STATUS (\w+)/)?.[1];
const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}Z`;

interface Case {
  name: string;
  args: string[];
  outcome: string;
  events: (string | number)[][];
  conditions: string[][];
  status: { startTime?: string; active?: number; succeeded?: number; failed?: number };
  kubectl: string;
}

const cases: Case[] = [
  {
    name: 'a Job created suspended creates no pod, has no startTime and is listed as Suspended',
    args: [`${F}/job-suspended.yaml`, '--behavior', `${F}/job-behavior.yaml`], outcome: 'Pending',
    // syncJob: "Set StartTime only if the job is not in the suspended state"; manageJob deletes (here: has) no pods;
    // ensureJobConditionStatus(Suspended, True, "JobSuspended", "Job suspended") and Event(Normal, "Suspended", "Job suspended").
    events: [[0, 'Normal', 'Suspended', 'Job suspended']],
    conditions: [['Suspended', 'True', 'JobSuspended', 'Job suspended', at(0)]],
    status: {},
    // printers.go printJob: a True Suspended condition prints "Suspended".
    kubectl: 'Suspended',
  },
  {
    name: 'resuming a Job created suspended sets Suspended False (JobResumed), a startTime and creates its pod',
    args: [`${F}/job-suspended.yaml`, '--behavior', `${F}/job-behavior.yaml`, '--then-apply', `20s,${F}/job-resumed.yaml`], outcome: 'Succeeded',
    // syncJob: manageJob creates the pod first, then ensureJobConditionStatus(Suspended, False, "JobResumed", "Job resumed"),
    // Event(Normal, "Resumed", "Job resumed") and "Resumed jobs will always reset StartTime to current time". The pod
    // starts at 22 s (2 s image pull) and exits 5 s later; the controller counts it 1 s after (syncJobBatchPeriod).
    events: [[0, 'Normal', 'Suspended', 'Job suspended'], [20, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [20, 'Normal', 'Resumed', 'Job resumed'], [28, 'Normal', 'Completed', 'Job completed']],
    conditions: [
      ['Suspended', 'False', 'JobResumed', 'Job resumed', at(20)],
      ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods', at(28)],
      ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods', at(28)],
    ],
    status: { startTime: at(20), succeeded: 1 },
    kubectl: 'Complete',
  },
  {
    name: 'suspending a running Job deletes its pod without counting it, and its 10 s deadline never fires while suspended',
    args: [`${F}/job-deadline.yaml`, '--behavior', `${F}/job-slow-behavior.yaml`, '--then-apply', `5s,${F}/job-deadline-suspended.yaml`], outcome: 'Pending',
    // manageJob: "Deleting all active pods in suspended job" through deleteJobPods, which removes the tracking finalizer
    // before the delete, so the pod is counted neither failed nor succeeded; pastActiveDeadline is false while suspended.
    // startTime is cleared on suspension (MutableSchedulingDirectivesForSuspendedJobs, beta and on in 1.36; from the
    // Job docs, the 1.36 code itself not read).
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [5, 'Normal', 'SuccessfulDelete', 'Deleted pod: pi-*'], [5, 'Normal', 'Suspended', 'Job suspended']],
    conditions: [['Suspended', 'True', 'JobSuspended', 'Job suspended', at(5)]],
    status: {},
    kubectl: 'Suspended',
  },
  {
    name: 'a Job suspended at 5 s and resumed at 30 s gets a new startTime, so its 10 s deadline runs out at 40 s, not 10 s',
    args: [`${F}/job-deadline.yaml`, '--behavior', `${F}/job-slow-behavior.yaml`, '--then-apply', `5s,${F}/job-deadline-suspended.yaml`, '--then-apply', `30s,${F}/job-deadline-resumed.yaml`], outcome: 'Failed',
    // syncJob: StartTime = now on resume ("ActiveDeadlineSeconds is interpreted as the number of seconds a Job is
    // continuously active"); newFailureCondition(JobReasonDeadlineExceeded, "Job was active longer than specified
    // deadline") at 40 s; the deleted pod is counted failed ("When the job is considered finished, every non-terminated
    // pod is considered failed"), the suspended one is not; Failed follows once the pod has terminated (42 s).
    events: [
      [0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [5, 'Normal', 'SuccessfulDelete', 'Deleted pod: pi-*'], [5, 'Normal', 'Suspended', 'Job suspended'],
      [30, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [30, 'Normal', 'Resumed', 'Job resumed'], [40, 'Normal', 'SuccessfulDelete', 'Deleted pod: pi-*'],
      [42, 'Warning', 'DeadlineExceeded', 'Job was active longer than specified deadline'],
    ],
    conditions: [
      ['Suspended', 'False', 'JobResumed', 'Job resumed', at(30)],
      ['FailureTarget', 'True', 'DeadlineExceeded', 'Job was active longer than specified deadline', at(40)],
      ['Failed', 'True', 'DeadlineExceeded', 'Job was active longer than specified deadline', at(42)],
    ],
    status: { startTime: at(30), failed: 1 },
    kubectl: 'Failed',
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { report } = runJson('run', ...c.args);
    assert.equal(report.outcome, c.outcome);
    assert.deepEqual(jobEvents(report), c.events);
    const j = job(report);
    assert.deepEqual(conditions(j), c.conditions);
    const s = j.status ?? {};
    assert.deepEqual({ startTime: s['startTime'], active: s['active'], succeeded: s['succeeded'], failed: s['failed'] }, { startTime: undefined, active: undefined, succeeded: undefined, failed: undefined, ...c.status });
    assert.equal(kubectlStatus(report), c.kubectl);
  });
}
