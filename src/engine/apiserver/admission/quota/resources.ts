// Resource lists as quota and LimitRanger handle them: exact quantities by resource name, added, masked,
// compared and printed as staging/src/k8s.io/apiserver/pkg/quota/v1/resources.go does.
import { fromValue, parseQuantity, type Quantity } from '../../../api/quantity';
import { isObject } from '../../../api/types';

/** ResourceList is a corev1.ResourceList: quantities by resource name, in the order they were written. */
export type ResourceList = Map<string, Quantity>;

/** ZERO is resource.Quantity{Format: DecimalSI}, the zero usage quota starts from; it prints as "0". */
export const ZERO: Quantity = fromValue(0);

/**
 * parseResourceList reads a requests, limits or hard map of an object. A value that does not parse is
 * left out: the API server refuses such an object when it is decoded, so a stored one never has it.
 */
export function parseResourceList(raw: unknown): ResourceList {
  const list: ResourceList = new Map();
  if (!isObject(raw)) return list;
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    try {
      list.set(name, parseQuantity(value));
    } catch {
      // not a quantity: see above
    }
  }
  return list;
}

/** toRecord writes a list as the API serialises it: each quantity in its canonical text. */
export function toRecord(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, q] of list) out[name] = q.toString();
  return out;
}

/** resourceNames lists a list's resource names (quota.ResourceNames). */
export function resourceNames(list: ResourceList): string[] {
  return [...list.keys()];
}

/** add is quota.Add: every name of either list, summed where both have it. */
export function add(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map();
  for (const [name, q] of a) {
    const other = b.get(name);
    result.set(name, other ? q.add(other) : q);
  }
  for (const [name, q] of b) if (!result.has(name)) result.set(name, q);
  return result;
}

/** subtractNonNegative is quota.SubtractWithNonNegativeResult: a - b per name, never below zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const zero = parseQuantity('0');
  const result: ResourceList = new Map();
  for (const [name, q] of a) {
    const other = b.get(name);
    const diff = other ? q.sub(other) : q;
    result.set(name, diff.cmp(zero) > 0 ? diff : zero);
  }
  for (const name of b.keys()) if (!result.has(name)) result.set(name, zero);
  return result;
}

/** mask is quota.Mask: only the named resources of a list. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const keep = new Set(names);
  return new Map([...list].filter(([name]) => keep.has(name)));
}

/**
 * lessThanOrEqual is quota.LessThanOrEqual: for every name of b that a also has, a's amount must not be
 * greater; exceeded lists the names where it is, in b's order.
 */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [name, limit] of b) {
    const value = a.get(name);
    if (value && value.cmp(limit) > 0) exceeded.push(name);
  }
  return { allowed: exceeded.length === 0, exceeded };
}

/** removeZeros is quota.RemoveZeros: the list without its zero amounts. */
export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, q]) => !q.isZero()));
}

/** isNegative is quota.IsNegative: the names whose amount is below zero. */
export function isNegative(list: ResourceList): string[] {
  return [...list].filter(([, q]) => q.sign() < 0).map(([name]) => name);
}

/** equals is quota.Equals: the same names with equal amounts. */
export function equals(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [name, q] of a) {
    const other = b.get(name);
    if (!other || other.cmp(q) !== 0) return false;
  }
  return true;
}

/** intersection is quota.Intersection: the names of a that b also has, in a's order, without repeats. */
export function intersection(a: readonly string[], b: readonly string[]): string[] {
  const inB = new Set(b);
  return [...new Set(a.filter((n) => inB.has(n)))];
}

/** byteOrder compares strings as Go's sort.Strings does (bytes; the same as UTF-16 units for ASCII names). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * prettyPrint formats a list for an error: `name=quantity` sorted by name and joined by "," with no space.
 * Why: prettyPrint in staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go.
 */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort(byteOrder).map((name) => `${name}=${list.get(name)!.toString()}`).join(',');
}

/** prettyPrintResourceNames is the names sorted and joined by "," (controller.go). */
export function prettyPrintResourceNames(names: readonly string[]): string {
  return [...names].sort(byteOrder).join(',');
}
