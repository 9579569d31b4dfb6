// Why a CronJob has made no Job in the run, in its controller's terms: it is suspended, its schedule is invalid or
// never fires, or its first schedule time lies after the run's end (the controller requeues itself for that time,
// 100 ms after it). See pkg/controller/cronjob/cronjob_controllerv2.go (syncCronJob) and utils.go
// (mostRecentScheduleTime, nextScheduleTimeDuration) at k8s.io/kubernetes v1.36.3.
import { refOf, type KubeObject } from '../api/types';
import { CronError, formatRFC3339, ZERO_TIME } from '../controllers/cron-schedule';
import { type CronJob, mostRecentScheduleTime, scheduleOf } from '../controllers/cronjob-utils';
import type { TraceEntry } from '../runtime/recorder';

/** NoJobYet names a CronJob that made no Job during the run, and why. */
export interface NoJobYet {
  /** object is the CronJob, `namespace/name`. */
  object: string;
  why: string;
  /** nextScheduleTime is the schedule time the controller waits for, when there is one (RFC 3339, in its zone). */
  nextScheduleTime?: string;
}

/** explainCronJobs lists the CronJobs of the run that have made no Job by its end (`now`, ms since the Unix epoch). */
export function explainCronJobs(objects: readonly KubeObject[], trace: readonly TraceEntry[], now: number): NoJobYet[] {
  const out: NoJobYet[] = [];
  for (const obj of objects) {
    if (obj.kind !== 'CronJob' || obj.metadata?.deletionTimestamp) continue;
    const ref = refOf(obj);
    const steps = trace.filter((e) => e.phase === 'controllers.cronjob' && e.object === ref);
    if (steps.some((e) => / creating Job /.test(e.result))) continue;
    const cj = obj as CronJob;
    const object = `${obj.metadata?.namespace ?? 'default'}/${obj.metadata?.name ?? ''}`;
    if (cj.spec?.suspend) {
      out.push({ object, why: 'spec.suspend is true: the controller starts no Job while the CronJob is suspended' });
      continue;
    }
    const refused = [...steps].reverse().find((e) => e.outcome === 'failed');
    let schedule;
    try {
      schedule = scheduleOf(cj);
    } catch (err) {
      if (!(err instanceof CronError)) throw err;
      out.push({ object, why: refused?.result ?? `its schedule ${JSON.stringify(cj.spec?.schedule ?? '')} is not a valid cron schedule: ${err.message}` });
      continue;
    }
    const recent = mostRecentScheduleTime(cj, now, schedule, false);
    const next = schedule.next(recent.mostRecent ?? (recent.missed === 'none' ? recent.earliest : now));
    if (recent.error || next === ZERO_TIME) {
      out.push({ object, why: refused?.result ?? `its schedule ${cj.spec?.schedule ?? ''} never fires${recent.error ? `: ${recent.error}` : ''}` });
      continue;
    }
    const at = formatRFC3339(next, cj.spec?.timeZone ?? '');
    const left = Math.ceil((next - now) / 1000);
    out.push({
      object, nextScheduleTime: at,
      why: `its first schedule time is ${at} (${cj.spec?.schedule ?? ''}${cj.spec?.timeZone ? `, ${cj.spec.timeZone}` : ''}), ${left}s after the run ended: the controller waits for it (run longer with --for)`,
    });
  }
  return out;
}
