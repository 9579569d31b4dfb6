// JSON Patch (RFC 6902) over JSON Pointers (RFC 6901), as kube-apiserver applies a mutating webhook's patch:
// the operations, quirks and error texts of gopkg.in/evanphx/json-patch.v4 (v4.12.0), which the mutating dispatcher uses.
import { isObject } from './types';

/** JsonPatchError is a patch that does not apply, with the message json-patch gives (pkg/errors wrapping: `outer: inner`). */
export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

/** JsonPatchOperation is one decoded operation: its fields as the webhook sent them (jsonpatch.Operation). */
export type JsonPatchOperation = Readonly<Record<string, unknown>> | null;

// Why: the sentinel errors of json-patch v4 patch.go (ErrTestFailed, ErrMissing, ErrInvalidIndex, ErrInvalid).
const ERR_TEST_FAILED = 'test failed';
const ERR_MISSING = 'missing value';
const ERR_INVALID_INDEX = 'invalid index referenced';

/** wrap is pkg/errors' Wrapf: `message: cause`. */
const wrap = (cause: string, message: string): string => `${message}: ${cause}`;

/** goJsonType names a JSON value's type as encoding/json's UnmarshalTypeError does. */
function goJsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/**
 * decodeJsonPatch is jsonpatch.DecodePatch: a sequence of operations, each a JSON object (a null is kept and fails as an
 * unknown kind when applied). It throws JsonPatchError with encoding/json's message for anything else.
 */
export function decodeJsonPatch(patch: unknown): JsonPatchOperation[] {
  if (!Array.isArray(patch)) throw new JsonPatchError(`json: cannot unmarshal ${goJsonType(patch)} into Go value of type jsonpatch.Patch`);
  return patch.map((op: unknown) => {
    if (op === null) return null;
    if (!isObject(op)) throw new JsonPatchError(`json: cannot unmarshal ${goJsonType(op)} into Go value of type jsonpatch.Operation`);
    return op;
  });
}

/** goQuote is strconv.Quote for the texts json-patch prints with %q-like quoting (strconv.Atoi errors). */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** atoi is strconv.Atoi on a 64-bit platform: an optional sign and decimal digits, or its error text. */
function atoi(key: string): number | string {
  if (!/^[+-]?\d+$/.test(key)) return `strconv.Atoi: parsing ${goQuote(key)}: invalid syntax`;
  const n = BigInt(key);
  if (n < INT64_MIN || n > INT64_MAX) return `strconv.Atoi: parsing ${goQuote(key)}: value out of range`;
  return Number(n);
}

/** decodePatchKey is RFC 6901's unescaping as json-patch does it (strings.NewReplacer("~1", "/", "~0", "~")). */
function decodePatchKey(key: string): string {
  return key.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** Container is json-patch's container: a partialDoc (object) or partialArray, keyed by the decoded pointer token. */
interface Container {
  get(key: string): { value: unknown } | { error: string };
  set(key: string, value: unknown): string | undefined;
  add(key: string, value: unknown): string | undefined;
  remove(key: string): string | undefined;
}

/** docContainer is partialDoc: a missing key reads as nil (no error), so replace of a missing key adds it, as in v4. */
function docContainer(doc: Record<string, unknown>): Container {
  return {
    get: (key) => ({ value: Object.hasOwn(doc, key) ? doc[key] : undefined }),
    set: (key, value) => define(doc, key, value),
    add: (key, value) => define(doc, key, value),
    remove: (key) => {
      if (!Object.hasOwn(doc, key)) return wrap(ERR_MISSING, `Unable to remove nonexistent key: ${key}`);
      delete doc[key];
      return undefined;
    },
  };
}

function define(doc: Record<string, unknown>, key: string, value: unknown): undefined {
  Object.defineProperty(doc, key, { value, enumerable: true, writable: true, configurable: true });
  return undefined;
}

/** arrayContainer is partialArray: integer indexes, negative ones counted from the end (SupportNegativeIndices), `-` appends on add. */
function arrayContainer(ary: unknown[]): Container {
  const invalid = (idx: number): string => wrap(ERR_INVALID_INDEX, `Unable to access invalid index: ${idx}`);
  return {
    get: (key) => {
      let idx = atoi(key);
      if (typeof idx === 'string') return { error: idx };
      if (idx < 0) {
        if (idx < -ary.length) return { error: invalid(idx) };
        idx += ary.length;
      }
      if (idx >= ary.length) return { error: invalid(idx) };
      return { value: ary[idx] };
    },
    set: (key, value) => {
      let idx = atoi(key);
      if (typeof idx === 'string') return idx;
      if (idx < 0) {
        if (idx < -ary.length) return invalid(idx);
        idx += ary.length;
      }
      ary[idx] = value;
      return undefined;
    },
    add: (key, value) => {
      if (key === '-') {
        ary.push(value);
        return undefined;
      }
      let idx = atoi(key);
      if (typeof idx === 'string') return wrap(idx, `value was not a proper array index: '${key}'`);
      const size = ary.length + 1;
      if (idx >= size) return invalid(idx);
      if (idx < 0) {
        if (idx < -size) return invalid(idx);
        idx += size;
      }
      ary.splice(idx, 0, value);
      return undefined;
    },
    remove: (key) => {
      let idx = atoi(key);
      if (typeof idx === 'string') return idx;
      if (idx >= ary.length) return invalid(idx);
      if (idx < 0) {
        if (idx < -ary.length) return invalid(idx);
        idx += ary.length;
      }
      ary.splice(idx, 1);
      return undefined;
    },
  };
}

/** containerOf wraps an object or array; other values hold nothing a pointer can walk into. */
function containerOf(value: unknown): Container | undefined {
  if (Array.isArray(value)) return arrayContainer(value);
  if (isObject(value)) return docContainer(value);
  return undefined;
}

/**
 * findObject walks a pointer to the container of its last token, as json-patch's findObject: the first token is
 * dropped (so a pointer without a leading `/` still names its later tokens), and a missing or null step, a bad index
 * or a scalar on the way gives no container.
 */
function findObject(root: unknown, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc = containerOf(root);
  for (const part of split.slice(1, -1)) {
    const next = doc?.get(decodePatchKey(part));
    if (!next || 'error' in next || next.value === null || next.value === undefined) return undefined;
    doc = containerOf(next.value);
  }
  return doc ? { con: doc, key: decodePatchKey(split[split.length - 1]!) } : undefined;
}

/** field reads an operation's string field (path, from); a missing one or a non-string is its decoding error. */
function field(op: Readonly<Record<string, unknown>>, name: 'path' | 'from'): { value: string } | { error: string } {
  const raw = op[name];
  if (raw === undefined || raw === null) {
    return { error: wrap(ERR_MISSING, name === 'path' ? 'operation missing path field' : 'operation, missing from field') };
  }
  if (typeof raw !== 'string') return { error: `json: cannot unmarshal ${goJsonType(raw)} into Go value of type string` };
  return { value: raw };
}

/**
 * equalNodes is json-patch v4's lazyNode.equal, asymmetric as it is: an object equals any object that has at least its
 * keys with equal values; scalars compare as their JSON text.
 */
function equalNodes(n: unknown, o: unknown): boolean {
  if (n === null || o === null) return n === o;
  if (isObject(n)) {
    if (!isObject(o)) return false;
    return Object.entries(n).every(([k, v]) => Object.hasOwn(o, k) && equalNodes(v, o[k]));
  }
  if (Array.isArray(n)) return Array.isArray(o) && o.length === n.length && n.every((v, i) => equalNodes(v, o[i]));
  return !isObject(o) && !Array.isArray(o) && JSON.stringify(n) === JSON.stringify(o);
}

/**
 * applyJsonPatch applies the operations to a copy of the document and returns it; it throws JsonPatchError with
 * json-patch's words when one does not apply, e.g. `add operation does not apply: doc is missing path:
 * "/metadata/labels/team": missing value`.
 * Why: gopkg.in/evanphx/json-patch.v4 patch.go (ApplyIndent and the add/remove/replace/move/test/copy methods).
 */
export function applyJsonPatch<T>(document: T, operations: readonly JsonPatchOperation[]): T {
  const state = { root: structuredClone(document) as unknown };
  for (const op of operations) {
    const kind = op && typeof op['op'] === 'string' ? op['op'] : 'unknown';
    const error = op ? applyOne(state, op, kind) : `Unexpected kind: ${kind}`;
    if (error !== undefined) throw new JsonPatchError(error);
  }
  return state.root as T;
}

/** applyOne runs one operation, giving its error text. */
function applyOne(state: { root: unknown }, op: Readonly<Record<string, unknown>>, kind: string): string | undefined {
  const value = op['value'];
  switch (kind) {
    case 'add': {
      const path = field(op, 'path');
      if ('error' in path) return wrap(ERR_MISSING, 'add operation failed to decode path');
      const found = findObject(state.root, path.value);
      if (!found) return wrap(ERR_MISSING, `add operation does not apply: doc is missing path: "${path.value}"`);
      const err = found.con.add(found.key, value ?? null);
      return err === undefined ? undefined : wrap(err, `error in add for path: '${path.value}'`);
    }
    case 'remove': {
      const path = field(op, 'path');
      if ('error' in path) return wrap(ERR_MISSING, 'remove operation failed to decode path');
      const found = findObject(state.root, path.value);
      if (!found) return wrap(ERR_MISSING, `remove operation does not apply: doc is missing path: "${path.value}"`);
      const err = found.con.remove(found.key);
      return err === undefined ? undefined : wrap(err, `error in remove for path: '${path.value}'`);
    }
    case 'replace':
      return replace(state, op, value);
    case 'move':
      return move(state, op);
    case 'test':
      return testOp(state, op, value);
    case 'copy':
      return copy(state, op);
    default:
      return `Unexpected kind: ${kind}`;
  }
}

function replace(state: { root: unknown }, op: Readonly<Record<string, unknown>>, value: unknown): string | undefined {
  const path = field(op, 'path');
  if ('error' in path) return wrap(path.error, 'replace operation failed to decode path');
  if (path.value === '') {
    // A scalar or null is refused with errors.Wrapf(nil, ...), which is nil: the document stays as it was.
    if (isObject(value) || Array.isArray(value)) state.root = structuredClone(value);
    return undefined;
  }
  const found = findObject(state.root, path.value);
  if (!found) return wrap(ERR_MISSING, `replace operation does not apply: doc is missing path: ${path.value}`);
  if ('error' in found.con.get(found.key)) return wrap(ERR_MISSING, `replace operation does not apply: doc is missing key: ${path.value}`);
  const err = found.con.set(found.key, value ?? null);
  return err === undefined ? undefined : wrap(err, `error in remove for path: '${path.value}'`);
}

function move(state: { root: unknown }, op: Readonly<Record<string, unknown>>): string | undefined {
  const from = field(op, 'from');
  if ('error' in from) return wrap(from.error, 'move operation failed to decode from');
  const source = findObject(state.root, from.value);
  if (!source) return wrap(ERR_MISSING, `move operation does not apply: doc is missing from path: ${from.value}`);
  const got = source.con.get(source.key);
  if ('error' in got) return wrap(got.error, `error in move for path: '${source.key}'`);
  const removed = source.con.remove(source.key);
  if (removed !== undefined) return wrap(removed, `error in move for path: '${source.key}'`);
  const path = field(op, 'path');
  if ('error' in path) return wrap(path.error, 'move operation failed to decode path');
  const target = findObject(state.root, path.value);
  if (!target) return wrap(ERR_MISSING, `move operation does not apply: doc is missing destination path: ${path.value}`);
  const err = target.con.add(target.key, got.value ?? null);
  return err === undefined ? undefined : wrap(err, `error in move for path: '${path.value}'`);
}

function testOp(state: { root: unknown }, op: Readonly<Record<string, unknown>>, value: unknown): string | undefined {
  const path = field(op, 'path');
  if ('error' in path) return wrap(path.error, 'test operation failed to decode path');
  const failed = wrap(ERR_TEST_FAILED, `testing value ${path.value} failed`);
  if (path.value === '') return equalNodes(state.root, value ?? null) ? undefined : failed;
  const found = findObject(state.root, path.value);
  if (!found) return wrap(ERR_MISSING, `test operation does not apply: is missing path: ${path.value}`);
  const got = found.con.get(found.key);
  if ('error' in got) return wrap(got.error, `error in test for path: '${path.value}'`);
  // A missing or null member passes against a null value, and only against it.
  if (got.value === undefined || got.value === null) return value === null ? undefined : failed;
  if (value === undefined) return failed;
  return equalNodes(got.value, value) ? undefined : failed;
}

function copy(state: { root: unknown }, op: Readonly<Record<string, unknown>>): string | undefined {
  const from = field(op, 'from');
  if ('error' in from) return wrap(from.error, 'copy operation failed to decode from');
  const source = findObject(state.root, from.value);
  if (!source) return wrap(ERR_MISSING, `copy operation does not apply: doc is missing from path: ${from.value}`);
  const got = source.con.get(source.key);
  if ('error' in got) return wrap(got.error, `error in copy for from: '${from.value}'`);
  const path = field(op, 'path');
  if ('error' in path) return wrap(ERR_MISSING, 'copy operation failed to decode path');
  const target = findObject(state.root, path.value);
  if (!target) return wrap(ERR_MISSING, `copy operation does not apply: doc is missing destination path: ${path.value}`);
  const err = target.con.add(target.key, structuredClone(got.value ?? null));
  return err === undefined ? undefined : wrap(err, 'error while adding value during copy');
}

/**
 * patchedPointers lists the JSON Pointers an operation list writes (add, replace, move and copy targets, removals),
 * for the trace: what a webhook changed.
 */
export function patchedPointers(operations: readonly JsonPatchOperation[]): string[] {
  const out: string[] = [];
  for (const op of operations) {
    if (!op || typeof op['path'] !== 'string') continue;
    if (op['op'] === 'test') continue;
    out.push(op['path']);
    if (op['op'] === 'move' && typeof op['from'] === 'string') out.push(op['from']);
  }
  return out;
}

/** pointerTokens splits a JSON Pointer into its decoded tokens (`/metadata/labels/a~1b` → metadata, labels, a/b). */
export function pointerTokens(pointer: string): string[] {
  return pointer.split('/').slice(1).map(decodePatchKey);
}
