// Matching one RBAC PolicyRule against a request, the way RuleAllows and the evaluation helpers do.
import type { PolicyRule } from '../../api/types';
import type { AuthzAttributes } from './authorizer';

/**
 * ruleAllows is rbac.RuleAllows: for a resource request the verb, API group, resource (a star then the
 * subresource matching any resource's subresource) and resource name must match; for a path, the verb and a nonResourceURL (`*` suffix a prefix).
 * See plugin/pkg/auth/authorizer/rbac/rbac.go and pkg/apis/rbac/v1/evaluation_helpers.go.
 */
export function ruleAllows(attrs: AuthzAttributes, rule: PolicyRule): boolean {
  if (attrs.resourceRequest) {
    const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    return verbMatches(rule, attrs.verb) && apiGroupMatches(rule, attrs.apiGroup) && resourceMatches(rule, combined, attrs.subresource) && resourceNameMatches(rule, attrs.name);
  }
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
}

/** verbMatches: `*` or the verb itself. */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === '*' || v === verb);
}

/** apiGroupMatches: `*` or the group itself (`""` is the core group). */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

/** resourceMatches: `*`, the combined `resource/subresource`, or a star before `/subresource` when there is a subresource. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some((r) => r === '*' || r === combined || (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)));
}

/** resourceNameMatches: no resourceNames allows every name; otherwise the request's name must be listed (a create has none). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** nonResourceURLMatches: `*`, the path itself, or a `*`-suffixed prefix of it. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));
}

/** sameRule is equality.Semantic.DeepEqual of two rules, where an absent list equals an empty one. */
export function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  const eq = (x: readonly string[] | undefined, y: readonly string[] | undefined): boolean => {
    const p = x ?? [];
    const q = y ?? [];
    return p.length === q.length && p.every((v, i) => v === q[i]);
  };
  return eq(a.verbs, b.verbs) && eq(a.apiGroups, b.apiGroups) && eq(a.resources, b.resources) && eq(a.resourceNames, b.resourceNames) && eq(a.nonResourceURLs, b.nonResourceURLs);
}
