// serve's request handler: the Kubernetes API over HTTPS, each request run through the engine's kube-apiserver
// (authentication, authorization, admission, validation, storage) in the live cluster, lists and watches read from
// its store after the same authentication and authorization.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { objectRef, type KubeObject } from '../engine/api/types';
import { applyPatch } from '../engine/apiserver/patch';
import type { Credentials } from '../engine/apiserver/authn/authenticator';
import type { DeleteOptions } from '../engine/apiserver/delete';
import { deprecationWarnings } from '../engine/apiserver/deprecation';
import { type ApiRequest, badRequest, notFound, StatusError } from '../engine/apiserver/request';
import type { ApiOutcome } from '../engine/apiserver/server';
import type { UpdateOptions } from '../engine/apiserver/update';
import { tableFor } from '../engine/printers/registry';
import { selfSubjectAccessReview, selfSubjectRulesReview } from './auth-review';
import { SERVER_VERSION } from '../engine/api/discovery/resources';
import { EventWatchHub } from './event-watch';
import { noSuchResource, readJson, sendError, sendJson, sendRawJson, sendStatus, status } from './http';
import type { LiveCluster } from './live-cluster';
import { OpenApiV3 } from '../engine/api/openapi/v3';
import { managerOf, validateWriteOptions } from './apply';
import { mergePatchOf, readPatch, readPatchOrApply } from './patch';
import { bodyFromServed, servedTable, type VersionConverter, versionConverter } from './hpa-v1';
import { deleteOptionsOf, discoveryOf, impersonationOf, includeObjectOf, wantsTable } from './request-options';
import { type RequestInfo, requestInfo } from './request-info';
import { resourceInfo, type ResourceInfo, VERSIONS } from '../engine/api/discovery/served';
import { listFilter, matches } from './selectors';
import { SCALABLE, scaledReplicas, scaleOf } from './subresources';
import { writeLog } from './log-stream';
import type { ServeRequest } from './tls-server';
import { WatchHub } from './watch';
import { etcdResourceVersionError, eventsAt, type Freshness, getResourceVersionError, listAt, watchResourceVersionReady } from './list-at';
import { defaultedListOptions, listOptionsOf, validateListOptions } from './list-options';
import { limitOf, pageOf } from './list-paging';
import { sendAggregatedDiscovery } from './aggregated-discovery';

/** ResourceRequestInfo is a request path that names a resource. */
type ResourceRequestInfo = Extract<RequestInfo, { resourceRequest: true }>;

/** REVIEWS are the authorization group's reviews, created and answered, never stored (pkg/registry/authorization). */
const REVIEWS: Readonly<Record<string, { kind: string; create: typeof selfSubjectAccessReview }>> = {
  selfsubjectaccessreviews: { kind: 'SelfSubjectAccessReview', create: selfSubjectAccessReview },
  selfsubjectrulesreviews: { kind: 'SelfSubjectRulesReview', create: selfSubjectRulesReview },
};

/** ApiHandler answers the API requests of one live cluster. */
export class ApiHandler {
  private readonly watches: WatchHub;
  private readonly eventWatches: EventWatchHub;
  /** follows are the followed logs still open. */
  private readonly follows = new Set<ServerResponse>();

  constructor(private readonly cluster: LiveCluster, private readonly openapi: OpenApiV3 = OpenApiV3.load()) {
    this.watches = new WatchHub(cluster.sim.store, () => cluster.sim.virtualNow);
    this.eventWatches = new EventWatchHub(cluster.sim);
  }

  /** close ends the open watches. */
  close(): void {
    for (const res of this.follows) res.end();
    this.watches.closeAll();
    this.eventWatches.closeAll();
  }

  /** handle answers one request. */
  readonly handle = async (req: IncomingMessage, res: ServerResponse, request: ServeRequest): Promise<void> => {
    try {
      // Every certificate presented goes to the engine's x509 authenticator, which refuses one our CA did not sign (401),
      // as kube-apiserver's does; the listener's own verdict is not the last word.
      const certificatePem = request.clientCertificate?.pem;
      await this.route(req, res, { ...request.credentials, ...(certificatePem ? { certificatePem } : {}), ...impersonationOf(req) });
    } catch (e) {
      sendError(res, e);
    }
  };

  private async route(req: IncomingMessage, res: ServerResponse, credentials: Credentials): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    // A path with a broken %-escape is no request at all: Go's net/http refuses it (url.ParseRequestURI) with a bare 400.
    if (!validEscapes(path)) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      res.end('400 Bad Request');
      return;
    }
    // Health and version are public (system:public-info-viewer).
    if (path === '/version') return sendRawJson(res, 200, SERVER_VERSION, true);
    if (path === '/healthz' || path === '/readyz' || path === '/livez') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      return;
    }
    const info = requestInfo(path);
    if (!info.resourceRequest) return this.nonResource(req, res, method, path, url, credentials);
    const review = info.group === 'authorization.k8s.io' && info.version === 'v1' && !info.name && !info.namespace ? REVIEWS[info.resource] : undefined;
    if (review) {
      if (method !== 'POST') throw status405();
      const body = await readJson(req, review.kind);
      return this.answer(res, await review.create(this.cluster, body, credentials, `${path}${url.search}`));
    }
    return this.resource(req, res, method, info, url, credentials);
  }

  /** nonResource answers discovery (aggregated when asked for) after authentication and authorization of its path. */
  private async nonResource(req: IncomingMessage, res: ServerResponse, method: string, path: string, url: URL, credentials: Credentials): Promise<void> {
    const body = discoveryOf(path);
    const allowed = await this.check(method, `${path}${url.search}`, undefined, credentials);
    if (!allowed.ok) return sendStatus(res, allowed.error.status);
    if (method === 'GET' && (path === '/openapi/v3' || path === '/openapi/v3/')) return sendRawJson(res, 200, this.openapi.root(), false);
    const doc = method === 'GET' && path.startsWith('/openapi/v3/') ? this.openapi.document(path.slice('/openapi/v3/'.length)) : undefined;
    if (doc !== undefined) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, immutable' });
      res.end(doc);
      return;
    }
    if (method !== 'GET' || !body) return sendStatus(res, noSuchResource());
    if (sendAggregatedDiscovery(req, res, path)) return;
    return sendJson(res, 200, body);
  }

  private async resource(req: IncomingMessage, res: ServerResponse, method: string, info: ResourceRequestInfo, url: URL, credentials: Credentials): Promise<void> {
    const r = (VERSIONS[info.group] ?? []).includes(info.version) ? resourceInfo(info.group, info.resource) : undefined;
    if (!r) return sendStatus(res, noSuchResource());
    const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
    const namespace = r.namespaced ? info.namespace : undefined;
    // A version the engine does not store the resource in (autoscaling/v1 HPAs) is converted to and from the stored one.
    const conv = info.subresource ? undefined : versionConverter(info.group, info.version, r.resource);
    if (method === 'GET' && !info.name) return this.list(res, r, apiVersion, namespace, info, url, credentials, wantsTable(String(req.headers.accept ?? '')), conv);
    if (conv) return this.converted(req, res, method, r, conv, { path: `${url.pathname}${url.search}`, apiVersion: conv.stored, kind: r.kind, group: r.group, resource: r.resource, credentials, verb: 'get', method: 'GET',
      ...managerOf(req, url),
      ...(namespace !== undefined ? { namespace } : {}), ...(info.name !== undefined ? { name: info.name } : {}), ...(url.searchParams.get('dryRun') === 'All' ? { dryRun: true } : {}) }, url);
    const base: ApiRequest = { path: `${url.pathname}${url.search}`, apiVersion, kind: r.kind, group: r.group, resource: r.resource, credentials, verb: 'get', method: 'GET',
      ...(namespace !== undefined ? { namespace } : {}), ...(info.name !== undefined ? { name: info.name } : {}), ...(info.subresource ? { subresource: info.subresource } : {}),
      ...(url.searchParams.get('dryRun') === 'All' ? { dryRun: true } : {}), ...managerOf(req, url) };
    if (info.subresource === 'scale') return this.scale(req, res, method, r, base, url);
    if (info.subresource === 'log' && r.resource === 'pods') {
      if (method !== 'GET') throw status405();
      return this.log(res, base, url.searchParams);
    }
    // Events live in the recorder, not the store: one is read from there, after the same authorization.
    if (method === 'GET' && r.kind === 'Event' && info.name && !info.subresource) return this.getEvent(res, base, info.name, url, credentials, wantsTable(String(req.headers.accept ?? '')));
    switch (method) {
      case 'GET': {
        const out = await this.get(base, url);
        if (out.ok && out.object && wantsTable(String(req.headers.accept ?? '')) && !info.subresource) {
          return sendJson(res, 200, tableFor(r.kind, [out.object], this.wallNow(), { includeObject: includeObjectOf(url.searchParams), resourceVersion: out.object.metadata?.resourceVersion ?? '' }));
        }
        return this.answer(res, out);
      }
      case 'POST': {
        if (info.name && !info.subresource) throw status405();
        validateWriteOptions(url, 'CreateOptions');
        const object = await readJson(req, info.subresource === 'eviction' ? 'Eviction' : r.kind) as KubeObject;
        const objNs = object.metadata?.namespace;
        // The namespace of the body and of the path must agree (rest/create.go: EnsureObjectNamespaceMatchesRequestNamespace).
        if (namespace !== undefined && objNs !== undefined && objNs !== '' && objNs !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
        const kind = info.subresource ? String(object.kind ?? '') : r.kind;
        const withNs = namespace !== undefined ? { ...object, metadata: { ...object.metadata, namespace } } : object;
        return this.answer(res, await this.serve({ ...base, verb: 'create', method: 'POST', kind, object: withNs as KubeObject }), 201);
      }
      case 'PUT': {
        validateWriteOptions(url, 'UpdateOptions');
        const object = await readJson(req, r.kind) as KubeObject;
        return this.answer(res, await this.serve({ ...base, verb: 'update', method: 'PUT', object }));
      }
      case 'PATCH':
        return this.answer(res, await this.serve({ ...base, verb: 'patch', method: 'PATCH' }, {}, info.subresource ? await readPatch(req, url) : await readPatchOrApply(req, url)));
      case 'DELETE': {
        const body = req.headers['content-length'] && req.headers['content-length'] !== '0' ? await readJson(req, 'DeleteOptions') : {};
        return this.answer(res, await this.serve({ ...base, verb: 'delete', method: 'DELETE' }, deleteOptionsOf(body, url.searchParams)));
      }
      default:
        throw status405();
    }
  }

  /**
   * converted answers GET, POST, PUT, PATCH and DELETE at a version the engine does not store the resource in: the
   * body converted to the stored version, the request run as one of it, the answer converted back. A PATCH applies
   * to the object as this version shows it (patch.go patches in the request's version), the result sent as the
   * stored version's merge patch. See pkg/apis/autoscaling/v1/conversion.go (v1.36.3).
   */
  private async converted(req: IncomingMessage, res: ServerResponse, method: string, r: ResourceInfo, conv: VersionConverter, base: ApiRequest, url: URL): Promise<void> {
    const served = (out: ApiOutcome): ApiOutcome => (out.ok && out.object?.kind === r.kind ? { ...out, object: conv.toServed(out.object) } : out);
    const body = async (): Promise<KubeObject> => bodyFromServed(conv, await readJson(req, r.kind) as KubeObject);
    switch (method) {
      case 'GET': {
        const out = await this.get(base, url);
        if (out.ok && out.object && wantsTable(String(req.headers.accept ?? ''))) {
          return sendJson(res, 200, servedTable(tableFor(r.kind, [out.object], this.wallNow(), { includeObject: includeObjectOf(url.searchParams), resourceVersion: out.object.metadata?.resourceVersion ?? '' }), conv));
        }
        return this.answer(res, served(out));
      }
      case 'POST': {
        if (base.name) throw status405();
        const object = await body();
        const objNs = object.metadata?.namespace;
        if (base.namespace !== undefined && objNs !== undefined && objNs !== '' && objNs !== base.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
        const withNs = base.namespace !== undefined ? { ...object, metadata: { ...object.metadata, namespace: base.namespace } } : object;
        return this.answer(res, served(await this.serve({ ...base, verb: 'create', method: 'POST', object: withNs })), 201);
      }
      case 'PUT':
        return this.answer(res, served(await this.serve({ ...base, verb: 'update', method: 'PUT', object: await body() })));
      case 'PATCH': {
        const patch = await readPatch(req, url);
        return this.answer(res, served(await this.serveWith({ ...base, verb: 'patch', method: 'PATCH' }, patch, (current, patch) => {
          if (!current) return { patch: {}, patchType: 'merge' };
          const patched = conv.fromServed(applyPatch(conv.toServed(current), patch.patch, patch.patchType));
          return { patch: mergePatchOf(current, patched), patchType: 'merge' };
        })));
      }
      case 'DELETE': {
        const options = req.headers['content-length'] && req.headers['content-length'] !== '0' ? await readJson(req, 'DeleteOptions') : {};
        return this.answer(res, served(await this.serve({ ...base, verb: 'delete', method: 'DELETE' }, deleteOptionsOf(options, url.searchParams))));
      }
      default:
        throw status405();
    }
  }

  /**
   * scale answers GET, PUT and PATCH of a workload's scale subresource: authorized as the verb on `<resource>/scale`,
   * the change written to the object's spec.replicas through the engine, the answer the Scale of the result.
   * See pkg/registry/apps/deployment/storage/storage.go (ScaleREST.Get, Update).
   */
  private async scale(req: IncomingMessage, res: ServerResponse, method: string, r: ResourceInfo, base: ApiRequest, url: URL): Promise<void> {
    // A resource without a scale subresource: nothing is served at its path.
    if (!SCALABLE.has(r.resource)) throw new StatusError(noSuchResource());
    if (method === 'GET') {
      const out = await this.serve(base);
      return out.ok && out.object ? sendJson(res, 200, scaleOf(out.object)) : this.answer(res, out);
    }
    if (method !== 'PUT' && method !== 'PATCH') throw status405();
    const change = method === 'PUT' ? { scale: await readJson(req, 'Scale') } : await readPatch(req, url);
    const verb = method === 'PUT' ? 'update' : 'patch';
    const request: ApiRequest = { ...base, verb, method };
    // The engine's scale subresource takes the new Scale: the body, or the patch applied to the current Scale, once
    // its resourceVersion precondition and replicas are checked where the update runs (a missing object: its 404).
    const out = await this.cluster.request(`${method} ${base.path}`, { request, resource: r.resource, group: r.group, change }, function* (sim, { request, resource, group, change }) {
      const current = sim.store.get(request.kind, request.namespace, request.name ?? '');
      const scale = current ? { ...scaleOf(current), spec: { replicas: scaledReplicas(current, resource, group, change) } } : scaleOf({ kind: request.kind, metadata: { name: request.name ?? '' } });
      return yield* sim.api.serve({ ...request, object: scale as unknown as KubeObject });
    });
    return out.ok && out.object ? sendJson(res, 200, out.object, out.warnings) : this.answer(res, out);
  }

  /**
   * log answers GET pods/NAME/log (authorized as get on pods/log): text/plain, the container's lines. With
   * follow=true the answer stays open while the container runs, as the kubelet's follow does, and ends when the
   * container stops or the pod is gone.
   */
  private async log(res: ServerResponse, base: ApiRequest, q: URLSearchParams): Promise<void> {
    const out = await this.serve(base);
    if (!out.ok || !out.object) return this.answer(res, out);
    writeLog(res, { cluster: this.cluster, pod: out.object, namespace: base.namespace, name: base.name ?? '', query: q, wallNow: () => this.wallNow(), follows: this.follows });
  }

  /**
   * getEvent answers GET of one Event: authorized as get on events, the Event as the list shows it, or the registry's
   * NotFound once it is gone (its TTL). See pkg/registry/core/event/storage (v1.36.3).
   */
  private async getEvent(res: ServerResponse, base: ApiRequest, name: string, url: URL, credentials: Credentials, table: boolean): Promise<void> {
    const allowed = await this.check('GET', `${url.pathname}${url.search}`, { verb: 'get', group: '', version: 'v1', resource: 'events', name, ...(base.namespace !== undefined ? { namespace: base.namespace } : {}) }, credentials);
    if (!allowed.ok) return sendStatus(res, allowed.error.status);
    etcdResourceVersionError(this.cluster.sim.store, url.searchParams.get('resourceVersion') ?? '');
    const event = this.eventWatches.list(base.namespace).find((e) => e.metadata?.name === name);
    if (!event) throw notFound('events', '', name);
    if (table) return sendJson(res, 200, tableFor('Event', [event], this.wallNow(), { includeObject: includeObjectOf(url.searchParams), resourceVersion: event.metadata?.resourceVersion ?? '' }));
    return sendJson(res, 200, event);
  }

  /** wallNow is the wall-clock instant the cluster's virtual time stands at (the tables' ages count from it). */
  private wallNow(): number {
    const clock = this.cluster.sim.clock;
    return clock.epoch.getTime() + clock.now;
  }

  /** list answers a LIST (or a watch) of one resource, after authorization of the verb on it. */
  private async list(res: ServerResponse, r: ResourceInfo, apiVersion: string, namespace: string | undefined, info: ResourceRequestInfo, url: URL, credentials: Credentials, table: boolean, conv?: VersionConverter): Promise<void> {
    const q = url.searchParams;
    const watch = q.get('watch') === 'true' || q.get('watch') === '1';
    const filter = listFilter(r.kind, q);
    const allowed = await this.check('GET', `${url.pathname}${url.search}`, { verb: watch ? 'watch' : 'list', group: r.group, version: info.version, resource: r.resource, ...(namespace !== undefined ? { namespace } : {}) }, credentials);
    if (!allowed.ok) return sendStatus(res, allowed.error.status);
    const includeObject = includeObjectOf(q);
    const limit = limitOf(q);
    const options = defaultedListOptions(listOptionsOf(q));
    validateListOptions(options);
    if (watch) {
      // An unparsable resourceVersion is an error before the stream; a watch-list's one not yet reached, an ERROR event after 3 s.
      if (!(await watchResourceVersionReady(this.fresh(), options, res))) return;
      const timeout = Number(q.get('timeoutSeconds'));
      // As a Table, the first event carries the column definitions and the others only their row (watchEmbeddedEncoder).
      let headers = true;
      const render = table ? (o: KubeObject): unknown => {
        const t = servedTable(tableFor(r.kind, [o], this.wallNow(), { includeObject, noHeaders: !headers, resourceVersion: o.metadata?.resourceVersion ?? '' }), conv);
        headers = false;
        return t;
      } : (o: KubeObject): unknown => (conv ? conv.toServed(o) : o);
      const timeoutSeconds = Number.isFinite(timeout) && timeout > 0 ? { timeoutSeconds: timeout } : {};
      if (r.kind === 'Event') {
        return this.eventWatches.open({ ...(namespace !== undefined ? { namespace } : {}), filter, resourceVersion: q.get('resourceVersion') ?? '', ...timeoutSeconds, render }, res);
      }
      this.watches.open({
        kind: r.kind, apiVersion, ...(namespace !== undefined ? { namespace } : {}), filter, resourceVersion: options.resourceVersion,
        ...(options.sendInitialEvents !== undefined ? { sendInitialEvents: options.sendInitialEvents } : {}),
        bookmarks: q.get('allowWatchBookmarks') === 'true', ...timeoutSeconds,
        render,
      }, res);
      return;
    }
    // Events live in the recorder, not the store: listed as the core/v1 Events the recorders would have written, from etcd.
    const events = r.kind === 'Event';
    const at = events ? eventsAt(this.cluster.sim, namespace, options, (rv) => this.eventWatches.changesSince(rv), (ns) => this.eventWatches.list(ns)) : await listAt(this.fresh(), r.kind, namespace, options, limit, (rv) => this.watches.history(r.kind, rv));
    // The watch cache pages no list at resourceVersion "0" (computeListLimit); etcd pages whenever there is a limit.
    const page = pageOf(at.objects, (o) => matches(filter, o), { namespace, limit: events || options.resourceVersion !== '0' ? limit : 0, start: at.start,
      selecting: !!(q.get('labelSelector') || q.get('fieldSelector')), cache: !events, resourceVersion: at.resourceVersion });
    // A deprecated API's list carries its warning too (apiserver/deprecation.ts).
    const deprecated = deprecationWarnings({ apiVersion, kind: r.kind });
    if (table) return sendJson(res, 200, servedTable({ ...tableFor(r.kind, page.items, this.wallNow(), { includeObject }), metadata: page.metadata }, conv), deprecated);
    const items = conv ? page.items.map((o) => conv.toServed(o)) : page.items;
    return sendJson(res, 200, { kind: `${r.kind}List`, apiVersion, metadata: page.metadata, items: items.map(withoutTypeMeta) }, deprecated);
  }

  /**
   * get reads one object; its resourceVersion is read once authorized, as the cacher's Get reads it: one that does not
   * parse is a 500, one not yet reached is waited for (the object then read again) or a 504.
   */
  private async get(base: ApiRequest, url: URL): Promise<ApiOutcome> {
    const out = await this.serve(base);
    if (!out.ok && [401, 403].includes(out.error.code)) return out;
    return await getResourceVersionError(this.fresh(), url.searchParams.get('resourceVersion') ?? '') ? this.serve(base) : out;
  }

  /** fresh is what a read waits on for a resourceVersion the store has not reached. */
  private fresh(): Freshness {
    return { store: this.cluster.sim.store, onAdvance: (listener) => this.cluster.onAdvance(listener), compacted: () => this.eventWatches.compactedRevision() };
  }

  /** serve runs one request through the engine's kube-apiserver in the live cluster. */
  private serve(req: ApiRequest, deleteOptions: DeleteOptions = {}, updateOptions: UpdateOptions = {}): Promise<ApiOutcome> {
    return this.cluster.request(`${req.method} ${req.path}`, { req, deleteOptions, updateOptions }, (sim, d) => sim.api.serve(d.req, undefined, d.deleteOptions, d.updateOptions));
  }

  /**
   * serveWith runs an update whose options are made from the stored object, read in the same task as the update;
   * `options` reads only that object and `data` (a replay of the journal calls it again).
   */
  private serveWith<D>(req: ApiRequest, data: D, options: (current: KubeObject | undefined, data: D) => UpdateOptions): Promise<ApiOutcome> {
    return this.cluster.request(`${req.method} ${req.path}`, { req, data }, function* (sim, d) {
      const current = sim.store.get(d.req.kind, d.req.namespace, d.req.name ?? '');
      return yield* sim.api.serve(d.req, undefined, {}, options(current, d.data));
    });
  }

  /** check authenticates and authorizes a request the handler answers itself (discovery, a list, a watch). */
  private check(method: string, path: string, resource: { verb: string; group: string; version: string; resource: string; namespace?: string; name?: string } | undefined, credentials: Credentials) {
    const ref = resource ? objectRef('List', resource.namespace, resource.resource) : `Path/${path}`;
    const request = { method: 'GET' as const, path, ...(resource ? { resource } : {}), credentials };
    return this.cluster.request(`${method} ${path}`, { request, ref }, (sim, d) => sim.api.check(d.request, d.ref));
  }

  private answer(res: ServerResponse, out: ApiOutcome, created = 200): void {
    if (!out.ok) return sendJson(res, out.error.code, out.error.status, out.warnings);
    const code = out.code === 201 || created === 201 ? 201 : out.code;
    if (out.object) return sendJson(res, code, out.object, out.warnings);
    return sendJson(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' }, out.warnings);
  }
}

/** withoutTypeMeta is a list item as the server encodes it: without its own kind and apiVersion. */
function withoutTypeMeta(obj: KubeObject): KubeObject {
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return rest as KubeObject;
}

/** status405 is the error of a method the resource does not take. */
function status405(): StatusError {
  return new StatusError(status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'));
}

/** validEscapes tells whether every `%` of a path starts a two-digit hex escape, as Go's url.unescape requires. */
function validEscapes(path: string): boolean {
  return !/%(?![0-9A-Fa-f]{2})/.test(path);
}
