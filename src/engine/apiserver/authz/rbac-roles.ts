// Resolving a binding's roleRef to rules: the Role or ClusterRole, with aggregated ClusterRoles filled in as the
// clusterrole-aggregation controller keeps them.
import type { ClusterRole, PolicyRule, Role, RoleRef } from '../../api/types';
import { labelSelectorAsSelector, selectorMatches, SelectorError } from '../../api/labels';
import type { Store } from '../../cluster/store';
import { sameRule } from './rbac-rules';

/** RoleRules is a resolved roleRef: its rules, or the error the rule resolver reports. */
export type RoleRules = { rules: PolicyRule[]; aggregatedFrom?: string[] } | { error: string };

/**
 * roleReferenceRules is GetRoleReferenceRules: a Role in the binding's namespace or a ClusterRole. A missing one
 * is the listers' NotFound (`role.rbac.authorization.k8s.io "x" not found`), another kind
 * `unsupported role reference kind: "X"`. See pkg/registry/rbac/validation/rule.go.
 */
export function roleReferenceRules(store: Store, roleRef: RoleRef, bindingNamespace: string): RoleRules {
  switch (roleRef.kind) {
    case 'Role': {
      const role = bindingNamespace ? store.get<Role>('Role', bindingNamespace, roleRef.name) : undefined;
      return role ? { rules: role.rules ?? [] } : { error: `role.rbac.authorization.k8s.io "${roleRef.name}" not found` };
    }
    case 'ClusterRole': {
      const role = store.get<ClusterRole>('ClusterRole', undefined, roleRef.name);
      if (!role) return { error: `clusterrole.rbac.authorization.k8s.io "${roleRef.name}" not found` };
      if (!role.aggregationRule) return { rules: role.rules ?? [] };
      const aggregated = aggregatedRules(store, role, new Set());
      return { rules: aggregated.rules, aggregatedFrom: aggregated.from };
    }
    default:
      return { error: `unsupported role reference kind: ${JSON.stringify(roleRef.kind)}` };
  }
}

/**
 * aggregatedRules are a ClusterRole's rules as the clusterrole-aggregation controller writes them: for each
 * selector, the ClusterRoles it matches sorted by name (itself left out), their rules appended unless an equal
 * rule is already there. The controller runs until nothing changes, so a matched role that aggregates too gives
 * its own aggregated rules; a cycle, or a selector that does not parse, leaves the stored rules.
 * See pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go (syncClusterRole).
 */
export function aggregatedRules(store: Store, role: ClusterRole, visiting: Set<string>): { rules: PolicyRule[]; from: string[] } {
  const name = role.metadata?.name ?? '';
  if (!role.aggregationRule || visiting.has(name)) return { rules: role.rules ?? [], from: [] };
  visiting.add(name);
  try {
    const rules: PolicyRule[] = [];
    const from: string[] = [];
    const all = store.list<ClusterRole>('ClusterRole');
    for (const selector of role.aggregationRule.clusterRoleSelectors ?? []) {
      const parsed = labelSelectorAsSelector(selector);
      const matched = all.filter((cr) => selectorMatches(parsed, cr.metadata?.labels)).sort((a, b) => compare(a.metadata?.name ?? '', b.metadata?.name ?? ''));
      for (const cr of matched) {
        const crName = cr.metadata?.name ?? '';
        if (crName === name) continue;
        if (!from.includes(crName)) from.push(crName);
        for (const rule of aggregatedRules(store, cr, visiting).rules) if (!rules.some((r) => sameRule(r, rule))) rules.push(rule);
      }
    }
    return { rules, from };
  } catch (err) {
    if (err instanceof SelectorError) return { rules: role.rules ?? [], from: [] };
    throw err;
  } finally {
    visiting.delete(name);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
