// The merge schema of the kinds the engine stores, as kube-apiserver's type converter builds it from the OpenAPI
// models: structs and maps are granular unless marked atomic, lists atomic unless a set or a map keyed by some fields
// (x-kubernetes-list-type, else the patch strategy), quantities, int-or-strings and times scalars, RawExtension and
// unknown fields deduced from their value. See k8s.io/kube-openapi (v0.0.0-20260317180543-43fb72c5454a)
// pkg/schemaconv/smd.go and sigs.k8s.io/structured-merge-diff/v6@v6.3.3 typed/helpers.go (listItemToPathElement).
import { ATOMIC_TYPES, MERGE_FIELDS } from '../../api/schema/merge.generated';
import { SCHEMA_KINDS, SCHEMA_TYPES } from '../../api/schema/schema.generated';
import type { JsonValue, PathElement } from './path';

/** MergeType is how a value merges: a leaf, a struct or map of fields, a list (atomic, set or keyed), or deduced. */
export type MergeType =
  | { readonly t: 'scalar' }
  | { readonly t: 'struct'; readonly id: string; readonly atomic: boolean }
  | { readonly t: 'map'; readonly elem: MergeType; readonly atomic: boolean }
  | { readonly t: 'list'; readonly elem: MergeType; readonly rel: 'atomic' | 'set' | 'map'; readonly keys: readonly string[]; readonly itemId?: string }
  | { readonly t: 'deduced' };

const SCALAR: MergeType = { t: 'scalar' };
const DEDUCED: MergeType = { t: 'deduced' };

/**
 * KEY_DEFAULTS are the defaults of list-map key fields, which stand for an item's key when it omits them: a port's
 * protocol. See staging/src/k8s.io/api/core/v1/types.go (v0.36.3): ContainerPort.Protocol and ServicePort.Protocol,
 * `+default="TCP"`, and typed/helpers.go (getAssociativeKeyDefault).
 */
const KEY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, JsonValue>>>> = {
  'core.v1.ContainerPort': { protocol: 'TCP' },
  'core.v1.ServicePort': { protocol: 'TCP' },
};

/** kindType is the merge type of an object of an apiVersion and kind, deduced when the schema does not hold it. */
export function kindType(apiVersion: string, kind: string): MergeType {
  const id = SCHEMA_KINDS[`${apiVersion}/${kind}`];
  return id ? { t: 'struct', id, atomic: ATOMIC_TYPES.has(id) } : DEDUCED;
}

/** parseType reads a schema type expression (`#core.v1.PodSpec`, `[]string`, `{}quantity`) with a field's relationship. */
function parseType(expr: string, rel: string | undefined): MergeType {
  if (expr.startsWith('[]')) {
    const elemExpr = expr.slice(2);
    const elem = parseType(elemExpr, undefined);
    const itemId = elemExpr.startsWith('#') ? elemExpr.slice(1) : undefined;
    if (rel === 'set') return { t: 'list', elem, rel: 'set', keys: [], ...(itemId ? { itemId } : {}) };
    if (rel?.startsWith('map:')) return { t: 'list', elem, rel: 'map', keys: rel.slice(4).split(','), ...(itemId ? { itemId } : {}) };
    return { t: 'list', elem, rel: 'atomic', keys: [] };
  }
  if (expr.startsWith('{}')) return { t: 'map', elem: parseType(expr.slice(2), undefined), atomic: rel === 'atomic' };
  if (expr.startsWith('#')) {
    const id = expr.slice(1);
    if (!SCHEMA_TYPES[id]) return DEDUCED;
    return { t: 'struct', id, atomic: rel === 'granular' ? false : rel === 'atomic' || ATOMIC_TYPES.has(id) };
  }
  return expr === 'raw' ? DEDUCED : SCALAR;
}

/** fieldType is the merge type of a struct's field, or of a map's element; undefined for a field the struct lacks. */
export function fieldType(parent: MergeType, name: string): MergeType | undefined {
  if (parent.t === 'map') return parent.elem;
  if (parent.t === 'deduced') return DEDUCED;
  if (parent.t !== 'struct') return undefined;
  const prop = SCHEMA_TYPES[parent.id]?.properties[name];
  if (!prop) return undefined;
  return parseType(prop.type, MERGE_FIELDS[parent.id]?.[name]);
}

/** isMapLike tells whether a type holds named fields (a struct, a map, or a deduced object). */
export function isMapLike(t: MergeType): boolean {
  return t.t === 'struct' || t.t === 'map' || t.t === 'deduced';
}

/** isAtomic tells whether a value of the type is one leaf: a scalar, or an atomic list, map or struct. */
export function isAtomic(t: MergeType): boolean {
  return t.t === 'scalar' || (t.t === 'list' && t.rel === 'atomic') || ((t.t === 'struct' || t.t === 'map') && t.atomic);
}

/** isObject tells whether a value is a JSON object. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * itemElement is the path element of an associative list's item: its key fields (defaulted where the schema gives a
 * default, skipped otherwise), or a set item's value. It throws with structured-merge-diff's words for an item it
 * cannot name.
 */
export function itemElement(list: Extract<MergeType, { t: 'list' }>, item: unknown): PathElement {
  if (list.rel === 'map') {
    if (item === null) throw new Error('associative list with keys may not have a null element');
    if (!isJsonObject(item)) throw new Error('associative list with keys may not have non-map elements');
    const defaults = list.itemId ? KEY_DEFAULTS[list.itemId] ?? {} : {};
    const key: [string, JsonValue][] = [];
    for (const k of list.keys) {
      if (k in item) key.push([k, item[k] as JsonValue]);
      else if (k in defaults) key.push([k, defaults[k] as JsonValue]);
    }
    if (list.keys.length && !key.length) {
      throw new Error(`associative list with keys has an element that omits all key fields [${list.keys.map((k) => JSON.stringify(k)).join(' ')}] (and doesn't have default values for any key fields)`);
    }
    return { key: key.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
  }
  if (isJsonObject(item)) throw new Error("associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new Error('not supported: associative list with lists as elements');
  if (item === null) throw new Error("associative list without keys has an element that's an explicit null");
  return { value: item as JsonValue };
}
