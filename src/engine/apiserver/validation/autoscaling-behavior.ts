// HorizontalPodAutoscaler behavior validation: each direction's scaling rules (the stabilization window, selectPolicy,
// at least one policy, the tolerance) and each policy's type, value and period. Why: validateBehavior,
// validateScalingRules and validateScalingPolicy in pkg/apis/autoscaling/validation/validation.go (v1.36.3), the
// tolerance checked by ValidateNonnegativeQuantity (pkg/apis/core/validation/validation.go, v1.36.3) since
// HPAConfigurableTolerance is on by default.
import { appendFieldPath } from '../../api/fieldpath';
import { parseQuantity } from '../../api/quantity';
import { asJSON, type FieldError, invalidValue, notSupported, required } from './field-errors';

/** MAX_PERIOD_SECONDS is MaxPeriodSeconds: the largest scaling policy period. */
export const MAX_PERIOD_SECONDS = 1800;
/** MAX_STABILIZATION_WINDOW_SECONDS is MaxStabilizationWindowSeconds: the largest stabilization window. */
export const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
/** SELECT_POLICIES are validSelectPolicyTypesList: Max, Min and Disabled, sorted as sets.List sorts them. */
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
/** POLICY_TYPES are validPolicyTypesList: Pods and Percent, sorted. */
const POLICY_TYPES = ['Percent', 'Pods'];

interface ScalingPolicy { type?: string; value?: number; periodSeconds?: number }
/** ScalingRules is an HPAScalingRules as the request gives it (after defaulting). */
export interface ScalingRules {
  stabilizationWindowSeconds?: number | null;
  selectPolicy?: string | null;
  policies?: (ScalingPolicy | null)[] | null;
  tolerance?: string | number | null;
}
/** Behavior is a HorizontalPodAutoscalerBehavior: the rules of each direction. */
export interface Behavior { scaleUp?: ScalingRules | null; scaleDown?: ScalingRules | null }

const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** validateBehavior is validateBehavior: the scale-up rules, then the scale-down rules, when a behavior is set. */
export function validateBehavior(behavior: Behavior | null | undefined, path: string): FieldError[] {
  if (!present(behavior)) return [];
  return [...validateScalingRules(behavior.scaleUp, `${path}.scaleUp`), ...validateScalingRules(behavior.scaleDown, `${path}.scaleDown`)];
}

/**
 * validateScalingRules is validateScalingRules: the window within [0, 3600], a known selectPolicy, at least one
 * policy and each of them, then a non-negative tolerance. A bad value prints as field.Invalid prints a pointer's:
 * json.Marshal of what it points to.
 */
function validateScalingRules(rules: ScalingRules | null | undefined, path: string): FieldError[] {
  if (!present(rules)) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  const windowPath = `${path}.stabilizationWindowSeconds`;
  if (present(window) && window < 0) errs.push(invalidValue(windowPath, asJSON(window), 'must be greater than or equal to zero'));
  if (present(window) && window > MAX_STABILIZATION_WINDOW_SECONDS) errs.push(invalidValue(windowPath, asJSON(window), `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  if (present(rules.selectPolicy) && !SELECT_POLICIES.includes(rules.selectPolicy)) errs.push(notSupported(`${path}.selectPolicy`, asJSON(rules.selectPolicy), SELECT_POLICIES));
  const policiesPath = `${path}.policies`;
  const policies = rules.policies ?? [];
  if (policies.length === 0) errs.push(required(policiesPath, 'must specify at least one Policy'));
  policies.forEach((p, i) => errs.push(...validateScalingPolicy(p ?? {}, appendFieldPath(policiesPath, i))));
  if (present(rules.tolerance)) errs.push(...nonnegativeQuantity(rules.tolerance, `${path}.tolerance`));
  return errs;
}

/** validateScalingPolicy is validateScalingPolicy: Pods or Percent, a positive value, a period within (0, 1800]. */
function validateScalingPolicy(policy: ScalingPolicy, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = policy.type ?? '';
  if (type !== 'Pods' && type !== 'Percent') errs.push(notSupported(`${path}.type`, asJSON(type), POLICY_TYPES));
  const value = policy.value ?? 0;
  if (value <= 0) errs.push(invalidValue(`${path}.value`, value, 'must be greater than zero'));
  const period = policy.periodSeconds ?? 0;
  if (period <= 0) errs.push(invalidValue(`${path}.periodSeconds`, period, 'must be greater than zero'));
  if (period > MAX_PERIOD_SECONDS) errs.push(invalidValue(`${path}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  return errs;
}

/** nonnegativeQuantity is ValidateNonnegativeQuantity: a negative quantity, printed as its canonical string. */
export function nonnegativeQuantity(q: string | number, path: string): FieldError[] {
  let parsed: ReturnType<typeof parseQuantity>;
  try {
    parsed = parseQuantity(q);
  } catch {
    return []; // decoding refuses a quantity no parser reads before validation runs
  }
  return parsed.sign() < 0 ? [invalidValue(path, parsed.toString(), 'must be greater than or equal to 0')] : [];
}
