// SelfSubjectAccessReview (kubectl auth can-i): the request's own identity, from its credentials, asked of the engine's
// authorizer chain for the attributes in the spec; the answer is the review with status {allowed, denied, reason}.
// SelfSubjectRulesReview (kubectl auth can-i --list): the rules the chain's rule resolvers give the identity.
// See pkg/registry/authorization/{selfsubjectaccessreview,selfsubjectrulesreview}/rest.go and util/helpers.go.
import { isObject, type KubeObject } from '../engine/api/types';
import type { Credentials } from '../engine/apiserver/authn/authenticator';
import type { AuthzAttributes } from '../engine/apiserver/authz/authorizer';
import { authorize } from '../engine/apiserver/authz/index';
import { rulesFor } from '../engine/apiserver/authz/rules-for';
import { badRequest, invalid } from '../engine/apiserver/request';
import type { ApiOutcome } from '../engine/apiserver/server';
import type { LiveCluster } from './live-cluster';

/** ResourceAttributes and NonResourceAttributes are the two shapes of what a review asks about (authorization/v1). */
interface ReviewAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  path?: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * reviewAttributes is ResourceAttributesFrom / NonResourceAttributesFrom: the spec's attributes for the user; a spec
 * with neither or both is ValidateSelfSubjectAccessReviewSpec's 422 (pkg/apis/authorization/validation/validation.go).
 */
function reviewAttributes(spec: Record<string, unknown>): Omit<AuthzAttributes, 'user'> {
  const r = spec['resourceAttributes'];
  const n = spec['nonResourceAttributes'];
  const fail = (field: string, message: string) => invalid('SelfSubjectAccessReview', 'authorization.k8s.io', '', [{ reason: 'FieldValueInvalid', field, message }]);
  if (isObject(r) && isObject(n)) throw fail('spec.nonResourceAttributes', `Invalid value: ${JSON.stringify(n)}: cannot be specified in combination with resourceAttributes`);
  if (isObject(r)) {
    const a = r as ReviewAttributes;
    return {
      verb: str(a.verb), namespace: str(a.namespace), apiGroup: str(a.group), apiVersion: str(a.version), resource: str(a.resource),
      subresource: str(a.subresource), name: str(a.name), resourceRequest: true, path: '',
    };
  }
  if (isObject(n)) {
    const a = n as ReviewAttributes;
    return { verb: str(a.verb), namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', resourceRequest: false, path: str(a.path) };
  }
  throw fail('spec.resourceAttributes', 'Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified');
}

/**
 * selfSubjectAccessReview authenticates the request and authorizes its create of selfsubjectaccessreviews, then
 * answers the review: allowed on an Allow, denied on a Deny, and the chain's reason (201 Created, as a create).
 */
export function selfSubjectAccessReview(cluster: LiveCluster, review: Record<string, unknown>, credentials: Credentials, path: string): Promise<ApiOutcome> {
  const spec = isObject(review['spec']) ? review['spec'] : {};
  const ref = 'SelfSubjectAccessReview/';
  return cluster.request(`POST ${path}`, { spec, credentials, path }, function* (sim, { spec, credentials, path }) {
    const checked = yield* sim.api.check({ method: 'GET', path, resource: { verb: 'create', group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews' }, credentials }, ref);
    if (!checked.ok) return checked;
    const attrs = { ...reviewAttributes(spec), user: checked.user };
    const verdict = authorize(attrs, sim.store, sim.inputs.cluster.profile);
    const status = { allowed: verdict.decision === 'Allow', ...(verdict.decision === 'Deny' ? { denied: true } : {}), ...(verdict.reason ? { reason: verdict.reason } : {}) };
    yield {
      phase: 'apiserver.authorize', object: ref, outcome: 'ok',
      result: `SelfSubjectAccessReview for "${checked.user.name}": ${attrs.resourceRequest ? `${attrs.verb} ${attrs.resource}` : `${attrs.verb} ${attrs.path}`} is ${status.allowed ? 'allowed' : 'not allowed'}${verdict.reason ? ` (${verdict.reason})` : ''}`,
      detail: { attributes: { ...attrs, user: checked.user.name }, decision: verdict.decision, reason: verdict.reason },
    };
    const object = { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: {}, spec, status };
    return { ok: true, code: 201, object: object as unknown as KubeObject };
  });
}

/**
 * selfSubjectRulesReview authenticates the request and authorizes its create of selfsubjectrulesreviews, then lists
 * the rules of its user in spec.namespace (a review without one is rest.go's 400 `no namespace on request`).
 */
export function selfSubjectRulesReview(cluster: LiveCluster, review: Record<string, unknown>, credentials: Credentials, path: string): Promise<ApiOutcome> {
  const spec = isObject(review['spec']) ? review['spec'] : {};
  const ref = 'SelfSubjectRulesReview/';
  return cluster.request(`POST ${path}`, { namespace: str(spec['namespace']), credentials, path }, function* (sim, { namespace, credentials, path }) {
    const checked = yield* sim.api.check({ method: 'GET', path, resource: { verb: 'create', group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews' }, credentials }, ref);
    if (!checked.ok) return checked;
    if (!namespace) return { ok: false, error: badRequest('no namespace on request'), phase: 'apiserver.authorize' };
    const status = rulesFor(checked.user, namespace, sim.store, sim.inputs.cluster.profile);
    yield {
      phase: 'apiserver.authorize', object: ref, outcome: 'ok',
      result: `SelfSubjectRulesReview for "${checked.user.name}" in "${namespace}": ${status.resourceRules.length} resource rule(s), ${status.nonResourceRules.length} non-resource rule(s)${status.incomplete ? ' (incomplete)' : ''}`,
      detail: { user: checked.user.name, namespace, ...status },
    };
    const object = { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: {}, spec: { namespace }, status };
    return { ok: true, code: 201, object: object as unknown as KubeObject };
  });
}
