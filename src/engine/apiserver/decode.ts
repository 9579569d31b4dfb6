// kube-apiserver's decoding of a create request's body into the Go type of its kind, before admission: the type
// errors, quantity and time errors and strict unknown-field errors of the JSON serializer, as one 400 BadRequest.
import { convertFromV1 } from '../api/conversion';
import { formatFieldPath, type PathSegment } from '../api/fieldpath';
import { hpaFromV1, isHpaV1 } from '../api/hpa-v1';
import { parseQuantity, QuantityError } from '../api/quantity';
import { SCHEMA_KINDS, SCHEMA_TYPES } from '../api/schema/schema.generated';
import { isObject, type KubeObject } from '../api/types';
import {
  base64ErrorOffset, bytesToBase64, goJsonStringBody, goNumberText, goQuote, goSortedKeys, goTrimSpace, RFC3339,
  RFC3339_MICRO, timeParseError,
} from './decode-go';
import type { Steps } from '../runtime/step';
import { type ApiRequest, badRequest, type StatusError } from './request';

/** DecodeOptions: strict is fieldValidation=Strict (unknown fields fail the request); otherwise they are warnings. */
export interface DecodeOptions {
  strict: boolean;
}

/**
 * DecodeResult is the decoded object with the strict-decoding warnings (fieldValidation=Warn), or the 400 error and
 * the field path (`spec.containers[0].image`) of the offending field when there is one.
 */
export type DecodeResult = { object: KubeObject; warnings: string[] } | { error: StatusError; field?: string };

/** FieldValidation is the create request's fieldValidation directive. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/**
 * fieldValidationOf reads the directive from a request path's query; absent, it is Warn.
 * See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go (fieldValidation).
 */
export function fieldValidationOf(path: string): FieldValidation {
  const value = new URLSearchParams(path.split('?')[1] ?? '').get('fieldValidation');
  return value === 'Strict' || value === 'Ignore' ? value : 'Warn';
}

type Scalar = 'string' | 'int32' | 'int64' | 'number' | 'boolean' | 'bytes' | 'quantity' | 'int-or-string' | 'time' | 'micro-time' | 'raw';

/** Node is a compiled schema type: a scalar, a list, a map of string keys or a struct, each with its Go type name. */
type Node =
  | { k: Scalar; go: string }
  | { k: 'list' | 'map'; go: string; elem: Node }
  | { k: 'struct'; go: string; name: string; id: string; fields?: Map<string, Field> };

interface Field {
  node: Node;
  embedded?: string;
}

const SCALAR_GO: Readonly<Record<Scalar, string>> = {
  string: 'string', int32: 'int32', int64: 'int64', number: 'float64', boolean: 'bool', bytes: '[]uint8', quantity: 'resource.Quantity',
  'int-or-string': 'intstr.IntOrString', time: 'v1.Time', 'micro-time': 'v1.MicroTime', raw: 'interface {}',
};

const nodes = new Map<string, Node>();

/** nodeFor compiles a schema type expression (string, []#core.v1.Container, {}quantity) with its Go type, once. */
function nodeFor(expr: string, go?: string): Node {
  const key = `${expr}|${go ?? ''}`;
  let node = nodes.get(key);
  if (node) return node;
  if (expr.startsWith('[]') || expr.startsWith('{}')) {
    const list = expr.startsWith('[]');
    const elemGo = !go ? undefined : list ? go.slice(2) : go.startsWith('map[') ? go.slice(go.indexOf(']') + 1) : undefined;
    const elem = nodeFor(expr.slice(2), elemGo);
    node = { k: list ? 'list' : 'map', go: go ?? (list ? `[]${elem.go}` : `map[string]${elem.go}`), elem };
  } else if (expr.startsWith('#')) {
    const id = expr.slice(1);
    const typeGo = go ?? SCHEMA_TYPES[id]?.go ?? id;
    node = { k: 'struct', go: typeGo, name: typeGo.slice(typeGo.indexOf('.') + 1), id };
  } else {
    const k = expr as Scalar;
    node = { k, go: go ?? SCALAR_GO[k] };
  }
  nodes.set(key, node);
  return node;
}

/** fieldsOf compiles a struct's fields on first use. */
function fieldsOf(node: Extract<Node, { k: 'struct' }>): Map<string, Field> {
  if (!node.fields) {
    const fields = new Map<string, Field>();
    for (const [name, prop] of Object.entries(SCHEMA_TYPES[node.id]?.properties ?? {})) {
      fields.set(name, { node: nodeFor(prop.type, prop.go), ...(prop.embedded ? { embedded: prop.embedded } : {}) });
    }
    node.fields = fields;
  }
  return node.fields;
}

/** Fatal is an error that stops decoding at once: one an UnmarshalJSON method returns. */
class Fatal extends Error {
  constructor(message: string, readonly field: string) {
    super(message);
  }
}

/** MAX_STRICT_ERRORS is how many strict errors are kept. See sigs.k8s.io/json internal/golang/encoding/json/kubernetes_patch.go. */
const MAX_STRICT_ERRORS = 100;

/**
 * Decoder walks a body as sigs.k8s.io/json's decodeState walks JSON into a Go value (UnmarshalStrict: case-sensitive
 * fields, unknown and duplicate fields collected). Why: internal/golang/encoding/json/decode.go in sigs.k8s.io/json.
 * A type error is saved (the first one wins) and decoding goes on; an error from an UnmarshalJSON method (Quantity,
 * IntOrString, Time) ends it at once and wins over a saved one; strict errors count only when neither occurred.
 */
class Decoder {
  saved?: { message: string; field: string };
  readonly strict: string[] = [];
  strictField?: string;
  /** struct and goStack are errorContext: the struct being filled and the Go field path (json names, embedded structs). */
  private struct = '';
  private readonly goStack: string[] = [];
  /** path is the JSON path: keys and indexes (strictFieldStack, and the trace's field). */
  private readonly path: PathSegment[] = [];

  decode(v: unknown, node: Node): unknown {
    switch (node.k) {
      case 'string':
        return typeof v === 'string' ? v : this.typeError(v, node.go);
      case 'boolean':
        return typeof v === 'boolean' ? v : this.typeError(v, node.go);
      case 'number':
        return typeof v === 'number' ? v : this.typeError(v, node.go);
      case 'int32':
      case 'int64':
        if (typeof v !== 'number') return this.typeError(v, node.go);
        return fitsInt(v, node.k === 'int32' ? 32 : 64) ? v : this.typeError(v, node.go, `number ${goNumberText(v)}`);
      case 'bytes':
        return this.bytes(v, node.go);
      case 'quantity':
        return this.quantity(v);
      case 'int-or-string':
        // IntOrString.UnmarshalJSON: a JSON string is the string; anything else goes through json.Unmarshal into an int32.
        if (typeof v === 'string') return v;
        if (typeof v === 'number' && fitsInt(v, 32)) return v;
        throw new Fatal(this.typeMessage(typeof v === 'number' ? `number ${goNumberText(v)}` : jsonKind(v), 'int32'), this.here());
      case 'time':
      case 'micro-time': {
        // Time.UnmarshalJSON: json.Unmarshal into a string, then time.Parse(RFC3339 or RFC3339Micro).
        if (typeof v !== 'string') throw new Fatal(this.typeMessage(jsonKind(v), 'string'), this.here());
        const problem = timeParseError(v, node.k === 'time' ? RFC3339 : RFC3339_MICRO);
        if (problem) throw new Fatal(problem, this.here());
        return v;
      }
      case 'raw':
        return structuredClone(v);
      case 'list':
        return Array.isArray(v) ? this.list(v, node.elem) : this.typeError(v, node.go);
      case 'map':
        return isObject(v) ? this.map(v, node.elem) : this.typeError(v, node.go);
      case 'struct':
        return isObject(v) ? this.object(v, node) : this.typeError(v, node.go);
    }
  }

  /** object fills a struct: fields by exact name in the body's key order; unknown ones are strict errors, skipped. */
  private object(v: Record<string, unknown>, node: Extract<Node, { k: 'struct' }>): Record<string, unknown> {
    const fields = fieldsOf(node);
    const out: Record<string, unknown> = {};
    const outerStruct = this.struct;
    const depth = this.goStack.length;
    for (const key of goSortedKeys(v)) {
      const value = v[key];
      if (value === undefined) continue;
      const field = fields.get(key);
      if (!field) {
        this.strictError('unknown field', key);
        continue;
      }
      this.struct = node.name;
      if (field.embedded) this.goStack.push(field.embedded);
      this.goStack.push(key);
      this.path.push(key);
      // null leaves a struct field unset (a pointer, map or slice nil; a scalar its zero value): it is dropped.
      const decoded = value === null ? undefined : this.decode(value, field.node);
      this.path.pop();
      this.goStack.length = depth;
      this.struct = outerStruct;
      if (decoded !== undefined) setKey(out, key, decoded);
    }
    return out;
  }

  private list(v: unknown[], elem: Node): unknown[] {
    return v.map((item, i) => {
      this.path.push(i);
      const decoded = item === null ? zeroOf(elem) : this.decode(item, elem);
      this.path.pop();
      return decoded;
    });
  }

  private map(v: Record<string, unknown>, elem: Node): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of goSortedKeys(v)) {
      const value = v[key];
      if (value === undefined) continue;
      this.path.push(key);
      const decoded = value === null ? zeroOf(elem) : this.decode(value, elem);
      this.path.pop();
      if (decoded !== undefined) setKey(out, key, decoded);
    }
    return out;
  }

  /** bytes decodes a []byte: a base64 string (kept as written) or a list of byte values (written back as base64). */
  private bytes(v: unknown, go: string): unknown {
    if (typeof v === 'string') {
      const at = base64ErrorOffset(v);
      if (at !== undefined) this.save(`illegal base64 data at input byte ${at}`);
      return v;
    }
    if (!Array.isArray(v)) return this.typeError(v, go);
    const bytes = v.map((item, i) => {
      if (item === null) return 0;
      if (typeof item === 'number' && fitsByte(item)) return item;
      this.path.push(i);
      this.typeError(item, 'uint8', typeof item === 'number' ? `number ${goNumberText(item)}` : undefined);
      this.path.pop();
      return 0;
    });
    return bytesToBase64(bytes);
  }

  /**
   * quantity decodes a resource.Quantity as UnmarshalJSON parses it: the JSON text, unquoted, trimmed, then
   * ParseQuantity. What is stored is what the Quantity marshals as, always a string: the parsed text when
   * ParseQuantity found it canonical and kept it (`"1e3"`, `"+1"`, `"1.500k"`), else the canonical form
   * CanonicalizeBytes writes (`"0.100"` → "100m", `"1000m"` → "1", `"2048Ki"` → "2Mi", `1` → "1", `0.5` → "500m").
   * See apimachinery/pkg/api/resource/quantity.go (v0.36.3: ParseQuantity, MarshalJSON, String, CanonicalizeBytes);
   * the reference cluster returns each of these so (test/engine/apiserver/decode.test.ts).
   */
  private quantity(v: unknown): unknown {
    const text = typeof v === 'string' ? goJsonStringBody(v) : typeof v === 'number' ? goNumberText(v)
      : typeof v === 'boolean' ? String(v) : Array.isArray(v) ? '[' : '{';
    try {
      return parseQuantity(goTrimSpace(text)).toString();
    } catch (err) {
      if (err instanceof QuantityError) throw new Fatal(err.message, this.here());
      throw err;
    }
  }

  /** typeError saves an UnmarshalTypeError (the first one is reported) and leaves the field unset. */
  private typeError(v: unknown, go: string, value = jsonKind(v)): undefined {
    this.save(this.typeMessage(value, go));
    return undefined;
  }

  /** typeMessage is UnmarshalTypeError.Error with the decoder's error context added (addErrorContext). */
  private typeMessage(value: string, go: string): string {
    if (this.struct === '' && this.goStack.length === 0) return `json: cannot unmarshal ${value} into Go value of type ${go}`;
    return `json: cannot unmarshal ${value} into Go struct field ${this.struct}.${this.goStack.join('.')} of type ${go}`;
  }

  private save(message: string): void {
    this.saved ??= { message, field: this.here() };
  }

  /**
   * strictError records `unknown field "spec.containers[0].imagee"` once, at most MAX_STRICT_ERRORS of them.
   * The other strict error, `duplicate field "spec.replicas"`, cannot arise here: a JS object has no duplicate keys,
   * and the loader refuses a repeated YAML key before (`key "replicas" already set in map`).
   */
  private strictError(what: string, key: string): void {
    const message = `${what} ${goQuote(strictPath(this.path, key))}`;
    if (this.strict.length >= MAX_STRICT_ERRORS || this.strict.includes(message)) return;
    this.strict.push(message);
    this.strictField ??= formatFieldPath([...this.path, key]);
  }

  private here(): string {
    return formatFieldPath(this.path);
  }
}

/** strictPath writes a field path as newFieldError does: keys joined by dots, list indexes as [i]. */
function strictPath(path: readonly PathSegment[], key: string): string {
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out === '' ? key : `${out}.${key}`;
}

/** jsonKind names a JSON value as UnmarshalTypeError.Value does. */
function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return v === null ? 'null' : 'object';
}

const INT_LIMITS = { 32: [-(2n ** 31n), 2n ** 31n - 1n], 64: [-(2n ** 63n), 2n ** 63n - 1n] } as const;

/** fitsInt tells whether a JSON number parses as a Go int32 or int64 (strconv.ParseInt of its text, then OverflowInt). */
function fitsInt(n: number, bits: 32 | 64): boolean {
  const text = goNumberText(n);
  if (!/^-?[0-9]+$/.test(text)) return false;
  const value = BigInt(text);
  return value >= INT_LIMITS[bits][0] && value <= INT_LIMITS[bits][1];
}

const fitsByte = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 255;

/** zeroOf is the JSON form of a Go zero value: what a null list item or map value decodes to. */
function zeroOf(node: Node): unknown {
  switch (node.k) {
    case 'string': case 'bytes': return '';
    case 'int32': case 'int64': case 'number': case 'int-or-string': return 0;
    case 'boolean': return false;
    case 'quantity': return '0';
    case 'time': case 'micro-time': return undefined;
    case 'raw': return null;
    case 'list': return [];
    case 'map': case 'struct': return {};
  }
}

/** setKey sets a key as JSON would, `__proto__` included. */
function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/**
 * decodeObject decodes a create request's body as kube-apiserver does before admission: into the Go type of its
 * kind, with fieldValidation Strict (opts.strict) or Warn. An object of a kind without a schema passes unchanged.
 * The error is `Pod in version "v1" cannot be handled as a Pod: <decoding error>`, 400 BadRequest.
 * Why: Serializer.Decode and unmarshal in staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go,
 * createHandler in staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go, transformDecodeError in rest.go,
 * strictDecodingError in staging/src/k8s.io/apimachinery/pkg/runtime/error.go.
 */
export function decodeObject(obj: KubeObject, opts: DecodeOptions): DecodeResult {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const id = SCHEMA_KINDS[`${apiVersion}/${kind}`];
  if (!id) return { object: obj, warnings: [] };
  const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
  const fail = (message: string, field: string | undefined): DecodeResult => ({
    error: badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${kind}: ${message}`),
    ...(field ? { field } : {}),
  });
  const decoder = new Decoder();
  let object: unknown;
  try {
    object = decoder.decode(obj, nodeFor(`#${id}`));
  } catch (err) {
    if (err instanceof Fatal) return fail(err.message, err.field);
    throw err;
  }
  if (decoder.saved) return fail(decoder.saved.message, decoder.saved.field);
  if (opts.strict && decoder.strict.length) return fail(`strict decoding error: ${decoder.strict.join(', ')}`, decoder.strictField);
  return { object: object as KubeObject, warnings: decoder.strict };
}

/**
 * decodeBody decodes a create request's body with the request's fieldValidation and records it: the sub-step
 * `decode` of apiserver.admit.mutating (its field is the offending field when there is one) and, on a 400, the
 * phase's rejection. With fieldValidation=Ignore the strict warnings are dropped, as the non-strict decoder never
 * reports them.
 */
export function* decodeBody(req: ApiRequest, ref: string): Steps<DecodeResult> {
  const validation = fieldValidationOf(req.path);
  const decoded = decodeObject(req.object ?? {}, { strict: validation === 'Strict' });
  const phase = 'apiserver.admit.mutating';
  if ('error' in decoded) {
    const { status } = decoded.error;
    const result = `${status.code} ${status.reason}: ${status.message}`;
    const field = decoded.field ? { field: decoded.field } : {};
    yield { phase, object: ref, step: { kind: 'plugin', name: 'decode' }, ...field, result, detail: { fieldValidation: validation, status }, outcome: 'rejected' };
    yield { phase, object: ref, ...field, result: `the request body cannot be decoded: ${result}`, detail: { status }, outcome: 'rejected' };
    return decoded;
  }
  const warnings = validation === 'Ignore' ? [] : decoded.warnings;
  // An autoscaling/v1 HorizontalPodAutoscaler is defaulted as v1 and converted to the version it is stored in,
  // autoscaling/v2. See pkg/apis/autoscaling/v1/defaults.go and conversion.go (v1.36.3).
  const storageVersion = isHpaV1(decoded.object) ? hpaFromV1(decoded.object) : undefined;
  const object = storageVersion ?? decoded.object;
  // The codec converts what it decoded to the internal type (pkg/apis/core/v1/conversion.go, v1.36.3).
  const converted = convertFromV1(object);
  const conversion = converted.map((c) => `${c.field} ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`);
  yield {
    phase, object: ref, step: { kind: 'plugin', name: 'decode' },
    result: `decoded the body as ${req.apiVersion} ${req.kind} (fieldValidation=${validation})${warnings.length ? `; warnings: ${warnings.join(', ')}` : ''}`
      + (storageVersion ? `; converted to ${String(storageVersion.apiVersion)}, the version it is stored in` : '')
      + (conversion.length ? `; conversion set ${conversion.join(', ')}` : ''),
    detail: { fieldValidation: validation, warnings, ...(storageVersion ? { storedAs: storageVersion.apiVersion } : {}), ...(converted.length ? { conversion: converted } : {}) },
  };
  return { object, warnings };
}
