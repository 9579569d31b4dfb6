// The RBAC escalation check a binding's create goes through before the registry validates it: the policy-based
// storage of RoleBindings and ClusterRoleBindings. See pkg/registry/rbac/rolebinding/policybased/storage.go,
// pkg/registry/rbac/clusterrolebinding/policybased/storage.go (Create) and pkg/registry/rbac/escalation_check.go
// (EscalationAllowed, BindingAuthorized), k8s.io/kubernetes v1.36.3.
import type { KubeObject, RoleRef } from '../api/types';
import type { ClusterProfile } from '../cluster/inputs';
import type { Store } from '../cluster/store';
import { plainError } from './admission/errors';
import { authorize } from './authz';
import { SYSTEM_MASTERS } from './authz/privileged-group';
import { roleReferenceRules } from './authz/rbac-roles';
import { notFound, type StatusError, type UserInfo } from './request';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** EscalationCheck is what the check decided and why, for the trace. */
export type EscalationCheck = { passed: string } | { error: StatusError };

/**
 * bindingEscalationCheck runs the policy-based storage's Create guard: a member of system:masters passes
 * (EscalationAllowed), so does a user allowed to `bind` the referenced Role or ClusterRole (BindingAuthorized, asked
 * in the binding's namespace, "" for a ClusterRoleBinding). Otherwise the roleRef is resolved (GetRoleReferenceRules):
 * another kind is a plain error (500, `unsupported role reference kind: "X"`), a missing role NotFound.
 * ConfirmNoEscalation, the comparison of the role's rules with the user's own, is not made: a resolved role passes.
 */
export function bindingEscalationCheck(store: Store, profile: ClusterProfile, binding: KubeObject, namespace: string, user: UserInfo): EscalationCheck {
  if (user.groups.includes(SYSTEM_MASTERS)) return { passed: `escalation allowed: the user is in ${SYSTEM_MASTERS}` };
  const raw = (binding['roleRef'] ?? {}) as Partial<RoleRef>;
  const roleRef = { apiGroup: raw.apiGroup ?? '', kind: raw.kind ?? '', name: raw.name ?? '' } as RoleRef;
  if (roleRef.kind === 'Role' || roleRef.kind === 'ClusterRole') {
    const attrs = {
      user, verb: 'bind', namespace, apiGroup: roleRef.apiGroup, apiVersion: '*', resource: roleRef.kind === 'Role' ? 'roles' : 'clusterroles',
      subresource: '', name: roleRef.name, resourceRequest: true, path: '',
    };
    if (authorize(attrs, store, profile).allowed) return { passed: `the user may bind ${attrs.resource} "${roleRef.name}"` };
  }
  const resolved = roleReferenceRules(store, roleRef, namespace);
  if (!('error' in resolved)) return { passed: `the user is not allowed to bind ${roleRef.kind} "${roleRef.name}"; its rules were resolved` };
  // GetRoleReferenceRules: the listers' NotFound for a missing role, fmt.Errorf for another kind.
  if (roleRef.kind === 'Role' || roleRef.kind === 'ClusterRole') return { error: notFound(roleRef.kind.toLowerCase(), RBAC_GROUP, roleRef.name) };
  return { error: plainError(resolved.error) };
}
