// Whether a user's own RBAC rules cover the rules of a role they bind, and how kube-apiserver names the rules that
// are missing. See k8s.io/component-helpers auth/rbac/validation/policy_comparator.go (Covers, BreakdownRule,
// ruleCovers) at v0.36.3, and in k8s.io/kubernetes v1.36.3 pkg/registry/rbac/validation/rule.go
// (ConfirmNoEscalation), policy_compact.go (CompactRules) and pkg/apis/rbac/v1/evaluation_helpers.go (CompactString).
import type { PolicyRule } from '../../api/types';
import type { Store } from '../../cluster/store';
import { goQuote } from '../decode-go';
import type { UserInfo } from '../request';
import { aggregateMessage } from './aggregate';
import { nonResourceURLMatches } from './rbac-rules';
import { visitRulesFor } from './rules-for';

/** breakdownRule is a rule as rules of one group, resource, verb and resource name each (non-resource URLs: one URL and verb). */
function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (names.length > 0) for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const hasAll = (set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean => (wanted ?? []).every((w) => (set ?? []).includes(w));

/** resourceCoversAll: `*`, every resource named, or a subresource covered by `*&#47;sub`. */
function resourceCoversAll(set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if ((set ?? []).includes('*') || hasAll(set, wanted)) return true;
  return (wanted ?? []).every((path) => {
    if ((set ?? []).includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && (set ?? []).includes(`*/${path.slice(slash + 1)}`);
  });
}

/** ruleCovers tells whether an owner's rule covers a broken-down rule. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = (owner.verbs ?? []).includes('*') || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes('*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  // nonResourceURLCovers is RuleAllows' URL match: the same path, or a prefix before `*` (`*` alone covers every path).
  const urls = (sub.nonResourceURLs ?? []).every((path) => nonResourceURLMatches(owner, path));
  const ownerNames = owner.resourceNames ?? [];
  const names = (sub.resourceNames ?? []).length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames);
  return verbs && groups && resources && names && urls;
}

/** uncovered is Covers' second result: the broken-down rules no owner rule covers. */
export function uncovered(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/**
 * compactRules joins the rules of one group, one resource and at most one resource name (and nothing else) that differ
 * only by their verbs; the others stay as they are, first.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const names = rule.resourceNames ?? [];
    const isSimple = names.length <= 1 && (rule.nonResourceURLs ?? []).length === 0 && (rule.apiGroups ?? []).length === 1 && (rule.resources ?? []).length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0], names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? [])];
    else simple.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
  }
  return [...compacted, ...simple.values()];
}

/** goQuoted is Go's %q of a list of strings: `["a" "b"]`. */
const goQuoted = (list: readonly string[]): string => `[${list.map(goQuote).join(' ')}]`;

/** compactString is a rule as kube-apiserver names it: `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuoted(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuoted(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoted(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuoted(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goQuoted(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * confirmNoEscalation is the reason a user may not grant `rules` in `namespace` ("" for cluster-wide), or undefined when
 * the user's own RBAC rules there cover them: the missing rules compacted, named and sorted, one a line, and the
 * roleRefs of the user's bindings that did not resolve.
 */
export function confirmNoEscalation(store: Store, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const owner: PolicyRule[] = [];
  const errors = visitRulesFor(user, namespace, store, (rule) => owner.push(rule));
  const missing = uncovered(owner, rules);
  if (missing.length === 0) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  const message = `user ${goQuote(user.name)} (groups=${goQuoted(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  // fmt's %v of the one-element []error holding the aggregate.
  return errors.length > 0 ? `${message}; resolution errors: [${aggregateMessage(errors)}]` : message;
}
