// A quantity's amount, m×10^e, and the exact arithmetic on it that resource.Quantity does with its two
// representations (int64Amount and inf.Dec). See staging/src/k8s.io/apimachinery/pkg/api/resource/amount.go (v0.36.3).
import { digitCount, fitsInt64, MAX_INT64, MIN_INT64, pow10 } from './quantity-format';

/** QuantityError is what parseQuantity and the constructors throw; its message is Kubernetes' own. */
export class QuantityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityError';
  }
}

/**
 * Amount is m×10^e. `dec` says which of Kubernetes' two representations holds it — int64Amount (false:
 * m fits an int64, e is its scale) or inf.Dec (true: m unbounded, e = -Dec.Scale()). The value never
 * depends on it; ScaledValue's rounding of negative fractions and its overflow behaviour do.
 */
export interface Amount {
  readonly m: bigint;
  readonly e: number;
  readonly dec: boolean;
}

// Exponent gaps beyond these are handled without expanding 10^gap (Kubernetes would expand it, or hang).
export const MAX_EXPANSION = 1000;
const MAX_ALIGNMENT = 100_000;

/** compareAmounts compares two amounts exactly, settling different magnitudes before aligning exponents. */
export function compareAmounts(a: Amount, b: Amount): -1 | 0 | 1 {
  const sa = a.m === 0n ? 0 : a.m > 0n ? 1 : -1;
  const sb = b.m === 0n ? 0 : b.m > 0n ? 1 : -1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const ma = digitCount(a.m) + a.e;
  const mb = digitCount(b.m) + b.e;
  if (ma !== mb) return ((ma > mb ? 1 : -1) * sa) as -1 | 1;
  const e = Math.min(a.e, b.e);
  const x = a.m * pow10(a.e - e);
  const y = b.m * pow10(b.e - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** intAdd is int64Amount.Add: the sum at the smaller scale, or undefined when an int64 would overflow. */
export function intAdd(a: Amount, b: Amount): Amount | undefined {
  if (b.m === 0n) return a;
  if (a.m === 0n) return b;
  const e = Math.min(a.e, b.e);
  const gap = Math.abs(a.e - b.e);
  if (gap > 18) return undefined; // 10^19 alone overflows an int64
  const sum = a.m * pow10(a.e - e) + b.m * pow10(b.e - e);
  const scaled = a.e > b.e ? a.m * pow10(gap) : b.e > a.e ? b.m * pow10(gap) : 0n;
  if (!fitsInt64(scaled) || !fitsInt64(sum)) return undefined;
  return { m: sum, e, dec: false };
}

/** decAdd is inf.Dec addition: exact, at the larger inf scale (the smaller exponent). */
export function decAdd(a: Amount, b: Amount): Amount {
  const e = Math.min(a.e, b.e);
  const shift = (x: Amount): bigint => {
    if (x.m === 0n) return 0n;
    if (x.e - e > MAX_ALIGNMENT) throw new QuantityError('quantities too far apart in magnitude to add exactly');
    return x.m * pow10(x.e - e);
  };
  if (a.m === 0n && b.e - e > MAX_EXPANSION) return { ...b, dec: true };
  if (b.m === 0n && a.e - e > MAX_EXPANSION) return { ...a, dec: true };
  return { m: shift(a) + shift(b), e, dec: true };
}

/** intScaledValue is int64Amount.AsScaledInt64 of Kubernetes 1.36: away from zero, 0 on overflow. */
export function intScaledValue(m: bigint, e: number, scale: number): bigint {
  if (e < scale) {
    const drop = scale - e;
    if (drop > 19) return m === 0n ? 0n : m > 0n ? 1n : -1n;
    const unit = pow10(drop);
    const q = m / unit;
    return m % unit === 0n ? q : q + (m > 0n ? 1n : -1n);
  }
  const up = e - scale;
  if (m === 0n) return 0n;
  if (up > 19) return 0n;
  const v = m * pow10(up);
  return fitsInt64(v) ? v : 0n;
}

/** decScaledValue is scaledValue in scale_int.go, as of Kubernetes 1.36, with Go's int64 wrapping. */
export function decScaledValue(m: bigint, e: number, scale: number): bigint {
  const dif = scale - e; // Go: dec.Scale() - newScale
  if (dif === 0) return BigInt.asIntN(64, m);
  if (dif < 0) {
    // int64(math.Pow10(n)) is MinInt64 on amd64 once 10^n no longer fits.
    const factor = -dif <= 18 ? pow10(-dif) : MIN_INT64;
    return BigInt.asIntN(64, BigInt.asIntN(64, m) * factor);
  }
  const abs = m < 0n ? -m : m;
  if (abs < MAX_INT64 && dif < 19) {
    const unit = pow10(dif);
    const q = m / unit; // Go's truncating division
    return m % unit !== 0n ? q + 1n : q;
  }
  // big.Int.DivMod is Euclidean: the quotient is floored.
  if (dif > digitCount(m) + 1) return m > 0n ? 1n : 0n;
  const unit = pow10(dif);
  let q = m / unit;
  const r = m - q * unit;
  if (r < 0n) q -= 1n;
  return BigInt.asIntN(64, r !== 0n ? q + 1n : q);
}
