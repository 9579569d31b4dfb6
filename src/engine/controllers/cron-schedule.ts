// The CronJob schedule: robfig/cron v3's standard parser (ParseStandard: 5 fields, names, steps, `?`, the @-macros and
// @every) and its Next, as k8s.io/kubernetes v1.36.3 parses a schedule through ParseCronScheduleWithPanicRecovery
// (pkg/util/parsers/parsers.go). See github.com/robfig/cron/v3@v3.0.1 parser.go, spec.go and constantdelay.go. Times are
// milliseconds since the Unix epoch; a time zone is read through Intl, which holds the same IANA database Go loads.

/** ZERO_TIME stands for Go's zero time.Time, what SpecSchedule.Next returns when nothing matches within five years. */
export const ZERO_TIME = Number.NEGATIVE_INFINITY;

/** CronSchedule is cron.Schedule: the next activation strictly after a time. */
export interface CronSchedule {
  next(ms: number): number;
}

/** Field is one field of a SpecSchedule: the values it matches and its starBit (a `*` or `?` without a step above 1). */
interface Field {
  values: ReadonlySet<number>;
  star: boolean;
}

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

// spec.go: the bounds of each field and the names months and days of the week accept.
const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/** CronError is the error ParseStandard returns, with its exact text. */
export class CronError extends Error {}

/** goAtoi is strconv.Atoi on a 64-bit platform, with its error text. */
function goAtoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new CronError(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (Math.abs(n) > 9223372036854775807) throw new CronError(`strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

/** mustParseInt is parser.go mustParseInt. */
function mustParseInt(expr: string): number {
  let num: number;
  try {
    num = goAtoi(expr);
  } catch (err) {
    throw new CronError(`failed to parse int from ${expr}: ${(err as Error).message}`);
  }
  if (num < 0) throw new CronError(`negative number (${num}) not allowed: ${expr}`);
  return num;
}

function parseIntOrName(expr: string, names: Bounds['names']): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? mustParseInt(expr);
}

/** getRange is parser.go getRange: `*`, `?`, `a`, `a-b`, each with an optional `/step`. */
function getRange(expr: string, r: Bounds, into: Set<number>): boolean {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
    star = true;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]!);
    // `5/15` is 5-max/15; a step above 1 clears the star bit (so `*/2` is not a wildcard for the day rule).
    if (singleDigit) end = r.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
  for (let i = start; i <= end; i += step) into.add(i);
  return star;
}

/** getField is parser.go getField: the comma-separated ranges of one field (empty pieces skipped, as FieldsFunc does). */
function getField(field: string, r: Bounds): Field {
  const values = new Set<number>();
  let star = false;
  for (const expr of field.split(',').filter((e) => e !== '')) star = getRange(expr, r, values) || star;
  return { values, star };
}

const all = (r: Bounds): Field => ({ values: new Set(Array.from({ length: r.max - r.min + 1 }, (_, i) => r.min + i)), star: true });
const one = (v: number): Field => ({ values: new Set([v]), star: false });

/** Spec is a SpecSchedule: second is always 0 for the standard parser. */
interface Spec {
  minute: Field;
  hour: Field;
  dom: Field;
  month: Field;
  dow: Field;
}

/** DESCRIPTORS are parseDescriptor's @-macros. */
const DESCRIPTORS: Readonly<Record<string, () => Spec>> = {
  '@yearly': () => ({ minute: one(0), hour: one(0), dom: one(1), month: one(1), dow: all(DOW) }),
  '@annually': () => DESCRIPTORS['@yearly']!(),
  '@monthly': () => ({ minute: one(0), hour: one(0), dom: one(1), month: all(MONTHS), dow: all(DOW) }),
  '@weekly': () => ({ minute: one(0), hour: one(0), dom: all(DOM), month: all(MONTHS), dow: one(0) }),
  '@daily': () => ({ minute: one(0), hour: one(0), dom: all(DOM), month: all(MONTHS), dow: all(DOW) }),
  '@midnight': () => DESCRIPTORS['@daily']!(),
  '@hourly': () => ({ minute: one(0), hour: all(HOURS), dom: all(DOM), month: all(MONTHS), dow: all(DOW) }),
};

/**
 * parseCronSchedule is cron.ParseStandard behind ParseCronScheduleWithPanicRecovery: the schedule, or a CronError
 * with the text kube-apiserver's validation and the controller's events quote. `defaultZone` is time.Local, the
 * zone of a schedule without TZ= (kube-controller-manager's, UTC in its kubeadm static pod).
 */
export function parseCronSchedule(schedule: string, defaultZone = 'UTC'): CronSchedule {
  if (schedule.length === 0) throw new CronError('empty spec string');
  let spec = schedule;
  let zone = defaultZone;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const i = spec.indexOf(' ');
    const eq = spec.indexOf('=');
    // spec[eq+1:i] with no space panics; the panic is recovered as this error.
    if (i < 0) throw new CronError('invalid schedule format: runtime error: slice bounds out of range [:-1]');
    const name = spec.slice(eq + 1, i);
    const err = loadLocationError(name);
    if (err) throw new CronError(`provided bad location ${name}: ${err}`);
    zone = name;
    spec = spec.slice(i).trim();
  }
  if (spec.startsWith('@')) return descriptor(spec, zone);
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const s: Spec = { minute: getField(fields[0]!, MINUTES), hour: getField(fields[1]!, HOURS), dom: getField(fields[2]!, DOM), month: getField(fields[3]!, MONTHS), dow: getField(fields[4]!, DOW) };
  return { next: (ms) => specNext(s, zoneOf(zone), ms) };
}

function descriptor(spec: string, zone: string): CronSchedule {
  const make = DESCRIPTORS[spec];
  if (make) {
    const s = make();
    return { next: (ms) => specNext(s, zoneOf(zone), ms) };
  }
  if (spec.startsWith('@every ')) {
    const text = spec.slice('@every '.length);
    let d: number;
    try {
      d = parseGoDurationMs(text);
    } catch (err) {
      throw new CronError(`failed to parse duration ${spec}: ${(err as Error).message}`);
    }
    // constantdelay.go Every: at least a second, rounded down to whole seconds; Next drops the sub-second part.
    const delay = d < 1000 ? 1000 : d - (d % 1000);
    return { next: (ms) => (ms === ZERO_TIME ? ZERO_TIME : Math.floor(ms / 1000) * 1000 + delay) };
  }
  throw new CronError(`unrecognized descriptor: ${spec}`);
}

/** GO_UNITS are time.ParseDuration's units, in milliseconds. */
const GO_UNITS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** parseGoDurationMs is time.ParseDuration (in milliseconds), with its error texts. */
export function parseGoDurationMs(s: string): number {
  const quoted = `"${s}"`;
  if (s === '0') return 0;
  const m = /^([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(s);
  if (!m) {
    if (/^[-+]?(?:\d+\.?\d*|\.\d+)$/.test(s)) throw new Error(`time: missing unit in duration ${quoted}`);
    const unit = /^[-+]?(?:\d+\.?\d*|\.\d+)([^\d.]+)/.exec(s);
    if (unit && s !== '') throw new Error(`time: unknown unit ${JSON.stringify(unit[1])} in duration ${quoted}`);
    throw new Error(`time: invalid duration ${quoted}`);
  }
  let total = 0;
  for (const part of m[2]!.matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) total += Number(part[1]) * GO_UNITS[part[2]!]!;
  return m[1] === '-' ? -total : total;
}

/** loadLocationError is time.LoadLocation's error for a name ("" when it loads); "" and UTC are UTC, Local the host's. */
export function loadLocationError(name: string): string {
  if (name === '' || name === 'UTC' || name === 'Local') return '';
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return 'time: invalid location name';
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    // Intl matches names case-insensitively; Go's zoneinfo lookup is by exact file name.
    if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return `unknown time zone ${name}`;
    return '';
  } catch {
    return `unknown time zone ${name}`;
  }
}

/** Zone gives the UTC offset (ms) of a location at an instant. */
interface Zone {
  offsetAt(ms: number): number;
}

const UTC_ZONE: Zone = { offsetAt: () => 0 };
const zones = new Map<string, Zone>();

/** zoneOf is the location of an IANA name, its offsets read from Intl. */
export function zoneOf(name: string): Zone {
  if (name === '' || name === 'UTC' || name === 'Local') return UTC_ZONE;
  let z = zones.get(name);
  if (!z) {
    const fmt = new Intl.DateTimeFormat('en-US', { timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short' });
    z = {
      offsetAt(ms: number): number {
        const whole = Math.floor(ms / 1000) * 1000;
        const p: Record<string, string> = {};
        for (const part of fmt.formatToParts(new Date(whole))) p[part.type] = part.value;
        const year = p['era'] === 'BC' ? 1 - Number(p['year']) : Number(p['year']);
        return utcMs(year, Number(p['month']), Number(p['day']), Number(p['hour']), Number(p['minute']), Number(p['second'])) - whole;
      },
    };
    zones.set(name, z);
  }
  return z;
}

/** utcMs is Date.UTC with Go's normalisation of out-of-range fields, for any year (Date.UTC maps 0-99 to 19xx). */
function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

/** Wall is a time's fields in its location, as t.Year(), t.Month(), ... read them. */
interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

function wall(zone: Zone, ms: number): Wall {
  const d = new Date(ms + zone.offsetAt(ms));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay() };
}

/**
 * goDate is time.Date in a location: the fields normalised, then the offset of the zone period the local time falls in
 * (a time in a gap or an overlap gets the offset Go picks: the one in effect just before, looked up again at the result).
 */
function goDate(zone: Zone, y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const local = utcMs(y, mo, d, h, mi, s);
  let offset = zone.offsetAt(local);
  if (offset !== 0) {
    const utc = local - offset;
    if (zone.offsetAt(utc) !== offset) offset = zone.offsetAt(utc);
  }
  return local - offset;
}

/** dayMatches is spec.go dayMatches: both day fields when either is a wildcard, else either. */
function dayMatches(s: Spec, w: Wall): boolean {
  const domMatch = s.dom.values.has(w.day);
  const dowMatch = s.dow.values.has(w.weekday);
  return s.dom.star || s.dow.star ? domMatch && dowMatch : domMatch || dowMatch;
}

/** specNext is SpecSchedule.Next: the first time after ms (to the whole second) the fields match, within five years. */
function specNext(s: Spec, zone: Zone, ms: number): number {
  if (ms === ZERO_TIME) return ZERO_TIME;
  // Start at the next whole second.
  let t = Math.floor(ms / 1000) * 1000 + 1000;
  let added = false;
  const yearLimit = wall(zone, t).year + 5;
  for (;;) {
    let w = wall(zone, t);
    if (w.year > yearLimit) return ZERO_TIME;
    let wrap = false;
    while (!s.month.values.has(w.month)) {
      if (!added) {
        added = true;
        t = goDate(zone, w.year, w.month, 1, 0, 0, 0);
        w = wall(zone, t);
      }
      t = goDate(zone, w.year, w.month + 1, w.day, w.hour, w.minute, w.second);
      w = wall(zone, t);
      if (w.month === 1) { wrap = true; break; }
    }
    if (wrap) continue;
    while (!dayMatches(s, w)) {
      if (!added) {
        added = true;
        t = goDate(zone, w.year, w.month, w.day, 0, 0, 0);
        w = wall(zone, t);
      }
      t = goDate(zone, w.year, w.month, w.day + 1, w.hour, w.minute, w.second);
      w = wall(zone, t);
      // A day that starts off midnight (a DST change at 00:00) is moved back to it.
      if (w.hour !== 0) {
        t += (w.hour > 12 ? 24 - w.hour : -w.hour) * 3_600_000;
        w = wall(zone, t);
      }
      if (w.day === 1) { wrap = true; break; }
    }
    if (wrap) continue;
    while (!s.hour.values.has(w.hour)) {
      if (!added) {
        added = true;
        t = goDate(zone, w.year, w.month, w.day, w.hour, 0, 0);
        w = wall(zone, t);
      }
      t += 3_600_000;
      w = wall(zone, t);
      if (w.hour === 0) { wrap = true; break; }
    }
    if (wrap) continue;
    while (!s.minute.values.has(w.minute)) {
      if (!added) {
        added = true;
        t -= ((t % 60_000) + 60_000) % 60_000;
      }
      t += 60_000;
      w = wall(zone, t);
      if (w.minute === 0) { wrap = true; break; }
    }
    if (wrap) continue;
    // The standard parser's second field is 0.
    while (w.second !== 0) {
      if (!added) {
        added = true;
        t -= ((t % 1000) + 1000) % 1000;
      }
      t += 1000;
      w = wall(zone, t);
      if (w.second === 0) { wrap = true; break; }
    }
    if (wrap) continue;
    return t;
  }
}

/** formatRFC3339 is time.Format(time.RFC3339) of an instant in a location: `Z` for UTC, else the offset. */
export function formatRFC3339(ms: number, zoneName: string): string {
  const zone = zoneOf(zoneName);
  const offset = zone.offsetAt(ms);
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset).toISOString().slice(0, 19);
  if (zone === UTC_ZONE) return `${local}Z`;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset) / 60_000;
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
