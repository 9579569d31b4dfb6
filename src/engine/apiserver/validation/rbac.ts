// RBAC validation on create and update: ValidateRole, ValidateClusterRole, ValidateRoleBinding,
// ValidateClusterRoleBinding and the roleRef rule of their Update variants, as pkg/registry/rbac/*/strategy.go runs
// them. See pkg/apis/rbac/validation/validation.go (k8s.io/kubernetes v1.36.3). Bindings are validated after rbac/v1
// defaulting (roleRef.apiGroup, a User or Group subject's apiGroup; see api/defaults-kinds.ts).
import { isObject, type KubeObject } from '../../api/types';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { asJSON, child, type FieldError, index, invalidValue, notSupported, required } from './field-errors';
import { pathSegmentName, validateObjectMeta } from './metadata';
import { nameIsDNSSubdomain } from './names';
import { validateLabelSelector } from './pod-label-selectors';

/** GROUP_NAME is rbac.GroupName (pkg/apis/rbac/register.go). */
const GROUP_NAME = 'rbac.authorization.k8s.io';
/** SUBJECT_KINDS are rbac.ServiceAccountKind, UserKind and GroupKind, in ValidateRoleBindingSubject's order. */
const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'];

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** validateRole is ValidateRole: the metadata (a namespaced path segment name), then each rule. */
export function validateRole(role: KubeObject): FieldError[] {
  const errs = validateObjectMeta(role, true, pathSegmentName);
  list(role['rules']).forEach((rule, i) => errs.push(...validatePolicyRule(rec(rule), true, index('rules', i))));
  return errs;
}

/** validateClusterRole is ValidateClusterRole (AllowInvalidLabelValueInSelector false, as on create): rules, then aggregationRule. */
export function validateClusterRole(role: KubeObject): FieldError[] {
  const errs = validateObjectMeta(role, false, pathSegmentName);
  list(role['rules']).forEach((rule, i) => errs.push(...validatePolicyRule(rec(rule), false, index('rules', i))));
  const aggregation = role['aggregationRule'];
  if (aggregation !== undefined && aggregation !== null) {
    const selectors = list(rec(aggregation)['clusterRoleSelectors']);
    if (selectors.length === 0) {
      errs.push(required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    }
    selectors.forEach((selector, i) => {
      const at = index('aggregationRule.clusterRoleSelectors', i);
      const selectorErrs = validateLabelSelector(rec(selector) as LabelSelector, at);
      errs.push(...selectorErrs);
      // metav1.LabelSelectorAsSelector fails on what ValidateLabelSelector rejects; the shadowed selector is then nil.
      if (selectorErrs.length) errs.push(invalidValue(at, null, 'invalid label selector.'));
    });
  }
  return errs;
}

/** validatePolicyRule is ValidatePolicyRule: verbs, then either the non-resource URL rules or apiGroups and resources. */
function validatePolicyRule(rule: Rec, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (list(rule['verbs']).length === 0) errs.push(required(child(path, 'verbs'), 'verbs must contain at least one value'));
  const urls = list(rule['nonResourceURLs']);
  if (urls.length > 0) {
    if (namespaced) errs.push(invalidValue(child(path, 'nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule['apiGroups']).length > 0 || list(rule['resources']).length > 0 || list(rule['resourceNames']).length > 0) {
      errs.push(invalidValue(child(path, 'nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (list(rule['apiGroups']).length === 0) errs.push(required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  if (list(rule['resources']).length === 0) errs.push(required(child(path, 'resources'), 'resource rules must supply at least one resource'));
  return errs;
}

/** validateRoleBinding is ValidateRoleBinding: a roleRef to a Role or ClusterRole, subjects that may omit the namespace. */
export function validateRoleBinding(binding: KubeObject): FieldError[] {
  return validateBinding(binding, true);
}

/** validateClusterRoleBinding is ValidateClusterRoleBinding: a roleRef to a ClusterRole, ServiceAccount subjects with a namespace. */
export function validateClusterRoleBinding(binding: KubeObject): FieldError[] {
  return validateBinding(binding, false);
}

function validateBinding(binding: KubeObject, namespaced: boolean): FieldError[] {
  const errs = validateObjectMeta(binding, namespaced, pathSegmentName);
  const roleRef = rec(binding['roleRef']);
  const apiGroup = str(roleRef['apiGroup']);
  if (apiGroup !== GROUP_NAME) errs.push(notSupported('roleRef.apiGroup', apiGroup, [GROUP_NAME]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = str(roleRef['kind']);
  if (!kinds.includes(kind)) errs.push(notSupported('roleRef.kind', kind, kinds));
  const name = str(roleRef['name']);
  if (name.length === 0) errs.push(required('roleRef.name'));
  else errs.push(...pathSegmentName(name, false).map((msg) => invalidValue('roleRef.name', name, msg)));
  list(binding['subjects']).forEach((subject, i) => errs.push(...validateRoleBindingSubject(rec(subject), namespaced, index('subjects', i))));
  return errs;
}

/**
 * validateRoleBindingSubject is ValidateRoleBindingSubject: a name; a ServiceAccount's name a DNS subdomain
 * (ValidateServiceAccountName), its apiGroup "" and, in a cluster binding, a namespace; a User's or Group's apiGroup
 * rbac.authorization.k8s.io; any other kind unsupported.
 */
function validateRoleBindingSubject(subject: Rec, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject['name']);
  const apiGroup = str(subject['apiGroup']);
  if (name.length === 0) errs.push(required(child(path, 'name')));
  switch (str(subject['kind'])) {
    case 'ServiceAccount':
      if (name.length > 0) errs.push(...nameIsDNSSubdomain(name, false).map((msg) => invalidValue(child(path, 'name'), name, msg)));
      if (apiGroup.length > 0) errs.push(notSupported(child(path, 'apiGroup'), apiGroup, ['']));
      if (!namespaced && str(subject['namespace']).length === 0) errs.push(required(child(path, 'namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== GROUP_NAME) errs.push(notSupported(child(path, 'apiGroup'), apiGroup, [GROUP_NAME]));
      break;
    default:
      errs.push(notSupported(child(path, 'kind'), str(subject['kind']), SUBJECT_KINDS));
  }
  return errs;
}

/**
 * validateBindingUpdate is the roleRef rule of ValidateRoleBindingUpdate and ValidateClusterRoleBindingUpdate: the
 * internal rbac.RoleRef (no json tags, so its Go field names) printed with json.Marshal.
 */
export function validateBindingUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const ref = (o: KubeObject) => {
    const r = rec(o['roleRef']);
    return { APIGroup: str(r['apiGroup']), Kind: str(r['kind']), Name: str(r['name']) };
  };
  const n = ref(next);
  const o = ref(old);
  if (n.APIGroup === o.APIGroup && n.Kind === o.Kind && n.Name === o.Name) return [];
  return [invalidValue('roleRef', asJSON(n), 'cannot change roleRef')];
}
