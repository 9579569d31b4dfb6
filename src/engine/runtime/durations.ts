// Durations printed as Go's time.Duration.String does (2s, 1.5s, 312ms, 1m2.5s), and parsed from flags (30s, 5m).

/** goDuration prints milliseconds as Go's time.Duration.String. See the Go standard library time/time.go. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  let out: string;
  if (rest < 1000) {
    out = `${trimZeros(rest.toFixed(3))}ms`;
  } else {
    const hours = Math.floor(rest / 3_600_000);
    rest -= hours * 3_600_000;
    const minutes = Math.floor(rest / 60_000);
    rest -= minutes * 60_000;
    const seconds = `${trimZeros((rest / 1000).toFixed(3))}s`;
    out = hours > 0 ? `${hours}h${minutes}m${seconds}` : minutes > 0 ? `${minutes}m${seconds}` : seconds;
  }
  return neg ? `-${out}` : out;
}

function trimZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** parseDuration reads a duration flag (`90s`, `5m`, `1h30m`, `1.5s`, `500ms`, or bare seconds) into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t)) !== null) {
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3_600_000 : m[2] === 'm' ? n * 60_000 : m[2] === 's' ? n * 1000 : n;
    matched = re.lastIndex;
  }
  return matched === t.length && t.length > 0 ? total : undefined;
}

const GO_UNITS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * parseGoDuration is Go's time.ParseDuration (what a Duration flag reads): `30s`, `1m30s`, `1.5h`, `-2s`, `0`; a number
 * needs a unit. Milliseconds, or the error Go returns: `time: missing unit in duration "5"`, `time: unknown unit "x" in
 * duration "5x"`, `time: invalid duration "abc"`. See the Go standard library time/format.go.
 */
export function parseGoDuration(text: string): { ms: number } | { error: string } {
  const quoted = JSON.stringify(text);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return { ms: 0 };
  if (s === '') return { error: `time: invalid duration ${quoted}` };
  let total = 0;
  while (s !== '') {
    const number = /^(\d*)(\.\d*)?/.exec(s)!;
    if (number[0] === '' || number[0] === '.') return { error: `time: invalid duration ${quoted}` };
    s = s.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') return { error: `time: missing unit in duration ${quoted}` };
    const scale = GO_UNITS[unit];
    if (scale === undefined) return { error: `time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}` };
    total += Number(number[0]) * scale;
    s = s.slice(unit.length);
  }
  return { ms: sign * total };
}
