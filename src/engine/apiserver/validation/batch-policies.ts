// Job validation of the per-index back-off, the pod failure policy, the success policy (batch-success-policy.ts) and the
// pod replacement policy: validateJobSpec,
// validatePodFailurePolicy(Rule|RuleOnExitCodes|RuleOnPodConditions) and validatePodReplacementPolicy of
// pkg/apis/batch/validation/validation.go.
import type { PodTemplateSpec } from '../../api/types';
import { asJSON, duplicate, type FieldError, invalidValue, notSupported, required, tooMany } from './field-errors';
import { nonNegative } from './metadata';
import { type SuccessPolicySpec, validateSuccessPolicy } from './batch-success-policy';

interface Rule {
  action?: string;
  onExitCodes?: { containerName?: string; operator?: string; values?: number[] } | null;
  onPodConditions?: { type?: string; status?: string }[] | null;
}

/** JobPolicySpec is the part of the Job's spec these checks read. */
export interface JobPolicySpec extends SuccessPolicySpec {
  completions?: number | null;
  completionMode?: string;
  backoffLimitPerIndex?: number | null;
  maxFailedIndexes?: number | null;
  podFailurePolicy?: { rules?: Rule[] } | null;
  podReplacementPolicy?: string;
  template?: PodTemplateSpec;
}

// validation.go: maxPodFailurePolicyRules, maxPodFailurePolicyOnExitCodesValues, maxPodFailurePolicyOnPodConditionsPatterns.
const MAX_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_CONDITION_PATTERNS = 20;
// sets.List of supportedPodFailurePolicyActions / OnExitCodesOperator / OnPodConditionsStatus: sorted.
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const STATUSES = ['False', 'True', 'Unknown'];
const goList = (xs: readonly string[]) => `[${xs.map((x) => `"${x}"`).join(' ')}]`;
/** omitValue is field.Invalid with field.OmitValueType{}: the value is left out. */
const omitValue = (field: string, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, body: `Invalid value: ${detail}` });
const isSet = <T>(v: T | undefined | null): v is T => v !== undefined && v !== null;

/** validateJobPolicies runs validateJobSpec's checks of backoffLimitPerIndex, maxFailedIndexes, podFailurePolicy and podReplacementPolicy. */
export function validateJobPolicies(spec: JobPolicySpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(spec.backoffLimitPerIndex)) errs.push(...nonNegative(spec.backoffLimitPerIndex, `${path}.backoffLimitPerIndex`));
  if (isSet(spec.maxFailedIndexes)) {
    errs.push(...nonNegative(spec.maxFailedIndexes, `${path}.maxFailedIndexes`));
    if (!isSet(spec.backoffLimitPerIndex)) errs.push(required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (spec.completionMode === 'Indexed' && isSet(spec.completions) && isSet(spec.maxFailedIndexes) && spec.maxFailedIndexes > spec.completions) {
    errs.push(invalidValue(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'must be less than or equal to completions'));
  }
  if (spec.completionMode !== 'Indexed') {
    if (isSet(spec.backoffLimitPerIndex)) errs.push(invalidValue(`${path}.backoffLimitPerIndex`, spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (isSet(spec.maxFailedIndexes)) errs.push(invalidValue(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  if (spec.podFailurePolicy) errs.push(...validatePodFailurePolicy(spec, `${path}.podFailurePolicy`));
  // validateJobSpec checks the success policy after the pod failure policy, before the pod replacement policy.
  errs.push(...validateSuccessPolicy(spec, path));
  // validatePodReplacementPolicy: with a podFailurePolicy only Failed.
  if (spec.podReplacementPolicy !== undefined) {
    if (spec.podFailurePolicy && spec.podReplacementPolicy !== 'Failed') errs.push(notSupported(`${path}.podReplacementPolicy`, spec.podReplacementPolicy, ['Failed']));
    else if (!spec.podFailurePolicy && spec.podReplacementPolicy !== 'Failed' && spec.podReplacementPolicy !== 'TerminatingOrFailed') errs.push(notSupported(`${path}.podReplacementPolicy`, spec.podReplacementPolicy, ['Failed', 'TerminatingOrFailed']));
  }
  return errs;
}

function validatePodFailurePolicy(spec: JobPolicySpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.podFailurePolicy?.rules ?? [];
  if (rules.length > MAX_RULES) errs.push(tooMany(`${path}.rules`, rules.length, MAX_RULES));
  const names = new Set([...(spec.template?.spec?.containers ?? []), ...(spec.template?.spec?.initContainers ?? [])].map((c) => c.name));
  rules.forEach((rule, i) => errs.push(...validateRule(spec, rule, `${path}.rules[${i}]`, names)));
  return errs;
}

function validateRule(spec: JobPolicySpec, rule: Rule, path: string, names: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (!rule.action) errs.push(required(`${path}.action`, `valid values: ${goList(ACTIONS)}`));
  else if (rule.action === 'FailIndex') {
    if (!isSet(spec.backoffLimitPerIndex)) errs.push(invalidValue(`${path}.action`, rule.action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!ACTIONS.includes(rule.action)) errs.push(notSupported(`${path}.action`, rule.action, ACTIONS));
  const e = rule.onExitCodes;
  if (e) {
    const at = `${path}.onExitCodes`;
    if (!e.operator) errs.push(required(`${at}.operator`, `valid values: ${goList(OPERATORS)}`));
    else if (!OPERATORS.includes(e.operator)) errs.push(notSupported(`${at}.operator`, e.operator, OPERATORS));
    if (e.containerName !== undefined && !names.has(e.containerName)) errs.push(invalidValue(`${at}.containerName`, e.containerName, 'must be one of the container or initContainer names in the pod template'));
    const values = e.values ?? [];
    if (values.length === 0) errs.push(invalidValue(`${at}.values`, asJSON(values), 'at least one value is required'));
    else if (values.length > MAX_EXIT_CODE_VALUES) errs.push(tooMany(`${at}.values`, values.length, MAX_EXIT_CODE_VALUES));
    const seen = new Set<number>();
    values.forEach((v, j) => {
      if (e.operator === 'In' && v === 0) errs.push(invalidValue(`${at}.values[${j}]`, v, 'must not be 0 for the In operator'));
      if (seen.has(v)) errs.push(duplicate(`${at}.values[${j}]`, v));
      seen.add(v);
    });
    if (values.some((v, j) => j > 0 && values[j - 1]! > v)) errs.push(invalidValue(`${at}.values`, asJSON(values), 'must be ordered'));
  }
  const conditions = rule.onPodConditions ?? [];
  if (conditions.length > MAX_CONDITION_PATTERNS) errs.push(tooMany(`${path}.onPodConditions`, conditions.length, MAX_CONDITION_PATTERNS));
  conditions.forEach((c, j) => {
    const at = `${path}.onPodConditions[${j}].status`;
    if (!c.status) errs.push(required(at, `valid values: ${goList(STATUSES)}`));
    else if (!STATUSES.includes(c.status)) errs.push(notSupported(at, c.status, STATUSES));
  });
  if (e && conditions.length > 0) errs.push(omitValue(path, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  if (!e && conditions.length === 0) errs.push(omitValue(path, 'specifying one of OnExitCodes and OnPodConditions is required'));
  return errs;
}
