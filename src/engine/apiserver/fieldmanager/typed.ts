// Typed values as structured-merge-diff walks them: the set of fields a value sets, the comparison of two values
// (added, modified, removed), the merge of an applied configuration into the live object, and the removal of fields.
// See sigs.k8s.io/structured-merge-diff/v6@v6.3.3 typed/tofieldset.go, typed/compare.go, typed/merge.go, typed/remove.go.
import type { Path, PathElement } from './path';
import { compareElements, elementString, pathString, serializeElement } from './path';
import { fieldType, isAtomic, isJsonObject, itemElement, type MergeType } from './schema';
import { FieldSet } from './set';

/** Comparison is what changed from one value to another. */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

type ListType = Extract<MergeType, { t: 'list' }>;

/** effective is the type a value walks as: a deduced value is a granular map when an object, a leaf otherwise. */
function effective(t: MergeType, ...values: unknown[]): MergeType {
  if (t.t !== 'deduced') return t;
  return values.some(isJsonObject) ? { t: 'map', elem: t, atomic: false } : { t: 'scalar' };
}

/** isLeaf tells whether two values compare and merge as one leaf: an atomic type, or containers both empty or absent. */
function isLeaf(t: MergeType, l: unknown, r: unknown): boolean {
  if (isAtomic(t)) return true;
  const empty = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : isJsonObject(v) ? Object.keys(v).length === 0 : true);
  return empty(l) && empty(r);
}

const equal = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isJsonObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}

/** childType is a field's type; a field the schema does not declare is deduced (the walkers report no error for it). */
function childType(t: MergeType, key: string): MergeType {
  return fieldType(t, key) ?? { t: 'deduced' };
}

/** toFieldSet is TypedValue.ToFieldSet: every leaf, list item and map entry the value sets. */
export function toFieldSet(v: unknown, type: MergeType): FieldSet {
  const out = new FieldSet();
  walkSet(v, type, [], out);
  return out;
}

function walkSet(v: unknown, type: MergeType, path: PathElement[], out: FieldSet): void {
  const t = effective(type, v);
  if (isAtomic(t)) {
    out.insert(path);
    return;
  }
  if (t.t === 'list') {
    if (!Array.isArray(v)) return;
    for (const item of v) {
      const p = [...path, itemElement(t, item)];
      walkSet(item, t.elem, p, out);
      out.insert(p);
    }
    return;
  }
  if (!isJsonObject(v)) {
    if (v === null) out.insert(path);
    return;
  }
  for (const [k, val] of Object.entries(v)) {
    if (val === undefined) continue;
    const p = [...path, { field: k }];
    const declared = t.t === 'struct' && fieldType(t, k) !== undefined;
    walkSet(val, childType(t, k), p, out);
    if (val === null || (isJsonObject(val) && Object.keys(val).length === 0) || !declared) out.insert(p);
  }
}

/** compare is TypedValue.Compare: the paths added, modified and removed from `lhs` to `rhs`. */
export function compare(lhs: unknown, rhs: unknown, type: MergeType): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walkCompare(lhs, rhs, type, [], c);
  return c;
}

function walkCompare(l: unknown, r: unknown, type: MergeType, path: PathElement[], c: Comparison): void {
  const t = effective(type, l, r);
  if (isLeaf(t, l, r) || (t.t === 'list' && !(Array.isArray(l) || Array.isArray(r)))) {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
    else if (!equal(l, r)) c.modified.insert(path);
    return;
  }
  if (t.t === 'list') {
    const li = indexItems(t, Array.isArray(l) ? l : []);
    const ri = indexItems(t, Array.isArray(r) ? r : []);
    const order = [...li.keys(), ...[...ri.keys()].filter((k) => !li.has(k))];
    for (const k of order) {
      const a = li.get(k);
      const b = ri.get(k);
      const pe = (a ?? b)?.pe as PathElement;
      if ((a?.items.length ?? 0) <= 1 && (b?.items.length ?? 0) <= 1) walkCompare(a?.items[0], b?.items[0], t.elem, [...path, pe], c);
      else if ((a?.items.length ?? 0) >= 2 && (b?.items.length ?? 0) >= 2) {
        if (!equal(a?.items, b?.items)) c.modified.insert([...path, pe]);
      } else if ((a?.items.length ?? 0) >= 2) c.removed.insert([...path, pe]);
      else c.added.insert([...path, pe]);
    }
  } else if (isJsonObject(l) || isJsonObject(r)) {
    const lo = isJsonObject(l) ? l : {};
    const ro = isJsonObject(r) ? r : {};
    for (const k of new Set([...Object.keys(lo), ...Object.keys(ro)])) {
      if (lo[k] === undefined && ro[k] === undefined) continue;
      walkCompare(lo[k], ro[k], childType(t, k), [...path, { field: k }], c);
    }
  }
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
}

/** indexItems groups a list's items by their path element, in first-seen order (duplicates kept together). */
function indexItems(t: ListType, items: readonly unknown[]): Map<string, { pe: PathElement; items: unknown[] }> {
  const out = new Map<string, { pe: PathElement; items: unknown[] }>();
  for (const item of items) {
    const pe = itemElement(t, item);
    const k = serializeElement(pe);
    const e = out.get(k);
    if (e) e.items.push(item);
    else out.set(k, { pe, items: [item] });
  }
  return out;
}

/** merge is TypedValue.Merge: `rhs` (the applied configuration) merged into `lhs` (the live object). */
export function merge(lhs: unknown, rhs: unknown, type: MergeType): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const t = effective(type, lhs, rhs);
  if (isLeaf(t, lhs, rhs)) return rhs;
  if (t.t === 'list') return Array.isArray(lhs) && Array.isArray(rhs) ? mergeList(t, lhs, rhs) : rhs;
  if (!isJsonObject(rhs)) return rhs;
  const out: Record<string, unknown> = isJsonObject(lhs) ? { ...lhs } : {};
  for (const [k, v] of Object.entries(rhs)) out[k] = merge(out[k], v, childType(t, k));
  return out;
}

/**
 * mergeList merges two associative lists as mergingWalker.visitListItems orders them: items of both sides in the
 * applied order, the live object's other items kept where they stand relative to them.
 */
function mergeList(t: ListType, lhs: readonly unknown[], rhs: readonly unknown[]): unknown[] {
  const li = indexItems(t, lhs);
  const ri = indexItems(t, rhs);
  const lKeys = [...li.keys()];
  const rKeys = [...ri.keys()];
  const shared = rKeys.filter((k) => li.has(k));
  let nextShared = shared.shift();
  const done = new Set<string>();
  const out: unknown[] = [];
  const add = (k: string): void => {
    const l = li.get(k);
    const r = ri.get(k);
    out.push(merge(l?.items.length === 1 ? l.items[0] : undefined, r?.items[0], t.elem));
  };
  for (let lI = 0, rI = 0; lI < lKeys.length || rI < rKeys.length;) {
    if (lI < lKeys.length && rI < rKeys.length) {
      const k = lKeys[lI] as string;
      if (k === rKeys[rI]) {
        done.add(k);
        add(k);
        lI++;
        rI++;
        nextShared = shared.shift();
        continue;
      }
      if (ri.has(k) && nextShared !== undefined && nextShared !== k) {
        lI++;
        continue;
      }
    }
    if (lI < lKeys.length) {
      const k = lKeys[lI] as string;
      if (!ri.has(k)) {
        out.push(li.get(k)?.items[0]);
        lI++;
        continue;
      } else if (done.has(k)) lI++;
    }
    if (rI < rKeys.length) {
      const k = rKeys[rI] as string;
      done.add(k);
      add(k);
      rI++;
      if (nextShared === k) nextShared = shared.shift();
    }
  }
  return out;
}

/** removeItems is TypedValue.RemoveItems: the value without the set's paths (a member goes with all beneath it). */
export function removeItems(v: unknown, type: MergeType, set: FieldSet): unknown {
  const t = effective(type, v);
  if (isAtomic(t)) return v;
  if (t.t === 'list') {
    if (!Array.isArray(v)) return v;
    const out: unknown[] = [];
    for (const item of v) {
      const k = serializeElement(itemElement(t, item));
      if (set.members.has(k)) continue;
      const sub = set.children.get(k);
      out.push(sub ? removeItems(item, t.elem, sub.set) : item);
    }
    return out.length ? out : undefined;
  }
  if (!isJsonObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) {
    const key = serializeElement({ field: k });
    if (set.members.has(key)) continue;
    const sub = set.children.get(key);
    const kept = sub ? removeItems(val, childType(t, k), sub.set) : val;
    if (kept !== undefined) out[k] = kept;
  }
  return out;
}

/**
 * withNamedFields is Set.EnsureNamedFieldsAreMembers: every struct field the set goes through made a member too, so
 * that pruning a field removes the struct with it. List items and map entries are not added.
 */
export function withNamedFields(set: FieldSet, type: MergeType): FieldSet {
  const out = set.clone();
  ensure(out, type);
  return out;
}

function ensure(set: FieldSet, type: MergeType): void {
  for (const c of set.children.values()) {
    if ('field' in c.pe && type.t === 'struct') {
      const ft = fieldType(type, c.pe.field);
      if (ft) set.members.set(serializeElement(c.pe), c.pe);
      ensure(c.set, ft ?? { t: 'deduced' });
    } else if (type.t === 'list' && ('key' in c.pe || 'value' in c.pe)) ensure(c.set, type.elem);
    else if (type.t === 'map' && 'field' in c.pe) ensure(c.set, type.elem);
  }
}

/** sortPaths orders paths element by element, as a set iterates them within one node. */
export function sortPaths(paths: Path[]): Path[] {
  return paths.sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareElements(a[i] as PathElement, b[i] as PathElement);
      if (c) return c;
    }
    return a.length - b.length;
  });
}

/**
 * typedErrors is the validation TypedValue's conversion makes of an apply configuration: a field its struct does not
 * declare, an associative list's item that cannot be named or is there twice. Each is `path: message`.
 * See sigs.k8s.io/structured-merge-diff/v6@v6.3.3 typed/validate.go (visitListItems, visitMapItems).
 */
export function typedErrors(v: unknown, type: MergeType, path: Path = []): string[] {
  const t = effective(type, v);
  const at = (p: Path, message: string): string => (p.length ? `${pathString(p)}: ${message}` : message);
  if (isAtomic(t) && !(t.t === 'struct' && isJsonObject(v))) return [];
  if (t.t === 'list') {
    if (!Array.isArray(v) || t.rel === 'atomic') return [];
    const seen = new Set<string>();
    const errs: string[] = [];
    v.forEach((item, i) => {
      let pe: PathElement;
      try {
        pe = itemElement(t, item);
      } catch (e) {
        errs.push(at(path, `element ${i}: ${(e as Error).message}`));
        return;
      }
      const k = serializeElement(pe);
      if (seen.has(k)) errs.push(at(path, `duplicate entries for key ${elementString(pe)}`));
      seen.add(k);
      errs.push(...typedErrors(item, t.elem, [...path, pe]));
    });
    return errs;
  }
  if (!isJsonObject(v)) return [];
  const errs: string[] = [];
  for (const [k, val] of Object.entries(v)) {
    const ft = fieldType(t, k);
    if (!ft) errs.push(at([...path, { field: k }], 'field not declared in schema'));
    else errs.push(...typedErrors(val, ft, [...path, { field: k }]));
  }
  return errs;
}
