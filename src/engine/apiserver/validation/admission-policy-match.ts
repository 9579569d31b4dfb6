// The MatchResources of a ValidatingAdmissionPolicy (its matchConstraints) and of its binding (matchResources):
// matchPolicy, both selectors (strictly), then the named rules to match and to exclude. See validateMatchResources and
// validateNamedRuleWithOperations in pkg/apis/admissionregistration/validation/validation.go (k8s.io/kubernetes v1.36.3).
import { isObject, type LabelSelector } from '../../api/types';
import { asJSON, child, duplicate, type FieldError, index, invalidValue, notSupported, required } from './field-errors';
import { pathSegmentName } from './metadata';
import { validateLabelSelector } from './pod-label-selectors';
import { validateRuleWithOperations } from './webhook-rules';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** MATCH_POLICIES are supportedMatchPolicies as sets.List gives them: sorted. */
const MATCH_POLICIES = ['Equivalent', 'Exact'];

/**
 * validateMatchResources is validateMatchResources: matchPolicy required and supported (a named type, printed with
 * json.Marshal), namespaceSelector and objectSelector required and valid ("validate selector strictly, this type was
 * released after issue #99139 was resolved"), then each resourceRule and excludeResourceRule.
 */
export function validateMatchResources(mc: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const matchPolicy = mc['matchPolicy'];
  if (typeof matchPolicy !== 'string') errs.push(required(child(path, 'matchPolicy')));
  else if (!MATCH_POLICIES.includes(matchPolicy)) errs.push(notSupported(child(path, 'matchPolicy'), asJSON(matchPolicy), MATCH_POLICIES));
  for (const selector of ['namespaceSelector', 'objectSelector']) {
    if (!isObject(mc[selector])) errs.push(required(child(path, selector)));
    else errs.push(...validateLabelSelector(mc[selector] as LabelSelector, child(path, selector)));
  }
  for (const rules of ['resourceRules', 'excludeResourceRules']) {
    list(mc[rules]).forEach((rule, i) => errs.push(...validateNamedRuleWithOperations(rec(rule), index(child(path, rules), i))));
  }
  return errs;
}

/**
 * validateNamedRuleWithOperations: each resourceName a path segment name (content.IsPathSegmentName) and not repeated,
 * then the rule as a webhook's (webhook-rules.ts).
 */
function validateNamedRuleWithOperations(rule: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list(rule['resourceNames']).forEach((raw, i) => {
    const name = typeof raw === 'string' ? raw : '';
    const at = index(child(path, 'resourceNames'), i);
    for (const msg of pathSegmentName(name, false)) errs.push(invalidValue(at, name, msg));
    if (seen.has(name)) errs.push(duplicate(at, name));
    else seen.add(name);
  });
  return [...errs, ...validateRuleWithOperations(rule, path)];
}
