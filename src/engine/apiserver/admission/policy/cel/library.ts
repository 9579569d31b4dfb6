// The Kubernetes CEL libraries admission expressions see beyond the CEL standard: the parts of cel-go's strings
// extension the evaluator lacks, and Kubernetes' lists, regex and quantity libraries (staging/src/k8s.io/apiserver/pkg/cel/library).
import { EvaluationError, type Environment } from '@marcbachmann/cel-js';
import { parseQuantity, Quantity, QuantityError } from '../../../../api/quantity';

/** CelValue is a value as the evaluator passes it: bigint for int, number for double, arrays, maps, strings, bools, null. */
export type CelValue = unknown;

/** celError is an evaluation error raised by a library function, with cel-go's message. */
function celError(message: string): EvaluationError {
  return new EvaluationError(message);
}

/** compareCel orders two CEL values of one comparable type (int, uint, double, string, bool), as cel-go's Compare. */
function compareCel(a: CelValue, b: CelValue): number {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Quantity && b instanceof Quantity) return a.cmp(b);
  throw celError('no such overload');
}

/** equalCel is CEL equality on the values a list may hold (used by indexOf and lastIndexOf). */
function equalCel(a: CelValue, b: CelValue): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return a == b;
  if (a instanceof Quantity && b instanceof Quantity) return a.cmp(b) === 0;
  return JSON.stringify(a, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) === JSON.stringify(b, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

/**
 * registerStrings adds what cel-go's strings extension (version 2, as Kubernetes configures it) has and the evaluator
 * does not: charAt, replace and format. See cel-go ext/strings.go.
 */
function registerStrings(env: Environment): void {
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = Array.from(s);
    if (i < 0n || i > BigInt(chars.length)) throw celError(`index out of range: ${i}`);
    return chars[Number(i)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => s.split(from).join(to));
  env.registerFunction('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => {
    if (n < 0n) return s.split(from).join(to);
    const parts = s.split(from);
    const k = Number(n);
    return parts.length <= k + 1 ? parts.join(to) : parts.slice(0, k + 1).join(to) + from + parts.slice(k + 1).join(from);
  });
  env.registerFunction('string.format(list): string', (s: string, args: readonly CelValue[]) => formatString(s, args));
}

/** formatString is the strings extension's format: %s %d %f %e %x %X %o %b and %%, one argument each. */
function formatString(format: string, args: readonly CelValue[]): string {
  let next = 0;
  return format.replace(/%(\.\d+)?([sdfeExXob%])/g, (whole, precision: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (next >= args.length) throw celError(`index ${next} out of range`);
    const arg = args[next++];
    const digits = precision ? Number(precision.slice(1)) : 6;
    switch (verb) {
      case 's':
        return typeof arg === 'string' ? arg : typeof arg === 'bigint' || typeof arg === 'number' || typeof arg === 'boolean' ? String(arg) : JSON.stringify(arg);
      case 'd':
        if (typeof arg !== 'bigint') throw celError(`error during formatting: decimal clause can only be used on integers, was given ${typeof arg}`);
        return String(arg);
      case 'f':
        return Number(arg).toFixed(digits);
      case 'e':
      case 'E':
        return Number(arg).toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2');
      case 'x':
      case 'X': {
        const hex = typeof arg === 'string' ? Array.from(new TextEncoder().encode(arg), (b) => b.toString(16).padStart(2, '0')).join('') : BigInt(arg as bigint).toString(16);
        return verb === 'X' ? hex.toUpperCase() : hex;
      }
      case 'o':
        return BigInt(arg as bigint).toString(8);
      default:
        return BigInt(arg as bigint).toString(2);
    }
  });
}

/** registerLists adds Kubernetes' lists library: isSorted, sum, min, max, indexOf, lastIndexOf (library/lists.go). */
function registerLists(env: Environment): void {
  env.registerFunction('list.isSorted(): bool', (l: readonly CelValue[]) => l.every((v, i) => i === 0 || compareCel(l[i - 1], v) <= 0));
  env.registerFunction('list.sum(): dyn', (l: readonly CelValue[]) => {
    if (l.length === 0) return 0n;
    let total = l[0];
    for (const v of l.slice(1)) {
      if (typeof total === 'bigint' && typeof v === 'bigint') total = total + v;
      else if (typeof total === 'number' && typeof v === 'number') total = total + v;
      else if (total instanceof Quantity && v instanceof Quantity) total = total.add(v);
      else throw celError('no such overload');
    }
    return total;
  });
  const extreme = (name: string, pick: (c: number) => boolean) => (l: readonly CelValue[]): CelValue => {
    if (l.length === 0) throw celError(`${name} called on empty list`);
    return l.reduce((best, v) => (pick(compareCel(v, best)) ? v : best));
  };
  env.registerFunction('list.min(): dyn', extreme('min', (c) => c < 0));
  env.registerFunction('list.max(): dyn', extreme('max', (c) => c > 0));
  env.registerFunction('list.indexOf(dyn): int', (l: readonly CelValue[], v: CelValue) => BigInt(l.findIndex((e) => equalCel(e, v))));
  env.registerFunction('list.lastIndexOf(dyn): int', (l: readonly CelValue[], v: CelValue) => {
    for (let i = l.length - 1; i >= 0; i--) if (equalCel(l[i], v)) return BigInt(i);
    return -1n;
  });
}

/** compileRegex compiles a pattern, failing as the regex library does on a bad one. */
function compileRegex(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'gu');
  } catch (err) {
    throw celError(`error parsing regexp: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** registerRegex adds Kubernetes' regex library: find and findAll (library/regex.go), with JavaScript's regexp engine. */
function registerRegex(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, p: string) => compileRegex(p).exec(s)?.[0] ?? '');
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => [...s.matchAll(compileRegex(p))].map((m) => m[0]));
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => {
    const all = [...s.matchAll(compileRegex(p))].map((m) => m[0]);
    return n < 0n ? all : all.slice(0, Number(n));
  });
}

/** toQuantity parses a quantity for the quantity() function, failing with ParseQuantity's message. */
function toQuantity(s: string): Quantity {
  try {
    return parseQuantity(s);
  } catch (err) {
    if (err instanceof QuantityError) throw celError(err.message);
    throw err;
  }
}

/** registerQuantity adds Kubernetes' quantity library (library/quantity.go). */
function registerQuantity(env: Environment): void {
  env.registerType('Quantity', Quantity);
  // Why: library/quantity.go's Quantity.Equal compares amounts, so 1 and 1000m are equal (!= comes with ==).
  env.registerOperator('Quantity == Quantity', (a: Quantity, b: Quantity) => a.cmp(b) === 0);
  env.registerFunction('quantity(string): Quantity', toQuantity);
  env.registerFunction('isQuantity(string): bool', (s: string) => {
    try {
      parseQuantity(s);
      return true;
    } catch {
      return false;
    }
  });
  const MAX = 2n ** 63n - 1n;
  const MIN = -(2n ** 63n);
  const exact = (q: Quantity): bigint | undefined => {
    const v = q.scaledValue(0);
    return q.sub(parseQuantity(String(v))).isZero() && v <= MAX && v >= MIN ? v : undefined;
  };
  env.registerFunction('Quantity.isInteger(): bool', (q: Quantity) => exact(q) !== undefined);
  env.registerFunction('Quantity.asInteger(): int', (q: Quantity) => {
    const v = exact(q);
    if (v === undefined) throw celError('cannot convert value to integer');
    return v;
  });
  env.registerFunction('Quantity.asApproximateFloat(): double', (q: Quantity) => Number(q.scaledValue(-9)) / 1e9);
  env.registerFunction('Quantity.sign(): int', (q: Quantity) => BigInt(q.sign()));
  env.registerFunction('Quantity.isGreaterThan(Quantity): bool', (a: Quantity, b: Quantity) => a.cmp(b) > 0);
  env.registerFunction('Quantity.isLessThan(Quantity): bool', (a: Quantity, b: Quantity) => a.cmp(b) < 0);
  env.registerFunction('Quantity.compareTo(Quantity): int', (a: Quantity, b: Quantity) => BigInt(a.cmp(b)));
  env.registerFunction('Quantity.add(Quantity): Quantity', (a: Quantity, b: Quantity) => a.add(b));
  env.registerFunction('Quantity.add(int): Quantity', (a: Quantity, b: bigint) => a.add(parseQuantity(String(b))));
  env.registerFunction('Quantity.sub(Quantity): Quantity', (a: Quantity, b: Quantity) => a.sub(b));
  env.registerFunction('Quantity.sub(int): Quantity', (a: Quantity, b: bigint) => a.sub(parseQuantity(String(b))));
}

/** registerKubernetesLibraries adds every library above to an environment. */
export function registerKubernetesLibraries(env: Environment): void {
  registerStrings(env);
  registerLists(env);
  registerRegex(env);
  registerQuantity(env);
}
