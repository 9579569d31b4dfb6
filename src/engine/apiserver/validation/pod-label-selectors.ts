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
  const errs: FieldError[] = [];
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In': case 'NotIn':
      if (values.length === 0) errs.push(required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists': case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(invalidValue(child(path, 'operator'), asJSON(req.operator ?? ''), 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(req.key ?? '', child(path, 'key')));
  if (!allowInvalidLabelValue) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(invalidValue(index(child(path, 'values'), i), v, msg));
    });
  }
  return errs;
}
