// kube-apiserver's request pipeline: authentication, authorization, then the verb's handler (create, get, delete).
import { generateName } from '../api/naming';
import { type KubeObject, type Meta, objectRef } from '../api/types';
import type { EngineContext } from '../context';
import { RESOURCES } from '../cluster/store';
import type { PhaseName } from '../runtime/phases';
import type { Steps } from '../runtime/step';
import { authenticate } from './authn';
import { authorize, forbiddenMessage } from './authz';
import type { AuthzAttributes } from './authz/authorizer';
import { createObject } from './create';
import { deleteObject, type DeleteOptions } from './delete';
import { type ApiRequest, forbidden, notFound, StatusError, unauthorized, type UserInfo } from './request';

/** ApiOutcome is the server's answer to one request: the object, or the error and the phase that produced it. */
export type ApiOutcome =
  | { ok: true; code: number; object?: KubeObject; gone?: boolean; warnings?: string[] }
  | { ok: false; error: StatusError; phase: PhaseName };

/** ApiServer serves requests against the store, recording every decision. */
export class ApiServer {
  constructor(private readonly ctx: EngineContext) {}

  /**
   * serve runs one request through the pipeline. `ref` is the object the trace speaks of (its
   * thread); for a create by generateName it is made from the name the registry will give.
   */
  *serve(req: ApiRequest, ref?: string, deleteOptions: DeleteOptions = {}): Steps<ApiOutcome> {
    const meta = req.object?.metadata;
    // The registry assigns a generated name after admission; it is drawn here so the trace follows the object by it.
    const plannedName = req.verb === 'create' && !meta?.name && meta?.generateName ? generateName(meta.generateName, this.ctx.rng) : undefined;
    ref ??= objectRef(req.kind, req.namespace, plannedName ?? req.name ?? meta?.name ?? '');
    const user = yield* this.authenticate(req, ref);
    if (user instanceof StatusError) return { ok: false, error: user, phase: 'apiserver.authenticate' };
    if (!user) return { ok: false, error: unauthorized(), phase: 'apiserver.authenticate' };
    req.user = user;
    const denied = yield* this.authorize(req, ref, user);
    if (denied) return { ok: false, error: denied, phase: 'apiserver.authorize' };
    switch (req.verb) {
      case 'create':
        return yield* createObject(this.ctx, req, ref, plannedName);
      case 'get': {
        const obj = this.ctx.store.get(req.kind, req.namespace, req.name ?? '');
        if (!obj) return { ok: false, error: notFound(req.resource, req.group, req.name ?? ''), phase: 'apiserver.authorize' };
        return { ok: true, code: 200, object: obj };
      }
      case 'delete':
        return yield* deleteObject(this.ctx, req, ref, deleteOptions);
      default:
        return { ok: false, error: new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `the server does not allow this method on the requested resource`, reason: 'MethodNotAllowed', code: 405 }), phase: 'apiserver.authorize' };
    }
  }

  private *authenticate(req: ApiRequest, ref: string): Steps<UserInfo | StatusError | undefined> {
    const outcome = authenticate(req, this.ctx.profile, this.ctx.store);
    const user = outcome.user;
    const accepted = outcome.steps.find((s) => s.result === 'accepted');
    const imp = req.credentials.impersonate;
    yield {
      phase: 'apiserver.authenticate', object: ref,
      result: user
        ? `authenticated as "${user.name}" by ${accepted?.authenticator} (groups: ${user.groups.join(', ')})${imp ? `, impersonating "${imp.user}"` : ''}`
        : 'no authenticator accepted the credentials: 401 Unauthorized',
      detail: { request: `${req.method} ${req.path}`, user, authenticators: outcome.steps, ...(imp ? { impersonate: imp } : {}) },
      outcome: user ? 'ok' : 'rejected',
    };
    for (const s of outcome.steps) {
      yield {
        phase: 'apiserver.authenticate', object: ref, step: { kind: 'authenticator', name: s.authenticator },
        result: s.result === 'accepted' ? `accepted: user "${s.user?.name}"` : s.result === 'error' ? `error: ${s.error}` : 'no opinion: the request carries no credentials it reads',
        detail: { ...s },
      };
    }
    if (user && imp) return yield* this.impersonate(req, ref, user, imp);
    return user;
  }

  /**
   * impersonate checks that the authenticated user may impersonate the requested user and groups,
   * then acts as them. See staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go.
   */
  private *impersonate(req: ApiRequest, ref: string, user: UserInfo, imp: { user: string; groups: string[] }): Steps<UserInfo | StatusError> {
    const checks: { resource: string; name: string }[] = [{ resource: 'users', name: imp.user }, ...imp.groups.map((g) => ({ resource: 'groups', name: g }))];
    for (const c of checks) {
      const attrs: AuthzAttributes = { user, verb: 'impersonate', namespace: '', apiGroup: '', apiVersion: 'v1', resource: c.resource, subresource: '', name: c.name, resourceRequest: true, path: req.path };
      const verdict = authorize(attrs, this.ctx.store, this.ctx.profile);
      if (!verdict.allowed) {
        const reason = `${forbiddenMessage(attrs)}${verdict.reason ? `: ${verdict.reason}` : ''}`;
        yield { phase: 'apiserver.authenticate', object: ref, step: { kind: 'authorizer', name: 'impersonation' }, result: `impersonation refused: ${reason}`, detail: { ...verdict }, outcome: 'rejected' };
        return forbidden(c.resource, '', c.name, reason);
      }
    }
    const groups = [...imp.groups];
    if (!groups.includes('system:authenticated')) groups.push('system:authenticated');
    const acting: UserInfo = { name: imp.user, groups };
    yield { phase: 'apiserver.authenticate', object: ref, step: { kind: 'authorizer', name: 'impersonation' }, result: `"${user.name}" impersonates "${imp.user}" (groups: ${groups.join(', ')})`, detail: { impersonator: user, user: acting } };
    return acting;
  }

  private *authorize(req: ApiRequest, ref: string, user: UserInfo): Steps<StatusError | undefined> {
    const attrs: AuthzAttributes = {
      user, verb: req.verb, namespace: req.namespace ?? '', apiGroup: req.group, apiVersion: req.apiVersion.split('/').pop() ?? 'v1',
      resource: req.resource, subresource: req.subresource ?? '', name: req.verb === 'create' ? '' : req.name ?? '', resourceRequest: true, path: req.path,
    };
    const verdict = authorize(attrs, this.ctx.store, this.ctx.profile);
    const deciding = verdict.steps.find((s) => s.decision === 'Allow');
    const message = verdict.allowed ? '' : `${forbiddenMessage(attrs)}${verdict.reason ? `: ${verdict.reason}` : ''}`;
    yield {
      phase: 'apiserver.authorize', object: ref, field: 'metadata.namespace',
      result: verdict.allowed ? `allowed by ${deciding?.authorizer}${deciding?.reason ? ` (${deciding.reason})` : ''}` : `forbidden: ${message}`,
      detail: { attributes: { user: user.name, groups: user.groups, verb: attrs.verb, resource: attrs.resource, apiGroup: attrs.apiGroup, namespace: attrs.namespace, name: attrs.name }, modes: verdict.steps },
      outcome: verdict.allowed ? 'ok' : 'rejected',
    };
    for (const s of verdict.steps) {
      yield { phase: 'apiserver.authorize', object: ref, step: { kind: 'authorizer', name: s.authorizer }, result: `${s.decision}${s.reason ? `: ${s.reason}` : ''}`, detail: { ...s } };
    }
    return verdict.allowed ? undefined : forbidden(req.resource, req.group, attrs.name || undefined, message);
  }
}

/** KindMapping is what kubectl's RESTMapper knows of a kind: its group, versions and resource. */
export interface KindMapping {
  group: string;
  versions: string[];
  resource: string;
  namespaced: boolean;
}

const VERSIONS: Readonly<Record<string, string[]>> = {
  '': ['v1'], apps: ['v1'], batch: ['v1'], 'rbac.authorization.k8s.io': ['v1'], 'scheduling.k8s.io': ['v1'],
  'node.k8s.io': ['v1'], 'storage.k8s.io': ['v1'], policy: ['v1'], 'discovery.k8s.io': ['v1'],
};

/** mappingFor finds the resource of an apiVersion and kind, as the RESTMapper does; undefined when it has no match. */
export function mappingFor(apiVersion: string, kind: string): KindMapping | undefined {
  const info = RESOURCES[kind];
  if (!info) return undefined;
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
  if (group !== info.group || !(VERSIONS[group] ?? []).includes(version)) return undefined;
  return { group, versions: VERSIONS[group] ?? [], resource: info.resource, namespaced: info.namespaced };
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
