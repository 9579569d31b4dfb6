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
