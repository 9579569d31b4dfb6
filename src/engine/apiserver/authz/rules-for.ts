// The authorizer chain's rule resolvers (authorizer.RuleResolver): what a user may do in a namespace, as a
// SelfSubjectRulesReview (kubectl auth can-i --list) reports it. See
// staging/src/k8s.io/apiserver/pkg/authorization/union/union.go (unionAuthzRulesHandler.RulesFor),
// plugin/pkg/auth/authorizer/rbac/rbac.go (RulesFor) and pkg/registry/rbac/validation/rule.go (VisitRulesFor).
import type { ClusterProfile } from '../../cluster/inputs';
import type { ClusterRoleBinding, PolicyRule, RoleBinding, Subject } from '../../api/types';
import type { Store } from '../../cluster/store';
import type { UserInfo } from '../request';
import { aggregateMessage } from './aggregate';
import { appliesToUser } from './rbac';
import { roleReferenceRules } from './rbac-roles';

/** ResourceRule is an authorization/v1 ResourceRule. */
export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

/** NonResourceRule is an authorization/v1 NonResourceRule. */
export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

/** SubjectRulesReviewStatus is what the rule resolvers answer together. */
export interface SubjectRulesReviewStatus {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  evaluationError?: string;
}

/** RulesOf is one rule resolver's answer. */
interface RulesOf {
  resource: ResourceRule[];
  nonResource: NonResourceRule[];
  incomplete: boolean;
  error?: string;
}

const some = <T>(list: readonly T[] | undefined): T[] | undefined => (list && list.length ? [...list] : undefined);

/**
 * visitRulesFor is the default rule resolver's VisitRulesFor: every rule of every binding that applies to the user,
 * the ClusterRoleBindings' first, then the RoleBindings' of the namespace (none for ""); it returns the errors of the
 * roleRefs that do not resolve. See pkg/registry/rbac/validation/rule.go (VisitRulesFor), v1.36.3.
 */
export function visitRulesFor(user: UserInfo, namespace: string, store: Store, visit: (rule: PolicyRule) => void): string[] {
  const errors: string[] = [];
  const visitBinding = (roleRef: ClusterRoleBinding['roleRef'], subjects: Subject[], bindingNamespace: string): void => {
    if (!subjects.some((s) => appliesToUser(user, s, bindingNamespace))) return;
    const resolved = roleReferenceRules(store, roleRef, bindingNamespace);
    if ('error' in resolved) {
      errors.push(resolved.error);
      return;
    }
    for (const rule of resolved.rules) visit(rule);
  };
  for (const crb of store.list<ClusterRoleBinding>('ClusterRoleBinding')) visitBinding(crb.roleRef, crb.subjects ?? [], '');
  if (namespace) for (const rb of store.list<RoleBinding>('RoleBinding', namespace)) visitBinding(rb.roleRef, rb.subjects ?? [], namespace);
  return errors;
}

/** rbacRulesFor is RBACAuthorizer.RulesFor: every rule of every binding that applies, cluster-wide ones first. */
function rbacRulesFor(user: UserInfo, namespace: string, store: Store): RulesOf {
  const out: RulesOf = { resource: [], nonResource: [], incomplete: false };
  const errors = visitRulesFor(user, namespace, store, (rule) => addRule(out, rule));
  return { ...out, ...(errors.length ? { error: aggregateMessage(errors) } : {}) };
}

/** addRule splits a PolicyRule into its resource and non-resource halves, as rbac.go does. */
function addRule(out: RulesOf, rule: PolicyRule): void {
  if (rule.resources?.length) {
    out.resource.push({ verbs: [...(rule.verbs ?? [])], ...(some(rule.apiGroups) ? { apiGroups: some(rule.apiGroups) } : {}), resources: [...rule.resources], ...(some(rule.resourceNames) ? { resourceNames: some(rule.resourceNames) } : {}) });
  }
  if (rule.nonResourceURLs?.length) out.nonResource.push({ verbs: [...(rule.verbs ?? [])], nonResourceURLs: [...rule.nonResourceURLs] });
}

/** isNode is NodeIdentity: a user named system:node:<name> in the group system:nodes. */
const isNode = (user: UserInfo): boolean => user.name.startsWith('system:node:') && user.groups.includes('system:nodes');

/** resolverOf is the rule resolver of an authorization mode; the privileged group authorizer has none. */
function resolverOf(mode: string, user: UserInfo, namespace: string, store: Store): RulesOf | undefined {
  switch (mode) {
    case 'RBAC': return rbacRulesFor(user, namespace, store);
    // Nodes do not have fully enumerated permissions (node_authorizer.go RulesFor).
    case 'Node': return isNode(user) ? { resource: [], nonResource: [], incomplete: true, error: 'node authorizer does not support user rule resolution' } : undefined;
    case 'AlwaysAllow': return { resource: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResource: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false };
    case 'AlwaysDeny': return { resource: [], nonResource: [], incomplete: false };
    case 'Webhook': return { resource: [], nonResource: [], incomplete: true, error: 'webhook authorizer does not support user rule resolution' };
    // ABAC's rules (abac.go RulesFor) are not enumerated here: reported as incomplete.
    default: return { resource: [], nonResource: [], incomplete: true };
  }
}

/**
 * rulesFor is the union rule resolver over the profile's authorization modes, in order: their rules concatenated,
 * incomplete if any is, and their errors aggregated into the evaluationError.
 */
export function rulesFor(user: UserInfo, namespace: string, store: Store, profile: ClusterProfile): SubjectRulesReviewStatus {
  const status: SubjectRulesReviewStatus = { resourceRules: [], nonResourceRules: [], incomplete: false };
  const errors: string[] = [];
  for (const mode of profile.authorization.modes) {
    const r = resolverOf(mode, user, namespace, store);
    if (!r) continue;
    status.resourceRules.push(...r.resource);
    status.nonResourceRules.push(...r.nonResource);
    status.incomplete ||= r.incomplete;
    if (r.error) errors.push(r.error);
  }
  return errors.length ? { ...status, evaluationError: aggregateMessage(errors) } : status;
}
