// The CronJob controller (the v2 controller of kube-controller-manager): at each schedule time a Job from the
// template, the concurrency policy (Allow, Forbid, Replace), startingDeadlineSeconds, suspend, the finished Jobs beyond
// the history limits deleted, status.active, lastScheduleTime and lastSuccessfulTime, and the requeue at the next
// schedule time. See pkg/controller/cronjob/cronjob_controllerv2.go (sync, syncCronJob, cleanupFinishedJobs,
// removeOldestJobs, deleteJob) and utils.go at k8s.io/kubernetes v1.36.3. Phase controllers.cronjob.
import { deepClone, type KubeObject } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import { NAMESPACE_TERMINATING_CAUSE } from '../apiserver/admission/namespace-lifecycle';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { ControllerClient } from './client';
import { CronError, type CronSchedule, formatRFC3339, loadLocationError } from './cron-schedule';
import {
  type CronJob, type CronJobStatus, deleteFromActiveList, getJobName, inActiveList, inActiveListByName, jobFromTemplate, jobRef,
  nextScheduleTime, nextScheduleTimeDuration, rfc1123z, scheduleOf,
} from './cronjob-utils';
import { finishedCondition } from './job';
import { controllerOf } from './owner';
import type { Job } from './job-types';
import { STATUS_MANAGERS, updateStatus } from '../apiserver/status-write';

/** CRONJOB_CONTROLLER is the source of its events and its service account. */
export const CRONJOB_CONTROLLER = 'cronjob-controller';

/** SyncResult is what one sync asks of the work queue: a requeue after a delay, or a rate-limited one after an error. */
export interface CronJobSyncResult {
  requeueAfter?: Millis;
  error?: string;
}

/** Sync is one sync's working state: the CronJob copy it changes, its reference and the controller's client. */
interface Sync {
  ctx: EngineContext;
  client: ControllerClient;
  cj: CronJob;
  ref: string;
  now: number;
}

function event(s: Sync, type: 'Normal' | 'Warning', reason: string, message: string): void {
  s.ctx.recorder.event({ type, reason, object: s.ref, source: CRONJOB_CONTROLLER, message });
}

const stamp = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * syncCronJob is ControllerV2.sync for one CronJob: its Jobs (every Job of the namespace whose controller reference
 * names it), the history cleanup, then the schedule; the status written once if either changed it.
 */
export function* syncCronJob(ctx: EngineContext, api: ApiServer, namespace: string, name: string): Steps<CronJobSyncResult> {
  const stored = ctx.store.get<CronJob>('CronJob', namespace, name);
  if (!stored) return {};
  // getJobsToBeReconciled: a Job counts by its controller reference's name alone, as the real lister loop does.
  const jobs = ctx.store.list<Job>('Job', namespace).filter((j) => controllerOf(j)?.name === name);
  const s: Sync = { ctx, client: new ControllerClient(api, CRONJOB_CONTROLLER, 'controllers.cronjob'), cj: deepClone(stored), ref: `CronJob/${namespace}/${name}`, now: ctx.clock.epoch.getTime() + ctx.clock.now };
  const cleaned = yield* cleanupFinishedJobs(s, jobs);
  const r = yield* sync(s, jobs);
  if (cleaned || r.update) {
    const status: CronJobStatus = s.cj.status ?? {};
    updateStatus<CronJob>(ctx, STATUS_MANAGERS.controllers, 'CronJob', namespace, name, (o) => { o['status'] = status; });
    yield { phase: 'controllers.cronjob', object: s.ref, field: 'status', result: `status: ${status.active?.length ?? 0} active${status.lastScheduleTime ? `, lastScheduleTime ${status.lastScheduleTime}` : ''}${status.lastSuccessfulTime ? `, lastSuccessfulTime ${status.lastSuccessfulTime}` : ''}`, detail: { status } };
  }
  return { ...(r.requeueAfter !== undefined ? { requeueAfter: r.requeueAfter } : {}), ...(r.error !== undefined ? { error: r.error } : {}) };
}

interface Inner {
  requeueAfter?: Millis;
  update: boolean;
  error?: string;
}

/** sync is syncCronJob: the Jobs seen finished or missing, then whether (and which) Job to start now. */
function* sync(s: Sync, jobs: readonly Job[]): Steps<Inner> {
  let update = reconcileJobs(s, jobs);
  update = reconcileActive(s, jobs) || update;
  const cj = s.cj;
  // Being deleted: nothing but the status.
  if (cj.metadata?.deletionTimestamp) return { update };
  const zone = cj.spec?.timeZone;
  if (typeof zone === 'string') {
    const err = loadLocationError(zone);
    if (err) {
      event(s, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(zone)}: ${err}`);
      return { update };
    }
  }
  if (cj.spec?.suspend) {
    yield { phase: 'controllers.cronjob', object: s.ref, field: 'spec.suspend', result: 'not starting a Job: the CronJob is suspended (no requeue until it changes)', detail: {} };
    return { update };
  }
  const sched = parse(s);
  if (!sched) return { update };
  const next = nextScheduleTime(cj, s.now, sched);
  if (next.missed === 'many' && next.time !== undefined) {
    event(s, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
  }
  if (next.error) {
    event(s, 'Warning', 'InvalidSchedule', `invalid schedule: ${cj.spec?.schedule ?? ''} : ${next.error}`);
    yield { phase: 'controllers.cronjob', object: s.ref, field: 'spec.schedule', result: `invalid schedule: ${next.error} (no requeue until it changes)`, detail: {}, outcome: 'failed' };
    return { update };
  }
  const requeue = () => nextScheduleTimeDuration(cj, s.now, sched);
  if (next.time === undefined) return { update, ...after(requeue()) };
  const scheduled = next.time;
  const deadline = cj.spec?.startingDeadlineSeconds;
  // Unreachable in practice: mostRecentScheduleTime already ignores the times before now - startingDeadlineSeconds.
  if (typeof deadline === 'number' && scheduled + deadline * 1000 < s.now) {
    event(s, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
    return { update, ...after(requeue()) };
  }
  const jobName = getJobName(cj, scheduled);
  const last = cj.status?.lastScheduleTime;
  if (inActiveListByName(cj, cj.metadata?.namespace, jobName) || (last !== undefined && Date.parse(last) === scheduled)) return { update, ...after(requeue()) };
  if (cj.spec?.concurrencyPolicy === 'Forbid' && (cj.status?.active ?? []).length > 0) {
    event(s, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
    yield { phase: 'controllers.cronjob', object: s.ref, field: 'spec.concurrencyPolicy', result: `Forbid: not starting the Job of ${stamp(scheduled)}, ${cj.status!.active!.map((j) => j.name).join(', ')} still active; this schedule time is skipped`, detail: { scheduledTime: stamp(scheduled) } };
    return { update, ...after(requeue()) };
  }
  if (cj.spec?.concurrencyPolicy === 'Replace') {
    for (const ref of cj.status?.active ?? []) {
      const job = s.ctx.store.get<Job>('Job', ref.namespace, ref.name);
      if (!job) {
        const error = `jobs.batch "${ref.name}" not found`;
        event(s, 'Warning', 'FailedGet', `Get job: ${error}`);
        return { update, error };
      }
      yield { phase: 'controllers.cronjob', object: s.ref, field: 'spec.concurrencyPolicy', result: `Replace: deleting ${ref.name}, still running at the schedule time ${stamp(scheduled)}`, detail: { job: ref.name } };
      if (!(yield* deleteJob(s, job))) return { update, error: `could not replace job ${ref.namespace}/${ref.name}` };
      update = true;
    }
  }
  return yield* startJob(s, sched, scheduled, update);
}

/** after turns a requeue delay into the result's field (none for a schedule that never fires). */
const after = (d: Millis | undefined): { requeueAfter?: Millis } => (d === undefined ? {} : { requeueAfter: d });

/** parse is the schedule as the controller parses it; an UnsupportedSchedule or UnparseableSchedule event otherwise. */
function parse(s: Sync): CronSchedule | undefined {
  const schedule = s.cj.spec?.schedule ?? '';
  if (schedule.includes('TZ')) {
    event(s, 'Warning', 'UnsupportedSchedule', `CRON_TZ or TZ used in schedule ${JSON.stringify(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`);
  }
  try {
    return scheduleOf(s.cj);
  } catch (err) {
    if (!(err instanceof CronError)) throw err;
    event(s, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(schedule)} : ${err.message}`);
    return undefined;
  }
}

/**
 * reconcileJobs is syncCronJob's first loop: an unfinished Job not in status.active (after a fresh read of the CronJob)
 * is an UnexpectedJob; a finished one leaves the list (SawCompletedJob), and a succeeded one moves lastSuccessfulTime.
 */
function reconcileJobs(s: Sync, jobs: readonly Job[]): boolean {
  let update = false;
  for (const j of jobs) {
    const uid = j.metadata?.uid;
    const found = inActiveList(s.cj, uid);
    const finished = finishedCondition(j);
    if (!found && !finished) {
      // cronJobControl.GetCronJob: the stored CronJob may already list it; then that copy is worked on.
      const fresh = s.ctx.store.get<CronJob>('CronJob', s.cj.metadata?.namespace, s.cj.metadata?.name ?? '');
      if (fresh && inActiveList(fresh, uid)) {
        s.cj = deepClone(fresh);
        continue;
      }
      event(s, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata?.name}`);
    } else if (finished) {
      if (found) {
        deleteFromActiveList(s.cj, uid);
        event(s, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata?.name}, condition: ${finished.type}`);
        update = true;
      }
      const completion = j.status?.completionTime;
      const last = s.cj.status?.lastSuccessfulTime;
      if (finished.type === 'Complete' && completion && (!last || Date.parse(completion) > Date.parse(last))) {
        s.cj.status = { ...s.cj.status, lastSuccessfulTime: completion };
        update = true;
      }
    }
  }
  return update;
}

/** reconcileActive drops from status.active a Job that no longer exists (MissingJob). */
function reconcileActive(s: Sync, jobs: readonly Job[]): boolean {
  let update = false;
  const children = new Set(jobs.map((j) => j.metadata?.uid));
  for (const ref of s.cj.status?.active ?? []) {
    if (children.has(ref.uid) || s.ctx.store.get('Job', ref.namespace, ref.name)) continue;
    event(s, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
    deleteFromActiveList(s.cj, ref.uid);
    update = true;
  }
  return update;
}

/** startJob creates the Job of the schedule time, adds it to status.active and sets lastScheduleTime. */
function* startJob(s: Sync, sched: CronSchedule, scheduled: number, update: boolean): Steps<Inner> {
  const cj = s.cj;
  const job = jobFromTemplate(cj, scheduled);
  const name = job.metadata?.name ?? '';
  yield { phase: 'controllers.cronjob', object: s.ref, field: 'spec.schedule', result: `schedule time ${formatRFC3339(scheduled, cj.spec?.timeZone ?? '')} (${cj.spec?.schedule}${cj.spec?.timeZone ? `, ${cj.spec.timeZone}` : ''}): creating Job ${name}`, detail: { scheduledTime: stamp(scheduled), job: name } };
  const out = yield* s.client.create(job, `Job/${job.metadata?.namespace}/${name}`);
  let created: KubeObject | undefined;
  if (out.ok) {
    created = out.object ?? s.ctx.store.get('Job', job.metadata?.namespace, name);
    event(s, 'Normal', 'SuccessfulCreate', `Created job ${name}`);
  } else if (out.error.status.details?.causes?.some((c) => c.reason === NAMESPACE_TERMINATING_CAUSE)) {
    return { update, error: out.error.message };
  } else if (out.error.status.reason === 'AlreadyExists') {
    // Made by another actor (not ours): nothing to do; ours but not listed: list it again.
    const existing = s.ctx.store.get<Job>('Job', job.metadata?.namespace, name);
    if (!existing) return { update, error: out.error.message };
    const owner = controllerOf(existing);
    if (owner?.uid !== cj.metadata?.uid || inActiveList(cj, existing.metadata?.uid)) return { update };
    created = existing;
  } else {
    event(s, 'Warning', 'FailedCreate', `Error creating job: ${out.error.message}`);
    return { update, error: out.error.message };
  }
  const ref = jobRef(created!);
  cj.status = { ...cj.status, active: [...(cj.status?.active ?? []), ref], lastScheduleTime: stamp(scheduled) };
  return { update: true, ...after(nextScheduleTimeDuration(cj, s.now, sched)) };
}

/** cleanupFinishedJobs deletes the oldest succeeded and failed Jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit. */
function* cleanupFinishedJobs(s: Sync, jobs: readonly Job[]): Steps<boolean> {
  const spec = s.cj.spec ?? {};
  const succeededLimit = spec.successfulJobsHistoryLimit;
  const failedLimit = spec.failedJobsHistoryLimit;
  if (typeof succeededLimit !== 'number' && typeof failedLimit !== 'number') return false;
  const succeeded = jobs.filter((j) => finishedCondition(j)?.type === 'Complete');
  const failed = jobs.filter((j) => finishedCondition(j)?.type === 'Failed');
  let update = false;
  if (typeof succeededLimit === 'number' && (yield* removeOldestJobs(s, succeeded, succeededLimit, 'successfulJobsHistoryLimit'))) update = true;
  if (typeof failedLimit === 'number' && (yield* removeOldestJobs(s, failed, failedLimit, 'failedJobsHistoryLimit'))) update = true;
  return update;
}

/** byJobStartTime orders Jobs by status.startTime (none last), then by name. */
function byJobStartTime(a: Job, b: Job): number {
  const x = a.status?.startTime;
  const y = b.status?.startTime;
  if (!x && y) return 1;
  if (x && !y) return -1;
  const d = (x ? Date.parse(x) : 0) - (y ? Date.parse(y) : 0);
  if (d !== 0) return d;
  const m = a.metadata?.name ?? '';
  const n = b.metadata?.name ?? '';
  return m < n ? -1 : m > n ? 1 : 0;
}

function* removeOldestJobs(s: Sync, jobs: readonly Job[], max: number, field: string): Steps<boolean> {
  const numToDelete = jobs.length - max;
  if (numToDelete <= 0) return false;
  const oldest = [...jobs].sort(byJobStartTime).slice(0, numToDelete);
  let update = false;
  for (const job of oldest) {
    yield { phase: 'controllers.cronjob', object: s.ref, field: `spec.${field}`, result: `${jobs.length} finished Jobs of this kind, ${field} ${max}: deleting the oldest, ${job.metadata?.name}`, detail: { job: job.metadata?.name, limit: max } };
    if (yield* deleteJob(s, job)) update = true;
  }
  return update;
}

/** deleteJob deletes a Job (propagationPolicy Background) and drops it from status.active; SuccessfulDelete or FailedDelete. */
function* deleteJob(s: Sync, job: Job): Steps<boolean> {
  const out = yield* s.client.delete(job as KubeObject, { propagationPolicy: 'Background' });
  if (!out.ok) {
    event(s, 'Warning', 'FailedDelete', `Deleted job: ${out.error.message}`);
    return false;
  }
  deleteFromActiveList(s.cj, job.metadata?.uid);
  event(s, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata?.name}`);
  return true;
}
