// CronJob validation on create: ValidateCronJobCreate of pkg/apis/batch/validation/validation.go (v1.36.3) — the
// metadata, validateCronJobSpec (schedule, startingDeadlineSeconds, timeZone, concurrencyPolicy, the job template,
// the history limits), then the 52-character name limit the Job names' 11-character suffix needs.
import type { KubeObject } from '../../api/types';
import { CronError, loadLocationError, parseCronSchedule } from '../../controllers/cron-schedule';
import type { CronJobSpec } from '../../controllers/cronjob-utils';
import { type JobTemplateSpec, validateJobTemplateSpec } from './batch';
import { asJSON, type FieldError, invalidValue, notSupported, required } from './field-errors';
import { nameIsDNSSubdomain, nonNegative, validateObjectMeta } from './metadata';

/** CRONJOB_NAME_MAX is DNS1035LabelMaxLength - 11: the Job's name is `<cronjob>-<minutes>`, at most 63 characters. */
const CRONJOB_NAME_MAX = 63 - 11;

/** VALID_TIME_ZONE_PART is validTimeZoneCharacters: one `/`-separated part of an IANA name. */
const VALID_TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateCronJob is ValidateCronJobCreate for a CronJob after defaulting. */
export function validateCronJob(cj: KubeObject): FieldError[] {
  const spec = (cj['spec'] ?? {}) as CronJobSpec;
  const errs = validateObjectMeta(cj, true, nameIsDNSSubdomain);
  errs.push(...validateCronJobSpec(spec));
  const name = cj.metadata?.name ?? '';
  if (name.length > CRONJOB_NAME_MAX) errs.push(invalidValue('metadata.name', name, `must be no more than ${CRONJOB_NAME_MAX} characters`));
  return errs;
}

function validateCronJobSpec(spec: CronJobSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.schedule) errs.push(required('spec.schedule'));
  else errs.push(...validateScheduleFormat(spec.schedule));
  if (typeof spec.startingDeadlineSeconds === 'number') errs.push(...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  errs.push(...validateTimeZone(spec.timeZone));
  const policy = spec.concurrencyPolicy ?? '';
  if (policy === '') errs.push(required('spec.concurrencyPolicy'));
  else if (!['Allow', 'Forbid', 'Replace'].includes(policy)) errs.push(notSupported('spec.concurrencyPolicy', asJSON(policy), ['Allow', 'Forbid', 'Replace']));
  errs.push(...validateJobTemplateSpec((spec.jobTemplate ?? {}) as JobTemplateSpec, 'spec.jobTemplate'));
  if (typeof spec.successfulJobsHistoryLimit === 'number') errs.push(...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  if (typeof spec.failedJobsHistoryLimit === 'number') errs.push(...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errs;
}

/**
 * validateScheduleFormat: the schedule must parse as cron.ParseStandard parses it (the parser's error is the
 * detail), and on create it may not carry TZ= or CRON_TZ= (that is the timeZone field's job).
 */
export function validateScheduleFormat(schedule: string): FieldError[] {
  const errs: FieldError[] = [];
  try {
    parseCronSchedule(schedule);
  } catch (err) {
    if (!(err instanceof CronError)) throw err;
    errs.push(invalidValue('spec.schedule', schedule, err.message));
  }
  if (schedule.includes('TZ')) errs.push(invalidValue('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  return errs;
}

/** validateTimeZone: nil, or an IANA name time.LoadLocation loads (not empty, not Local, no odd characters). */
export function validateTimeZone(timeZone: string | null | undefined): FieldError[] {
  if (typeof timeZone !== 'string') return [];
  if (timeZone.length === 0) return [invalidValue('spec.timeZone', timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !VALID_TIME_ZONE_PART.test(part)) return [invalidValue('spec.timeZone', timeZone, `unknown time zone ${timeZone}`)];
  }
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local') errs.push(invalidValue('spec.timeZone', timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  // time.LoadLocation: "Local" itself loads (as the server's zone); "local" does not.
  const err = timeZone === 'Local' ? '' : loadLocationError(timeZone);
  if (err) errs.push(invalidValue('spec.timeZone', timeZone, err));
  return errs;
}
