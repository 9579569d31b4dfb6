// The Suspended condition of a Job: ensureJobConditionStatus and syncJob's suspend branch. See
// pkg/controller/job/job_controller.go (ensureJobConditionStatus, syncJob) and its job_controller_test.go suspend cases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ensureJobConditionStatus, syncSuspendCondition, type SuspendSync } from '../../../src/engine/controllers/job-suspend';
import type { Job, JobCondition } from '../../../src/engine/controllers/job-types';

const T0 = '2026-01-01T00:00:00Z';
const NOW = '2026-01-01T00:00:30Z';
const makeJob = (suspend: boolean): Job => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', namespace: 'default' }, spec: { suspend } });
const cond = (status: string, reason: string, message: string, at = T0): JobCondition => ({ type: 'Suspended', status, lastProbeTime: at, lastTransitionTime: at, reason, message });
const suspendedTrue = cond('True', 'JobSuspended', 'Job suspended');
const resumedFalse = cond('False', 'JobResumed', 'Job resumed');

const ensureCases: { name: string; list: JobCondition[]; c: { status: string; reason: string; message: string }; want: { conditions: JobCondition[]; updated: boolean } }[] = [
  {
    name: 'a missing condition is added when its status is True',
    list: [], c: { status: 'True', reason: 'JobSuspended', message: 'Job suspended' },
    want: { conditions: [cond('True', 'JobSuspended', 'Job suspended', NOW)], updated: true },
  },
  {
    // job_controller.go: "this function will not append to the conditions list if the new condition's status is false".
    name: 'a missing condition is not added when its status is False',
    list: [], c: { status: 'False', reason: 'JobResumed', message: 'Job resumed' },
    want: { conditions: [], updated: false },
  },
  {
    name: 'an existing condition with another status is replaced, both times set to now',
    list: [suspendedTrue], c: { status: 'False', reason: 'JobResumed', message: 'Job resumed' },
    want: { conditions: [cond('False', 'JobResumed', 'Job resumed', NOW)], updated: true },
  },
  {
    name: 'an existing condition with the same status, reason and message is left as it is',
    list: [suspendedTrue], c: { status: 'True', reason: 'JobSuspended', message: 'Job suspended' },
    want: { conditions: [suspendedTrue], updated: false },
  },
];
for (const c of ensureCases) test(`ensureJobConditionStatus: ${c.name}`, () => assert.deepEqual(ensureJobConditionStatus(c.list, { type: 'Suspended', ...c.c }, NOW), c.want));

const syncCases: { name: string; suspend: boolean; conditions: JobCondition[]; startTime?: string; want: SuspendSync }[] = [
  {
    // syncJob: ensureJobConditionStatus(..., v1.ConditionTrue, "JobSuspended", "Job suspended") and
    // recorder.Event(&job, v1.EventTypeNormal, "Suspended", "Job suspended").
    name: 'a Job created suspended gets Suspended True (JobSuspended), the Suspended event and no startTime',
    suspend: true, conditions: [],
    want: { conditions: [cond('True', 'JobSuspended', 'Job suspended', NOW)], startTime: undefined, event: { reason: 'Suspended', message: 'Job suspended' } },
  },
  {
    // 1.36: startTime is cleared on suspension (MutableSchedulingDirectivesForSuspendedJobs, beta and on by default).
    name: 'suspending a running Job clears its startTime',
    suspend: true, conditions: [], startTime: T0,
    want: { conditions: [cond('True', 'JobSuspended', 'Job suspended', NOW)], startTime: undefined, event: { reason: 'Suspended', message: 'Job suspended' } },
  },
  {
    name: 'a Job already suspended records nothing again',
    suspend: true, conditions: [suspendedTrue],
    want: { conditions: [suspendedTrue], startTime: undefined },
  },
  {
    // syncJob: ensureJobConditionStatus(..., v1.ConditionFalse, "JobResumed", "Job resumed"), Event(Normal, "Resumed",
    // "Job resumed") and "Resumed jobs will always reset StartTime to current time".
    name: 'resuming a suspended Job sets Suspended False (JobResumed), the Resumed event and a new startTime',
    suspend: false, conditions: [suspendedTrue], startTime: T0,
    want: { conditions: [cond('False', 'JobResumed', 'Job resumed', NOW)], startTime: NOW, event: { reason: 'Resumed', message: 'Job resumed' } },
  },
  {
    name: 'a Job never suspended gets no Suspended condition and keeps its startTime',
    suspend: false, conditions: [], startTime: T0,
    want: { conditions: [], startTime: T0 },
  },
  {
    name: 'a Job resumed earlier keeps its startTime on later syncs',
    suspend: false, conditions: [resumedFalse], startTime: T0,
    want: { conditions: [resumedFalse], startTime: T0 },
  },
];
for (const c of syncCases) test(`syncSuspendCondition: ${c.name}`, () => assert.deepEqual(syncSuspendCondition(makeJob(c.suspend), c.conditions, c.startTime, NOW), c.want));
