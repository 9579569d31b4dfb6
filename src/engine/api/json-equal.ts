// Equality of two values as their JSON texts with sorted keys would be equal, found without writing either text.

/** asJson is what JSON.stringify writes for a value that is not an object: null for undefined, functions and non-finite numbers. */
function asJson(v: unknown): unknown {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return null;
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}

/** omitted tells an object's value JSON.stringify leaves out with its key. */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/**
 * jsonEqual tells whether `JSON.stringify` of both values, each with its keys sorted, would give the same text: key order
 * does not count, nor keys whose value is undefined. It compares in place and stops at the first difference.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const x = asJson(a);
  const y = asJson(b);
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return x === y;
  const xs = Array.isArray(x);
  if (xs !== Array.isArray(y)) return false;
  if (xs) {
    const ya = y as unknown[];
    if (x.length !== ya.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], ya[i])) return false;
    return true;
  }
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(xo)) {
    const v = xo[key];
    if (omitted(v)) continue;
    count++;
    if (!Object.hasOwn(yo, key) || omitted(yo[key]) || !jsonEqual(v, yo[key])) return false;
  }
  for (const key of Object.keys(yo)) if (!omitted(yo[key])) count--;
  return count === 0;
}
