// The RBAC authorizer: ClusterRoleBindings, then the RoleBindings of the request's namespace, grant their roles'
// rules to users, groups and service accounts; the first rule that covers the request allows it.
import type { ClusterRoleBinding, PolicyRule, RoleBinding, Subject } from '../../api/types';
import type { Store } from '../../cluster/store';
import type { UserInfo } from '../request';
import { aggregateMessage } from './aggregate';
import type { AuthzAttributes, Authorizer, AuthzResult } from './authorizer';
import { KindMemo } from '../../cluster/kind-memo';
import { roleReferenceRules } from './rbac-roles';
import { ruleAllows } from './rbac-rules';

/** RuleMatch says which rule of which role, through which binding, allowed a request. */
export interface RuleMatch {
  /** source is the describer's text: `ClusterRoleBinding "x" of ClusterRole "y" to Group "z"`. */
  source: string;
  binding: { kind: 'ClusterRoleBinding' | 'RoleBinding'; name: string; namespace?: string };
  roleRef: { kind: string; name: string };
  rule: PolicyRule;
  /** aggregatedFrom lists the ClusterRoles an aggregated role's rules came from. */
  aggregatedFrom?: string[];
}

/** BindingVisit is what the rule resolver saw of one binding that applies to the user, for the trace. */
export interface BindingVisit {
  binding: string;
  role: string;
  subject: string;
  rules?: number;
  error?: string;
}

/**
 * rbacAuthorizer allows on the first rule that covers the request, with the reason
 * `RBAC: allowed by <describer>`. Otherwise it has no opinion; the errors met resolving roles (a binding to a
 * missing role) become the reason `RBAC: <aggregate>`, e.g. `RBAC: clusterrole.rbac.authorization.k8s.io "x" not found`.
 * See plugin/pkg/auth/authorizer/rbac/rbac.go (Authorize, authorizingVisitor) and
 * pkg/registry/rbac/validation/rule.go (VisitRulesFor, describers, appliesTo).
 */
export const rbacAuthorizer: Authorizer = {
  name: 'RBAC',
  authorize(attrs, store) {
    const general = decisionKey(attrs);
    const kept = DECISIONS.get(store, general, () => decide(attrs, store));
    if (!kept.byName) return kept.result;
    // A rule with resourceNames was read: the decision is the request's name's own.
    return DECISIONS.get(store, `${general}\u0000${attrs.name}`, () => decide(attrs, store)).result;
  },
};

/** Decided is a decision and whether a rule with resourceNames was read on the way (then it holds for that name alone). */
interface Decided {
  result: AuthzResult;
  byName: boolean;
}

function decide(attrs: AuthzAttributes, store: Store): Decided {
  const visited: BindingVisit[] = [];
  const errors: string[] = [];
  const read = { byName: false };
  const match = visitRulesFor(attrs, store, visited, errors, read);
  if (match) return { result: { decision: 'Allow', reason: `RBAC: allowed by ${match.source}`, detail: { match, bindings: visited } }, byName: read.byName };
  return { result: { decision: 'NoOpinion', reason: errors.length ? `RBAC: ${aggregateMessage(errors)}` : '', detail: { bindings: visited, errors } }, byName: read.byName };
}

/**
 * DECISIONS keeps each store's decisions, by request, for as long as its bindings and roles stay the same: the
 * controllers and the scheduler of a big run make the same few requests thousands of times, and walking every binding
 * for each one was a few percent of the run. A decision and its detail are never changed once made, so they are shared.
 */
const DECISIONS = new KindMemo<Decided>(['ClusterRoleBinding', 'RoleBinding', 'ClusterRole', 'Role']);

/**
 * decisionKey is what a decision reads of a request but the name: the user's name and groups, then the verb and the
 * resource's attributes, or the verb and the path of a non-resource request.
 */
function decisionKey(a: AuthzAttributes): string {
  const what = a.resourceRequest ? [a.namespace, a.apiGroup, a.resource, a.subresource] : ['', a.path];
  return [a.user.name, a.user.groups.join('\u0001'), a.verb, ...what].join('\u0000');
}

/** visitRulesFor walks the bindings in the resolver's order and stops at the first rule that allows. */
function visitRulesFor(attrs: AuthzAttributes, store: Store, visited: BindingVisit[], errors: string[], read: { byName: boolean }): RuleMatch | undefined {
  for (const crb of store.list<ClusterRoleBinding>('ClusterRoleBinding')) {
    const name = crb.metadata?.name ?? '';
    const match = visitBinding(attrs, store, { kind: 'ClusterRoleBinding', name }, crb.roleRef, crb.subjects ?? [], '', visited, errors, read);
    if (match) return match;
  }
  if (!attrs.namespace) return undefined;
  for (const rb of store.list<RoleBinding>('RoleBinding', attrs.namespace)) {
    const name = rb.metadata?.name ?? '';
    const match = visitBinding(attrs, store, { kind: 'RoleBinding', name, namespace: attrs.namespace }, rb.roleRef, rb.subjects ?? [], attrs.namespace, visited, errors, read);
    if (match) return match;
  }
  return undefined;
}

function visitBinding(
  attrs: AuthzAttributes, store: Store, binding: RuleMatch['binding'], roleRef: ClusterRoleBinding['roleRef'], subjects: Subject[],
  namespace: string, visited: BindingVisit[], errors: string[], read: { byName: boolean },
): RuleMatch | undefined {
  const subject = subjects.find((s) => appliesToUser(attrs.user, s, namespace));
  if (!subject) return undefined;
  const bindingText = binding.kind === 'RoleBinding' ? `RoleBinding ${JSON.stringify(`${binding.name}/${namespace}`)}` : `ClusterRoleBinding ${JSON.stringify(binding.name)}`;
  const role = `${roleRef.kind} ${JSON.stringify(roleRef.name)}`;
  const subjectText = describeSubject(subject, namespace);
  const resolved = roleReferenceRules(store, roleRef, namespace);
  if ('error' in resolved) {
    errors.push(resolved.error);
    visited.push({ binding: bindingText, role, subject: subjectText, error: resolved.error });
    return undefined;
  }
  visited.push({ binding: bindingText, role, subject: subjectText, rules: resolved.rules.length });
  const rule = resolved.rules.find((r) => {
    if (r.resourceNames?.length) read.byName = true;
    return ruleAllows(attrs, r);
  });
  if (!rule) return undefined;
  return {
    source: `${bindingText} of ${role} to ${subjectText}`, binding, roleRef: { kind: roleRef.kind, name: roleRef.name }, rule,
    ...(resolved.aggregatedFrom ? { aggregatedFrom: resolved.aggregatedFrom } : {}),
  };
}

/**
 * appliesToUser: a User subject by name, a Group by membership, a ServiceAccount by its username, its namespace
 * defaulting to the binding's; a ServiceAccount with no namespace in a ClusterRoleBinding matches no one.
 */
export function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const saNamespace = subject.namespace || namespace;
      return saNamespace !== '' && user.name === `system:serviceaccount:${saNamespace}:${subject.name}`;
    }
    default:
      return false;
  }
}

/** describeSubject names a subject as the describers do: `User "bob"`, `ServiceAccount "name/namespace"`. */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') return `ServiceAccount ${JSON.stringify(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  return `${subject.kind} ${JSON.stringify(subject.name)}`;
}
