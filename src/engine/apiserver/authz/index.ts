// The authorizer chain: system:masters first, then the modes of --authorization-mode in order; the first Allow or
// Deny decides, and a request nobody allows is forbidden with the reasons gathered on the way.
import type { ClusterProfile } from '../../cluster/inputs';
import type { Store } from '../../cluster/store';
import { abacAuthorizer } from './abac';
import { alwaysAllow, alwaysDeny } from './always';
import type { AuthzAttributes, Authorizer, AuthzResult, Decision } from './authorizer';
import { nodeAuthorizer } from './node';
import { privilegedGroupAuthorizer } from './privileged-group';
import { rbacAuthorizer } from './rbac';
import { webhookAuthorizer } from './webhook';

export { forbiddenMessage, forbiddenStatus } from './forbidden';

/** AUTHORIZERS maps each --authorization-mode name to its authorizer (pkg/kubeapiserver/authorizer/modes). */
export const AUTHORIZERS: Readonly<Record<string, Authorizer>> = {
  AlwaysAllow: alwaysAllow,
  AlwaysDeny: alwaysDeny,
  ABAC: abacAuthorizer,
  Webhook: webhookAuthorizer,
  RBAC: rbacAuthorizer,
  Node: nodeAuthorizer,
};

/** AuthzStep is what one authorizer said, for the trace. */
export interface AuthzStep extends AuthzResult {
  authorizer: string;
}

/** AuthzOutcome is the chain's verdict with each authorizer's answer. */
export interface AuthzOutcome {
  allowed: boolean;
  decision: Decision;
  /** reason is the deciding authorizer's reason, or the reasons of all of them joined by newlines when none decided. */
  reason: string;
  /** authorizer names the one that decided, when one did. */
  authorizer?: string;
  steps: AuthzStep[];
}

/**
 * authorize asks the superuser authorizer, then each mode in order, as the union authorizer does: the first Allow
 * or Deny ends it with that authorizer's reason; when all have no opinion, the non-empty reasons are joined with
 * newlines. See staging/src/k8s.io/apiserver/pkg/authorization/union/union.go and
 * pkg/kubeapiserver/authorizer/reload.go (newForConfig).
 */
export function authorize(attrs: AuthzAttributes, store: Store, profile: ClusterProfile): AuthzOutcome {
  const steps: AuthzStep[] = [];
  const reasons: string[] = [];
  const chain: [string, Authorizer][] = [[privilegedGroupAuthorizer.name, privilegedGroupAuthorizer]];
  for (const mode of profile.authorization.modes) {
    const a = AUTHORIZERS[mode];
    if (a) chain.push([mode, a]);
  }
  for (const [name, a] of chain) {
    const r = a.authorize(attrs, store, profile);
    steps.push({ authorizer: name, ...r });
    if (r.reason) reasons.push(r.reason);
    if (r.decision !== 'NoOpinion') return { allowed: r.decision === 'Allow', decision: r.decision, reason: r.reason, authorizer: name, steps };
  }
  return { allowed: false, decision: 'NoOpinion', reason: reasons.join('\n'), steps };
}
