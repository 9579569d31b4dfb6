// The pod-template-hash's input: a pod template printed as Kubernetes prints the Go value it hashes,
// dump.ForHash (k8s.io/utils/dump) = go-spew's "%#v" with SortKeys, SpewKeys, DisableMethods,
// DisablePointerAddresses and DisableCapacities. Every field of every Go struct prints, in declaration
// order, with its Go type, so the struct layouts come from the generated go-layout.ts.
import { GO_TYPES, type GoField } from './go-layout';
import { parseQuantity } from './quantity';

/** GoValue is a Go value as reflection sees it: its type's name and what spew prints of it. */
export type GoValue =
  | { kind: 'struct'; type: string; fields: readonly (readonly [string, GoValue])[] }
  | { kind: 'ptr'; type: string; elem: GoValue | null }
  | { kind: 'slice'; type: string; items: readonly GoValue[] | null }
  | { kind: 'map'; type: string; entries: readonly (readonly [GoValue, GoValue])[] | null }
  | { kind: 'string'; type: string; value: string }
  | { kind: 'int' | 'uint'; type: string; value: bigint }
  | { kind: 'bool'; type: string; value: boolean };

const INTS = new Set(['int', 'int8', 'int16', 'int32', 'int64']);
const UINTS = new Set(['uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr']);

/** goTypeName is reflect's Type.String(): the package's last path element, then the name (`core/v1.Pod` is `v1.Pod`). */
export function goTypeName(expr: string): string {
  if (expr.startsWith('*')) return `*${goTypeName(expr.slice(1))}`;
  if (expr.startsWith('[]')) return `[]${goTypeName(expr.slice(2))}`;
  const map = splitMap(expr);
  if (map) return `map[${goTypeName(map[0])}]${goTypeName(map[1])}`;
  if (expr === 'byte') return 'uint8';
  const dot = expr.lastIndexOf('.');
  if (dot < 0) return expr;
  const pkg = expr.slice(0, dot);
  return `${pkg.slice(pkg.lastIndexOf('/') + 1)}.${expr.slice(dot + 1)}`;
}

/** splitMap reads `map[K]V` as [K, V]; undefined for any other type expression. */
export function splitMap(expr: string): [string, string] | undefined {
  if (!expr.startsWith('map[')) return undefined;
  let depth = 0;
  for (let i = 3; i < expr.length; i++) {
    if (expr[i] === '[') depth++;
    else if (expr[i] === ']' && --depth === 0) return [expr.slice(4, i), expr.slice(i + 1)];
  }
  throw new Error(`malformed Go map type ${expr}`);
}

/** underlyingOf follows named non-struct types to the type expression they are made of. */
function underlyingOf(expr: string): string {
  const named = GO_TYPES[expr];
  return named && named.kind === 'named' ? underlyingOf(named.underlying) : expr;
}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * goValueOf decodes a JSON value into the Go value of type expr that kube-controller-manager holds, after the
 * API server stored it as protobuf and the informer decoded it again: an empty list or map is nil there (protobuf
 * cannot tell them from absent ones) and each quantity is ParseQuantity of its canonical string.
 */
export function goValueOf(expr: string, json: Json): GoValue {
  const type = goTypeName(expr);
  const special = SPECIAL[expr];
  if (special) return special(type, json);
  const under = underlyingOf(expr);
  if (under.startsWith('*')) {
    return { kind: 'ptr', type: type.slice(1), elem: json === undefined || json === null ? null : goValueOf(under.slice(1), json) };
  }
  if (under.startsWith('[]')) {
    const elem = under.slice(2);
    if ((elem === 'byte' || elem === 'uint8') && typeof json === 'string') return bytesValue(type, Buffer.from(json, 'base64'));
    const items = Array.isArray(json) && json.length > 0 ? json.map((item) => goValueOf(elem, item)) : null;
    return { kind: 'slice', type, items };
  }
  const map = splitMap(under);
  if (map) {
    const entries = isObject(json) && Object.keys(json).length > 0
      ? Object.entries(json).map(([k, v]) => [goValueOf(map[0], k), goValueOf(map[1], v)] as const)
      : null;
    return { kind: 'map', type, entries };
  }
  const layout = GO_TYPES[under];
  if (layout?.kind === 'struct') return structValue(type, layout.fields, isObject(json) ? json : {});
  if (under === 'string') return { kind: 'string', type, value: json === undefined || json === null ? '' : String(json) };
  if (under === 'bool') return { kind: 'bool', type, value: json === true };
  if (INTS.has(under)) return { kind: 'int', type, value: intOf(json) };
  if (UINTS.has(under) || under === 'byte') return { kind: 'uint', type, value: intOf(json) };
  throw new Error(`no Go layout for ${expr}`);
}

function structValue(type: string, fields: readonly GoField[], json: Record<string, Json>): GoValue {
  return {
    kind: 'struct', type,
    // An embedded field with `json:",inline"` reads the same object; `json:"-"` never comes from JSON.
    fields: fields.map(([name, expr, key]) => [name, goValueOf(expr, key === '' ? json : key === '-' ? undefined : json[key])] as const),
  };
}

function intOf(json: Json): bigint {
  if (typeof json === 'number' && Number.isFinite(json)) return BigInt(Math.trunc(json));
  if (typeof json === 'string' && /^-?\d+$/.test(json)) return BigInt(json);
  return 0n;
}

function bytesValue(type: string, bytes: Uint8Array): GoValue {
  return { kind: 'slice', type, items: bytes.length === 0 ? null : [...bytes].map((b) => ({ kind: 'uint', type: 'uint8', value: BigInt(b) }) as const) };
}

const str = (type: string, value: string): GoValue => ({ kind: 'string', type, value });
const int = (type: string, value: bigint | number): GoValue => ({ kind: 'int', type, value: BigInt(value) });
const nilPtr = (type: string): GoValue => ({ kind: 'ptr', type, elem: null });

/** bigIntValue is math/big.Int: a sign and the magnitude's 64-bit words, least significant first (nil for 0). */
function bigIntValue(n: bigint): GoValue {
  const words: GoValue[] = [];
  for (let abs = n < 0n ? -n : n; abs > 0n; abs >>= 64n) words.push({ kind: 'uint', type: 'big.Word', value: abs & 0xffff_ffff_ffff_ffffn });
  return {
    kind: 'struct', type: 'big.Int',
    fields: [['neg', { kind: 'bool', type: 'bool', value: n < 0n }], ['abs', { kind: 'slice', type: 'big.nat', items: words.length ? words : null }]],
  };
}

/**
 * quantityValue is resource.Quantity's unexported state (quantity.go): i int64Amount{value, scale}, d
 * infDecAmount{*inf.Dec}, s (the cached canonical text) and the embedded Format.
 */
function quantityValue(type: string, json: Json): GoValue {
  let state: { dec: boolean; m: bigint; e: number; cached: string; format: string } = { dec: false, m: 0n, e: 0, cached: '', format: '' };
  if (typeof json === 'string' || typeof json === 'number') {
    try {
      // As stored (canonical text), then as the informer decodes it: ParseQuantity of that text.
      state = parseQuantity(parseQuantity(json).toString()).goState();
    } catch {
      // The API server would have refused the object; hash what a zero Quantity prints.
    }
  }
  const dec: GoValue = state.dec
    ? { kind: 'ptr', type: 'inf.Dec', elem: { kind: 'struct', type: 'inf.Dec', fields: [['unscaled', bigIntValue(state.m)], ['scale', int('inf.Scale', -state.e)]] } }
    : nilPtr('inf.Dec');
  return {
    kind: 'struct', type,
    fields: [
      ['i', { kind: 'struct', type: 'resource.int64Amount', fields: [['value', int('int64', state.dec ? 0n : state.m)], ['scale', int('resource.Scale', state.dec ? 0 : state.e)]] }],
      ['d', { kind: 'struct', type: 'resource.infDecAmount', fields: [['Dec', dec]] }],
      ['s', str('string', state.cached)],
      ['Format', str('resource.Format', state.format)],
    ],
  };
}

// time.Time is wall uint64, ext int64, loc *Location; for a time from time.Unix, wall holds the nanoseconds and
// ext the seconds since year 1 (unixToInternal = 62135596800).
const UNIX_TO_INTERNAL = 62_135_596_800n;

/**
 * timeValue is metav1.Time{time.Time}. A zero time (null or absent, as a template's creationTimestamp is) prints
 * exactly; a set one prints its instant with a nil location, where the informer's copy would carry time.Local.
 */
function timeValue(type: string, json: Json): GoValue {
  let wall = 0n;
  let ext = 0n;
  const ms = typeof json === 'string' ? Date.parse(json) : NaN;
  if (Number.isFinite(ms)) {
    const seconds = BigInt(Math.floor(ms / 1000));
    wall = BigInt(ms - Number(seconds) * 1000) * 1_000_000n;
    ext = seconds + UNIX_TO_INTERNAL;
  }
  const time: GoValue = {
    kind: 'struct', type: 'time.Time',
    fields: [['wall', { kind: 'uint', type: 'uint64', value: wall }], ['ext', int('int64', ext)], ['loc', nilPtr('time.Location')]],
  };
  return { kind: 'struct', type, fields: [['Time', time]] };
}

/** intOrStringValue is intstr.IntOrString as its UnmarshalJSON fills it: Type 0 with IntVal, or 1 with StrVal. */
function intOrStringValue(type: string, json: Json): GoValue {
  const isString = typeof json === 'string';
  return {
    kind: 'struct', type,
    fields: [
      ['Type', int('intstr.Type', isString ? 1 : 0)],
      ['IntVal', int('int32', isString ? 0n : intOf(json))],
      ['StrVal', str('string', isString ? json : '')],
    ],
  };
}

/** fieldsV1Value is metav1.FieldsV1{Raw []byte}: the JSON text of the field set, as its UnmarshalJSON keeps it. */
function fieldsV1Value(type: string, json: Json): GoValue {
  const raw = json === undefined || json === null ? new Uint8Array() : new TextEncoder().encode(JSON.stringify(json));
  return { kind: 'struct', type, fields: [['Raw', bytesValue('[]uint8', raw)]] };
}

// The types whose JSON form is not their Go layout: they decode through their own UnmarshalJSON.
const SPECIAL: Readonly<Record<string, (type: string, json: Json) => GoValue>> = {
  'resource.Quantity': quantityValue,
  'meta/v1.Time': timeValue,
  'intstr.IntOrString': intOrStringValue,
  'meta/v1.FieldsV1': fieldsV1Value,
};

/**
 * spewHash prints a Go value as go-spew's formatter does for "%#v" under dump.ForHash's settings
 * (github.com/davecgh/go-spew/spew/format.go, format and formatPtr), including its one quirk: a nil pointer
 * inside a slice or map leaves "ignore the next type" set, so the value after it prints without its type.
 */
export function spewHash(value: GoValue): string {
  const out: string[] = [];
  let ignoreNextType = false;

  const format = (v: GoValue): void => {
    if (v.kind === 'ptr') return formatPtr(v);
    if (!ignoreNextType) out.push(`(${v.type})`);
    ignoreNextType = false;
    switch (v.kind) {
      case 'bool': out.push(v.value ? 'true' : 'false'); return;
      case 'int': case 'uint': out.push(v.value.toString()); return;
      case 'string': out.push(v.value); return;
      case 'slice':
        if (v.items === null) { out.push('<nil>'); return; }
        out.push('[');
        v.items.forEach((item, i) => {
          if (i > 0) out.push(' ');
          ignoreNextType = true;
          format(item);
        });
        out.push(']');
        return;
      case 'map':
        if (v.entries === null) { out.push('<nil>'); return; }
        out.push('map[');
        sortedEntries(v.entries).forEach(([key, val], i) => {
          if (i > 0) out.push(' ');
          ignoreNextType = true;
          format(key);
          out.push(':');
          ignoreNextType = true;
          format(val);
        });
        out.push(']');
        return;
      case 'struct':
        out.push('{');
        v.fields.forEach(([name, field], i) => {
          if (i > 0) out.push(' ');
          out.push(`${name}:`);
          format(field);
        });
        out.push('}');
    }
  };

  const formatPtr = (v: Extract<GoValue, { kind: 'ptr' }>): void => {
    if (v.elem === null) {
      // A nil pointer: "<nil>" alone where types are not shown, else its pointer type first.
      if (!ignoreNextType) out.push(`(*${v.type})`);
      out.push('<nil>');
      return;
    }
    out.push(ignoreNextType ? '<*>' : `(*${v.type})`);
    ignoreNextType = true;
    format(v.elem);
  };

  format(value);
  return out.join('');
}

/** sortedEntries orders map entries as spew's SortKeys does for string-kinded keys: by their bytes. */
function sortedEntries(entries: readonly (readonly [GoValue, GoValue])[]): (readonly [GoValue, GoValue])[] {
  const keyOf = (v: GoValue): Buffer => Buffer.from(v.kind === 'string' ? v.value : String(v.kind === 'int' || v.kind === 'uint' ? v.value : ''));
  return [...entries].sort(([a], [b]) => {
    if ((a.kind === 'int' || a.kind === 'uint') && (b.kind === 'int' || b.kind === 'uint')) return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
    return Buffer.compare(keyOf(a), keyOf(b));
  });
}

/** dumpPodTemplateForHash is dump.ForHash(template) for a core/v1 PodTemplateSpec given as stored JSON. */
export function dumpPodTemplateForHash(template: unknown): string {
  return spewHash(goValueOf('core/v1.PodTemplateSpec', template));
}
