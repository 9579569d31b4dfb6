// A suspended Job (spec.suspend): the Suspended condition, its events and what becomes of status.startTime when the
// Job is suspended or resumed. See pkg/controller/job/job_controller.go (syncJob, ensureJobConditionStatus).
import type { Job, JobCondition } from './job-types';

/**
 * JOB_SUSPEND_MESSAGES are the Suspended condition's reasons and messages and the events that go with them:
 * job_controller.go syncJob, ensureJobConditionStatus(..., batch.JobSuspended, v1.ConditionTrue, "JobSuspended",
 * "Job suspended", ...) with recorder.Event(&job, v1.EventTypeNormal, "Suspended", "Job suspended"), and
 * ensureJobConditionStatus(..., v1.ConditionFalse, "JobResumed", "Job resumed", ...) with Event(..., "Resumed", "Job resumed").
 */
export const JOB_SUSPEND_MESSAGES = {
  suspended: { status: 'True', reason: 'JobSuspended', message: 'Job suspended', event: 'Suspended' },
  resumed: { status: 'False', reason: 'JobResumed', message: 'Job resumed', event: 'Resumed' },
} as const;

/** JOB_SUSPENDED is the condition type batch.JobSuspended. */
export const JOB_SUSPENDED = 'Suspended';

/** jobSuspended is jobSuspended: spec.suspend is true. */
export function jobSuspended(job: Job): boolean {
  return job.spec?.suspend === true;
}

/**
 * ensureJobConditionStatus is ensureJobConditionStatus: the condition of that type is replaced when its status,
 * reason or message differ (both times set to now); a missing one is added, unless its status is False ("going from
 * nothing to false is meaningless"). Returns the list and whether it changed.
 */
export function ensureJobConditionStatus(list: readonly JobCondition[], c: { type: string; status: string; reason: string; message: string }, now: string): { conditions: JobCondition[]; updated: boolean } {
  const fresh: JobCondition = { type: c.type, status: c.status, lastProbeTime: now, lastTransitionTime: now, reason: c.reason, message: c.message };
  const i = list.findIndex((x) => x.type === c.type);
  if (i >= 0) {
    const old = list[i]!;
    if (old.status === c.status && old.reason === c.reason && old.message === c.message) return { conditions: [...list], updated: false };
    return { conditions: list.map((x, j) => (j === i ? fresh : x)), updated: true };
  }
  if (c.status === 'False') return { conditions: [...list], updated: false };
  return { conditions: [...list, fresh], updated: true };
}

/** SuspendSync is what syncing the Suspended condition decides: the conditions, the startTime and the event to record. */
export interface SuspendSync {
  conditions: JobCondition[];
  startTime: string | undefined;
  /** event is the Normal event's reason and message when the condition changed. */
  event?: { reason: string; message: string };
}

/**
 * syncSuspendCondition is syncJob's suspend branch, run once manageJob ran and the Job is not complete. A suspended Job
 * gets Suspended=True (JobSuspended) and, in 1.36, no startTime: the Job controller clears it on suspension while
 * MutableSchedulingDirectivesForSuspendedJobs is on (alpha in 1.35, beta and on by default in 1.36), so the
 * activeDeadlineSeconds timer stops. A running Job that was suspended gets Suspended=False (JobResumed) and a new
 * startTime: "Resumed jobs will always reset StartTime to current time" (job_controller.go).
 */
export function syncSuspendCondition(job: Job, conditions: readonly JobCondition[], startTime: string | undefined, now: string): SuspendSync {
  const m = jobSuspended(job) ? JOB_SUSPEND_MESSAGES.suspended : JOB_SUSPEND_MESSAGES.resumed;
  const { conditions: next, updated } = ensureJobConditionStatus(conditions, { type: JOB_SUSPENDED, ...m }, now);
  if (!updated) return { conditions: next, startTime };
  return { conditions: next, startTime: jobSuspended(job) ? undefined : now, event: { reason: m.event, message: m.message } };
}
