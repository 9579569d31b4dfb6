// Ages as kubectl prints them: the time since a timestamp, read at the simulation's virtual now.
import { translateTimestampSince } from '../printers/format';

export { humanDuration } from '../kubectl/printer';

/**
 * since is translateTimestampSince (printers/format.ts): `<unknown>` for no timestamp, else the human duration from
 * it to `nowMs`. See pkg/printers/internalversion/printers.go.
 */
export const since: (timestamp: string | undefined | null, nowMs: number) => string = translateTimestampSince;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** rfc1123z prints a timestamp as Go's time.RFC1123Z in UTC: `Thu, 01 Jan 2026 00:00:02 +0000`. */
export function rfc1123z(timestamp: string | undefined | null): string {
  const d = new Date(timestamp ? Date.parse(timestamp) : Number.NaN);
  // A zero time.Time formats as Go's zero date.
  if (Number.isNaN(d.getTime())) return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}
