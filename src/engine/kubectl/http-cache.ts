// kubectl's HTTP cache (~/.kube/cache/http), shared by every kubectl of a run as the one ~/.kube/cache of a machine
// is: the discovery client's requests (discovery, OpenAPI v3 and v2) go through client-go's httpcache round tripper,
// which stores each answer and, the next time, answers a fresh one itself (no request: the hashed OpenAPI v3
// documents are `public, immutable` and expire in a year) or revalidates a stale one with If-None-Match, the server
// answering 304 Not Modified. The debugging round tripper of -v=N wraps the cache, so kubectl's log shows the answer
// the cache hands back: 200 OK with X-From-Cache: 1. See staging/src/k8s.io/client-go/discovery/cached/disk/
// round_tripper.go and cached_discovery.go (NewCachedDiscoveryClientForConfig), third_party/forked/httpcache/
// httpcache.go (RoundTrip, getFreshness, getEndToEndHeaders) and transport/round_trippers.go (HTTPWrappersForConfig:
// WrapTransport, then DebugWrappers) at v0.36.3; staging/src/k8s.io/cli-runtime/pkg/genericclioptions/
// config_flags.go (ToDiscoveryClient: ~/.kube/cache/http) at v0.36.3.
import { createHash } from 'node:crypto';
import { aggregatedDocument, AGGREGATED_V2 } from '../api/discovery/aggregated';
import { openApiV3Document, openApiV3Index } from '../api/openapi/v3';
import type { ApiServer, CheckOutcome } from '../apiserver/server';
import type { Millis } from '../runtime/clock';

/** HTTP_CACHE_DIR is the HTTP cache's directory, as ToDiscoveryClient names it. */
export const HTTP_CACHE_DIR = '~/.kube/cache/http';

/** StoredAnswer is one answer the cache holds, by its URL: the outcome it stands for and its headers as stored. */
export interface StoredAnswer {
  outcome: CheckOutcome;
  /** headers are the answer's as httpcache stored them (with X-Varied-Accept), Audit-Id and Date included. */
  headers: Record<string, string[]>;
  /** date is the Date header's time; expires the Expires header's, when the answer has one. */
  date: Millis;
  expires?: Millis;
}

/** HttpCache is the disk's HTTP cache: an answer per URL (httpcache's cacheKey of a GET). */
export type HttpCache = Map<string, StoredAnswer>;

const caches = new WeakMap<ApiServer, HttpCache>();

/** httpCache is the HTTP cache of the run's server, empty until a kubectl stores an answer. */
export function httpCache(api: ApiServer): HttpCache {
  let cache = caches.get(api);
  if (!cache) caches.set(api, (cache = new Map()));
  return cache;
}

/**
 * fresh is httpcache's getFreshness for the answers here: `no-cache` is stale; otherwise the lifetime is the Expires
 * header's time less the Date header's (none without Expires: stale), and the answer is fresh while its age, now less
 * its Date, is less than that.
 */
export function fresh(stored: StoredAnswer, now: Millis): boolean {
  if ((stored.headers['Cache-Control'] ?? []).some((v) => v.split(',').some((d) => d.trim() === 'no-cache'))) return false;
  if (stored.expires === undefined) return false;
  return stored.expires - stored.date > now - stored.date;
}

/** DocumentAnswer is what the server adds to a document's answer: its caching headers. */
export interface DocumentAnswer {
  cacheControl: string;
  contentType: string;
  /** headers are the others, in the answer: Etag, and Expires and Vary where the server sets them. */
  headers: Record<string, string[]>;
  expires?: Millis;
}

/**
 * documentAnswer is kube-apiserver's headers on a document kubectl's discovery client asks for, answered at `at`:
 * - `/api`, `/apis`: aggregated discovery, `Cache-Control: public`, its ETag and `Vary: Accept`
 *   (staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/etag.go ServeHTTPWithETag, v0.36.3);
 * - `/openapi/v3`: its Etag; Cache-Control is the server's `no-cache, private` (endpoints/filters/cachecontrol.go);
 * - `/openapi/v3/<gv>?hash=`: its Etag, `Vary: Accept`, `Cache-Control: public, immutable` and an Expires a year on;
 * - `/openapi/v2`: its Etag, `Vary: Accept` and the protobuf content type.
 * See k8s.io/kube-openapi pkg/handler3/handler.go (HandleDiscovery, HandleGroupVersion) and pkg/handler/handler.go.
 * httpcache adds `X-Varied-Accept` (the request's Accept) to an answer that varies by Accept, as it stores it.
 */
export function documentAnswer(path: string, accept: string, at: Millis, epoch: Date): DocumentAnswer | undefined {
  const bare = path.split('?')[0]!;
  const etag = { Etag: [`"${documentETag(path)}"`] };
  const varied = { Vary: ['Accept'], 'X-Varied-Accept': [accept] };
  if (bare === '/api' || bare === '/apis') return { cacheControl: 'public', contentType: AGGREGATED_V2, headers: { ...etag, ...varied } };
  if (bare === '/openapi/v3') return { cacheControl: 'no-cache, private', contentType: 'application/json', headers: etag };
  if (bare === '/openapi/v2') return { cacheControl: 'no-cache, private', contentType: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', headers: { ...etag, ...varied } };
  if (bare.startsWith('/openapi/v3/') && path.includes('hash=')) {
    // time.Now().AddDate(1, 0, 0).Format(time.RFC1123), on a server whose zone is UTC.
    const date = new Date(epoch.getTime() + at);
    const next = new Date(date.getTime());
    next.setUTCFullYear(date.getUTCFullYear() + 1);
    return {
      cacheControl: 'public, immutable', contentType: 'application/json', expires: next.getTime() - epoch.getTime(),
      headers: { ...etag, Expires: [rfc1123(next)], ...varied },
    };
  }
  return undefined;
}

/** rfc1123 is Go's time.RFC1123 layout for a UTC time: `Fri, 01 Jan 2027 00:00:00 UTC`. */
function rfc1123(d: Date): string {
  return d.toUTCString().replace(/GMT$/, 'UTC');
}

/**
 * documentETag is a document's ETag: the upper-case hex SHA-512 kube-apiserver computes, of the aggregated discovery
 * list (calculateETag) or of the OpenAPI v3 index's JSON (computeETag); a hashed OpenAPI v3 URL's ETag is its hash, as
 * the server checks. The OpenAPI v2 document is not held: its ETag stands for one, a hash of its path. See
 * staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/etag.go (calculateETag, v0.36.3) and k8s.io/kube-openapi
 * pkg/handler3/handler.go (computeETag, HandleDiscovery, HandleGroupVersion).
 */
export function documentETag(path: string): string {
  const bare = path.split('?')[0]!;
  const hash = /[?&]hash=([0-9A-F]+)/.exec(path)?.[1];
  if (hash) return hash;
  if (bare === '/api' || bare === '/apis') return aggregatedDocument(bare).etag;
  if (bare === '/openapi/v3') return openApiV3Index().etag;
  return createHash('sha512').update(`pod-lifecycle-debugger:${bare}`).digest('hex').toUpperCase();
}

/**
 * documentBody is the body of a document's answer, byte for byte what serve writes: the aggregated discovery list, the
 * OpenAPI v3 index, a group version's OpenAPI v3 document (read from the documents then); undefined for the OpenAPI
 * v2 document, which the simulation does not hold. client-go logs any answer's body, the HTTP cache's too: see
 * staging/src/k8s.io/client-go/rest/request.go (transformResponse and DoRaw: logBody, v0.36.3).
 */
export function documentBody(path: string): string | undefined {
  const bare = path.split('?')[0]!;
  if (bare === '/api' || bare === '/apis') return aggregatedDocument(bare).body;
  if (bare === '/openapi/v3') return openApiV3Index().json;
  if (bare.startsWith('/openapi/v3/')) return openApiV3Document(bare.slice('/openapi/v3/'.length));
  return undefined;
}

/**
 * revalidated is a stored answer after the server's 304 Not Modified: httpcache copies the 304's end-to-end headers
 * (all but the hop-by-hop ones: Audit-Id, Cache-Control, Date, Etag, Vary here) onto it. A 304 has no Content-Type.
 */
export function revalidated(stored: StoredAnswer, notModified: Record<string, string[]>, date: Millis): StoredAnswer {
  return { ...stored, headers: { ...stored.headers, ...notModified }, date };
}
