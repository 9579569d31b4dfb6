// The CronJob schedule as robfig/cron v3.0.1's ParseStandard and SpecSchedule.Next compute it (parser.go, spec.go,
// constantdelay.go), the validation kube-apiserver v1.36.3 runs on spec.schedule and spec.timeZone
// (pkg/apis/batch/validation/validation.go validateScheduleFormat, validateTimeZone), and the controller's time
// arithmetic (pkg/controller/cronjob/utils.go mostRecentScheduleTime, nextScheduleTimeDuration, getJobName). The
// expected times and errors were printed by robfig/cron v3.0.1 itself (Go 1.25, from 2026-01-01T00:00:00Z).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CronError, formatRFC3339, parseCronSchedule, ZERO_TIME } from '../../../src/engine/controllers/cron-schedule';
import { type CronJob, getJobName, jobFromTemplate, mostRecentScheduleTime, nextScheduleTimeDuration } from '../../../src/engine/controllers/cronjob-utils';
import { validateScheduleFormat, validateTimeZone } from '../../../src/engine/apiserver/validation/cronjob';

const FROM = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function nextThree(spec: string): string[] {
  const s = parseCronSchedule(spec);
  const out: string[] = [];
  for (let t = FROM, i = 0; i < 3; i++) out.push(iso((t = s.next(t))));
  return out;
}

const nextCases: { spec: string; want: string[] }[] = [
  { spec: '*/1 * * * *', want: ['2026-01-01T00:01:00Z', '2026-01-01T00:02:00Z', '2026-01-01T00:03:00Z'] },
  { spec: '*/15 * * * *', want: ['2026-01-01T00:15:00Z', '2026-01-01T00:30:00Z', '2026-01-01T00:45:00Z'] },
  // A single start with a step runs to the field's maximum.
  { spec: '5/20 * * * *', want: ['2026-01-01T00:05:00Z', '2026-01-01T00:25:00Z', '2026-01-01T00:45:00Z'] },
  { spec: '0 9-17/4 * * *', want: ['2026-01-01T09:00:00Z', '2026-01-01T13:00:00Z', '2026-01-01T17:00:00Z'] },
  { spec: '30 8 * * mon-fri', want: ['2026-01-01T08:30:00Z', '2026-01-02T08:30:00Z', '2026-01-05T08:30:00Z'] },
  { spec: '0 0 1,15 * *', want: ['2026-01-15T00:00:00Z', '2026-02-01T00:00:00Z', '2026-02-15T00:00:00Z'] },
  { spec: '0 12 * jan,jul sun', want: ['2026-01-04T12:00:00Z', '2026-01-11T12:00:00Z', '2026-01-18T12:00:00Z'] },
  // Both day fields restricted: either matches (Friday or the 13th).
  { spec: '0 0 13 * fri', want: ['2026-01-02T00:00:00Z', '2026-01-09T00:00:00Z', '2026-01-13T00:00:00Z'] },
  { spec: '? ? ? ? ?', want: ['2026-01-01T00:01:00Z', '2026-01-01T00:02:00Z', '2026-01-01T00:03:00Z'] },
  { spec: '@yearly', want: ['2027-01-01T00:00:00Z', '2028-01-01T00:00:00Z', '2029-01-01T00:00:00Z'] },
  { spec: '@annually', want: ['2027-01-01T00:00:00Z', '2028-01-01T00:00:00Z', '2029-01-01T00:00:00Z'] },
  { spec: '@monthly', want: ['2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z'] },
  { spec: '@weekly', want: ['2026-01-04T00:00:00Z', '2026-01-11T00:00:00Z', '2026-01-18T00:00:00Z'] },
  { spec: '@daily', want: ['2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z'] },
  { spec: '@midnight', want: ['2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z'] },
  { spec: '@hourly', want: ['2026-01-01T01:00:00Z', '2026-01-01T02:00:00Z', '2026-01-01T03:00:00Z'] },
  // @every parses (validation does not reject it in 1.36): a constant delay.
  { spec: '@every 90s', want: ['2026-01-01T00:01:30Z', '2026-01-01T00:03:00Z', '2026-01-01T00:04:30Z'] },
  // A time zone, as formatSchedule passes spec.timeZone: 09:00 in Tokyo is 00:00 UTC.
  { spec: 'TZ=Asia/Tokyo 0 9 * * *', want: ['2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z'] },
  // 02:30 does not exist on 8 March 2026 in New York (DST starts): Next skips that day.
  { spec: 'TZ=America/New_York 30 2 8 3 *', want: ['2027-03-08T07:30:00Z', '2028-03-08T07:30:00Z', '2029-03-08T07:30:00Z'] },
  // 01:30 happens twice on 1 November 2026 in New York (DST ends): both times fire.
  { spec: 'TZ=America/New_York 30 1 1 11 *', want: ['2026-11-01T05:30:00Z', '2026-11-01T06:30:00Z', '2027-11-01T05:30:00Z'] },
  { spec: '0 0 29 2 *', want: ['2028-02-29T00:00:00Z', '2032-02-29T00:00:00Z', '2036-02-29T00:00:00Z'] },
];

for (const c of nextCases) {
  test(`cron schedule: ${c.spec} fires at ${c.want.join(', ')}`, () => {
    assert.deepEqual(nextThree(c.spec), c.want);
  });
}

test('cron schedule: 31 February never fires: Next is the zero time', () => {
  assert.equal(parseCronSchedule('0 0 31 2 *').next(FROM), ZERO_TIME);
});

const errorCases: { spec: string; error: string }[] = [
  { spec: '* * *', error: 'expected exactly 5 fields, found 3: [* * *]' },
  { spec: '60 * * * *', error: 'end of range (60) above maximum (59): 60' },
  { spec: '* 24 * * *', error: 'end of range (24) above maximum (23): 24' },
  { spec: '0 0 0 * *', error: 'beginning of range (0) below minimum (1): 0' },
  { spec: '* * * 13 *', error: 'end of range (13) above maximum (12): 13' },
  { spec: '* * * * 7', error: 'end of range (7) above maximum (6): 7' },
  { spec: '1-2-3 * * * *', error: 'too many hyphens: 1-2-3' },
  { spec: '*/0 * * * *', error: 'step of range should be a positive number: */0' },
  { spec: '5-1 * * * *', error: 'beginning of range (5) beyond end of range (1): 5-1' },
  { spec: 'x * * * *', error: 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax' },
  { spec: '*/-1 * * * *', error: 'negative number (-1) not allowed: -1' },
  { spec: '@every 5', error: 'failed to parse duration @every 5: time: missing unit in duration "5"' },
  { spec: '@every', error: 'unrecognized descriptor: @every' },
  { spec: '@fortnightly', error: 'unrecognized descriptor: @fortnightly' },
  { spec: 'TZ=Mars/Olympus * * * * *', error: 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus' },
  // spec[eq+1:i] with no space panics; ParseCronScheduleWithPanicRecovery recovers it.
  { spec: 'TZ=UTC', error: 'invalid schedule format: runtime error: slice bounds out of range [:-1]' },
];

for (const c of errorCases) {
  test(`cron schedule: ${JSON.stringify(c.spec)} is refused: ${c.error}`, () => {
    assert.throws(() => parseCronSchedule(c.spec), (err: unknown) => err instanceof CronError && err.message === c.error);
  });
}

const validationCases: { name: string; errs: () => string[]; want: string[] }[] = [
  { name: 'a bad schedule quotes the parser', errs: () => body(validateScheduleFormat('61 * * * *')), want: ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61'] },
  { name: 'TZ= in the schedule is refused on create', errs: () => body(validateScheduleFormat('TZ=UTC 0 * * * *')), want: ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead'] },
  { name: 'a good schedule passes', errs: () => body(validateScheduleFormat('@hourly')), want: [] },
  { name: 'an unknown time zone', errs: () => body(validateTimeZone('Mars/Olympus')), want: ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'] },
  { name: 'a part with a space is not a zone name', errs: () => body(validateTimeZone('New York')), want: ['spec.timeZone: Invalid value: "New York": unknown time zone New York'] },
  { name: 'an empty time zone', errs: () => body(validateTimeZone('')), want: ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'] },
  { name: 'Local is not explicit', errs: () => body(validateTimeZone('Local')), want: ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'] },
  { name: 'an IANA name passes', errs: () => body(validateTimeZone('Europe/Paris')), want: [] },
];

function body(errs: { field: string; body: string }[]): string[] {
  return errs.map((e) => `${e.field}: ${e.body}`);
}

for (const c of validationCases) {
  test(`cronjob validation: ${c.name}`, () => {
    assert.deepEqual(c.errs(), c.want);
  });
}

const cj = (over: Partial<CronJob['spec']> & { created?: string; last?: string } = {}): CronJob => ({
  apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'hello', namespace: 'default', uid: 'u1', creationTimestamp: over.created ?? '2026-01-01T00:00:00Z' },
  spec: { schedule: '*/1 * * * *', ...over }, ...(over.last ? { status: { lastScheduleTime: over.last } } : {}),
});

const recentCases: { name: string; cj: CronJob; now: string; deadline: boolean; want: { mostRecent?: string; missed: string; error?: string } }[] = [
  { name: 'before the first schedule time: none', cj: cj(), now: '2026-01-01T00:00:30Z', deadline: true, want: { missed: 'none' } },
  { name: 'just after the first: it', cj: cj(), now: '2026-01-01T00:01:00.100Z', deadline: true, want: { mostRecent: '2026-01-01T00:01:00Z', missed: 'none' } },
  { name: 'three missed since the last schedule time: the latest, few missed', cj: cj({ last: '2026-01-01T00:01:00Z' }), now: '2026-01-01T00:04:30Z', deadline: true, want: { mostRecent: '2026-01-01T00:04:00Z', missed: 'few' } },
  { name: 'more than 100 missed: many', cj: cj(), now: '2026-01-01T02:00:30Z', deadline: true, want: { mostRecent: '2026-01-01T02:00:00Z', missed: 'many' } },
  { name: 'startingDeadlineSeconds hides the older ones', cj: cj({ startingDeadlineSeconds: 200 }), now: '2026-01-01T02:00:30Z', deadline: true, want: { mostRecent: '2026-01-01T02:00:00Z', missed: 'few' } },
  { name: 'a schedule that never fires is an error', cj: cj({ schedule: '0 0 31 2 *' }), now: '2026-01-01T00:01:00Z', deadline: true, want: { missed: 'none', error: 'time difference between two schedules is less than 1 second' } },
];

for (const c of recentCases) {
  test(`mostRecentScheduleTime: ${c.name}`, () => {
    const r = mostRecentScheduleTime(c.cj, Date.parse(c.now), parseCronSchedule(c.cj.spec!.schedule!), c.deadline);
    assert.deepEqual({ ...(r.mostRecent !== undefined ? { mostRecent: iso(r.mostRecent) } : {}), missed: r.missed, ...(r.error ? { error: r.error } : {}) }, c.want);
  });
}

test('nextScheduleTimeDuration: the next schedule time plus 100 ms', () => {
  const c = cj({ last: '2026-01-01T00:01:00Z' });
  assert.equal(nextScheduleTimeDuration(c, Date.parse('2026-01-01T00:01:00.100Z'), parseCronSchedule('*/1 * * * *')), 60_000);
});

test('the Job of a schedule time: name in minutes since the epoch, labels, annotations and the controller reference', () => {
  const c = cj({ timeZone: 'Asia/Tokyo', jobTemplate: { metadata: { labels: { team: 'batch' }, annotations: { owner: 'ops' } }, spec: { backoffLimit: 2 } } });
  const at = Date.parse('2026-01-01T00:01:00Z');
  assert.equal(getJobName(c, at), 'hello-29453761');
  const job = jobFromTemplate(c, at);
  assert.deepEqual(job.metadata, {
    name: 'hello-29453761', namespace: 'default', labels: { team: 'batch' },
    annotations: { owner: 'ops', 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-01T09:01:00+09:00' },
    ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: 'u1', controller: true, blockOwnerDeletion: true }],
  });
  assert.deepEqual(job['spec'], { backoffLimit: 2 });
  assert.equal(formatRFC3339(at, ''), '2026-01-01T00:01:00Z');
});
