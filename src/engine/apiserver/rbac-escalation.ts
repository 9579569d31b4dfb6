// The RBAC escalation checks a write of a Role, ClusterRole, RoleBinding or ClusterRoleBinding goes through before the
// registry validates it: the policy-based storages. A member of system:masters passes (EscalationAllowed). A role
// passes for a user allowed to `escalate` it (RoleEscalationAuthorized), a binding for one allowed to `bind` its role
// (BindingAuthorized); otherwise the rules granted must be covered by the user's own (ConfirmNoEscalation), and an
// aggregationRule needs full authority. An update that changes only the fields the garbage collector writes passes
// (IsOnlyMutatingGCFields). See pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased/
// storage.go (Create, Update), pkg/registry/rbac/escalation_check.go and pkg/registry/rbac/validation/rule.go
// (ConfirmNoEscalation, GetRoleReferenceRules), k8s.io/kubernetes v1.36.3.
import type { KubeObject, PolicyRule, RoleRef } from '../api/types';
import { jsonEqual } from '../api/json-equal';
import type { ClusterProfile } from '../cluster/inputs';
import type { Store } from '../cluster/store';
import type { TraceInput } from '../runtime/recorder';
import { plainError } from './admission/errors';
import { authorize } from './authz';
import { SYSTEM_MASTERS } from './authz/privileged-group';
import { confirmNoEscalation } from './authz/rbac-covers';
import { roleReferenceRules } from './authz/rbac-roles';
import { forbidden, notFound, type StatusError, type UserInfo } from './request';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** RESOURCES are the RBAC kinds' resources, the policy-based storages' group resources. */
const RESOURCES: Readonly<Record<string, string>> = { Role: 'roles', ClusterRole: 'clusterroles', RoleBinding: 'rolebindings', ClusterRoleBinding: 'clusterrolebindings' };

/** FULL_AUTHORITY is what an aggregationRule needs: every verb on every resource and URL. */
const FULL_AUTHORITY: readonly PolicyRule[] = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }];

/** EscalationCheck is what the check decided and why, for the trace. */
export type EscalationCheck = { passed: string } | { error: StatusError };

/** Write is the object written, the namespace of the request ("" for a cluster-wide kind), its user, and the stored object on update. */
interface Write {
  obj: KubeObject;
  namespace: string;
  user: UserInfo;
  old?: KubeObject;
}

/**
 * onlyGCFields is IsOnlyMutatingGCFields: the update equals the stored object once its owner references, finalizers
 * and managed fields are the stored ones.
 */
function onlyGCFields(obj: KubeObject, old: KubeObject): boolean {
  const keep = { ownerReferences: old.metadata?.ownerReferences, finalizers: old.metadata?.finalizers, managedFields: old.metadata?.managedFields };
  return jsonEqual({ ...obj, metadata: { ...obj.metadata, ...keep } }, old);
}

/** confirm is ConfirmNoEscalation of `rules` as the storage answers it: Forbidden for the written object, naming what is missing. */
function confirm(store: Store, w: Write, rules: readonly PolicyRule[], passed: string): EscalationCheck {
  const missing = confirmNoEscalation(store, w.user, w.namespace, rules);
  return missing === undefined ? { passed } : { error: forbidden(RESOURCES[String(w.obj.kind)]!, RBAC_GROUP, w.obj.metadata?.name ?? '', missing) };
}

/** roleCheck is a Role's or ClusterRole's storage guard. */
function roleCheck(store: Store, profile: ClusterProfile, w: Write): EscalationCheck {
  const resource = RESOURCES[String(w.obj.kind)]!;
  // RoleEscalationAuthorized asks with the request's name: none on a create (a POST to the collection).
  const attrs = {
    user: w.user, verb: 'escalate', namespace: w.namespace, apiGroup: RBAC_GROUP, apiVersion: '*', resource, subresource: '',
    name: w.old ? (w.obj.metadata?.name ?? '') : '', resourceRequest: true, path: '',
  };
  if (authorize(attrs, store, profile).allowed) return { passed: `the user may escalate ${resource}` };
  if (w.old && onlyGCFields(w.obj, w.old)) return { passed: 'only the fields the garbage collector writes changed' };
  const checked = confirm(store, w, (w.obj['rules'] ?? []) as PolicyRule[], 'the user holds every permission the role grants');
  if ('error' in checked) return checked;
  const aggregates = (o: KubeObject | undefined): boolean => ((o?.['aggregationRule'] as { clusterRoleSelectors?: unknown[] } | undefined)?.clusterRoleSelectors ?? []).length > 0;
  if (w.obj.kind !== 'ClusterRole' || !(aggregates(w.obj) || aggregates(w.old))) return checked;
  if (confirmNoEscalation(store, w.user, w.namespace, FULL_AUTHORITY) === undefined) return { passed: 'the user holds every permission, as an aggregationRule needs' };
  return { error: forbidden(resource, RBAC_GROUP, w.obj.metadata?.name ?? '', 'must have cluster-admin privileges to use the aggregationRule') };
}

/** bindingCheck is a RoleBinding's or ClusterRoleBinding's storage guard. */
function bindingCheck(store: Store, profile: ClusterProfile, w: Write): EscalationCheck {
  if (w.old && onlyGCFields(w.obj, w.old)) return { passed: 'only the fields the garbage collector writes changed' };
  const raw = (w.obj['roleRef'] ?? {}) as Partial<RoleRef>;
  const roleRef = { apiGroup: raw.apiGroup ?? '', kind: raw.kind ?? '', name: raw.name ?? '' } as RoleRef;
  if (roleRef.kind === 'Role' || roleRef.kind === 'ClusterRole') {
    const attrs = {
      user: w.user, verb: 'bind', namespace: w.namespace, apiGroup: roleRef.apiGroup, apiVersion: '*', resource: roleRef.kind === 'Role' ? 'roles' : 'clusterroles',
      subresource: '', name: roleRef.name, resourceRequest: true, path: '',
    };
    if (authorize(attrs, store, profile).allowed) return { passed: `the user may bind ${attrs.resource} "${roleRef.name}"` };
  }
  const resolved = roleReferenceRules(store, roleRef, w.namespace);
  if (!('error' in resolved)) return confirm(store, w, resolved.rules, `the user may not bind ${roleRef.kind} "${roleRef.name}", but holds every permission it grants`);
  // GetRoleReferenceRules: the listers' NotFound for a missing role, fmt.Errorf for another kind.
  if (roleRef.kind === 'Role' || roleRef.kind === 'ClusterRole') return { error: notFound(roleRef.kind.toLowerCase(), RBAC_GROUP, roleRef.name) };
  return { error: plainError(resolved.error) };
}

/**
 * escalationCheck runs the storage guard of an RBAC kind's create (no `old`) or update; undefined for the other kinds.
 * A RoleBinding's update has no RoleEscalationAuthorized, and a role's none of `bind`.
 */
export function escalationCheck(store: Store, profile: ClusterProfile, w: Write): EscalationCheck | undefined {
  const kind = String(w.obj.kind);
  if (!(kind in RESOURCES)) return undefined;
  if (w.user.groups.includes(SYSTEM_MASTERS)) return { passed: `escalation allowed: the user is in ${SYSTEM_MASTERS}` };
  return kind === 'Role' || kind === 'ClusterRole' ? roleCheck(store, profile, w) : bindingCheck(store, profile, w);
}

/** escalationEntry is the trace's entry of a check: under validation, as the storage runs it before the registry. */
export function escalationEntry(ref: string, kind: string, check: EscalationCheck): TraceInput {
  return {
    phase: 'apiserver.validate', object: ref, step: { kind: 'plugin', name: 'rbac-escalation' }, field: kind.endsWith('Binding') ? 'roleRef' : 'rules',
    result: 'error' in check ? check.error.message : check.passed,
    detail: 'error' in check ? { status: check.error.status } : {}, ...('error' in check ? { outcome: 'rejected' as const } : {}),
  };
}
