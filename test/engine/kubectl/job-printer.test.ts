// The STATUS, COMPLETIONS and DURATION columns of `kubectl get jobs`, as pkg/printers/internalversion/printers.go
// printJob computes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../src/engine/api/types';
import { jobColumns, type JobColumns } from '../../../src/engine/kubectl/job-printer';

const EPOCH = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(EPOCH + s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const makeJob = (spec: Record<string, unknown>, status: Record<string, unknown> = {}, deleting = false): KubeObject => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', ...(deleting ? { deletionTimestamp: at(30) } : {}) }, spec, status,
});
const cond = (type: string, status = 'True') => ({ type, status });

const cases: { name: string; job: KubeObject; now: number; want: JobColumns }[] = [
  { name: 'a running Job of 3 completions prints succeeded/completions and the time since it started', job: makeJob({ completions: 3 }, { succeeded: 1, startTime: at(0) }), now: 90_000, want: { status: 'Running', completions: '1/3', duration: '90s' } },
  { name: 'a complete Job prints Complete and the time from start to completion', job: makeJob({ completions: 3 }, { succeeded: 3, startTime: at(0), completionTime: at(14), conditions: [cond('SuccessCriteriaMet'), cond('Complete')] }), now: 600_000, want: { status: 'Complete', completions: '3/3', duration: '14s' } },
  { name: 'a Job whose failure is decided but whose pods still terminate prints FailureTarget', job: makeJob({ completions: 1 }, { startTime: at(0), conditions: [cond('FailureTarget')] }), now: 5000, want: { status: 'FailureTarget', completions: '0/1', duration: '5s' } },
  { name: 'Failed wins over FailureTarget', job: makeJob({ completions: 1 }, { startTime: at(0), conditions: [cond('FailureTarget'), cond('Failed')] }), now: 5000, want: { status: 'Failed', completions: '0/1', duration: '5s' } },
  { name: 'a Job being deleted prints Terminating', job: makeJob({ completions: 1 }, { startTime: at(0) }, true), now: 5000, want: { status: 'Terminating', completions: '0/1', duration: '5s' } },
  { name: 'without completions and parallelism 2 it prints "0/1 of 2"', job: makeJob({ parallelism: 2 }, {}), now: 0, want: { status: 'Running', completions: '0/1 of 2', duration: '' } },
  { name: 'a Suspended condition that is False is not a suspended Job', job: makeJob({ completions: 1 }, { conditions: [cond('Suspended', 'False')] }), now: 0, want: { status: 'Running', completions: '0/1', duration: '' } },
];
for (const c of cases) test(`kubectl get jobs: ${c.name}`, () => assert.deepEqual(jobColumns(c.job, c.now, EPOCH), c.want));
