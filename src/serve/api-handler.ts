// serve's request handler: the Kubernetes API over HTTPS, each request run through the engine's kube-apiserver
// (authentication, authorization, admission, validation, storage) in the live cluster, lists and watches read from
// its store after the same authentication and authorization.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { objectRef, type KubeObject } from '../engine/api/types';
import type { Credentials } from '../engine/apiserver/authn/authenticator';
import type { DeleteOptions } from '../engine/apiserver/delete';
import { type ApiRequest, badRequest, StatusError } from '../engine/apiserver/request';
import type { ApiOutcome } from '../engine/apiserver/server';
import { apiGroupList, apiResourceList, apiVersions, SERVER_VERSION } from './discovery';
import { readJson, sendError, sendJson, sendStatus, status } from './http';
import type { LiveCluster } from './live-cluster';
import { OpenApiV3 } from './openapi';
import { listEvents } from '../engine/console/events';
import { type IncludeObject, tableFor } from '../engine/printers/registry';
import { type RequestInfo, requestInfo, resourceInfo, type ResourceInfo, VERSIONS } from './request-info';
import { listFilter, matches } from './selectors';
import type { ServeRequest } from './tls-server';
import { WatchHub } from './watch';

/** ApiHandler answers the API requests of one live cluster. */
export class ApiHandler {
  private readonly watches: WatchHub;

  constructor(private readonly cluster: LiveCluster, private readonly openapi: OpenApiV3 = OpenApiV3.load()) {
    this.watches = new WatchHub(cluster.sim.store);
  }

  /** close ends the open watches. */
  close(): void {
    this.watches.closeAll();
  }

  /** handle answers one request. */
  readonly handle = async (req: IncomingMessage, res: ServerResponse, request: ServeRequest): Promise<void> => {
    try {
      // Every certificate presented goes to the engine's x509 authenticator, which refuses one our CA did not sign (401),
      // as kube-apiserver's does; the listener's own verdict is not the last word.
      const certificatePem = request.clientCertificate?.pem;
      await this.route(req, res, { ...request.credentials, ...(certificatePem ? { certificatePem } : {}) });
    } catch (e) {
      sendError(res, e);
    }
  };

  private async route(req: IncomingMessage, res: ServerResponse, credentials: Credentials): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    // Health and version are public (system:public-info-viewer).
    if (path === '/version') return sendJson(res, 200, SERVER_VERSION);
    if (path === '/healthz' || path === '/readyz' || path === '/livez') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      return;
    }
    const info = requestInfo(path);
    if (!info.resourceRequest) return this.nonResource(res, method, path, url, credentials);
    return this.resource(req, res, method, info, url, credentials);
  }

  /** nonResource answers discovery after authentication and authorization of its path. */
  private async nonResource(res: ServerResponse, method: string, path: string, url: URL, credentials: Credentials): Promise<void> {
    const body = discoveryOf(path);
    const allowed = await this.check(method, `${path}${url.search}`, undefined, credentials);
    if (!allowed.ok) return sendStatus(res, allowed.error.status);
    if (method === 'GET' && (path === '/openapi/v3' || path === '/openapi/v3/')) return sendJson(res, 200, this.openapi.root());
    const doc = method === 'GET' && path.startsWith('/openapi/v3/') ? this.openapi.document(path.slice('/openapi/v3/'.length)) : undefined;
    if (doc !== undefined) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, immutable' });
      res.end(doc);
      return;
    }
    if (method !== 'GET' || !body) return sendStatus(res, status(404, 'NotFound', 'the server could not find the requested resource'));
    return sendJson(res, 200, body);
  }

  private async resource(req: IncomingMessage, res: ServerResponse, method: string, info: Extract<RequestInfo, { resourceRequest: true }>, url: URL, credentials: Credentials): Promise<void> {
    const r = (VERSIONS[info.group] ?? []).includes(info.version) ? resourceInfo(info.group, info.resource) : undefined;
    if (!r) return sendStatus(res, status(404, 'NotFound', 'the server could not find the requested resource'));
    const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
    const namespace = r.namespaced ? info.namespace : undefined;
    if (method === 'GET' && !info.name) return this.list(res, r, apiVersion, namespace, info, url, credentials, wantsTable(String(req.headers.accept ?? '')));
    const base = { path: `${url.pathname}${url.search}`, apiVersion, kind: r.kind, group: r.group, resource: r.resource, credentials,
      ...(namespace !== undefined ? { namespace } : {}), ...(info.name !== undefined ? { name: info.name } : {}), ...(info.subresource ? { subresource: info.subresource } : {}),
      ...(url.searchParams.get('dryRun') === 'All' ? { dryRun: true } : {}) };
    switch (method) {
      case 'GET': {
        const out = await this.serve({ ...base, verb: 'get', method: 'GET' });
        if (out.ok && out.object && wantsTable(String(req.headers.accept ?? '')) && !info.subresource) {
          return sendJson(res, 200, tableFor(r.kind, [out.object], this.wallNow(), { includeObject: includeObjectOf(url.searchParams), resourceVersion: out.object.metadata?.resourceVersion ?? '' }));
        }
        return this.answer(res, out);
      }
      case 'POST': {
        const object = await readJson(req) as KubeObject;
        if (info.name && !info.subresource) throw status405();
        const objNs = object.metadata?.namespace;
        // The namespace of the body and of the path must agree (rest/create.go: EnsureObjectNamespaceMatchesRequestNamespace).
        if (namespace !== undefined && objNs !== undefined && objNs !== '' && objNs !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
        const kind = info.subresource ? String(object.kind ?? '') : r.kind;
        const withNs = namespace !== undefined ? { ...object, metadata: { ...object.metadata, namespace } } : object;
        return this.answer(res, await this.serve({ ...base, verb: 'create', method: 'POST', kind, object: withNs as KubeObject }), 201);
      }
      case 'PUT': {
        const object = await readJson(req) as KubeObject;
        return this.answer(res, await this.serve({ ...base, verb: 'update', method: 'PUT', object }));
      }
      case 'PATCH': {
        const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim();
        if (type !== 'application/strategic-merge-patch+json' && type !== 'application/merge-patch+json') {
          return sendStatus(res, status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/merge-patch+json, application/strategic-merge-patch+json`));
        }
        const patch = await readJson(req);
        return this.answer(res, await this.serve({ ...base, verb: 'patch', method: 'PATCH' }, {}, { patch: patch as never }));
      }
      case 'DELETE': {
        const body = req.headers['content-length'] && req.headers['content-length'] !== '0' ? await readJson(req) : {};
        return this.answer(res, await this.serve({ ...base, verb: 'delete', method: 'DELETE' }, deleteOptionsOf(body, url.searchParams)));
      }
      default:
        throw status405();
    }
  }

  /** list answers a LIST (or a watch) of one resource, after authorization of the verb on it. */
  /** wallNow is the wall-clock instant the cluster's virtual time stands at (the tables' ages count from it). */
  private wallNow(): number {
    const clock = this.cluster.sim.clock;
    return clock.epoch.getTime() + clock.now;
  }

  private async list(res: ServerResponse, r: ResourceInfo, apiVersion: string, namespace: string | undefined, info: Extract<RequestInfo, { resourceRequest: true }>, url: URL, credentials: Credentials, table: boolean): Promise<void> {
    const q = url.searchParams;
    const watch = q.get('watch') === 'true' || q.get('watch') === '1';
    const filter = listFilter(r.kind, q);
    const allowed = await this.check('GET', `${url.pathname}${url.search}`, { verb: watch ? 'watch' : 'list', group: r.group, version: info.version, resource: r.resource, ...(namespace !== undefined ? { namespace } : {}) }, credentials);
    if (!allowed.ok) return sendStatus(res, allowed.error.status);
    const store = this.cluster.sim.store;
    const includeObject = includeObjectOf(q);
    if (watch) {
      const timeout = Number(q.get('timeoutSeconds'));
      // As a Table, the first event carries the column definitions and the others only their row (watchEmbeddedEncoder).
      let headers = true;
      const render = table ? (o: KubeObject): unknown => {
        const t = tableFor(r.kind, [o], this.wallNow(), { includeObject, noHeaders: !headers, resourceVersion: o.metadata?.resourceVersion ?? '' });
        headers = false;
        return t;
      } : (o: KubeObject): unknown => o;
      this.watches.open({
        kind: r.kind, apiVersion, ...(namespace !== undefined ? { namespace } : {}), filter, resourceVersion: q.get('resourceVersion') ?? '',
        bookmarks: q.get('allowWatchBookmarks') === 'true', ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutSeconds: timeout } : {}),
        render,
      }, res);
      return;
    }
    // Events live in the recorder, not the store: listed as the core/v1 Events the recorders would have written.
    const stored = r.kind === 'Event' ? listEvents(this.cluster.sim, namespace) as unknown as KubeObject[] : store.list(r.kind, namespace);
    const objects = stored.filter((o) => matches(filter, o));
    const resourceVersion = String(store.resourceVersion);
    if (table) return sendJson(res, 200, tableFor(r.kind, objects, this.wallNow(), { includeObject, resourceVersion }));
    return sendJson(res, 200, { kind: `${r.kind}List`, apiVersion, metadata: { resourceVersion }, items: objects.map(withoutTypeMeta) });
  }

  /** serve runs one request through the engine's kube-apiserver in the live cluster. */
  private serve(req: ApiRequest, deleteOptions: DeleteOptions = {}, updateOptions: { patch?: never } = {}): Promise<ApiOutcome> {
    const api = this.cluster.sim.api;
    return this.cluster.request(`${req.method} ${req.path}`, () => api.serve(req, undefined, deleteOptions, updateOptions));
  }

  /** check authenticates and authorizes a request the handler answers itself (discovery, a list, a watch). */
  private check(method: string, path: string, resource: { verb: string; group: string; version: string; resource: string; namespace?: string } | undefined, credentials: Credentials) {
    const api = this.cluster.sim.api;
    const ref = resource ? objectRef('List', resource.namespace, resource.resource) : `Path/${path}`;
    return this.cluster.request(`${method} ${path}`, () => api.check({ method: 'GET', path, ...(resource ? { resource } : {}), credentials }, ref));
  }

  private answer(res: ServerResponse, out: ApiOutcome, created = 200): void {
    if (!out.ok) return sendJson(res, out.error.code, out.error.status, out.warnings);
    const code = out.code === 201 || created === 201 ? 201 : out.code;
    if (out.object) return sendJson(res, code, out.object, out.warnings);
    return sendJson(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' }, out.warnings);
  }
}

/** wantsTable tells whether the client asks for server-side printing (`application/json;as=Table;v=v1;g=meta.k8s.io`). */
function wantsTable(accept: string): boolean {
  return accept.split(',').some((type) => {
    const params = type.split(';').map((p) => p.trim());
    return params.includes('as=Table') && params.includes('g=meta.k8s.io') && (params.includes('v=v1') || params.includes('v=v1beta1'));
  });
}

/** includeObjectOf reads ?includeObject= (None, Metadata, Object); Metadata when absent. */
function includeObjectOf(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

/** discoveryOf is the discovery document of a path, if it names one. */
function discoveryOf(path: string): object | undefined {
  if (path === '/api') return apiVersions();
  if (path === '/apis') return apiGroupList();
  const legacy = /^\/api\/([^/]+)\/?$/.exec(path);
  if (legacy) return apiResourceList('', legacy[1]!);
  const named = /^\/apis\/([^/]+)\/([^/]+)\/?$/.exec(path);
  if (named) return apiResourceList(named[1]!, named[2]!);
  return undefined;
}

/** deleteOptionsOf reads DeleteOptions from the body and the query (the query's win, as the handler decodes them). */
function deleteOptionsOf(body: Record<string, unknown>, q: URLSearchParams): DeleteOptions {
  const grace = q.get('gracePeriodSeconds') ?? (body['gracePeriodSeconds'] as number | undefined);
  const policy = q.get('propagationPolicy') ?? (body['propagationPolicy'] as string | undefined);
  const uid = (body['preconditions'] as { uid?: string } | undefined)?.uid;
  if (policy !== undefined && policy !== null && !['Background', 'Foreground', 'Orphan'].includes(String(policy))) {
    throw badRequest(`propagationPolicy: Unsupported value: "${String(policy)}": supported values: "Foreground", "Background", "Orphan"`);
  }
  return {
    ...(grace !== undefined && grace !== null ? { gracePeriodSeconds: Number(grace) } : {}),
    ...(policy ? { propagationPolicy: policy as DeleteOptions['propagationPolicy'] & string } : {}),
    ...(uid ? { preconditionUid: uid } : {}),
  };
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
