// Whether a policy's matchConstraints, or a binding's matchResources, select a request: selectors, excluded rules, and
// resource rules with resourceNames. See staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/matching/matching.go
// and policy/generic/policy_matcher.go.
import type { Store } from '../../../cluster/store';
import type { StatusError } from '../../request';
import type { AdmissionAttributes } from '../plugin';
import { matchNamespaceSelector, matchObjectSelector, type RuleWithOperations, ruleMatches } from '../webhook/matching';
import type { MatchResources } from './compile';

/** MatchOutcome is whether the criteria select the request, or the error that stands once the rules match. */
export type MatchOutcome = { matches: boolean } | { error: string; status?: StatusError };

/**
 * matchesResourceRules is matchesResourceRules: a rule that matches, with no resourceNames or with the request's name
 * among them. With matchPolicy Equivalent an equivalent resource would match too; the simulation serves none.
 */
function matchesResourceRules(rules: readonly RuleWithOperations[], attrs: AdmissionAttributes): boolean {
  return rules.some((rule) => ruleMatches(rule, attrs) && ((rule.resourceNames ?? []).length === 0 || rule.resourceNames!.includes(attrs.name)));
}

/**
 * matches is Matcher.Matches: namespaceSelector and objectSelector (a miss ends it, an error waits), excluded rules,
 * then resource rules (none means every resource), then the selector errors.
 */
function matches(criteria: MatchResources, attrs: AdmissionAttributes, store: Store): MatchOutcome {
  const ns = matchNamespaceSelector(criteria.namespaceSelector ?? {}, attrs, store);
  if ('matches' in ns && !ns.matches) return { matches: false };
  const obj = matchObjectSelector(criteria.objectSelector ?? {}, attrs);
  if ('matches' in obj && !obj.matches) return { matches: false };
  if (matchesResourceRules(criteria.excludeResourceRules ?? [], attrs)) return { matches: false };
  const rules = criteria.resourceRules ?? [];
  if (rules.length > 0 && !matchesResourceRules(rules, attrs)) return { matches: false };
  if ('error' in ns) return { error: ns.error.message, status: ns.error };
  if ('error' in obj) return { error: obj.error.message, status: obj.error };
  return { matches: true };
}

/** definitionMatches is PolicyMatcher.DefinitionMatches: a policy without matchConstraints is a configuration error. */
export function definitionMatches(constraints: MatchResources | undefined, attrs: AdmissionAttributes, store: Store): MatchOutcome {
  if (!constraints) return { error: 'policy contained no match constraints, a required field' };
  return matches(constraints, attrs, store);
}

/** bindingMatches is PolicyMatcher.BindingMatches: a binding without matchResources matches whatever its policy matches. */
export function bindingMatches(matchResources: MatchResources | undefined, attrs: AdmissionAttributes, store: Store): MatchOutcome {
  if (!matchResources) return { matches: true };
  return matches(matchResources, attrs, store);
}
