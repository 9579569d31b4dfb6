// The CronJob controller's utilities: the CronJob's shape, its schedule as the controller parses it, the unmet schedule
// times and the requeue delay, the Job made from the template, the active list. See pkg/controller/cronjob/utils.go
// and cronjob_controllerv2.go (formatSchedule, getJobName) at k8s.io/kubernetes v1.36.3.
import type { KubeObject } from '../api/types';
import { controllerRef } from './owner';
import { type CronSchedule, formatRFC3339, loadLocationError, parseCronSchedule, ZERO_TIME } from './cron-schedule';
import type { JobSpec } from './job-types';

/** CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION is batchv1.CronJobScheduledTimestampAnnotation, set on every Job made. */
export const CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** NEXT_SCHEDULE_DELTA_MS is nextScheduleDelta: the requeue comes 100 ms after the schedule time, for clock skew. */
export const NEXT_SCHEDULE_DELTA_MS = 100;

/** ObjectReference is a corev1.ObjectReference as getRef makes it for status.active. */
export interface ObjectReference {
  kind: string;
  namespace?: string;
  name: string;
  uid: string;
  apiVersion: string;
  resourceVersion?: string;
}

/** CronJobStatus is batch/v1 CronJobStatus. */
export interface CronJobStatus {
  active?: ObjectReference[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

/** CronJobSpec is batch/v1 CronJobSpec, after the API server's defaulting. */
export interface CronJobSpec {
  schedule?: string;
  timeZone?: string | null;
  startingDeadlineSeconds?: number | null;
  concurrencyPolicy?: string;
  suspend?: boolean;
  jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: JobSpec };
  successfulJobsHistoryLimit?: number | null;
  failedJobsHistoryLimit?: number | null;
}

/** CronJob is a batch/v1 CronJob. */
export type CronJob = KubeObject & { spec?: CronJobSpec; status?: CronJobStatus };

/** Missed is missedSchedulesType: none, few or many (more than 100) schedule times missed since the earliest time. */
export type Missed = 'none' | 'few' | 'many';

const hasTimeZone = (cj: CronJob): cj is CronJob & { spec: { timeZone: string } } => typeof cj.spec?.timeZone === 'string';

/** formatSchedule is formatSchedule without its event: the schedule, prefixed `TZ=<zone> ` when the zone loads. */
export function formatSchedule(cj: CronJob): string {
  const schedule = cj.spec?.schedule ?? '';
  if (schedule.includes('TZ')) return schedule;
  if (hasTimeZone(cj)) return loadLocationError(cj.spec.timeZone) ? schedule : `TZ=${cj.spec.timeZone} ${schedule}`;
  return schedule;
}

/** scheduleOf parses the CronJob's schedule as ParseCronScheduleWithPanicRecovery(formatSchedule(cj)); throws a CronError. */
export function scheduleOf(cj: CronJob): CronSchedule {
  return parseCronSchedule(formatSchedule(cj));
}

const ms = (timestamp: string | undefined): number | undefined => (timestamp ? Date.parse(timestamp) : undefined);

/** MostRecent is what mostRecentScheduleTime returns. */
export interface MostRecent {
  earliest: number;
  mostRecent?: number;
  missed: Missed;
  error?: string;
}

/**
 * mostRecentScheduleTime: from the last schedule time (or the creation time, or now - startingDeadlineSeconds when
 * later and asked for), the most recent schedule time not after now, how many were missed (roughly: the time since the
 * first one over the interval between the first two), or the error of a schedule that never fires (31 February).
 */
export function mostRecentScheduleTime(cj: CronJob, now: number, schedule: CronSchedule, includeStartingDeadlineSeconds: boolean): MostRecent {
  let earliest = ms(cj.metadata?.creationTimestamp) ?? now;
  let missed: Missed = 'none';
  const last = ms(cj.status?.lastScheduleTime);
  if (last !== undefined) earliest = last;
  const deadline = cj.spec?.startingDeadlineSeconds;
  if (includeStartingDeadlineSeconds && typeof deadline === 'number') {
    // The controller is not going to schedule anything below this point.
    const schedulingDeadline = now - deadline * 1000;
    if (schedulingDeadline > earliest) earliest = schedulingDeadline;
  }
  const t1 = schedule.next(earliest);
  const t2 = schedule.next(t1);
  if (now < t1) return { earliest, missed };
  if (now < t2) return { earliest, mostRecent: t1, missed };
  // int64(t2.Sub(t1).Round(time.Second).Seconds()): a schedule that never fires gives the zero time, and 0 here.
  const between = t1 === ZERO_TIME || t2 === ZERO_TIME ? 0 : Math.trunc(Math.round((t2 - t1) / 1000));
  if (between < 1) return { earliest, missed, error: 'time difference between two schedules is less than 1 second' };
  const elapsed = Math.trunc((now - t1) / 1000);
  const numberOfMissed = Math.trunc(elapsed / between) + 1;
  // Start one interval before the estimate and let the schedule find the exact times (30 6-16/4 * * 1-5 is uneven).
  const potentialEarliest = t1 + (numberOfMissed - 2) * between * 1000;
  let mostRecent: number | undefined;
  for (let t = schedule.next(potentialEarliest); t !== ZERO_TIME && t <= now; t = schedule.next(t)) mostRecent = t;
  missed = numberOfMissed > 100 ? 'many' : 'few';
  return mostRecent === undefined ? { earliest, missed } : { earliest, mostRecent, missed };
}

/**
 * nextScheduleTimeDuration is the requeue delay: the next schedule time after the most recent one (or after the
 * earliest time when none was missed, or after now), plus 100 ms. Undefined for a schedule that never fires, which
 * the real controller would requeue at once (a zero time minus now); it never gets here with one.
 */
export function nextScheduleTimeDuration(cj: CronJob, now: number, schedule: CronSchedule): number | undefined {
  const r = mostRecentScheduleTime(cj, now, schedule, false);
  const from = r.error ? now : r.mostRecent ?? (r.missed === 'none' ? r.earliest : now);
  const next = schedule.next(from);
  return next === ZERO_TIME ? undefined : next + NEXT_SCHEDULE_DELTA_MS - now;
}

/** nextScheduleTime is the schedule time to start a Job for now (unmet, within the starting deadline), if any. */
export function nextScheduleTime(cj: CronJob, now: number, schedule: CronSchedule): { time?: number; missed: Missed; error?: string } {
  const r = mostRecentScheduleTime(cj, now, schedule, true);
  if (r.mostRecent === undefined || r.mostRecent > now) return { missed: r.missed, ...(r.error ? { error: r.error } : {}) };
  return { time: r.mostRecent, missed: r.missed };
}

/** getJobName is `<cronjob>-<scheduled time in minutes since the Unix epoch>` (getTimeHashInMinutes). */
export function getJobName(cj: CronJob, scheduledTime: number): string {
  return `${cj.metadata?.name ?? ''}-${Math.floor(scheduledTime / 60_000)}`;
}

/**
 * getJobFromTemplate2 is the Job for one scheduled time: the template's labels and annotations, the
 * cronjob-scheduled-timestamp annotation (the time in the CronJob's zone, RFC 3339), the controller reference
 * (blockOwnerDeletion, as NewControllerRef sets it) and the template's spec.
 */
export function jobFromTemplate(cj: CronJob, scheduledTime: number): KubeObject {
  const template = cj.spec?.jobTemplate ?? {};
  const annotations = { ...(template.metadata?.annotations ?? {}), [CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION]: formatRFC3339(scheduledTime, cj.spec?.timeZone ?? '') };
  return {
    apiVersion: 'batch/v1', kind: 'Job',
    metadata: {
      name: getJobName(cj, scheduledTime), namespace: cj.metadata?.namespace ?? 'default',
      labels: { ...(template.metadata?.labels ?? {}) }, annotations, ownerReferences: [controllerRef(cj)],
    },
    spec: structuredClone(template.spec ?? {}),
  };
}

/** jobRef is getRef: the Job's ObjectReference for status.active. */
export function jobRef(job: KubeObject): ObjectReference {
  const m = job.metadata;
  return {
    kind: 'Job', ...(m?.namespace ? { namespace: m.namespace } : {}), name: m?.name ?? '', uid: m?.uid ?? '', apiVersion: 'batch/v1',
    ...(m?.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

/** inActiveList / inActiveListByName: status.active holds the Job, by uid or by namespace and name. */
export function inActiveList(cj: CronJob, uid: string | undefined): boolean {
  return (cj.status?.active ?? []).some((j) => j.uid === uid);
}

export function inActiveListByName(cj: CronJob, namespace: string | undefined, name: string): boolean {
  return (cj.status?.active ?? []).some((j) => j.name === name && j.namespace === namespace);
}

/** deleteFromActiveList drops the Job of a uid from status.active (an empty list is omitted, as omitempty does). */
export function deleteFromActiveList(cj: CronJob, uid: string | undefined): void {
  const active = (cj.status?.active ?? []).filter((j) => j.uid !== uid);
  cj.status = { ...cj.status };
  if (active.length) cj.status.active = active;
  else delete cj.status.active;
}

/** rfc1123z is time.RFC1123Z of an instant in UTC: `Thu, 01 Jan 2026 00:01:00 +0000` (the MissSchedule event). */
export function rfc1123z(at: number): string {
  return new Date(at).toUTCString().replace('GMT', '+0000');
}
