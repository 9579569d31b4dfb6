// What kubectl asks the server before touching an object: the OpenAPI documents that decide how the object is
// validated (--validate=strict), then the discovery documents its RESTMapper maps kinds with.
import { createHash } from 'node:crypto';
import { type ApiServer, type CheckOutcome, type CheckRequest, servedVersions, servesGroupVersion as servedByServer } from '../apiserver/server';
import { RESOURCES } from '../cluster/store';
import type { StepYield, Steps } from '../runtime/step';
import type { Credentials } from '../apiserver/authn/authenticator';
import type { VirtualClock } from '../runtime/clock';
import { ACCEPT, type HttpRequest, rawError, recordRequest, responseLog, statusLine } from './http';
import type { KlogSite } from './klog';
import { type RequestLog, SITES } from './request-log';
import { DISCOVERY_CACHE_DIR, DISCOVERY_TTL_TEXT, discoveryCache, fresh } from './discovery-cache';

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
}

/** newSession starts one kubectl process against the server: nothing fetched yet, the disk cache as the run left it. */
export function newSession(clock: VirtualClock, log?: RequestLog): Session {
  return { gvDocs: new Map(), stoppedFiles: new Set(), clock, ...(log ? { log } : {}) };
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
    else if (servesGroupVersion(gvk)) {
      const gvPath = gvk.group ? `apis/${gvk.group}/${gvk.version}` : `api/${gvk.version}`;
      let doc = session.gvDocs.get(gvPath);
      if (!doc) {
        doc = yield* send(api, session, SITES.openapiGroupVersion, { verb: 'GET', path: `/openapi/v3/${gvPath}?hash=${openAPIHash(gvPath)}&${DISCOVERY_TIMEOUT}`, accept: ACCEPT.json }, credentials, ref, 'apiVersion', `the OpenAPI v3 document of ${gvk.group ? `${gvk.group}/` : ''}${gvk.version}`);
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
  if (cache.written && fresh(cache.written, now)) {
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
  const gvs = new Set(Object.values(RESOURCES).flatMap((r) => servedVersions(r.group).map((v) => (r.group ? `${r.group}/${v}` : v))));
  return ['servergroups.json', ...[...gvs].sort().map((gv) => `${gv}/serverresources.json`)];
}

/**
 * send records one request kubectl makes for itself and the server's answer: kubectl's entry first (the request,
 * its -v=8 lines, the status), then the server's reasons when it refused; the process's -v log hears it too.
 */
function* send(api: ApiServer, session: Session, site: KlogSite, req: HttpRequest, credentials: Credentials, ref: string, field: string, purpose: string, resource?: CheckRequest['resource']): Steps<CheckOutcome> {
  const record = recordRequest(req, credentials);
  const sentAt = session.clock.now;
  const { entries, result: out } = drain(api.check({ method: 'GET', path: req.path, credentials, ...(resource ? { resource } : {}) }, ref));
  const code = out.ok ? out.code : out.error.code;
  // The OpenAPI and discovery documents are not held here: only a refusal's Status is logged as the body.
  const v2 = req.accept === ACCEPT.openAPIV2 && out.ok;
  session.log?.exchange({
    verb: record.verb, url: record.url, requestHeaders: record.headers, caller: site, sentAt, answeredAt: session.clock.now, status: code,
    ...(req.path.includes('?hash=') && out.ok ? { cacheControl: 'public, immutable' } : {}),
    // kube-openapi answers /openapi/v2 through http.ServeContent, which sniffs the protobuf as binary.
    ...(v2 ? { contentType: 'application/octet-stream' } : {}),
    ...(out.ok ? {} : { responseBody: JSON.stringify(out.error.status) }),
  });
  yield {
    phase: 'kubectl.validate', object: ref, field,
    result: `${req.verb} ${record.url}: ${statusLine(code)} — ${purpose}${out.ok ? '' : `: ${out.error.message}`}`,
    detail: {
      request: { verb: record.verb, url: record.url, headers: record.headers }, response: { status: statusLine(code) },
      ...(out.ok ? { authenticatedBy: out.authenticatedBy, user: out.user.name, allowedBy: out.allowedBy } : { phase: out.phase }),
      log: [...record.log, ...responseLog(code, out.ok ? undefined : out.error.status)],
    },
    ...(out.ok ? {} : { outcome: 'rejected' as const }),
  };
  yield* entries;
  return out;
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

/** openAPIHash stands for the hash the v3 index gives each document (an uppercase SHA-512); not the real value. */
function openAPIHash(gvPath: string): string {
  return createHash('sha512').update(`pod-lifecycle-debugger:${gvPath}`).digest('hex').toUpperCase();
}
