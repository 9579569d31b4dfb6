// The `authorizer` CEL variable: Kubernetes' authz library over the simulated authorizer chain (Node, RBAC, ...).
// See staging/src/k8s.io/apiserver/pkg/cel/library/authz.go.
import type { Environment } from '@marcbachmann/cel-js';
import type { ClusterProfile } from '../../../../cluster/inputs';
import type { Store } from '../../../../cluster/store';
import type { authorize } from '../../../authz';
import type { AuthzAttributes } from '../../../authz/authorizer';
import type { UserInfo } from '../../../request';

/**
 * AuthorizerContext is what checks need: who asks, the cluster's authorizers, and the chain that runs them (carried
 * here, not imported, so that compiling an expression needs nothing of the authorizers).
 */
export interface AuthorizerContext {
  user: UserInfo;
  store: Store;
  profile: ClusterProfile;
  authorize: typeof authorize;
}

/** CelDecision is a Decision value: allowed(), reason(), errored(), error(). */
export class CelDecision {
  constructor(readonly allowed: boolean, readonly reason: string) {}
}

/** CelResourceCheck is a ResourceCheck value: the resource attributes built so far. */
export class CelResourceCheck {
  constructor(
    readonly ctx: AuthorizerContext,
    readonly group: string,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
  ) {}

  /** with returns a copy with the subresource, namespace or name set. */
  with(change: Partial<Pick<CelResourceCheck, 'subresource' | 'namespace' | 'name'>>): CelResourceCheck {
    return new CelResourceCheck(this.ctx, this.group, this.resource, change.subresource ?? this.subresource, change.namespace ?? this.namespace, change.name ?? this.name);
  }
}

/** CelGroupCheck is a GroupCheck value (authorizer.group(g)). */
export class CelGroupCheck {
  constructor(readonly ctx: AuthorizerContext, readonly group: string) {}
}

/** CelPathCheck is a PathCheck value (authorizer.path(p)). */
export class CelPathCheck {
  constructor(readonly ctx: AuthorizerContext, readonly path: string) {}
}

/** CelAuthorizer is the `authorizer` value; requestResource is `authorizer.requestResource`, the request's own resource. */
export class CelAuthorizer {
  constructor(readonly ctx: AuthorizerContext, readonly requestResource: CelResourceCheck) {}
}

/** decide runs the authorizer chain on one set of attributes. */
function decide(ctx: AuthorizerContext, attrs: Omit<AuthzAttributes, 'user'>): CelDecision {
  const outcome = ctx.authorize({ ...attrs, user: ctx.user }, ctx.store, ctx.profile);
  return new CelDecision(outcome.allowed, outcome.reason);
}

/**
 * registerAuthorizer declares the authz types and functions. Checks are resource checks with apiVersion `*`, or
 * non-resource path checks, as library/authz.go builds them; serviceAccount() asks as that service account.
 */
export function registerAuthorizer(env: Environment): void {
  env.registerType('kubernetes.authorization.Decision', CelDecision);
  env.registerType('kubernetes.authorization.ResourceCheck', CelResourceCheck);
  env.registerType('kubernetes.authorization.GroupCheck', CelGroupCheck);
  env.registerType('kubernetes.authorization.PathCheck', CelPathCheck);
  env.registerType('kubernetes.authorization.Authorizer', { ctor: CelAuthorizer, fields: { requestResource: 'kubernetes.authorization.ResourceCheck' } });
  const A = 'kubernetes.authorization.Authorizer';
  const R = 'kubernetes.authorization.ResourceCheck';
  const D = 'kubernetes.authorization.Decision';
  env.registerFunction(`${A}.group(string): kubernetes.authorization.GroupCheck`, (a: CelAuthorizer, g: string) => new CelGroupCheck(a.ctx, g));
  env.registerFunction(`${A}.path(string): kubernetes.authorization.PathCheck`, (a: CelAuthorizer, p: string) => new CelPathCheck(a.ctx, p));
  env.registerFunction(`${A}.serviceAccount(string, string): ${A}`, (a: CelAuthorizer, ns: string, name: string) => {
    const user: UserInfo = { name: `system:serviceaccount:${ns}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`] };
    const ctx = { ...a.ctx, user };
    return new CelAuthorizer(ctx, new CelResourceCheck(ctx, a.requestResource.group, a.requestResource.resource));
  });
  env.registerFunction(`kubernetes.authorization.GroupCheck.resource(string): ${R}`, (g: CelGroupCheck, r: string) => new CelResourceCheck(g.ctx, g.group, r));
  env.registerFunction(`${R}.subresource(string): ${R}`, (c: CelResourceCheck, s: string) => c.with({ subresource: s }));
  env.registerFunction(`${R}.namespace(string): ${R}`, (c: CelResourceCheck, s: string) => c.with({ namespace: s }));
  env.registerFunction(`${R}.name(string): ${R}`, (c: CelResourceCheck, s: string) => c.with({ name: s }));
  env.registerFunction(`${R}.check(string): ${D}`, (c: CelResourceCheck, verb: string) => decide(c.ctx, {
    verb, namespace: c.namespace, apiGroup: c.group, apiVersion: '*', resource: c.resource, subresource: c.subresource, name: c.name, resourceRequest: true, path: '',
  }));
  env.registerFunction(`kubernetes.authorization.PathCheck.check(string): ${D}`, (c: CelPathCheck, verb: string) => decide(c.ctx, {
    verb, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', resourceRequest: false, path: c.path,
  }));
  env.registerFunction(`${D}.allowed(): bool`, (d: CelDecision) => d.allowed);
  env.registerFunction(`${D}.reason(): string`, (d: CelDecision) => d.reason);
  env.registerFunction(`${D}.errored(): bool`, () => false);
  env.registerFunction(`${D}.error(): string`, () => '');
}
