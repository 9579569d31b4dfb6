// klog's text format as kubectl writes it to stderr: the header (severity, date and time from the virtual clock, the
// thread id, the source line that logged) and the message, plain (Infof, Infoln) or structured (InfoS: a quoted message
// and key=value pairs, multi-line values between `<` and ` >`). See k8s.io/klog/v2 klog.go (formatHeader)
// and internal/serialize/keyvalues.go (KVFormat, writeStringValue).
import { goQuote } from '../apiserver/authz/forbidden';
import type { Millis, VirtualClock } from '../runtime/clock';

/** KlogSite is the source line a log call sits on, as the header names it (`round_trippers.go:632`). */
export interface KlogSite {
  file: string;
  line: number;
}

/** KLOG_THREAD_ID is the thread id every header shows: the simulated kubectl is one process with a fixed id. */
export const KLOG_THREAD_ID = 1;

/** KlogSeverity is the header's first letter: Info, Warning, Error. */
export type KlogSeverity = 'I' | 'W' | 'E';

/** klogHeader is `I1203 00:01:02.345000       1 file.go:NN] `, the time read from the virtual clock at `at`. */
export function klogHeader(severity: KlogSeverity, clock: VirtualClock, at: Millis, site: KlogSite): string {
  const d = new Date(clock.epoch.getTime() + at);
  const two = (n: number) => String(n).padStart(2, '0');
  const micros = String(Math.floor(((at % 1000) + 1000) % 1000) * 1000).padStart(6, '0');
  return `${severity}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${micros} ${String(KLOG_THREAD_ID).padStart(7)} ${site.file}:${site.line}] `;
}

/** KlogValue is a value of a structured log call: text (or a fmt.Stringer's text), an integer or a boolean. */
export type KlogValue = string | number | boolean;

/**
 * klogValue is one `key=value` of a structured line: an integer as %d, a text without line breaks quoted as
 * strconv.Quote does, a text with line breaks one line per tab-indented line, closed by ` >` on a line of its own.
 */
function klogValue(key: string, value: KlogValue): string {
  if (typeof value !== 'string') return `${key}=${value}`;
  if (!value.includes('\n')) return `${key}=${goQuote(value)}`;
  const lines = value.split('\n');
  const last = lines.pop()!;
  // A text ending with a line break adds no empty line; one that does not gets its last line and a break.
  return `${key}=<\n${lines.map((l) => `\t${l}\n`).join('')}${last === '' ? '' : `\t${last}\n`} >`;
}

/** klogStructured is the text of an InfoS call after its header: the quoted message, then its key=value pairs. */
export function klogStructured(message: string, kvs: readonly (readonly [string, KlogValue])[]): string {
  return [goQuote(message), ...kvs.map(([k, v]) => klogValue(k, v))].join(' ');
}

/** headersText is client-go's headersMap.String(): each header line `Key: value`, keys sorted, one line per value. */
export function headersText(headers: Readonly<Record<string, readonly string[]>>): string {
  return Object.keys(headers).sort().flatMap((k) => (headers[k] ?? []).map((v) => `${k}: ${v}\n`)).join('');
}
