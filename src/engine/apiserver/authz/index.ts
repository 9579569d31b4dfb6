// The union authorizer: the modes of --authorization-mode in order; the first Allow or Deny decides.
import type { ClusterProfile } from '../../cluster/inputs';
import type { Store } from '../../cluster/store';
import { alwaysAllow, alwaysDeny } from './always';
import type { AuthzAttributes, Authorizer, AuthzResult } from './authorizer';
import { nodeAuthorizer } from './node';
import { rbacAuthorizer } from './rbac';

/** AUTHORIZERS maps each --authorization-mode name to its authorizer. ABAC and Webhook come later. */
export const AUTHORIZERS: Readonly<Record<string, Authorizer>> = {
  Node: nodeAuthorizer,
  RBAC: rbacAuthorizer,
  AlwaysAllow: alwaysAllow,
  AlwaysDeny: alwaysDeny,
};

/** AuthzStep is what one mode said, for the trace. */
export interface AuthzStep extends AuthzResult {
  authorizer: string;
}

/** AuthzOutcome is the chain's verdict with each mode's answer. */
export interface AuthzOutcome {
  allowed: boolean;
  /** reason joins the reasons of the modes that did not allow, one a line, as the union authorizer does. */
  reason: string;
  steps: AuthzStep[];
}

/**
 * authorize asks each mode in order. See staging/src/k8s.io/apiserver/pkg/authorization/union/union.go:
 * the first Allow or Deny ends it; the reasons of the others are joined with newlines.
 */
export function authorize(attrs: AuthzAttributes, store: Store, profile: ClusterProfile): AuthzOutcome {
  const steps: AuthzStep[] = [];
  const reasons: string[] = [];
  for (const mode of profile.authorization.modes) {
    const authorizer = AUTHORIZERS[mode];
    if (!authorizer) continue;
    const r = authorizer.authorize(attrs, store, profile);
    steps.push({ authorizer: mode, ...r });
    if (r.decision === 'Allow') return { allowed: true, reason: r.reason, steps };
    if (r.reason) reasons.push(r.reason);
    if (r.decision === 'Deny') break;
  }
  return { allowed: false, reason: reasons.join('\n'), steps };
}

/**
 * forbiddenMessage is the sentence of a 403 before its reason.
 * See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go (forbiddenMessage).
 */
export function forbiddenMessage(attrs: AuthzAttributes): string {
  if (!attrs.resourceRequest) return `User "${attrs.user.name}" cannot ${attrs.verb} path "${attrs.path}"`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  if (attrs.namespace) {
    return `User "${attrs.user.name}" cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup}" in the namespace "${attrs.namespace}"`;
  }
  return `User "${attrs.user.name}" cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup}" at the cluster scope`;
}
