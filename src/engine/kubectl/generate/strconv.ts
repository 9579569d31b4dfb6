// Go's strconv as kubectl's flags and generators read numbers and switches, with its error texts
// (`strconv.ParseInt: parsing "abc": invalid syntax`). See go/src/strconv/atoi.go and atob.go.

/** goParseBool is strconv.ParseBool: 1, t, T, TRUE, true, True and their false spellings. */
export function goParseBool(s: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(s)}: invalid syntax`);
}

/** underscoreOK is atoi.go's check of `_` in a base-0 literal: only between digits, and only after a base prefix. */
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s[0] === '-' || s[0] === '+') s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && /[bBoOxX]/.test(s[1]!)) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (/[0-9]/.test(c) || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/**
 * goInt is strconv.ParseInt(s, base, bits) (`fn` names the function in the error, as Atoi's errors say `strconv.Atoi`):
 * base 0 reads the 0x, 0o, 0b and leading-0 prefixes and allows `_` between digits.
 */
export function goInt(s: string, base: 0 | 10, bits: 32 | 64, fn = 'strconv.ParseInt'): number {
  const syntax = () => new Error(`${fn}: parsing ${JSON.stringify(s)}: invalid syntax`);
  if (s === '') throw syntax();
  let body = s;
  let negative = false;
  if (body[0] === '+' || body[0] === '-') {
    negative = body[0] === '-';
    body = body.slice(1);
  }
  let radix = 10;
  if (base === 0) {
    if (/^0[xX]/.test(body)) radix = 16, body = body.slice(2);
    else if (/^0[oO]/.test(body)) radix = 8, body = body.slice(2);
    else if (/^0[bB]/.test(body)) radix = 2, body = body.slice(2);
    else if (body.length > 1 && body[0] === '0') radix = 8, body = body.slice(1);
    if (body.includes('_')) {
      if (!underscoreOK(s)) throw syntax();
      body = body.replace(/_/g, '');
    }
  }
  const digits = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : radix === 2 ? /^[01]+$/ : /^[0-9]+$/;
  if (!digits.test(body)) throw syntax();
  let n = 0n;
  for (const c of body) n = n * BigInt(radix) + BigInt(parseInt(c, 16));
  if (negative) n = -n;
  const max = (1n << BigInt(bits - 1)) - 1n;
  if (n > max || n < -max - 1n) throw new Error(`${fn}: parsing ${JSON.stringify(s)}: value out of range`);
  return Number(n);
}

/** goAtoi is strconv.Atoi on a 64-bit platform. */
export function goAtoi(s: string): bigint {
  const n = goInt(s, 10, 64, 'strconv.Atoi');
  // Past 2^53 a number is not exact: read the digits again for the conversion that follows.
  return Math.abs(n) > Number.MAX_SAFE_INTEGER ? BigInt(s.replace(/^\+/, '')) : BigInt(n);
}

/** int32Of is Go's int32(x) conversion of an int: the low 32 bits, as a signed number. */
export function int32Of(x: bigint): number {
  return Number(BigInt.asIntN(32, x));
}

const DURATION_UNITS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * goDurationMs is time.ParseDuration of a duration flag (`1m0s`, `90s`, `1.5h`, `0`) in milliseconds, with its errors:
 * `time: invalid duration "x"`, `time: missing unit in duration "1"`, `time: unknown unit "d" in duration "1d"`.
 * See go/src/time/format.go (ParseDuration).
 */
export function goDurationMs(s: string): number {
  const quoted = JSON.stringify(s);
  const negative = s.startsWith('-');
  let rest = s.replace(/^[-+]/, '');
  if (rest === '0') return 0;
  if (rest === '') throw new Error(`time: invalid duration ${quoted}`);
  let total = 0;
  while (rest !== '') {
    const num = /^([0-9]*)(\.[0-9]*)?/.exec(rest)!;
    if (num[1] === '' && (num[2] === undefined || num[2] === '.')) throw new Error(`time: invalid duration ${quoted}`);
    rest = rest.slice(num[0].length);
    const unit = /^[^0-9.]*/.exec(rest)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const scale = Object.hasOwn(DURATION_UNITS, unit) ? DURATION_UNITS[unit] : undefined;
    if (scale === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    total += Number(num[0]) * scale;
    rest = rest.slice(unit.length);
  }
  return negative ? -total : total;
}
