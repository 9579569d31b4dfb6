// The RBAC authorizer: bindings grant roles' rules to users, groups and service accounts.
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../api/types';
import type { Store } from '../../cluster/store';
import type { UserInfo } from '../request';
import type { AuthzAttributes, Authorizer } from './authorizer';

/** RuleMatch says which rule of which role, through which binding, allowed a request. */
export interface RuleMatch {
  binding: string;
  role: string;
  subject: string;
  rule: PolicyRule;
}

/**
 * rbacAuthorizer visits ClusterRoleBindings, then the RoleBindings of the request's namespace,
 * and allows on the first rule that covers the request. Missing roles are errors that become the
 * reason of a denial (`RBAC: clusterrole.rbac.authorization.k8s.io "x" not found`).
 * See plugin/pkg/auth/authorizer/rbac/rbac.go and pkg/registry/rbac/validation/rule.go (VisitRulesFor).
 */
export const rbacAuthorizer: Authorizer = {
  name: 'RBAC',
  authorize(attrs, store) {
    const errors: string[] = [];
    const match = visitRules(attrs, store, errors);
    if (match) {
      return {
        decision: 'Allow',
        reason: `RBAC: allowed by ${match.binding} of ${match.role} to ${match.subject}`,
        detail: { ...match },
      };
    }
    return { decision: 'NoOpinion', reason: errors.length ? `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}` : '', detail: { errors } };
  },
};

function visitRules(attrs: AuthzAttributes, store: Store, errors: string[]): RuleMatch | undefined {
  for (const crb of store.list<ClusterRoleBinding>('ClusterRoleBinding')) {
    const subject = appliesTo(attrs.user, crb.subjects ?? [], '');
    if (subject === undefined) continue;
    const rules = roleRules(store, crb.roleRef.kind, crb.roleRef.name, '', errors);
    const rule = rules?.find((r) => ruleAllows(attrs, r));
    if (rule) return { binding: `ClusterRoleBinding "${crb.metadata?.name}"`, role: `ClusterRole "${crb.roleRef.name}"`, subject, rule };
  }
  if (!attrs.namespace) return undefined;
  for (const rb of store.list<RoleBinding>('RoleBinding', attrs.namespace)) {
    const subject = appliesTo(attrs.user, rb.subjects ?? [], attrs.namespace);
    if (subject === undefined) continue;
    const rules = roleRules(store, rb.roleRef.kind, rb.roleRef.name, attrs.namespace, errors);
    const rule = rules?.find((r) => ruleAllows(attrs, r));
    if (rule) {
      return { binding: `RoleBinding "${rb.metadata?.name}/${attrs.namespace}"`, role: `${rb.roleRef.kind} "${rb.roleRef.name}"`, subject, rule };
    }
  }
  return undefined;
}

function roleRules(store: Store, kind: string, name: string, namespace: string, errors: string[]): PolicyRule[] | undefined {
  if (kind === 'ClusterRole') {
    const role = store.get<ClusterRole>('ClusterRole', undefined, name);
    if (!role) errors.push(`clusterrole.rbac.authorization.k8s.io "${name}" not found`);
    return role?.rules ?? (role ? [] : undefined);
  }
  const role = store.get<Role>('Role', namespace, name);
  if (!role) errors.push(`role.rbac.authorization.k8s.io "${name}" not found`);
  return role?.rules ?? (role ? [] : undefined);
}

/**
 * appliesTo returns how a subject names the user (`User "bob"`, `Group "dev"`,
 * `ServiceAccount "default/app"`), or undefined when no subject covers it.
 * See pkg/registry/rbac/validation/rule.go (appliesToUser).
 */
function appliesTo(user: UserInfo, subjects: Subject[], bindingNamespace: string): string | undefined {
  for (const s of subjects) {
    if (s.kind === 'User' && s.name === user.name) return `User "${s.name}"`;
    if (s.kind === 'Group' && user.groups.includes(s.name)) return `Group "${s.name}"`;
    if (s.kind === 'ServiceAccount') {
      const ns = s.namespace || bindingNamespace;
      if (ns && user.name === `system:serviceaccount:${ns}:${s.name}`) return `ServiceAccount "${s.name}/${ns}"`;
    }
  }
  return undefined;
}

/** ruleAllows matches one PolicyRule against request attributes. See pkg/apis/rbac/v1/evaluation_helpers.go. */
export function ruleAllows(attrs: AuthzAttributes, rule: PolicyRule): boolean {
  if (!matches(rule.verbs, attrs.verb)) return false;
  if (!attrs.resourceRequest) {
    return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === attrs.path || (u.endsWith('*') && attrs.path.startsWith(u.slice(0, -1))));
  }
  if (!matches(rule.apiGroups ?? [], attrs.apiGroup)) return false;
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const resources = rule.resources ?? [];
  const resourceOk = resources.some((r) => r === '*' || r === combined || (attrs.subresource !== '' && r === `*/${attrs.subresource}`));
  if (!resourceOk) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(attrs.name);
}

function matches(list: string[], value: string): boolean {
  return list.includes('*') || list.includes(value);
}
