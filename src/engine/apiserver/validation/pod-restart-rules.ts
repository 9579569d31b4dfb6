// A container's own restartPolicy and its restartPolicyRules (ContainerRestartRules, beta and on since 1.35, with
// RestartAllContainersOnContainerExits, beta and on since 1.36): for regular containers, and for init containers,
// where Always makes a sidecar. See pkg/apis/core/validation/validation.go (validateContainerRestartPolicy,
// validateInitContainerRestartPolicy), v1.36.3.
import { asJSON, child, type FieldError, index, notSupported, required, tooMany } from './field-errors';
import type { Container136 } from './pod-types';

// Why: sets.List of supportedContainerRestartPolicies, supportedContainerRestartRuleActionsWithRestartAllContainers and
// supportedContainerRestartPolicyOperators: sorted.
const POLICIES = ['Always', 'Never', 'OnFailure'];
const ACTIONS = ['Restart', 'RestartAllContainers'];
const OPERATORS = ['In', 'NotIn'];
const RULES_REQUIRE_POLICY = 'must specify restartPolicy when restart rules are used';

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** validateContainerRestartPolicy is validateContainerRestartPolicy: the policy one of three, at most 20 rules, each valid. */
export function validateContainerRestartPolicy(c: Container136, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const policy = c.restartPolicy;
  const rules = c.restartPolicyRules ?? [];
  if (!isSet(policy)) {
    if (rules.length === 0) return errs;
    errs.push(required(child(path, 'restartPolicy'), RULES_REQUIRE_POLICY));
  } else if (!POLICIES.includes(policy as string)) errs.push(notSupported(child(path, 'restartPolicy'), asJSON(policy), POLICIES));
  if (rules.length > 20) errs.push(tooMany(child(path, 'restartPolicyRules'), rules.length, 20));
  rules.forEach((rule, i) => {
    const at = index(child(path, 'restartPolicyRules'), i);
    const action = rule?.action ?? '';
    if (!ACTIONS.includes(action)) errs.push(notSupported(child(at, 'action'), asJSON(action), ACTIONS));
    const exitCodes = rule?.exitCodes;
    if (!isSet(exitCodes)) {
      errs.push(required(child(at, 'exitCodes'), 'must be specified'));
      return;
    }
    const operator = exitCodes?.operator ?? '';
    if (!OPERATORS.includes(operator)) errs.push(notSupported(child(at, 'exitCodes', 'operator'), asJSON(operator), OPERATORS));
    const values = exitCodes?.values ?? [];
    if (values.length > 255) errs.push(tooMany(child(at, 'exitCodes', 'values'), values.length, 255));
  });
  return errs;
}

/**
 * validateInitContainerRestartPolicy is validateInitContainerRestartPolicy: no policy, no rules; any policy is then
 * validated as a regular container's (Always included, as RestartAllContainers is on).
 */
export function validateInitContainerRestartPolicy(c: Container136, path: string): FieldError[] {
  if (!isSet(c.restartPolicy)) return (c.restartPolicyRules ?? []).length > 0 ? [required(child(path, 'restartPolicy'), RULES_REQUIRE_POLICY)] : [];
  return validateContainerRestartPolicy(c, path);
}
