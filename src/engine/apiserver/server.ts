// kube-apiserver's request pipeline: authentication, authorization, then the verb's handler (create, get, delete).
import type { Millis } from '../runtime/clock';
import { generateName } from '../api/naming';
import { hpaToV1, isHpaV1 } from '../api/hpa-v1';
import { type KubeObject, type Meta, objectRef } from '../api/types';
import type { EngineContext } from '../context';
import { RESOURCES } from '../cluster/store';
import { VERSIONS } from '../api/discovery/served';
import type { PhaseName } from '../runtime/phases';
import type { TraceInput } from '../runtime/recorder';
import type { Steps } from '../runtime/step';
import { authenticationFilter } from './authn/filter';
import type { AuthzAttributes } from './authz/authorizer';
import { authorizationFilter } from './authz/filter';
import { createObject } from './create';
import { deleteObject, type DeleteOptions } from './delete';
import { deprecationWarnings } from './deprecation';
import { evictPod } from './eviction';
import { updateScale } from './scale';
import { updateObject, type UpdateOptions } from './update';
import { applyManagedFields, checkName, fieldManagerScope } from './fieldmanager/manager';
import { type ApiRequest, notFound, StatusError, type UserInfo } from './request';

/** ApiOutcome is the server's answer to one request: the object, or the error and the phase that produced it. */
export type ApiOutcome =
  | { ok: true; code: number; object?: KubeObject; gone?: boolean; warnings?: string[] }
  | { ok: false; error: StatusError; phase: PhaseName; warnings?: string[] };

/** ApiServer serves requests against the store, recording every decision. */
export class ApiServer {
  constructor(private readonly ctx: EngineContext) {}

  /** now is the virtual time the server answers at. */
  now(): Millis {
    return this.ctx.clock.now;
  }

  /** recordsManagers tells whether the engine's own clients name their manager (a live cluster's: see EngineContext). */
  get recordsManagers(): boolean {
    return this.ctx.recordManagers === true;
  }

  /**
   * serve runs one request through the pipeline. `ref` is the object the trace speaks of (its
   * thread); for a create by generateName it is made from the name the registry will give.
   */
  *serve(req: ApiRequest, ref?: string, deleteOptions: DeleteOptions = {}, updateOptions: UpdateOptions = {}): Steps<ApiOutcome> {
    const out = yield* this.handle(req, ref, deleteOptions, updateOptions);
    // A request at autoscaling/v1 gets the stored autoscaling/v2 HorizontalPodAutoscaler back as v1.
    // See pkg/apis/autoscaling/v1/conversion.go (v1.36.3).
    return out.ok && out.object && isHpaV1(req) && !req.subresource && out.object.kind === 'HorizontalPodAutoscaler' && out.object.apiVersion !== 'autoscaling/v1'
      ? { ...out, object: hpaToV1(out.object) } : out;
  }

  private *handle(req: ApiRequest, ref?: string, deleteOptions: DeleteOptions = {}, updateOptions: UpdateOptions = {}): Steps<ApiOutcome> {
    const meta = req.object?.metadata;
    // The registry assigns a generated name after admission; it is drawn here so the trace follows the object by it.
    const plannedName = req.verb === 'create' && !meta?.name && meta?.generateName ? generateName(meta.generateName, this.ctx.rng) : undefined;
    ref ??= objectRef(req.kind, req.namespace, plannedName ?? req.name ?? meta?.name ?? '');
    const user = yield* this.authenticate(req, ref);
    if (user instanceof StatusError) return { ok: false, error: user, phase: 'apiserver.authenticate' };
    req.user = user;
    const denied = yield* this.authorize(req, ref, user);
    if (denied) return { ok: false, error: denied, phase: 'apiserver.authorize' };
    // A deprecated API's warning comes first, whatever the handler answers (deprecation.ts).
    const deprecation = deprecationWarnings(req);
    const out = yield* this.route(req, ref, user, plannedName, deleteOptions, updateOptions);
    return deprecation.length ? { ...out, warnings: [...new Set([...deprecation, ...(out.warnings ?? [])])] } : out;
  }

  /** route runs the verb's handler for an authorized request. */
  private *route(req: ApiRequest, ref: string, user: UserInfo, plannedName: string | undefined, deleteOptions: DeleteOptions, updateOptions: UpdateOptions): Steps<ApiOutcome> {
    switch (req.verb) {
      case 'create':
        // The pod registry's eviction subresource (pkg/registry/core/pod/storage/eviction.go).
        if (req.resource === 'pods' && req.group === '' && req.subresource === 'eviction') return yield* evictPod(this.ctx, req, ref);
        return yield* createObject(this.ctx, req, ref, plannedName);
      case 'get': {
        const obj = this.ctx.store.get(req.kind, req.namespace, req.name ?? '');
        if (!obj) return { ok: false, error: notFound(req.resource, req.group, req.name ?? ''), phase: 'apiserver.authorize' };
        return { ok: true, code: 200, object: obj };
      }
      case 'delete':
        return yield* deleteObject(this.ctx, req, ref, deleteOptions);
      case 'update':
      case 'patch':
        if (updateOptions.apply && !this.ctx.store.get(req.kind, req.namespace, req.name ?? '')) return yield* this.applyCreate(req, ref, user, updateOptions.patch, updateOptions.apply);
        // The workloads' scale subresource takes the new Scale (pkg/registry/apps/*/storage/storage.go ScaleREST.Update).
        if (req.subresource === 'scale') return yield* updateScale(this.ctx, req, ref);
        return yield* updateObject(this.ctx, req, ref, updateOptions);
      default:
        return { ok: false, error: new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `the server does not allow this method on the requested resource`, reason: 'MethodNotAllowed', code: 405 }), phase: 'apiserver.authorize' };
    }
  }

  /**
   * check runs a request kubectl makes for itself (discovery, OpenAPI, the CRD list) through authentication and
   * authorization only; what the handler would answer is kubectl's own view of the cluster. A path is authorized as
   * the lowercase method on the path, a resource list as its verb on the resource. The filters' entries are recorded
   * only when the request is refused.
   */
  *check(req: CheckRequest, ref: string): Steps<CheckOutcome> {
    const entries: TraceInput[] = [];
    const authn = yield* authenticationFilter(this.ctx, req.credentials, `${req.method} ${req.path}`, ref, entries);
    if ('error' in authn) {
      yield* entries;
      return { ok: false, error: authn.error, phase: 'apiserver.authenticate' };
    }
    const path = req.path.split('?')[0] ?? req.path;
    const r = req.resource;
    const attrs: AuthzAttributes = r
      ? { user: authn.user, verb: r.verb, namespace: r.namespace ?? '', apiGroup: r.group, apiVersion: r.version, resource: r.resource, subresource: '', name: r.name ?? '', resourceRequest: true, path }
      : { user: authn.user, verb: req.method.toLowerCase(), namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', resourceRequest: false, path };
    const authz = yield* authorizationFilter(this.ctx, attrs, ref, undefined, entries);
    if ('error' in authz) {
      yield* entries;
      return { ok: false, error: authz.error, phase: 'apiserver.authorize' };
    }
    return { ok: true, code: 200, user: authn.user, authenticatedBy: authn.authenticatedBy, allowedBy: authz.allowedBy };
  }

  /**
   * applyCreate serves a server-side apply to an absent object: it creates it (201), authorized as a create too, its
   * name the URL's. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (forceAllowCreate, the
   * createValidation's withAuthorization, checkName), v0.36.3.
   */
  private *applyCreate(req: ApiRequest, ref: string, user: UserInfo, patch: unknown, apply: { force: boolean }): Steps<ApiOutcome> {
    const config = (patch ?? {}) as KubeObject;
    try {
      // The field manager reads the configuration first (its kind and version, no managedFields), then its name is checked.
      applyManagedFields(undefined, config, req.fieldManager ?? '', apply.force, fieldManagerScope(this.ctx, req));
      checkName(config, req);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      return { ok: false, error: e, phase: 'apiserver.admit.mutating' };
    }
    const create: ApiRequest = { ...req, verb: 'create', method: 'POST', object: config };
    const denied = yield* this.authorize(create, ref, user);
    if (denied) return { ok: false, error: denied, phase: 'apiserver.authorize' };
    return yield* createObject(this.ctx, create, ref, undefined, apply);
  }

  /** authenticate runs the authentication and impersonation filters. See authn/filter.ts. */
  private *authenticate(req: ApiRequest, ref: string): Steps<UserInfo | StatusError> {
    const r = yield* authenticationFilter(this.ctx, req.credentials, `${req.method} ${req.path}`, ref);
    return 'error' in r ? r.error : r.user;
  }

  /** authorize runs the authorization filter on the request's attributes. See authz/filter.ts. */
  private *authorize(req: ApiRequest, ref: string, user: UserInfo): Steps<StatusError | undefined> {
    const attrs: AuthzAttributes = {
      user, verb: req.verb, namespace: req.namespace ?? '', apiGroup: req.group, apiVersion: req.apiVersion.split('/').pop() ?? 'v1',
      // A create names no object, except one of a subresource (`POST .../pods/web/eviction`): the RequestInfo's Name.
      resource: req.resource, subresource: req.subresource ?? '', name: req.verb === 'create' && !req.subresource ? '' : req.name ?? '', resourceRequest: true, path: req.path.split('?')[0] ?? req.path,
    };
    const r = yield* authorizationFilter(this.ctx, attrs, ref, 'metadata.namespace');
    return 'error' in r ? r.error : undefined;
  }
}

/** CheckRequest is a request kubectl sends for its own use: a path, or a cluster-wide list of a resource. */
export interface CheckRequest {
  method: 'GET';
  /** path is the URL path with its query. */
  path: string;
  /** resource is set for a resource request (the CRD list, a poll of one pod); a path request has none. */
  resource?: { verb: string; group: string; version: string; resource: string; namespace?: string; name?: string };
  credentials: ApiRequest['credentials'];
}

/** CheckOutcome is the server's verdict on such a request: who sent it and who allowed it, or the error. */
export type CheckOutcome =
  | { ok: true; code: number; user: UserInfo; authenticatedBy: string; allowedBy: string }
  | { ok: false; error: StatusError; phase: PhaseName; warnings?: string[] };

/** KindMapping is what kubectl's RESTMapper knows of a kind: its group, versions and resource. */
export interface KindMapping {
  group: string;
  versions: string[];
  resource: string;
  namespaced: boolean;
}

/** servedVersions are the versions kube-apiserver serves of a group of the kinds the engine stores, preferred first. */
export function servedVersions(group: string): readonly string[] {
  return VERSIONS[group] ?? ['v1'];
}

/** servesGroupVersion tells a group-version kube-apiserver serves for the kinds the engine stores. */
export function servesGroupVersion(group: string, version: string): boolean {
  return Object.values(RESOURCES).some((r) => r.group === group) && servedVersions(group).includes(version);
}

/** mappingFor finds the resource of an apiVersion and kind, as the RESTMapper does; undefined when it has no match. */
export function mappingFor(apiVersion: string, kind: string): KindMapping | undefined {
  const info = RESOURCES[kind];
  if (!info) return undefined;
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
  if (group !== info.group || !(VERSIONS[group] ?? []).includes(version)) return undefined;
  return { group, versions: [...(VERSIONS[group] ?? [])], resource: info.resource, namespaced: info.namespaced };
}

/** requestPath is the URL path of a resource request: `/api/v1/namespaces/default/pods`. */
export function requestPath(mapping: KindMapping, version: string, namespace: string | undefined, name?: string): string {
  const root = mapping.group ? `/apis/${mapping.group}/${version}` : `/api/${version}`;
  const ns = mapping.namespaced && namespace ? `/namespaces/${namespace}` : '';
  return `${root}${ns}/${mapping.resource}${name ? `/${name}` : ''}`;
}

/** objectRefOf is the trace reference of a (maybe not yet named) object. */
export function objectRefOf(obj: Meta, name?: string): string {
  return objectRef(obj.kind ?? 'Unknown', obj.metadata?.namespace, name ?? obj.metadata?.name ?? obj.metadata?.generateName ?? '');
}
