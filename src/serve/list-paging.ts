// Paged lists, as kube-apiserver 1.36 pages them: `limit` cuts a list in key order, `metadata.continue` carries the
// next page's start and the first page's resourceVersion, `remainingItemCount` counts what is left when no selector
// filters. The token is base64url (unpadded) JSON `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}`, its key
// relative to the list's own key: the watch cache writes it with a leading slash (`/web\u0000`, `/default/web\u0000`),
// etcd (Events, which have no watch cache) without. See staging/src/k8s.io/apiserver/pkg/storage/continue.go
// (EncodeContinue, DecodeContinue, PrepareContinueToken), interfaces.go (ValidateListOptions), cacher/cacher.go
// (GetList, computeListLimit), etcd3/store.go (GetList) and etcd3/errors.go (handleCompactedErrorForPaging), v0.36.3.
import { posix } from 'node:path';
import type { KubeObject } from '../engine/api/types';
import { goQuote } from '../engine/apiserver/decode-go';
import { badRequest, StatusError } from '../engine/apiserver/request';
import { goJson } from '../engine/api/go-json';
import { goJsonSyntaxError } from './json-syntax';

/** TOKEN_VERSION is the only encoding of a continue token (continueToken.APIVersion). */
const TOKEN_VERSION = 'meta.k8s.io/v1';

/** INCONSISTENT_CONTINUE is etcd3's message for a continue token whose revision is compacted (errors.go, inconsistentContinue). */
const INCONSISTENT_CONTINUE = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** ContinueToken is a decoded token: the revision to list at (negative: the latest) and the start key, relative to the list's key, cleaned. */
export interface ContinueToken {
  resourceVersion: bigint;
  start: string;
}

/** encodeContinue is EncodeContinue: the token of a page that goes on from `start` (a key relative to the list's, ending in \u0000) at a revision. */
export function encodeContinue(start: string, resourceVersion: number | bigint): string {
  // json.Marshal of continueToken: the fields in their order, \u0000 escaped, as JSON.stringify escapes it.
  const json = `{"v":${goJson(TOKEN_VERSION)},"rv":${resourceVersion},"start":${goJson(start)}}`;
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** invalidToken is the cacher's 400 for a token that does not decode: `invalid continue token: continue key is not valid: ...`. */
function invalidToken(why: string): StatusError {
  return badRequest(`invalid continue token: continue key is not valid${why}`);
}

/** BASE64URL maps each character of the URL-safe alphabet to its 6 bits. */
const BASE64URL = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].map((c, i) => [c.charCodeAt(0), i]));

/**
 * decodeBase64Url is base64.RawURLEncoding.DecodeString: newlines skipped, any other byte outside the alphabet an
 * `illegal base64 data at input byte N` error, as is a last quantum of one character. See go/src/encoding/base64 (decodeQuantum).
 */
function decodeBase64Url(text: string): Uint8Array {
  const src = Buffer.from(text, 'utf8');
  const out: number[] = [];
  let quantum: number[] = [];
  const flush = (): void => {
    const v = (quantum[0]! << 18) | ((quantum[1] ?? 0) << 12) | ((quantum[2] ?? 0) << 6) | (quantum[3] ?? 0);
    out.push((v >> 16) & 0xff);
    if (quantum.length > 2) out.push((v >> 8) & 0xff);
    if (quantum.length > 3) out.push(v & 0xff);
    quantum = [];
  };
  for (let si = 0; si < src.length; si++) {
    const c = src[si]!;
    if (c === 0x0a || c === 0x0d) continue;
    const bits = BASE64URL.get(c);
    if (bits === undefined) throw invalidToken(`: illegal base64 data at input byte ${si}`);
    quantum.push(bits);
    if (quantum.length === 4) flush();
  }
  if (quantum.length === 1) throw invalidToken(`: illegal base64 data at input byte ${src.length - 1}`);
  if (quantum.length > 0) flush();
  return Uint8Array.from(out);
}

/** Json is a JSON value as read here: numbers kept as their literal; a nested array or object only as its kind. */
type Json = null | boolean | string | { number: string } | Json[] | { object: [string, Json][] };

/**
 * parseJson reads a text the syntax check passed, one level deep: a top-level object's keys in order with their
 * values, each number as its literal (to be converted as encoding/json converts it), a nested array or object skipped
 * (only its kind matters to continueToken), so no depth of nesting costs more than its length.
 */
function parseJson(text: string): Json {
  let i = 0;
  const space = (): void => {
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  };
  const skipNested = (): void => {
    let depth = 0;
    do {
      const c = text[i]!;
      if (c === '"') i += /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i))![0].length - 1;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      i++;
    } while (depth > 0);
  };
  const scalar = (): Json => {
    space();
    const c = text[i]!;
    if (c === '{' || c === '[') {
      skipNested();
      return c === '{' ? { object: [] } : [];
    }
    if (c === '"') {
      const quoted = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i))![0];
      i += quoted.length;
      return JSON.parse(quoted) as string;
    }
    const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i))![0];
    i += literal.length;
    return literal === 'true' ? true : literal === 'false' ? false : literal === 'null' ? null : { number: literal };
  };
  space();
  if (text[i] !== '{') return scalar();
  i++;
  const object: [string, Json][] = [];
  space();
  if (text[i] === '}') return { object };
  for (;;) {
    const key = scalar() as string;
    space();
    i++; // the colon
    object.push([key, scalar()]);
    space();
    if (text[i++] === '}') return { object };
  }
}

/** goKindOf is how encoding/json names a JSON value in an UnmarshalTypeError. */
function goKindOf(v: Json): string {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  return v !== null && 'number' in v ? 'number' : 'object';
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** unmarshalToken is json.Unmarshal into continueToken: keys matched exactly or case-insensitively, the first type error reported. */
function unmarshalToken(v: Json): { v: string; rv: bigint; start: string } {
  const token = { v: '', rv: 0n, start: '' };
  if (v === null) return token;
  if (typeof v !== 'object' || Array.isArray(v) || !('object' in v)) throw invalidToken(`: json: cannot unmarshal ${goKindOf(v)} into Go value of type storage.continueToken`);
  let error: string | undefined;
  const mismatch = (value: string, field: string, type: string): void => {
    error ??= `json: cannot unmarshal ${value} into Go struct field continueToken.${field} of type ${type}`;
  };
  for (const [key, value] of v.object) {
    const field = (['v', 'rv', 'start'] as const).find((f) => f === key) ?? (['v', 'rv', 'start'] as const).find((f) => f === key.toLowerCase());
    if (!field || value === null) continue;
    if (field === 'rv') {
      const literal = typeof value === 'object' && !Array.isArray(value) && 'number' in value ? value.number : undefined;
      if (literal === undefined) mismatch(goKindOf(value), 'rv', 'int64');
      else if (!/^-?\d+$/.test(literal) || BigInt(literal) < INT64_MIN || BigInt(literal) > INT64_MAX) mismatch(`number ${literal}`, 'rv', 'int64');
      else token.rv = BigInt(literal);
    } else if (typeof value === 'string') token[field] = value;
    else mismatch(goKindOf(value), field, 'string');
  }
  if (error) throw invalidToken(`: ${error}`);
  return token;
}

/** cleanPath is Go's path.Clean of a rooted path: no `.` or `..` elements, no doubled or trailing slash. */
function cleanPath(p: string): string {
  const normalized = posix.normalize(p);
  return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
}

/**
 * decodeContinue is DecodeContinue, its errors the cacher's 400 `invalid continue token: ...`: a token that is not
 * base64url, not JSON, not continueToken's shape, of another version, with rv 0, an empty start, or a start that
 * path.Clean would change (`../x`) is refused.
 */
export function decodeContinue(value: string): ContinueToken {
  const data = decodeBase64Url(value);
  const syntax = goJsonSyntaxError(data);
  if (syntax) throw invalidToken(`: ${syntax}`);
  const token = unmarshalToken(parseJson(Buffer.from(data).toString('utf8')));
  if (token.v !== TOKEN_VERSION) throw invalidToken(`: server does not recognize this encoded version ${token.v}`);
  if (token.rv === 0n) throw invalidToken(`: incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
  if (token.start === '') throw invalidToken(`: encoded start key empty (version ${TOKEN_VERSION})`);
  const key = token.start.startsWith('/') ? token.start : `/${token.start}`;
  const cleaned = cleanPath(key);
  if (cleaned !== key) throw invalidToken(`: ${token.start}`);
  return { resourceVersion: token.rv, start: cleaned.slice(1) };
}

/**
 * limitOf reads `limit` as the query decoder converts an int64 (strconv.ParseInt): absent is 0, anything that is not
 * a base-10 int64 the handler's 400 `strconv.ParseInt: parsing "abc": invalid syntax`.
 * See staging/src/k8s.io/apimachinery/pkg/runtime/conversion.go (Convert_Slice_string_To_int64).
 */
export function limitOf(q: URLSearchParams): number {
  const text = q.get('limit');
  if (text === null) return 0;
  if (!/^[+-]?\d+$/.test(text)) throw badRequest(`strconv.ParseInt: parsing ${goQuote(text)}: invalid syntax`);
  const n = BigInt(text);
  if (n < INT64_MIN || n > INT64_MAX) throw badRequest(`strconv.ParseInt: parsing ${goQuote(text)}: value out of range`);
  return Number(n);
}

/** continueTooOld is etcd's 410 for a token whose revision is compacted, with a token that goes on at the latest revision (rv -1). */
export function continueTooOld(start: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: { continue: encodeContinue(start, -1) }, status: 'Failure', message: INCONSISTENT_CONTINUE, reason: 'Expired', code: 410 });
}

/** PageRequest is what a page is cut by: the list's namespace, its limit, the start of a continued list, and who serves it. */
export interface PageRequest {
  /** namespace is the request's namespace: keys are then names, else `NAMESPACE/NAME` (or NAME for a cluster-scoped kind). */
  namespace: string | undefined;
  limit: number;
  /** start is the continued list's first key (after the token's \u0000), "" from the beginning. */
  start: string;
  /** selecting tells whether a label or field selector filters (then no remainingItemCount is given). */
  selecting: boolean;
  /** cache is true for a list the watch cache serves (its tokens' keys start with a slash), false for etcd's. */
  cache: boolean;
  resourceVersion: string;
}

/** Page is one page of a list: its items and the ListMeta that goes with them. */
export interface Page {
  items: KubeObject[];
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
}

/** keyOf is an object's key relative to the list's own key. */
function keyOf(o: KubeObject, namespace: string | undefined): string {
  const name = o.metadata?.name ?? '';
  const ns = o.metadata?.namespace;
  return namespace === undefined && ns ? `${ns}/${name}` : name;
}

/**
 * pageOf cuts one page from a list's objects (all of them, before selectors): in key order from the start, the
 * objects that `matches` until `limit` of them, a token after the last one when keys remain beyond it, and how many
 * remain when nothing is filtered (the keys from the start less the limit). Without a limit, all that match.
 */
export function pageOf(objects: readonly KubeObject[], matches: (o: KubeObject) => boolean, p: PageRequest): Page {
  const keyed = objects.map((o) => ({ key: keyOf(o, p.namespace), o })).filter((k) => k.key >= p.start);
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const items: KubeObject[] = [];
  let last = '';
  let hasMore = false;
  for (let i = 0; i < keyed.length; i++) {
    const { key, o } = keyed[i]!;
    if (matches(o)) {
      items.push(o);
      last = key;
    }
    if (p.limit > 0 && items.length >= p.limit) {
      hasMore = i < keyed.length - 1;
      break;
    }
  }
  if (!hasMore) return { items, metadata: { resourceVersion: p.resourceVersion } };
  const next = encodeContinue(`${p.cache ? '/' : ''}${last}\u0000`, BigInt(p.resourceVersion));
  return { items, metadata: { resourceVersion: p.resourceVersion, continue: next, ...(p.selecting ? {} : { remainingItemCount: keyed.length - p.limit }) } };
}
