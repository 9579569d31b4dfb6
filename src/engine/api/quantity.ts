// Resource quantities (100m, 128Mi, 1.5Gi, 2e3): parsed, compared, added and printed as Kubernetes' resource.Quantity.
// Exact: an amount is a BigInt mantissa times a power of ten, so no value ever goes through a float.
import {
  canonicalString, digitCount, fitsInt64, interpretSuffix, MAX_INT64, MIN_INT64, parseGoInt64, pow10,
  type QuantityFormat,
} from './quantity-format';
import {
  compareAmounts, decAdd, decScaledValue, intAdd, intScaledValue, MAX_EXPANSION, QuantityError, type Amount,
} from './quantity-amount';

export { QuantityError } from './quantity-amount';

/** QuantityFormat is re-exported from quantity-format.ts: 'DecimalSI' | 'BinarySI' | 'DecimalExponent'. */
export type { QuantityFormat } from './quantity-format';

const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
// Why: ErrFormatWrong, ErrNumeric and ErrSuffix in staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go.
/** ERR_FORMAT_WRONG is the message of a quantity that is empty or not shaped like one (ErrFormatWrong). */
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE}'`;
/** ERR_NUMERIC is the message of a quantity whose number does not parse (ErrNumeric). */
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
/** ERR_SUFFIX is the message of a quantity with an unknown suffix (ErrSuffix). */
export const ERR_SUFFIX = "unable to parse quantity's suffix";

const NANO = -9;
// maxInt64Factors in math.go: the most digits the int64 fast path of ParseQuantity accepts.
const MAX_INT64_FACTORS = 18;

let make: (amount: Amount, format: QuantityFormat, cached: string) => Quantity;

/** Quantity is an exact resource amount with the format it was written in. Instances are immutable. */
export class Quantity {
  static {
    make = (amount, format, cached) => new Quantity(amount, format, cached);
  }

  readonly #a: Amount;
  #s: string;
  /** format is the notation the quantity prints in (resource.Quantity.Format). */
  readonly format: QuantityFormat;

  private constructor(amount: Amount, format: QuantityFormat, cached: string) {
    this.#a = amount;
    this.format = format;
    this.#s = cached;
  }

  /** milliValue is the amount times 1000, rounded up (as resource.Quantity.MilliValue). */
  milliValue(): number {
    return Number(this.scaledValue(-3));
  }

  /** value is the amount rounded up to an integer (as resource.Quantity.Value). */
  value(): number {
    return Number(this.scaledValue(0));
  }

  /**
   * scaledValue is the amount in units of 10^scale as the int64 resource.Quantity.ScaledValue returns it:
   * fractions round up away from zero, except a negative inf.Dec-backed amount, which Kubernetes 1.36
   * rounds toward +∞ (the fast path even adds one to an exact quotient's truncation); overflow gives what
   * Go gives on amd64 (0 for an int64-backed amount, wrapped bits for an inf.Dec one).
   * Why: AsScaledInt64 in amount.go, negativeScaleInt64/positiveScaleInt64 in math.go, scaledValue in scale_int.go.
   */
  scaledValue(scale: number): bigint {
    const { m, e, dec } = this.#a;
    return dec ? decScaledValue(m, e, scale) : intScaledValue(m, e, scale);
  }

  /** toString prints the canonical form (as resource.Quantity.String), or the parsed text when it was canonical. */
  toString(): string {
    if (this.#s === '') this.#s = canonicalString(this.#a.m, this.#a.e, this.format);
    return this.#s;
  }

  /**
   * goState is the Go value's unexported state, as the pod-template-hash prints it: which representation holds
   * the amount (int64Amount, or inf.Dec when dec), m×10^e, the cached text s ('' until String fills it) and Format.
   */
  goState(): { dec: boolean; m: bigint; e: number; cached: string; format: QuantityFormat } {
    return { dec: this.#a.dec, m: this.#a.m, e: this.#a.e, cached: this.#s, format: this.format };
  }

  /** toJSON makes JSON.stringify write the quantity as a string, as MarshalJSON does. */
  toJSON(): string {
    return this.toString();
  }

  /** isZero tells whether the amount is zero (resource.Quantity.IsZero). */
  isZero(): boolean {
    return this.#a.m === 0n;
  }

  /** sign is -1, 0 or 1 (resource.Quantity.Sign). */
  sign(): -1 | 0 | 1 {
    return this.#a.m === 0n ? 0 : this.#a.m > 0n ? 1 : -1;
  }

  /** cmp is -1, 0 or 1 as this amount is less than, equal to or greater than y's (resource.Quantity.Cmp). */
  cmp(y: Quantity): -1 | 0 | 1 {
    return compareAmounts(this.#a, y.#a);
  }

  /**
   * add returns this + y. A zero receiver takes y's format; otherwise the format is kept.
   * Why: Quantity.Add in quantity.go and int64Amount.Add in amount.go (int64 while it fits, else inf.Dec).
   */
  add(y: Quantity): Quantity {
    const x = this.#a;
    const format = x.m === 0n ? y.format : this.format;
    if (!x.dec && !y.#a.dec) {
      const sum = intAdd(x, y.#a);
      if (sum) return make(sum, format, '');
    }
    return make(decAdd(x, y.#a), format, '');
  }

  /** sub returns this - y, with add's format rule (Quantity.Sub in quantity.go). */
  sub(y: Quantity): Quantity {
    const x = this.#a;
    const b = y.#a;
    const format = x.m === 0n ? y.format : this.format;
    if (!x.dec && !b.dec && b.m !== MIN_INT64) {
      const diff = intAdd(x, { m: -b.m, e: b.e, dec: false });
      if (diff) return make(diff, format, '');
    }
    return make(decAdd(x, { m: -b.m, e: b.e, dec: true }), format, '');
  }

  /**
   * roundUp returns the amount rounded away from zero to a multiple of 10^scale, exactly, in the same format
   * (Quantity.RoundUp: int64Amount.AsScale, or inf.Dec rounding for amounts beyond an int64).
   */
  roundUp(scale: number): Quantity {
    const { m, e, dec } = this.#a;
    if (e >= scale) return this;
    const divisor = pow10(scale - e);
    let rounded = m / divisor;
    if (rounded * divisor !== m) rounded += m > 0n ? 1n : -1n;
    return make({ m: rounded, e: scale, dec: dec || !fitsInt64(rounded) }, this.format, '');
  }

  /** neg returns -this in the same format (Quantity.Neg). */
  neg(): Quantity {
    const { m, e, dec } = this.#a;
    return make({ m: -m, e, dec: dec || !fitsInt64(-m) }, this.format, '');
  }
}

/** fromValue is NewQuantity: the integer n in the given format (DecimalSI by default). */
export function fromValue(n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return make({ m: int64Of(n), e: 0, dec: false }, format, '');
}

/** fromMilli is NewMilliQuantity: n thousandths in the given format (DecimalSI by default). */
export function fromMilli(n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return make({ m: int64Of(n), e: -3, dec: false }, format, '');
}

/** fromScaled is NewScaledQuantity: n × 10^scale, DecimalSI (fromScaled(5, -9) is 5n). */
export function fromScaled(n: number | bigint, scale: number): Quantity {
  if (!Number.isInteger(scale)) throw new QuantityError(`scale ${scale} is not an integer`);
  return make({ m: int64Of(n), e: scale, dec: false }, 'DecimalSI', '');
}

function int64Of(n: number | bigint): bigint {
  if (typeof n === 'number' && !Number.isSafeInteger(n)) throw new QuantityError(`${n} is not a safe integer`);
  const big = BigInt(n);
  if (!fitsInt64(big)) throw new QuantityError(`${n} does not fit an int64`);
  return big;
}

/**
 * parseQuantity parses a quantity string as resource.ParseQuantity does, throwing QuantityError with its
 * messages. A number is what a YAML/JSON number becomes: Kubernetes parses the number's JSON text, which
 * for a double is the shortest round-trip form String(n) gives (0.5, 2, 1e+21).
 * Why: ParseQuantity and parseQuantityString in staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go.
 */
export function parseQuantity(input: string | number): Quantity {
  const str = typeof input === 'string' ? input : String(input);
  if (str.length === 0) throw new QuantityError(ERR_FORMAT_WRONG);
  if (str === '0') return make({ m: 0n, e: 0, dec: false }, 'DecimalSI', str);

  const { positive, value, num, denom, suffix } = scan(str);
  const meaning = interpretSuffix(suffix);
  if (!meaning) throw new QuantityError(ERR_SUFFIX);
  const { base, exponent } = meaning;
  let format = meaning.format;

  // The int64 fast path: few enough digits and no precision below nano.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format !== 'BinarySI') {
    scale = exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  } else if (exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(exponent);
    // float32(exponent)*3/10, truncated: ~digits of 2^exponent.
    precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const shifted = num + denom;
      const digits = parseGoInt64(shifted);
      if (digits === undefined) throw new QuantityError(ERR_NUMERIC);
      const product = digits * mantissa;
      if (fitsInt64(product)) {
        const amount = { m: positive ? product : -product, e: scale, dec: false };
        // Canonical input keeps its text as the printed form (even "+1", "01" or "1.500k").
        const canonical = format === 'BinarySI'
          ? exponent % 10 === 0 && (digits & 7n) !== 0n
          : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return make(amount, format, canonical ? str : '');
      }
    }
  }

  // The inf.Dec path.
  const parsed = parseDecimal(value);
  if (!parsed) throw new QuantityError(ERR_NUMERIC);
  let m = parsed.m;
  let e = parsed.e;
  if (base === 10) e += exponent;
  else m *= 1n << BigInt(exponent);
  const negative = m < 0n;
  if (negative) m = -m;
  // Non-zero amounts round up to a whole number of nanos: "if you want some resources, you should get some".
  if (m !== 0n) [m, e] = roundUpToNano(m, e);
  if (format === 'BinarySI' && compareAmounts({ m, e, dec: true }, { m: MAX_INT64, e: 0, dec: true }) > 0) {
    m = MAX_INT64;
    e = 0;
  }
  if (format === 'BinarySI' && m !== 0n && compareAmounts({ m, e, dec: true }, { m: 1n, e: 0, dec: true }) < 0) {
    format = 'DecimalSI';
  }
  return make({ m: negative ? -m : m, e, dec: true }, format, '');
}

interface Scanned {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const SUFFIX_CHARS = 'eEinumkKMGTP';

/** scan splits a quantity into sign, number text, numerator (leading zeros stripped), fraction and suffix. */
function scan(str: string): Scanned {
  const end = str.length;
  let positive = true;
  let pos = 0;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };

  let i = pos;
  while (isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = i > pos ? str.slice(pos, i) : '0';
  pos = i;

  let denom = '';
  if (str[pos] === '.') {
    pos++;
    let j = pos;
    while (isDigit(str[j])) j++;
    if (j >= end) return { positive, value: str, num, denom: str.slice(pos), suffix: '' };
    denom = str.slice(pos, j);
    pos = j;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  let k = pos;
  while (k < end && SUFFIX_CHARS.includes(str[k]!)) k++;
  if (k >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  pos = str[k] === '-' || str[k] === '+' ? k + 1 : k;
  while (isDigit(str[pos])) pos++;
  if (pos >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  // A character that is neither a suffix letter nor part of the exponent.
  throw new QuantityError(ERR_FORMAT_WRONG);
}

/** parseDecimal reads "[sign]digits[.digits]" as inf.Dec.SetString does (at least one digit). */
function parseDecimal(text: string): { m: bigint; e: number } | undefined {
  const match = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (whole.length + fraction.length === 0) return undefined;
  return { m: BigInt(sign + whole + fraction), e: -fraction.length };
}

/** roundUpToNano rounds a positive m×10^e away from zero to a multiple of 10^-9, at scale 9 as inf.Dec.Round leaves it. */
function roundUpToNano(m: bigint, e: number): [bigint, number] {
  if (e >= NANO) return e - NANO <= MAX_EXPANSION ? [m * pow10(e - NANO), NANO] : [m, e];
  const drop = NANO - e;
  if (drop > digitCount(m)) return [1n, NANO];
  const unit = pow10(drop);
  return [m / unit + (m % unit === 0n ? 0n : 1n), NANO];
}

/** quantityOf parses a resource value, or gives undefined for one that does not parse (validation or decoding reports it). */
export function quantityOf(value: unknown): Quantity | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  try {
    return parseQuantity(value);
  } catch {
    return undefined;
  }
}
