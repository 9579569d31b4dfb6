// What sigs.k8s.io/yaml v1.6.0 (Kubernetes 1.36) does with go-yaml's values on the way to JSON: map keys are written
// out as strings (yaml.go convertToJSONableObject), and the values it cannot write are refused with Go's own words
// (fmt's %#v of the value, strconv.FormatFloat for floats).
import { goQuote } from '../apiserver/decode-go';
import type { GoScalar } from './go-yaml';

/** GoValue is a value as go-yaml decodes it into interface{}: a scalar, a []interface{} or a map[interface{}]interface{}. */
export type GoValue = GoScalar | GoValue[] | { entries: [GoValue, GoValue][] };

/**
 * goMapKey is the JSON key of a scalar map key, or the error convertToJSONableObject gives: ints in decimal, floats
 * as strconv.FormatFloat(f, 'g', -1, 32) (".inf", "-.inf", ".nan" for the special ones), booleans as true/false;
 * null and uint64 keys are "unsupported map key of type: ...". `value` is the entry's value, for the message.
 */
export function goMapKey(key: GoScalar, value: GoValue): string | { error: string } {
  switch (key.tag) {
    case 'str':
    case 'timestamp':
      return String(key.value);
    case 'bool':
      return key.value ? 'true' : 'false';
    case 'int':
      return (key.exact ?? BigInt(key.value as number)).toString();
    case 'float': {
      const s = formatGoFloat(key.value as number, 32);
      return s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
    }
    case 'uint':
      return { error: `unsupported map key of type: uint64, key: 0x${(key.exact ?? 0n).toString(16)}, value: ${goSyntax(value)}` };
    case 'null':
      return { error: `unsupported map key of type: %!s(<nil>), key: <nil>, value: ${goSyntax(value)}` };
  }
}

/** invalidMapKey is go-yaml's decode.go failure for a sequence or mapping used as a key. */
export function invalidMapKey(key: GoValue): string {
  return `invalid map key: ${goSyntax(key)}`;
}

/**
 * formatGoFloat is strconv.FormatFloat(f, 'g', -1, bits): the shortest digits that read back as the same float of
 * that size, in %e form when the exponent is below -4 or at least 6 (two exponent digits at least), else %f form.
 */
export function formatGoFloat(f: number, bits: 32 | 64): string {
  const v = bits === 32 ? Math.fround(f) : f;
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  let shortest = v.toExponential();
  if (bits === 32) {
    for (let p = 0; p <= 8; p++) {
      const s = v.toExponential(p);
      if (Math.fround(Number(s)) === v) {
        shortest = s;
        break;
      }
    }
  }
  const [mantissa, e] = shortest.split('e') as [string, string];
  const neg = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const exp = Number(e);
  let out: string;
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    out = `${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  } else if (exp < 0) {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else {
    const whole = digits.padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    out = frac ? `${whole.slice(0, exp + 1)}.${frac}` : whole.slice(0, exp + 1);
  }
  return neg ? `-${out}` : out;
}

/**
 * goSyntax is fmt's %#v of a value go-yaml decoded: <nil> (interface {}(nil) inside a collection), true, 1, a
 * uint64 in hex, 1.5 and 1e+06 (strconv's 'g'), "s", []interface {}{...}, map[interface {}]interface {}{k:v, ...}
 * with the keys sorted as fmt sorts keys of one type.
 */
export function goSyntax(value: GoValue, nested = false): string {
  if (Array.isArray(value)) return `[]interface {}{${value.map((v) => goSyntax(v, true)).join(', ')}}`;
  if ('entries' in value) {
    const entries = [...value.entries].sort(([a], [b]) => compareKeys(a, b));
    return `map[interface {}]interface {}{${entries.map(([k, v]) => `${goSyntax(k, true)}:${goSyntax(v, true)}`).join(', ')}}`;
  }
  switch (value.tag) {
    case 'null':
      return nested ? 'interface {}(nil)' : '<nil>';
    case 'bool':
      return String(value.value);
    case 'int':
      return (value.exact ?? BigInt(value.value as number)).toString();
    case 'uint':
      return `0x${(value.exact ?? 0n).toString(16)}`;
    case 'float':
      return formatGoFloat(value.value as number, 64);
    default:
      return goQuote(String(value.value));
  }
}

/** compareKeys orders map keys as internal/fmtsort does for keys of one type: numbers by value, strings by bytes. */
function compareKeys(a: GoValue, b: GoValue): number {
  const x = !Array.isArray(a) && !('entries' in a) ? a.value : null;
  const y = !Array.isArray(b) && !('entries' in b) ? b.value : null;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const [s, t] = [String(x), String(y)];
  return s < t ? -1 : s > t ? 1 : 0;
}

