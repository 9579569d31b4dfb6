// The suffixes of resource quantities and the canonical text a quantity prints as (resource.Quantity.String).
// quantity.ts parses and does the arithmetic; this file only knows suffixes and canonical printing.

/** QuantityFormat is the notation a quantity was written in and prints back in (resource.Format). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** SuffixMeaning is what a suffix stands for: the number is multiplied by base^exponent. */
export interface SuffixMeaning {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

// Why: the tables of newSuffixer in staging/src/k8s.io/apimachinery/pkg/api/resource/suffix.go.
const DECIMAL_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18],
]);
const BINARY_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['Ki', 10], ['Mi', 20], ['Gi', 30], ['Ti', 40], ['Pi', 50], ['Ei', 60],
]);
const DECIMAL_BY_EXPONENT = new Map([...DECIMAL_SUFFIXES].map(([s, e]) => [e, s]));
const BINARY_BY_EXPONENT = new Map([...BINARY_SUFFIXES].map(([s, e]) => [e, s]));

/** MIN_INT64 is the smallest Go int64. */
export const MIN_INT64 = -(1n << 63n);
/** MAX_INT64 is the largest Go int64 (also the cap of a parsed BinarySI quantity, maxAllowed). */
export const MAX_INT64 = (1n << 63n) - 1n;

/** fitsInt64 tells whether n is representable as a Go int64. */
export const fitsInt64 = (n: bigint): boolean => n >= MIN_INT64 && n <= MAX_INT64;

/** pow10 is 10^n as a BigInt (n >= 0). */
export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** digitCount is the number of decimal digits of |m| (1 for zero). */
export const digitCount = (m: bigint): number => (m < 0n ? -m : m).toString().length;

/**
 * parseGoInt64 reads s as strconv.ParseInt(s, 10, 64) does: an optional sign and decimal digits, within
 * int64; undefined where Go returns an error.
 */
export function parseGoInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return fitsInt64(n) ? n : undefined;
}

/**
 * interpretSuffix tells what a quantity suffix means, or undefined for an unknown suffix.
 * Why: suffixHandler.interpret in suffix.go — the tables first, then "e"/"E" followed by an int64 that Go
 * narrows to int32 (so "e4294967297" wraps to e1, as Kubernetes 1.36 does).
 */
export function interpretSuffix(s: string): SuffixMeaning | undefined {
  const decimal = DECIMAL_SUFFIXES.get(s);
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: 'DecimalSI' };
  const binary = BINARY_SUFFIXES.get(s);
  if (binary !== undefined) return { base: 2, exponent: binary, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E')) {
    const parsed = parseGoInt64(s.slice(1));
    if (parsed === undefined) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** compareToInt compares m×10^e with the integer n: -1, 0 or 1. */
function compareToInt(m: bigint, e: number, n: bigint): number {
  if (e >= 0) {
    if (e > digitCount(n) + 1 && m !== 0n) return m > 0n ? 1 : -1; // |m×10^e| ≥ 10^e > |n|
    const v = m * pow10(e);
    return v < n ? -1 : v > n ? 1 : 0;
  }
  const scaled = n * pow10(-e);
  return m < scaled ? -1 : m > scaled ? 1 : 0;
}

/** stripTens moves the factors of ten of the mantissa into the exponent. */
function stripTens(m: bigint, e: number): [bigint, number] {
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  return [m, e];
}

/**
 * canonicalString prints the amount m×10^e in format as resource.Quantity.CanonicalizeBytes does:
 * no fractional digits, the largest suffix that loses nothing, "0" for zero. A BinarySI amount strictly
 * between -1024 and 1024, or one with a fraction, prints as DecimalSI. An exponent with no suffix
 * (above E or Ei) prints the mantissa bare, as Kubernetes 1.36 does (it ignores constructBytes' ok).
 * Why: CanonicalizeBytes in quantity.go, AsCanonicalBytes and AsCanonicalBase1024Bytes in amount.go.
 */
export function canonicalString(m: bigint, e: number, format: QuantityFormat): string {
  if (m === 0n) return '0';
  let fmt = format;
  if (fmt === 'BinarySI') {
    const small = compareToInt(m, e, -1024n) > 0 && compareToInt(m, e, 1024n) < 0;
    const integer = e >= 0 || m % pow10(-e) === 0n;
    if (small || !integer) fmt = 'DecimalSI';
  }
  if (fmt === 'BinarySI') {
    let n = e >= 0 ? m * pow10(e) : m / pow10(-e);
    let times = 0;
    while (n % 1024n === 0n) {
      n /= 1024n;
      times++;
    }
    return `${n}${BINARY_BY_EXPONENT.get(times * 10) ?? ''}`;
  }
  let [mantissa, exponent] = stripTens(m, e);
  // Lower the exponent to a multiple of three (1.1e5 prints as 110e3).
  while (exponent % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  if (fmt === 'DecimalSI') return `${mantissa}${DECIMAL_BY_EXPONENT.get(exponent) ?? ''}`;
  return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
}
