// Who the console's kubectl is, and `kubectl auth can-i` answered through the engine's real authorizer chain.
import { authorize } from '../apiserver/authz/index';
import type { AuthzAttributes } from '../apiserver/authz/authorizer';
import { forbiddenStatus } from '../apiserver/authz/forbidden';
import { authenticate } from '../apiserver/authn/index';
import type { Credentials } from '../apiserver/authn/authenticator';
import { authnEnv } from '../apiserver/authn/filter';
import { impersonate } from '../apiserver/authn/impersonation';
import { type StatusError, unauthorized, type UserInfo } from '../apiserver/request';
import { credentialsFor } from '../kubectl/credentials';
import { checkErr } from '../kubectl/errors';
import type { Simulation } from '../simulation';
import type { CommandResult } from './get';

/** credentialsOf is what kubectl presents for the run's identity (the same as the run's own kubectl). */
export function credentialsOf(sim: Simulation, as?: { user: string; groups: string[] }): Credentials {
  const base = credentialsFor(sim.inputs.identity);
  return as ? { ...base, impersonate: as } : base;
}

/** requestUser runs the authentication and impersonation filters: the user a request acts as, or its error. */
export function requestUser(sim: Simulation, credentials: Credentials): UserInfo | StatusError {
  const outcome = authenticate(credentials, authnEnv(sim.ctx));
  if (!outcome.user) return unauthorized();
  if (!credentials.impersonate) return outcome.user;
  const acting = impersonate(outcome.user, credentials.impersonate, sim.store, sim.ctx.profile);
  return 'error' in acting ? acting.error : acting.user;
}

/** checkAccess authorizes a resource request for a user: undefined when allowed, else the 403 the server sends. */
export function checkAccess(sim: Simulation, user: UserInfo, verb: string, resource: { resource: string; group: string }, namespace: string, name = ''): StatusError | undefined {
  const attrs = resourceAttributes(user, verb, resource.resource, '', resource.group, namespace, name);
  const verdict = authorize(attrs, sim.store, sim.ctx.profile);
  return verdict.allowed ? undefined : forbiddenStatus(attrs, verdict.reason);
}

function resourceAttributes(user: UserInfo, verb: string, resource: string, subresource: string, group: string, namespace: string, name: string): AuthzAttributes {
  const path = `/${group ? `apis/${group}` : 'api'}/v1${namespace ? `/namespaces/${namespace}` : ''}/${resource}${name ? `/${name}` : ''}`;
  return { user, verb, namespace, apiGroup: group, apiVersion: 'v1', resource, subresource, name, resourceRequest: true, path };
}

/** KNOWN_VERBS are the verbs can-i does not warn about. See staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go (resourceVerbs). */
const KNOWN_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'use', 'bind', 'impersonate', '*', 'approve', 'sign', 'escalate', 'attest'];

/** CanIRequest is what `kubectl auth can-i VERB RESOURCE[/SUBRESOURCE] [NAME]` asks. */
export interface CanIRequest {
  verb: string;
  resource: string;
  group: string;
  subresource: string;
  name: string;
  namespace: string;
  namespaced: boolean;
  as?: { user: string; groups: string[] };
}

/**
 * canI answers as kubectl auth can-i prints a SelfSubjectAccessReview: `yes`, or `no` with ` - <reason>` when the
 * authorizers gave one (the server fills status.reason with the chain's reason). A cluster-scoped resource asked
 * in a namespace gets kubectl's warning first. See staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go (RunAccessCheck)
 * and pkg/registry/authorization/selfsubjectaccessreview/rest.go.
 */
export function canI(sim: Simulation, req: CanIRequest): CommandResult {
  const lines: string[] = [];
  if (req.namespace && !req.namespaced && req.resource) {
    lines.push(req.group ? `Warning: resource '${req.resource}' is not namespace scoped in group '${req.group}'` : `Warning: resource '${req.resource}' is not namespace scoped`);
  }
  if (!KNOWN_VERBS.includes(req.verb)) lines.push(`Warning: verb '${req.verb}' is not a known verb`);
  const user = requestUser(sim, credentialsOf(sim, req.as));
  if ('status' in user) return { error: [...lines, checkErr(user)].join('\n') };
  // The question is itself a request: creating a SelfSubjectAccessReview, which system:basic-user grants the authenticated.
  const refused = checkAccess(sim, user, 'create', { resource: 'selfsubjectaccessreviews', group: 'authorization.k8s.io' }, '');
  if (refused) return { error: [...lines, checkErr(refused)].join('\n') };
  const attrs = resourceAttributes(user, req.verb, req.resource, req.subresource, req.group, req.namespace, req.name);
  const verdict = authorize(attrs, sim.store, sim.ctx.profile);
  lines.push(verdict.allowed ? 'yes' : `no${verdict.reason ? ` - ${verdict.reason}` : ''}`);
  return { output: lines.join('\n') };
}
