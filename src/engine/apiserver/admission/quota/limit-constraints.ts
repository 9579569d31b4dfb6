// LimitRanger's three checks — minimum, maximum and limit-to-request ratio of one resource — with their exact
// messages, compared at milli precision as plugin/pkg/admission/limitranger/admission.go does.
import type { Quantity } from '../../../api/quantity';
import { type ResourceList, ZERO } from './resources';

// resource.MaxMilliValue: math.MaxInt64 / 1000, the largest value MilliValue() can return without overflow.
const MAX_MILLI_VALUE = 9223372036854775n;

/**
 * enforcedValues is requestLimitEnforcedValues: the three amounts as Value(), or as MilliValue() when none of
 * them would overflow it, so that 100m and 0.1 compare equal and 1m exceeds 0. A missing one counts as zero.
 */
function enforcedValues(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const r = req ?? ZERO;
  const l = lim ?? ZERO;
  const values: [bigint, bigint, bigint] = [r.scaledValue(0), l.scaledValue(0), enforced.scaledValue(0)];
  if (values.every((v) => v <= MAX_MILLI_VALUE)) return [r.scaledValue(-3), l.scaledValue(-3), enforced.scaledValue(-3)];
  return values;
}

/** minConstraint: the request must be set and at least the minimum, and so must a limit that is set. */
export function minConstraint(limitType: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (!req) return `minimum ${name} usage per ${limitType} is ${enforced.toString()}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${limitType} is ${enforced.toString()}, but request is ${req.toString()}`;
  if (lim && l < e) return `minimum ${name} usage per ${limitType} is ${enforced.toString()}, but limit is ${lim.toString()}`;
  return undefined;
}

/** maxConstraint: the limit must be set and at most the maximum, and so must a request that is set. */
export function maxConstraint(limitType: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (!lim) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}, but limit is ${lim.toString()}`;
  if (req && r > e) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}, but request is ${req.toString()}`;
  return undefined;
}

/** maxRequestConstraint: for kinds with no limits (claims), the request must be set and at most the maximum. */
export function maxRequestConstraint(limitType: string, name: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = requests.get(name);
  const [r, , e] = enforcedValues(req, undefined, enforced);
  if (!req) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}, but request is ${req.toString()}`;
  return undefined;
}

/**
 * limitRequestRatioConstraint: limit / request must not exceed the ratio. The ratio is a float64 of the two
 * amounts, compared in thousandths, and printed with %f (six decimals).
 */
export function limitRequestRatioConstraint(limitType: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = enforcedValues(req, lim, enforced);
  const head = `${name} max limit to request ratio per ${limitType} is ${enforced.toString()}`;
  if (!req || r === 0n) return `${head}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${head}, but no limit is specified or limit is 0`;
  let observed = Number(l) / Number(r);
  const display = observed;
  let max = Number(enforced.scaledValue(0));
  if (enforced.scaledValue(0) <= MAX_MILLI_VALUE) {
    observed *= 1000;
    max = Number(enforced.scaledValue(-3));
  }
  if (observed > max) return `${head}, but provided ratio is ${formatGoFloat(display)}`;
  return undefined;
}

/**
 * formatGoFloat prints a float64 as Go's %f: six decimals of the exact binary value, a tie rounded to even
 * (JavaScript's toFixed rounds a tie up).
 */
export function formatGoFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = biased === 0 ? -1074 : biased - 1075;
  const scale = 1_000_000n;
  let units: bigint;
  if (exponent >= 0) {
    units = (mantissa << BigInt(exponent)) * scale;
  } else {
    const den = 1n << BigInt(-exponent);
    const num = mantissa * scale;
    units = num / den;
    const twice = 2n * (num % den);
    if (twice > den || (twice === den && (units & 1n) === 1n)) units += 1n;
  }
  const digits = units.toString().padStart(7, '0');
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  return `${sign}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}
