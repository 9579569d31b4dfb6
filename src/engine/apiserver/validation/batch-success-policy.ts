// Job validation of spec.successPolicy: validateJobSpec's successPolicy branch, validateSuccessPolicy,
// validateSuccessPolicyRule and validateIndexesFormat / parseIndexInterval of pkg/apis/batch/validation/validation.go.
import { goQuote } from '../decode-go';
import { asJSON, type FieldError, invalidValue, required, tooLong, tooMany } from './field-errors';
import { nonNegative } from './metadata';

/** SuccessPolicyRuleSpec is one rule of spec.successPolicy as the API server reads it. */
export interface SuccessPolicyRuleSpec {
  succeededIndexes?: string | null;
  succeededCount?: number | null;
}

/** SuccessPolicySpec is the part of the Job's spec the success policy checks read. */
export interface SuccessPolicySpec {
  completions?: number | null;
  completionMode?: string;
  successPolicy?: { rules?: SuccessPolicyRuleSpec[] | null } | null;
}

// validation.go: maxSuccessPolicyRule = 20, maxJobSuccessPolicySucceededIndexesLimit = 64 * 1024.
/** MAX_SUCCESS_POLICY_RULES is maxSuccessPolicyRule. */
export const MAX_SUCCESS_POLICY_RULES = 20;
/** MAX_SUCCEEDED_INDEXES_LENGTH is maxJobSuccessPolicySucceededIndexesLimit. */
export const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;

const isSet = <T>(v: T | undefined | null): v is T => v !== undefined && v !== null;

/**
 * goSuccessPolicy is the internal batch.SuccessPolicy as json.Marshal writes it for ErrorBody: the internal type has no
 * json tags, so its keys are the Go field names and an unset pointer is null.
 */
function goSuccessPolicy(policy: NonNullable<SuccessPolicySpec['successPolicy']>): unknown {
  const rules = policy.rules ?? null;
  return { Rules: rules && rules.map((r) => ({ SucceededIndexes: r.succeededIndexes ?? null, SucceededCount: r.succeededCount ?? null })) };
}

/**
 * validateSuccessPolicy is validateJobSpec's successPolicy branch: outside the Indexed completion mode the whole
 * policy is invalid; else at least one rule, at most 20, and each rule checked (validateSuccessPolicyRule).
 */
export function validateSuccessPolicy(spec: SuccessPolicySpec, path: string): FieldError[] {
  const policy = spec.successPolicy;
  if (!policy) return [];
  const at = `${path}.successPolicy`;
  // validation.go validateJobSpec: field.Invalid(fldPath.Child("successPolicy"), *spec.SuccessPolicy, "requires indexed completion mode").
  if ((spec.completionMode ?? 'NonIndexed') !== 'Indexed') return [invalidValue(at, asJSON(goSuccessPolicy(policy)), 'requires indexed completion mode')];
  const errs: FieldError[] = [];
  const rules = policy.rules ?? [];
  // validateSuccessPolicy: field.Required(rulesPath, "at least one rules must be specified when the successPolicy is specified").
  if (rules.length === 0) errs.push(required(`${at}.rules`, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_POLICY_RULES) errs.push(tooMany(`${at}.rules`, rules.length, MAX_SUCCESS_POLICY_RULES));
  rules.forEach((rule, i) => errs.push(...validateSuccessPolicyRule(spec.completions ?? 0, rule, `${at}.rules[${i}]`)));
  return errs;
}

/** validateSuccessPolicyRule is validateSuccessPolicyRule: one of the two fields, the indexes' format, the count's bounds. */
function validateSuccessPolicyRule(completions: number, rule: SuccessPolicyRuleSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!isSet(rule.succeededCount) && !isSet(rule.succeededIndexes)) {
    errs.push(required(path, 'at least one of succeededCount or succeededIndexes must be specified'));
  }
  let total = 0;
  if (isSet(rule.succeededIndexes)) {
    const field = `${path}.succeededIndexes`;
    if (rule.succeededIndexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) errs.push(tooLong(field, MAX_SUCCEEDED_INDEXES_LENGTH));
    const parsed = validateIndexesFormat(rule.succeededIndexes, completions);
    if (typeof parsed === 'string') errs.push(invalidValue(field, rule.succeededIndexes, `error parsing succeededIndexes: ${parsed}`));
    else total = parsed;
  }
  if (isSet(rule.succeededCount)) {
    const field = `${path}.succeededCount`;
    const count = rule.succeededCount;
    errs.push(...nonNegative(count, field));
    if (count > completions) errs.push(invalidValue(field, count, `must be less than or equal to ${completions} (the number of specified completions)`));
    // A malformed succeededIndexes counts as 0 indexes here (validateIndexesFormat returns 0 with its error).
    if (isSet(rule.succeededIndexes) && count > total) errs.push(invalidValue(field, count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
  }
  return errs;
}

/** validateIndexesFormat is validateIndexesFormat: the number of indexes in "1,3-5", or the parse error's text. */
export function validateIndexesFormat(text: string, completions: number): number | string {
  if (text.length === 0) return 0;
  let last: number | undefined;
  let total = 0;
  for (const piece of text.split(',')) {
    const interval = parseIndexInterval(piece, completions);
    if (typeof interval === 'string') return interval;
    const [x, y] = interval;
    if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
    total += y - x + 1;
    last = y;
  }
  return total;
}

/** goAtoi is strconv.Atoi for the decimal integers an index can be: an optional sign, then digits. */
function goAtoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

/** parseIndexInterval is parseIndexInterval: "x" or "x-y" below completions, x < y, or the error's text. */
function parseIndexInterval(piece: string, completions: number): [number, number] | string {
  const limits = piece.split('-');
  if (limits.length > 2) return `the fragment ${goQuote(piece)} violates the requirement that an index interval can have at most two parts separated by '-'`;
  const [a = '', b] = limits;
  const x = goAtoi(a);
  if (x === undefined) return `cannot convert string to integer for index: ${goQuote(a)}`;
  if (x >= completions) return `too large index: ${goQuote(a)}`;
  if (b === undefined) return [x, x];
  const y = goAtoi(b);
  if (y === undefined) return `cannot convert string to integer for index: ${goQuote(b)}`;
  if (y >= completions) return `too large index: ${goQuote(b)}`;
  if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}
