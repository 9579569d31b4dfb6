// Label maps, label keys and label selectors as the pod spec validates them (nodeSelector, affinity, topology spread).
// See staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go.
import type { LabelSelector, LabelSelectorRequirement } from 'kubernetes-types/meta/v1';
import { asJSON, child, type FieldError, forbidden, index, invalidValue, required } from './field-errors';
import { validateLabels } from './metadata';
import { isQualifiedName, isValidLabelValue } from './names';

export { validateLabels };

/** validateLabelName is ValidateLabelName: the key must be a qualified name. */
export function validateLabelName(labelName: string, path: string): FieldError[] {
  return isQualifiedName(labelName).map((msg) => invalidValue(path, labelName, msg));
}

/** validateLabelSelector is ValidateLabelSelector with AllowInvalidLabelValueInSelector false unless told. */
export function validateLabelSelector(selector: LabelSelector | undefined | null, path: string, allowInvalidLabelValue = false): FieldError[] {
  if (!selector) return [];
  const errs = validateLabels(selector.matchLabels, child(path, 'matchLabels'));
  (selector.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, index(child(path, 'matchExpressions'), i), allowInvalidLabelValue));
  });
  return errs;
}

/** validateLabelSelectorRequirement is ValidateLabelSelectorRequirement: operator and values, key, then each value. */
export function validateLabelSelectorRequirement(req: LabelSelectorRequirement, path: string, allowInvalidLabelValue: boolean): FieldError[] {
  return validateSelectorRequirement(req, path, allowInvalidLabelValue, false);
}

/**
 * validateSelectorRequirement checks a requirement of a label selector, or of a node selector when `gtLt` admits
 * the Gt and Lt operators: the values the operator calls for, the key, then each value. The two Kubernetes
 * functions (ValidateLabelSelectorRequirement, ValidateNodeSelectorRequirement) differ only in those operators.
 */
export function validateSelectorRequirement(
  req: { key?: string; operator?: string; values?: readonly string[] }, path: string, allowInvalidLabelValue: boolean, gtLt: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const values = req.values ?? [];
  const operator = req.operator;
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) errs.push(required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0) errs.push(forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else if (gtLt && (operator === 'Gt' || operator === 'Lt')) {
    if (values.length !== 1) errs.push(required(child(path, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else {
    errs.push(invalidValue(child(path, 'operator'), asJSON(operator ?? ''), 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(req.key ?? '', child(path, 'key')));
  if (!allowInvalidLabelValue) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(invalidValue(index(child(path, 'values'), i), v, msg));
    });
  }
  return errs;
}
