// Scalars as kubectl reads them. kubectl 1.36 turns a YAML manifest into JSON with sigs.k8s.io/yaml v1.6.0 (required
// by k8s.io/apimachinery and k8s.io/kubectl v0.36), which decodes with go.yaml.in/yaml/v2 v2.4.3 (the go-yaml v2 fork):
// resolve.go (resolveTable, resolveMap, resolve, yamlStyleFloat, parseTimestamp) says what a plain scalar is,
// decode.go (scalar) keeps a timestamp as its text, and sigs.k8s.io/yaml's yaml.go (convertToJSONableObject) writes
// map keys out as strings. The yaml library reads the file; the tags here give each scalar go-yaml's value.
import type { ScalarTag, Tags } from 'yaml';

/** GoTag is the type go-yaml gives a scalar (uint is an int tag too, but a uint64 in Go). */
export type GoTag = 'null' | 'bool' | 'int' | 'uint' | 'float' | 'str' | 'timestamp';

/** GoScalar is a resolved scalar: its go-yaml type, its JSON value, and an integer's exact value. */
export interface GoScalar {
  tag: GoTag;
  value: null | boolean | number | string;
  exact?: bigint;
}

const str = (value: string): GoScalar => ({ tag: 'str', value });

/** RESOLVE_MAP is resolveMap: the scalars go-yaml knows by their exact text. */
const RESOLVE_MAP = new Map<string, GoScalar>();
for (const [value, tag, words] of [
  [true, 'bool', 'y Y yes Yes YES true True TRUE on On ON'],
  [false, 'bool', 'n N no No NO false False FALSE off Off OFF'],
  [null, 'null', '~ null Null NULL'],
  [Number.NaN, 'float', '.nan .NaN .NAN'],
  [Number.POSITIVE_INFINITY, 'float', '.inf .Inf .INF +.inf +.Inf +.INF'],
  [Number.NEGATIVE_INFINITY, 'float', '-.inf -.Inf -.INF'],
] as const) {
  for (const word of words.split(' ')) RESOLVE_MAP.set(word, { tag, value });
}
RESOLVE_MAP.set('', { tag: 'null', value: null });

/** hint is resolveTable: S (sign), D (digit), M (in the map only), '.' (float), or none (a string). */
function hint(source: string): 'S' | 'D' | 'M' | '.' | undefined {
  if (source === '') return 'M';
  const c = source[0]!;
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  return c === '.' ? '.' : undefined;
}

/** YAML_STYLE_FLOAT is resolve.go's yamlStyleFloat. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/**
 * resolvePlain is go-yaml's resolve("", source) for a plain scalar: the map first, then by the first character a
 * float (`.5`), a timestamp (kept as text), an int (strconv.ParseInt base 0 after dropping every `_`: 0x1F, 0o17,
 * 0b101, 0644 octal), a uint64, a float (yamlStyleFloat), a 0b int too big for ParseInt; anything else is a string.
 */
export function resolvePlain(source: string, explicit = false): GoScalar {
  // The yaml library asks each tag's test and then the tag's resolve: the last answer is kept for the next question.
  if (!explicit && last.source === source) return last.scalar;
  const scalar = resolveScalar(source, explicit);
  if (!explicit) {
    last.source = source;
    last.scalar = scalar;
  }
  return scalar;
}

const last: { source: string | undefined; scalar: GoScalar } = { source: undefined, scalar: str('') };

function resolveScalar(source: string, explicit: boolean): GoScalar {
  const h = hint(source);
  if (h === undefined) return str(source);
  const known = RESOLVE_MAP.get(source);
  if (known) return known;
  if (h === 'M') return str(source);
  if (h === '.') {
    const f = parseGoFloat(source);
    return f === undefined ? str(source) : { tag: 'float', value: f };
  }
  // "Only try values as a timestamp if the value is unquoted or there's an explicit !!timestamp tag."
  if (!explicit && isGoTimestamp(source)) return { tag: 'timestamp', value: source };
  const plain = source.replaceAll('_', '');
  const int = parseGoInt(plain, 0);
  if (int !== undefined) return { tag: 'int', value: Number(int), exact: int };
  const uint = parseGoUint(plain, 0);
  if (uint !== undefined) return { tag: 'uint', value: Number(uint), exact: uint };
  if (YAML_STYLE_FLOAT.test(plain)) {
    const f = Number(plain);
    // strconv.ParseFloat fails out of range (1e400): the scalar stays a string.
    if (Number.isFinite(f)) return { tag: 'float', value: f };
  }
  if (plain.startsWith('0b')) {
    const b = parseGoInt(plain.slice(2), 2);
    if (b !== undefined) return { tag: 'int', value: Number(b), exact: b };
    const u = parseGoUint(plain.slice(2), 2);
    if (u !== undefined) return { tag: 'uint', value: Number(u), exact: u };
  } else if (plain.startsWith('-0b')) {
    const b = parseGoInt(`-${plain.slice(3)}`, 2);
    if (b !== undefined) return { tag: 'int', value: Number(b), exact: b };
  }
  return str(source);
}

const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_INT64 = (1n << 63n) - 1n;

/** parseGoUint is strconv.ParseUint(s, base, 64); base 0 reads the 0b, 0o, 0x and 0 (octal) prefixes. */
function parseGoUint(s: string, base: 0 | 2): bigint | undefined {
  if (s === '') return undefined;
  let b = base === 0 ? 10 : base;
  let digits = s;
  if (base === 0 && s[0] === '0') {
    const p = s[1]?.toLowerCase();
    if (s.length >= 3 && (p === 'b' || p === 'o' || p === 'x')) {
      b = p === 'b' ? 2 : p === 'o' ? 8 : 16;
      digits = s.slice(2);
    } else {
      b = 8;
      digits = s.slice(1);
    }
  }
  let n = 0n;
  for (const ch of digits.toLowerCase()) {
    const d = ch >= '0' && ch <= '9' ? ch.charCodeAt(0) - 48 : ch >= 'a' && ch <= 'z' ? ch.charCodeAt(0) - 87 : 99;
    if (d >= b) return undefined;
    n = n * BigInt(b) + BigInt(d);
    if (n > MAX_UINT64) return undefined;
  }
  return n;
}

/** parseGoInt is strconv.ParseInt(s, base, 64): an optional sign, then ParseUint within the int64 range. */
function parseGoInt(s: string, base: 0 | 2): bigint | undefined {
  const neg = s[0] === '-';
  const body = s[0] === '-' || s[0] === '+' ? s.slice(1) : s;
  const n = parseGoUint(body, base);
  if (n === undefined || n > (neg ? MAX_INT64 + 1n : MAX_INT64)) return undefined;
  // A negative zero is the int 0.
  return neg && n !== 0n ? -n : n;
}

/**
 * parseGoFloat is strconv.ParseFloat(s, 64) for a scalar starting with `.`: digits (with `_` between digits only:
 * underscoreOK), an optional exponent whose first character after the sign is a digit; out of range is an error.
 */
function parseGoFloat(s: string): number | undefined {
  if (!/^\.[0-9_]*[0-9][0-9_]*(?:[eE][-+]?[0-9][0-9_]*)?$/.test(s) || !underscoreOK(s)) return undefined;
  const f = Number(s.replaceAll('_', ''));
  return Number.isFinite(f) ? f : undefined;
}

/** underscoreOK is strconv's rule for a decimal number: an underscore only between two digits. */
function underscoreOK(s: string): boolean {
  let saw = '^';
  for (const ch of s) {
    if (ch >= '0' && ch <= '9') saw = '0';
    else if (ch === '_') {
      if (saw !== '0') return false;
      saw = '_';
    } else {
      if (saw === '_') return false;
      saw = '!';
    }
  }
  return saw !== '_';
}

/**
 * isGoTimestamp is parseTimestamp: four digits and a dash, then one of allowedTimestampFormats as time.Parse reads
 * it: 2006-1-2T15:4:5.999999999Z07:00 (or a lower-case t), 2006-1-2 15:4:5.999999999, 2006-1-2.
 */
export function isGoTimestamp(s: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt])(\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[-+]\d{2}:\d{2})|( )(\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?)?$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > days[month - 1]!) return false;
  const [hour, minute, second] = m[4] ? [m[5], m[6], m[7]] : [m[11], m[12], m[13]];
  if (hour === undefined) return true;
  const zone = m[9];
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return false;
  return Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60;
}

/**
 * resolveTagged is resolve(tag, source) for an explicitly tagged scalar: the value as resolvePlain finds it, which
 * must be of the tag's type (an int may become a float); else go-yaml fails "cannot decode !!float `1.5` as a !!int".
 */
export function resolveTagged(tag: 'str' | 'int' | 'float' | 'bool' | 'null' | 'timestamp', source: string): GoScalar | string {
  if (tag === 'str') return str(source);
  const r = resolvePlain(source, tag !== 'timestamp');
  const rtag = r.tag === 'uint' ? 'int' : r.tag;
  if (rtag === tag) return tag === 'timestamp' ? str(source) : r;
  if (tag === 'float' && r.tag === 'int') return { tag: 'float', value: r.value };
  return `cannot decode !!${rtag} \`${source}\` as a !!${tag}`;
}

/** goTest is a RegExp whose test is go-yaml's answer: does the plain scalar resolve to this type. */
class GoTest extends RegExp {
  constructor(private readonly tags: readonly GoTag[]) {
    super('');
  }

  override test(source: string): boolean {
    return this.tags.includes(resolvePlain(source).tag);
  }
}

const TAG = 'tag:yaml.org,2002:';

/** implicit is the tag of the plain scalars go-yaml resolves to these types. */
function implicit(name: string, tags: readonly GoTag[]): ScalarTag {
  return { tag: `${TAG}${name}`, default: true, test: new GoTest(tags), resolve: (source: string) => resolvePlain(source).value };
}

/** explicit is the tag a `!!name` scalar gets: go-yaml's check of the type, its error through onError. */
function explicit(name: 'int' | 'float' | 'bool' | 'null' | 'timestamp'): ScalarTag {
  return {
    tag: `${TAG}${name}`, default: false,
    resolve: (source: string, onError: (message: string) => void) => {
      const r = resolveTagged(name, source);
      if (typeof r !== 'string') return r.value;
      onError(r);
      return source;
    },
  };
}

/**
 * goYamlTags replaces the yaml library's YAML 1.1 scalar tags by go-yaml v2's resolution; the collections, !!binary,
 * the `<<` merge key and !!omap, !!pairs, !!set (which the loader refuses) stay.
 */
export function goYamlTags(tags: Tags): Tags {
  const kept = tags.filter((t) => typeof t !== 'string' && (t.collection !== undefined || ['str', 'binary', 'merge'].some((n) => t.tag === `${TAG}${n}`)));
  return [
    ...kept,
    implicit('null', ['null']), implicit('bool', ['bool']), implicit('int', ['int', 'uint']), implicit('float', ['float']),
    explicit('int'), explicit('float'), explicit('bool'), explicit('null'), explicit('timestamp'),
  ];
}
