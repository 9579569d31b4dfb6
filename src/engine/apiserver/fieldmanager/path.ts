// Field paths as structured-merge-diff names them: a path element is a field (`f:name`), an associative list item by
// its key fields (`k:{"name":"web"}`), a set item by its value (`v:"x"`) or an atomic list's index (`i:0`); the same
// element prints `.name`, `[name="web"]`, `[="x"]` or `[0]` in a conflict's path.
// See sigs.k8s.io/structured-merge-diff/v6@v6.3.3 fieldpath/element.go, fieldpath/serialize-pe.go and value/value.go.

/** Scalar is a JSON value as a path element holds it (a key field's value, a set item). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

/** PathElement is one step of a field path. */
export type PathElement =
  | { readonly field: string }
  | { readonly key: readonly (readonly [string, JsonValue])[] }
  | { readonly value: JsonValue }
  | { readonly index: number };

/** Path is a list of path elements from the object's root. */
export type Path = readonly PathElement[];

/** kindRank orders element kinds as PathElement.Compare does: fields, keys, values, indexes. */
function kindRank(e: PathElement): number {
  return 'field' in e ? 0 : 'key' in e ? 1 : 'value' in e ? 2 : 3;
}

/** valueRank orders JSON value types as value.CompareUsing does: numbers, strings, bools, lists, maps, null. */
function valueRank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null) return 4;
  return 5;
}

const cmp = <T extends string | number>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);

/** compareValues is value.Compare: by type, then by value (lists item by item, maps by sorted keys). */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = valueRank(a);
  const rb = valueRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' || typeof a === 'string') return cmp(a, b as typeof a);
  if (typeof a === 'boolean') return cmp(Number(a), Number(b));
  if (Array.isArray(a)) {
    const bl = b as JsonValue[];
    for (let i = 0; i < Math.min(a.length, bl.length); i++) {
      const c = compareValues(a[i] ?? null, bl[i] ?? null);
      if (c) return c;
    }
    return a.length - bl.length;
  }
  if (a === null) return 0;
  const bm = b as Record<string, JsonValue>;
  const ak = Object.keys(a).sort();
  const bk = Object.keys(bm).sort();
  for (let i = 0; i < Math.min(ak.length, bk.length); i++) {
    const c = cmp(ak[i] as string, bk[i] as string) || compareValues(a[ak[i] as string] ?? null, bm[bk[i] as string] ?? null);
    if (c) return c;
  }
  return ak.length - bk.length;
}

/** compareElements is PathElement.Compare: the order members and children are kept and written in. */
export function compareElements(a: PathElement, b: PathElement): number {
  const r = kindRank(a) - kindRank(b);
  if (r) return r;
  if ('field' in a) return cmp(a.field, (b as { field: string }).field);
  if ('key' in a) {
    const bk = (b as { key: readonly (readonly [string, JsonValue])[] }).key;
    for (let i = 0; ; i++) {
      const x = a.key[i];
      const y = bk[i];
      if (!x && !y) return 0;
      if (!x) return -1;
      if (!y) return 1;
      const c = cmp(x[0], y[0]) || compareValues(x[1], y[1]);
      if (c) return c;
    }
  }
  if ('value' in a) return compareValues(a.value, (b as { value: JsonValue }).value);
  return cmp(a.index, (b as { index: number }).index);
}

/** goJson writes a value as jsoniter's standard configuration (and encoding/json) do: compact, map keys sorted, HTML characters escaped. */
export function goJson(v: JsonValue): string {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    return `{${Object.keys(v).sort().map((k) => `${goJson(k)}:${goJson(v[k] ?? null)}`).join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  return JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** serializeElement is SerializePathElement: the key a FieldsV1 object holds for the element. */
export function serializeElement(e: PathElement): string {
  if ('field' in e) return `f:${e.field}`;
  if ('key' in e) return `k:{${e.key.map(([k, v]) => `${goJson(k)}:${goJson(v)}`).join(',')}}`;
  if ('value' in e) return `v:${goJson(e.value)}`;
  return `i:${e.index}`;
}

/** deserializeElement is DeserializePathElement; undefined for an element of an unknown kind (skipped when read). */
export function deserializeElement(s: string): PathElement | undefined {
  const kind = s.slice(0, 2);
  const rest = s.slice(2);
  switch (kind) {
    case 'f:': return { field: rest };
    case 'v:': return { value: JSON.parse(rest) as JsonValue };
    case 'k:': {
      const fields = JSON.parse(rest) as Record<string, JsonValue>;
      return { key: Object.keys(fields).sort().map((k) => [k, fields[k] ?? null] as const) };
    }
    case 'i:': {
      const index = Number.parseInt(rest, 10);
      if (!Number.isInteger(index)) throw new Error(`invalid index ${rest}`);
      return { index };
    }
    default:
      if (s.length < 2) throw new Error('key must be 2 characters long:');
      if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
      return undefined;
  }
}

/** valueString is value.ToString: strings quoted as Go's %q, numbers and bools plain. */
function valueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  if (typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k}=${valueString(x)}`).join('');
  return String(v);
}

/** elementString is PathElement.String, as a conflict prints it. */
export function elementString(e: PathElement): string {
  if ('field' in e) return `.${e.field}`;
  if ('key' in e) return `[${e.key.map(([k, v]) => `${k}=${valueString(v)}`).join(',')}]`;
  if ('value' in e) return `[=${valueString(e.value)}]`;
  return `[${e.index}]`;
}

/** pathString is Path.String: `.spec.containers[name="web"].image`. */
export function pathString(p: Path): string {
  return p.map(elementString).join('');
}
