// What kubectl asks the server before touching an object: the OpenAPI documents that decide how the object is
// validated (--validate=strict), then the discovery documents its RESTMapper maps kinds with.
import { type ApiServer, type CheckOutcome, type CheckRequest, servedVersions, servesGroupVersion as servedByServer } from '../apiserver/server';
import { RESOURCES } from '../cluster/store';
import type { StepYield, Steps } from '../runtime/step';
import type { Credentials } from '../apiserver/authn/authenticator';
import type { VirtualClock } from '../runtime/clock';
import { ACCEPT, type HttpRequest, rawError, recordRequest, responseLog, statusLine } from './http';
import type { KlogSite } from './klog';
import { auditIdOf, httpDate, type RequestLog, SITES } from './request-log';
import { DISCOVERY_CACHE_DIR, DISCOVERY_TTL_TEXT, discoveryCache, fresh as freshOnDisk } from './discovery-cache';
import { documentAnswer, documentBody, fresh, HTTP_CACHE_DIR, httpCache, revalidated, type StoredAnswer } from './http-cache';
import { openApiV3Hash } from '../api/openapi/v3';

/**
 * Session is one kubectl process: what it keeps in memory between documents (the documents it fetched), the clock,
 * its -v log, and the disk cache of discovery it shares with every other kubectl of the run.
 */
export interface Session {
  openapiRoot?: CheckOutcome;
  gvDocs: Map<string, CheckOutcome>;
  openapiV2?: CheckOutcome;
  discovery?: CheckOutcome;
  /** stoppedFiles are the files whose reading stopped at an error: kubectl visits no later document of them. */
  stoppedFiles: Set<string>;
  clock: VirtualClock;
  /** log is the process's -v=N log, when -v was given (1 or more). */
  log?: RequestLog;
  /** home is the process's HOME, under which its log names the disk cache's files (`~` when not known). */
  home?: string;
}

/** newSession starts one kubectl process against the server: nothing fetched yet, the disk cache as the run left it. */
export function newSession(clock: VirtualClock, log?: RequestLog, home?: string): Session {
  return { gvDocs: new Map(), stoppedFiles: new Set(), clock, ...(log ? { log } : {}), ...(home ? { home } : {}) };
}

/** Gvk is an object's group, version and kind, as kubectl reads them from the document. */
export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

/** ValidationVerdict says how the document is validated, or why kubectl could not tell. */
export type ValidationVerdict = { ok: true; by: 'server' | 'client' } | { ok: false; message: string; failed: CheckOutcome & { ok: false } };

/** DISCOVERY_TIMEOUT is the query the discovery client's 32 s timeout adds to each of its requests. */
const DISCOVERY_TIMEOUT = 'timeout=32s';

/**
 * verifyFieldValidation is the ParamVerifyingSchema of `--validate=strict` (the default): does the server take
 * fieldValidation for this kind? OpenAPI v3 first (`/openapi/v3`, then the group-version's document); when that
 * fails, OpenAPI v2 (`/openapi/v2`), whose failure ends kubectl with `failed to download openapi: <err>`. A kind the
 * server does not document (or a v1 List) is validated client-side against OpenAPI v2, downloaded then.
 * The documents' errors are client-go's Raw() errors: 401 "the server has asked for the client to provide
 * credentials", 403 "unknown". See staging/src/k8s.io/kubectl/pkg/validation/schema.go (paramVerifyingSchema),
 * staging/src/k8s.io/cli-runtime/pkg/resource/{fallback_query_param_verifier,query_param_verifier,query_param_verifier_v3}.go.
 */
export function* verifyFieldValidation(api: ApiServer, session: Session, gvk: Gvk, credentials: Credentials, ref: string): Steps<ValidationVerdict> {
  let supported: boolean | undefined;
  let v3Failed = false;
  if (!(gvk.group === '' && gvk.version === 'v1' && gvk.kind === 'List')) {
    session.openapiRoot ??= yield* send(api, session, SITES.openapiRoot, { verb: 'GET', path: `/openapi/v3?${DISCOVERY_TIMEOUT}`, accept: ACCEPT.any }, credentials, ref, 'apiVersion', 'the OpenAPI v3 index, to learn whether the server validates fields itself');
    if (!session.openapiRoot.ok) v3Failed = true;
    else if (servesGroupVersion(gvk) && openApiV3Hash(gvPathOf(gvk)) !== undefined) {
      const gvPath = gvPathOf(gvk);
      let doc = session.gvDocs.get(gvPath);
      if (!doc) {
        doc = yield* send(api, session, SITES.openapiGroupVersion, { verb: 'GET', path: `/openapi/v3/${gvPath}?hash=${openApiV3Hash(gvPath)}&${DISCOVERY_TIMEOUT}`, accept: ACCEPT.json }, credentials, ref, 'apiVersion', `the OpenAPI v3 document of ${gvk.group ? `${gvk.group}/` : ''}${gvk.version}`);
        session.gvDocs.set(gvPath, doc);
      }
      if (!doc.ok) v3Failed = true;
      else supported = documented(gvk);
    } else {
      // Not in the v3 index: a CRD would be checked like namespaces; kubectl lists CRDs to know (errors ignored).
      yield* send(api, session, SITES.dynamicList, { verb: 'GET', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', accept: ACCEPT.json }, credentials, ref, 'apiVersion',
        'the CustomResourceDefinitions, to learn whether the group-version is a CRD', { verb: 'list', group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' });
      supported = false;
    }
  }
  if (v3Failed) {
    const v2 = yield* openAPIV2(api, session, credentials, ref);
    if (!v2.ok) return { ok: false, message: `failed to download openapi: ${rawError(v2.error).message}`, failed: v2 };
    supported = documented(gvk);
  }
  if (supported) return { ok: true, by: 'server' };
  // Client-side schema validation: the v2 document is loaded lazily, and a kind it does not know is not checked.
  const v2 = yield* openAPIV2(api, session, credentials, ref);
  if (!v2.ok) return { ok: false, message: rawError(v2.error).message, failed: v2 };
  return { ok: true, by: 'client' };
}

function* openAPIV2(api: ApiServer, session: Session, credentials: Credentials, ref: string): Steps<CheckOutcome> {
  session.openapiV2 ??= yield* send(api, session, SITES.openapiV2, { verb: 'GET', path: `/openapi/v2?${DISCOVERY_TIMEOUT}`, accept: ACCEPT.openAPIV2 }, credentials, ref, 'apiVersion', 'the OpenAPI v2 document');
  return session.openapiV2;
}

/**
 * discover is the deferred discovery RESTMapper's first use: the disk cache of an earlier kubectl of the run when it is
 * fresh (written less than 6 hours ago: no request), otherwise aggregated discovery of `/api`, then `/apis`, written to
 * the cache when it succeeds; an error ends the mapping, kubectl printing `unable to recognize "<file>": <err>`.
 * See staging/src/k8s.io/client-go/discovery/discovery_client.go (GroupsAndMaybeResources), discovery/cached/disk/
 * cached_discovery.go (ServerGroups, getCachedFile) at v0.36.3 and restmapper.
 */
export function* discover(api: ApiServer, session: Session, credentials: Credentials, ref: string): Steps<CheckOutcome> {
  if (session.discovery) return session.discovery;
  const cache = discoveryCache(api);
  const now = session.clock.now;
  if (cache.written && freshOnDisk(cache.written, now)) {
    // ServerGroups reads servergroups.json, then each group-version's file (in parallel: here in order), at -v=10.
    const dir = session.home ? DISCOVERY_CACHE_DIR.replace(/^~/, session.home.replace(/\/$/, '')) : DISCOVERY_CACHE_DIR;
    for (const file of cache.written.files) {
      session.log?.infoln(10, file === 'servergroups.json' ? SITES.cachedGroups : SITES.cachedResources, `returning cached discovery info from ${dir}/${file}`);
    }
    yield {
      phase: 'kubectl.validate', object: ref, field: 'kind',
      result: `discovery: read from the cache in ${DISCOVERY_CACHE_DIR}, fresh for ${DISCOVERY_TTL_TEXT}: no request sent`,
      detail: { discoveryCache: { dir: DISCOVERY_CACHE_DIR, writtenAt: cache.written.at / 1000, ttl: DISCOVERY_TTL_TEXT, files: cache.written.files } },
    };
    return (session.discovery = cache.written.outcome);
  }
  const legacy = yield* send(api, session, SITES.legacyDiscovery, { verb: 'GET', path: `/api?${DISCOVERY_TIMEOUT}`, accept: ACCEPT.discovery }, credentials, ref, 'kind', 'the core group\'s resources (aggregated discovery)');
  session.discovery = legacy.ok ? yield* send(api, session, SITES.groupsDiscovery, { verb: 'GET', path: `/apis?${DISCOVERY_TIMEOUT}`, accept: ACCEPT.discovery }, credentials, ref, 'kind', 'the other groups\' resources (aggregated discovery)') : legacy;
  if (session.discovery.ok) {
    // ServerGroups writes servergroups.json and, with aggregated discovery, each group-version's serverresources.json.
    const files = cacheFiles();
    cache.written = { at: now, outcome: session.discovery, files };
    yield {
      phase: 'kubectl.validate', object: ref, field: 'kind',
      result: `discovery: fetched from the server, cached in ${DISCOVERY_CACHE_DIR} (${files.length} files, fresh for ${DISCOVERY_TTL_TEXT})`,
      detail: { discoveryCache: { dir: DISCOVERY_CACHE_DIR, writtenAt: now / 1000, ttl: DISCOVERY_TTL_TEXT, files } },
    };
  }
  return session.discovery;
}

/** cacheFiles are the files the disk cache holds after discovery: servergroups.json and one file per group-version served. */
function cacheFiles(): string[] {
  if (!CACHE_FILES) {
    const gvs = new Set(Object.values(RESOURCES).flatMap((r) => servedVersions(r.group).map((v) => (r.group ? `${r.group}/${v}` : v))));
    CACHE_FILES = ['servergroups.json', ...[...gvs].sort().map((gv) => `${gv}/serverresources.json`)];
  }
  return [...CACHE_FILES];
}

/** CACHE_FILES are cacheFiles' answer, the same for every server (the resources it serves are the engine's). */
let CACHE_FILES: readonly string[] | undefined;

/**
 * send records one request kubectl makes for itself and the server's answer: kubectl's entry first (the request,
 * its -v=8 lines, the status), then the server's reasons when it refused; the process's -v log hears it too. The
 * discovery client's requests (all but the dynamic client's list) go through the HTTP cache (http-cache.ts): a fresh
 * stored answer is handed back with no request, a stale one is revalidated (kube-apiserver's 304, the stored answer
 * handed back), any other answer replaces it.
 */
function* send(api: ApiServer, session: Session, site: KlogSite, req: HttpRequest, credentials: Credentials, ref: string, field: string, purpose: string, resource?: CheckRequest['resource']): Steps<CheckOutcome> {
  const record = recordRequest(req, credentials);
  const sentAt = session.clock.now;
  const cache = site === SITES.dynamicList ? undefined : httpCache(api);
  const stored = cache?.get(record.url);
  const request = { verb: record.verb, url: record.url, headers: record.headers };
  if (stored && fresh(stored, sentAt)) {
    // httpcache answers from the disk: the stored answer, marked, its Audit-Id and Date those it was stored with.
    session.log?.exchange({
      verb: record.verb, url: record.url, requestHeaders: record.headers, caller: site, sentAt, answeredAt: sentAt, status: 200, fromCache: true,
      ...storedHeaders(stored), answerHeaders: { ...otherHeaders(stored.headers), 'X-From-Cache': ['1'] }, ...loggedBody(session, req.path),
    });
    yield {
      phase: 'kubectl.validate', object: ref, field,
      result: `${req.verb} ${record.url}: 200 OK from the HTTP cache in ${HTTP_CACHE_DIR}, fresh until ${stored.headers['Expires']?.[0] ?? ''}: no request sent — ${purpose}`,
      detail: { request, response: { status: statusLine(200), fromCache: true }, httpCache: { dir: HTTP_CACHE_DIR, storedAt: stored.date / 1000, expires: stored.headers['Expires']?.[0] } },
    };
    return stored.outcome;
  }
  const { entries, result: out } = drain(api.check({ method: 'GET', path: req.path, credentials, ...(resource ? { resource } : {}) }, ref));
  const code = out.ok ? out.code : out.error.code;
  const answeredAt = session.clock.now;
  const doc = out.ok ? documentAnswer(req.path, req.accept, answeredAt, session.clock.epoch) : undefined;
  const auditId = session.log?.nextAuditId() ?? auditIdOf(`${record.url}@${answeredAt}`);
  // A stale stored answer with an ETag is revalidated (If-None-Match, added below the log): the document has not
  // changed, so kube-apiserver answers 304 Not Modified and httpcache hands back the stored answer, updated.
  const notModified = stored !== undefined && out.ok && doc !== undefined;
  let answer: StoredAnswer | undefined;
  if (cache && out.ok && doc) {
    const fromServer = { 'Audit-Id': [auditId], 'Cache-Control': [doc.cacheControl], Date: [httpDate(session.clock, answeredAt)], Etag: doc.headers['Etag'] ?? [] };
    answer = notModified
      ? revalidated(stored, { ...fromServer, ...(doc.headers['Vary'] ? { Vary: doc.headers['Vary'] } : {}) }, answeredAt)
      : { outcome: out, date: answeredAt, ...(doc.expires !== undefined ? { expires: doc.expires } : {}), headers: { ...fromServer, 'Content-Type': [doc.contentType], ...doc.headers } };
    cache.set(record.url, answer);
  } else if (cache) cache.delete(record.url);
  session.log?.exchange({
    verb: record.verb, url: record.url, requestHeaders: record.headers, caller: site, sentAt, answeredAt, status: code, auditId,
    ...(answer ? { ...storedHeaders(answer), answerHeaders: { ...otherHeaders(answer.headers), ...(notModified ? { 'X-From-Cache': ['1'] } : {}) } } : {}),
    ...(out.ok ? (doc ? loggedBody(session, req.path) : {}) : { responseBody: `${JSON.stringify(out.error.status)}\n` }),
  });
  const status = notModified ? `304 Not Modified (If-None-Match: its ETag), 200 OK from the HTTP cache in ${HTTP_CACHE_DIR}` : statusLine(code);
  yield {
    phase: 'kubectl.validate', object: ref, field,
    result: `${req.verb} ${record.url}: ${status} — ${purpose}${out.ok ? '' : `: ${out.error.message}`}`,
    detail: {
      request, response: { status: statusLine(code), ...(notModified ? { revalidated: '304 Not Modified', fromCache: true } : {}) },
      ...(out.ok ? { authenticatedBy: out.authenticatedBy, user: out.user.name, allowedBy: out.allowedBy } : { phase: out.phase }),
      ...(answer ? { httpCache: { dir: HTTP_CACHE_DIR, storedAt: answer.date / 1000 } } : {}),
      log: [...record.log, ...responseLog(code, out.ok ? undefined : out.error.status)],
    },
    ...(out.ok ? {} : { outcome: 'rejected' as const }),
  };
  yield* entries;
  return out;
}

/**
 * loggedBody is a document's body for the -v log, read only when the log shows bodies (-v=8 and up): request.go logs
 * the body of every answer the round trippers hand back, the HTTP cache's included (its stored body). The OpenAPI v2
 * document is not held, so its body is not logged.
 */
function loggedBody(session: Session, path: string): { responseBody?: string } {
  if (!session.log || session.log.verbosity < 8) return {};
  const body = documentBody(path);
  return body !== undefined ? { responseBody: body } : {};
}

/** storedHeaders are a stored answer's Audit-Id, Date, Cache-Control and Content-Type, as the log takes them. */
function storedHeaders(a: StoredAnswer): { auditId: string; date: number; cacheControl: string; contentType: string } {
  return { auditId: a.headers['Audit-Id']![0]!, date: a.date, cacheControl: a.headers['Cache-Control']![0]!, contentType: a.headers['Content-Type']![0]! };
}

/** otherHeaders are the rest of a stored answer's headers. */
function otherHeaders(headers: Record<string, string[]>): Record<string, string[]> {
  const { 'Audit-Id': _a, Date: _d, 'Cache-Control': _c, 'Content-Type': _t, ...rest } = headers;
  return rest;
}

/** drain runs steps that only record (the server's check never waits) and hands back what they recorded. */
function drain<R>(steps: Steps<R>): { entries: StepYield[]; result: R } {
  const entries: StepYield[] = [];
  for (let r = steps.next(); ; r = steps.next()) {
    if (r.done) return { entries, result: r.value };
    entries.push(r.value);
  }
}

/** servesGroupVersion: the group-versions the simulated server serves (its own discovery: apiserver/server.ts). */
function servesGroupVersion(gvk: Gvk): boolean {
  return servedByServer(gvk.group, gvk.version);
}

/** documented: the OpenAPI documents describe the kind's PATCH with its fieldValidation parameter. */
function documented(gvk: Gvk): boolean {
  const info = RESOURCES[gvk.kind];
  return info !== undefined && info.group === gvk.group && servesGroupVersion(gvk);
}

/** gvPathOf is a group version's path in the OpenAPI v3 index: `api/v1`, `apis/apps/v1`. */
function gvPathOf(gvk: Gvk): string {
  return gvk.group ? `apis/${gvk.group}/${gvk.version}` : `api/${gvk.version}`;
}
