// Go library behaviour the body decoder must reproduce to the letter: strconv.Quote, encoding/json's string and
// number text and map key order, encoding/base64's CorruptInputError offsets, and time.Parse's RFC 3339 errors.

/** goQuote quotes a string as strconv.Quote (and fmt's %q) does: printable runes kept, others escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const r = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (r >= 0x20 && r < 0x7f) out += ch;
    else if (r >= 0x80 && !/[\p{C}\p{Z}]/u.test(ch)) out += ch;
    else out += escapeRune(r);
  }
  return `${out}"`;
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' };

/** escapeRune writes a non-printable rune as strconv.appendEscapedRune does. */
function escapeRune(r: number): string {
  const short = SHORT_ESCAPES[r];
  if (short) return short;
  if (r < 0x20 || r === 0x7f) return `\\x${r.toString(16).padStart(2, '0')}`;
  if (r >= 0xd800 && r <= 0xdfff) return '\\ufffd';
  return r < 0x10000 ? `\\u${r.toString(16).padStart(4, '0')}` : `\\U${r.toString(16).padStart(8, '0')}`;
}

/** goJsonStringBody is a string as encoding/json writes it (kubectl's request body), without the quotes. */
export function goJsonStringBody(s: string): string {
  return JSON.stringify(s).slice(1, -1).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** goNumberText is a JSON number as Go writes a float64 (shortest form, exponent from 1e21 and below 1e-6), as String does. */
export function goNumberText(n: number): string {
  return String(n);
}

const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** goTrimSpace trims Unicode white space as strings.TrimSpace does (unlike String.trim, it keeps U+FEFF). */
export function goTrimSpace(s: string): string {
  return s.replace(GO_SPACE, '');
}

/**
 * goSortedKeys orders an object's keys as encoding/json writes a map: by the bytes of their UTF-8 form. The body
 * kubectl sends is an unstructured map, so the server meets fields in this order.
 */
export function goSortedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  if (keys.length < 2) return keys;
  // UTF-16 order is UTF-8's but for characters past U+FFFF (surrogate pairs), which sort after U+E000-U+FFFF in UTF-8.
  if (!keys.some(hasSurrogate)) return keys.sort();
  return keys.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}

/** hasSurrogate tells whether a string holds half of a UTF-16 surrogate pair. */
function hasSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const NEWLINE = (c: number | undefined): boolean => c === 10 || c === 13;

/**
 * base64ErrorOffset is where base64.StdEncoding.Decode reports a CorruptInputError ("illegal base64 data at input
 * byte N"), or undefined when the text decodes. Why: decodeQuantum in Go's src/encoding/base64/base64.go.
 */
export function base64ErrorOffset(text: string): number | undefined {
  const src = Buffer.from(text, 'utf8');
  let si = 0;
  while (si < src.length) {
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined;
        return si - j;
      }
      const c = src[si++] ?? 0;
      if (c < 128 && BASE64.includes(String.fromCharCode(c))) continue;
      if (NEWLINE(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d || j < 2) return si - 1;
      if (j === 2) {
        while (si < src.length && NEWLINE(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== 0x3d) return si - 1;
        si++;
      }
      while (si < src.length && NEWLINE(src[si])) si++;
      return si < src.length ? si : undefined;
    }
  }
  return undefined;
}

/** bytesToBase64 encodes a list of bytes as encoding/json writes a []byte. */
export function bytesToBase64(bytes: readonly number[]): string {
  return Buffer.from(bytes).toString('base64');
}

/** RFC3339 and RFC3339_MICRO are the layouts metav1.Time and metav1.MicroTime parse with. */
export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

/** timeQuote quotes as the time package's quote does: bytes outside printable ASCII as \xNN. */
function timeQuote(s: string): string {
  let out = '"';
  for (const byte of Buffer.from(s, 'utf8')) {
    if (byte >= 0x80 || byte < 0x20) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else out += byte === 0x22 || byte === 0x5c ? `\\${String.fromCharCode(byte)}` : String.fromCharCode(byte);
  }
  return `${out}"`;
}

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** getnum reads one or two digits (exactly two when fixed), as time.getnum does. */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

/** daysIn is the number of days of a month (1-12) in a proleptic Gregorian year, as time.daysIn. */
function daysIn(month: number, year: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * timeParseError is the error time.Parse gives for a value in RFC3339 or RFC3339_MICRO, or undefined when it parses.
 * Why: parse, nextStdChunk, getnum, parseNanoseconds and ParseError.Error in Go's src/time/format.go.
 */
export function timeParseError(value: string, layout: typeof RFC3339 | typeof RFC3339_MICRO): string | undefined {
  const chunks: [string, string][] = [['', '2006'], ['-', '01'], ['-', '02'], ['T', '15'], [':', '04'], [':', '05']];
  if (layout === RFC3339_MICRO) chunks.push(['', '.000000']);
  chunks.push(['', 'Z07:00']);
  const cannot = (rest: string, elem: string): string => `parsing time ${timeQuote(value)} as ${timeQuote(layout)}: cannot parse ${timeQuote(rest)} as ${timeQuote(elem)}`;
  const range = (what: string): string => `parsing time ${timeQuote(value)}: ${what} out of range`;
  let rest = value;
  let year = 0;
  let month = 0;
  let day = 0;
  for (let c = 0; c < chunks.length; c++) {
    const [prefix, std] = chunks[c]!;
    if (prefix && rest[0] !== prefix) return cannot(rest, prefix);
    rest = rest.slice(prefix.length);
    const hold = rest;
    let n: [number, string] | undefined;
    switch (std) {
      case '2006':
        if (!/^[0-9]{4}/.test(rest)) return cannot(hold, std);
        year = Number(rest.slice(0, 4));
        rest = rest.slice(4);
        continue;
      case '15':
        n = getnum(rest, false);
        if (!n) return cannot(hold, std);
        if (n[0] >= 24) return range('hour');
        break;
      case '.000000':
        if (rest.length < 7 || (rest[0] !== '.' && rest[0] !== ',') || !/^[+-]?[0-9]+$/.test(rest.slice(1, 7))) return cannot(hold, std);
        if (Number(rest.slice(1, 7)) < 0) return range('fractional second');
        rest = rest.slice(7);
        continue;
      case 'Z07:00': {
        if (rest[0] === 'Z') {
          rest = rest.slice(1);
          continue;
        }
        if (rest.length < 6 || rest[3] !== ':') return cannot(hold, std);
        const hh = getnum(rest.slice(1, 3), true);
        const mm = hh && getnum(rest.slice(4, 6), true);
        // Both are checked and the later one wins, as in parse.
        if (mm && mm[0] > 60) return range('time zone offset minute');
        if (hh && hh[0] > 24) return range('time zone offset hour');
        if (!hh || !mm || (rest[0] !== '+' && rest[0] !== '-')) return cannot(hold, std);
        rest = rest.slice(6);
        continue;
      }
      default: {
        n = getnum(rest, true);
        if (!n) return cannot(hold, std);
        if (std === '01' && (n[0] < 1 || n[0] > 12)) return range('month');
        if ((std === '04' || std === '05') && n[0] >= 60) return range(std === '04' ? 'minute' : 'second');
      }
    }
    rest = n[1];
    if (std === '01') month = n[0];
    if (std === '02') day = n[0];
    // A fractional second the layout does not name is read anyway (parse's stdSecond special case).
    if (std === '05' && layout === RFC3339 && rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
      let end = 2;
      while (isDigit(rest, end)) end++;
      rest = rest.slice(end);
    }
  }
  if (rest.length) return `parsing time ${timeQuote(value)}: extra text: ${timeQuote(rest)}`;
  if (day < 1 || day > daysIn(month, year)) return `parsing time ${timeQuote(value)}: day out of range`;
  return undefined;
}
