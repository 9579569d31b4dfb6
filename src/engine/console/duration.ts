// Ages as kubectl prints them: the time since a timestamp, read at the simulation's virtual now.

/**
 * humanDuration prints a duration as kubectl's AGE columns do: 45s, 2m5s, 12m, 3h4m, 2d3h, 400d, 3y2d.
 * See staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go (HumanDuration).
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    return dy === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * since is translateTimestampSince: `<unknown>` for no timestamp, else the human duration from it to `nowMs`.
 * See staging/src/k8s.io/kubectl/pkg/describe/describe.go and pkg/printers/internalversion/printers.go.
 */
export function since(timestamp: string | undefined | null, nowMs: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(nowMs - t);
}

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
