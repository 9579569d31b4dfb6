// PodDisruptionBudget validation on create: ValidatePodDisruptionBudget and ValidatePodDisruptionBudgetSpec of
// pkg/apis/policy/validation/validation.go, as pkg/registry/policy/poddisruptionbudget/strategy.go runs them
// (AllowInvalidLabelValueInSelector false), then the registry's own ObjectMeta check, kubernetes v1.36.3.
import type { PodDisruptionBudget } from '../../api/pod-disruption-budget';
import type { KubeObject, LabelSelector } from '../../api/types';
import { type IntOrString, isNotMoreThan100Percent, labelSelectorJSON, validatePositiveIntOrPercent } from './apps';
import { asJSON, type FieldError, goJSONMarshal, notSupported } from './field-errors';
import { invalidShown, pathSegmentName, validateObjectMeta } from './metadata';
import { validateLabelSelector } from './pod-label-selectors';

/** SUPPORTED_UNHEALTHY_POD_EVICTION_POLICIES are supportedUnhealthyPodEvictionPolicies, as sets.String.List() sorts them. */
export const SUPPORTED_UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'] as const;

type BudgetSpec = { minAvailable?: IntOrString | null; maxUnavailable?: IntOrString | null; selector?: LabelSelector | null; unhealthyPodEvictionPolicy?: string | null };

/**
 * validatePodDisruptionBudget is the strategy's Validate, which checks the spec only; when it passes, rest.BeforeCreate
 * checks the metadata (ValidateObjectMetaAccessor with ValidatePathSegmentName: the budget has no name rule of its own).
 * Its errors are returned alone, so a bad spec hides a bad name. See staging/src/k8s.io/apiserver/pkg/registry/rest/create.go.
 */
export function validatePodDisruptionBudget(pdb: KubeObject): FieldError[] {
  const errs = validatePodDisruptionBudgetSpec((pdb as PodDisruptionBudget).spec as BudgetSpec | undefined, 'spec');
  return errs.length > 0 ? errs : validateObjectMeta(pdb, true, pathSegmentName);
}

/**
 * validatePodDisruptionBudgetSpec is ValidatePodDisruptionBudgetSpec, in its order: minAvailable and maxUnavailable
 * not both set (the whole spec shown as its internal Go struct marshals: capitalized field names, nil pointers null),
 * each a non-negative int or a percent of at most 100%, the selector, then unhealthyPodEvictionPolicy.
 */
export function validatePodDisruptionBudgetSpec(spec: BudgetSpec | undefined, path: string): FieldError[] {
  const s: BudgetSpec = spec ?? {};
  const errs: FieldError[] = [];
  const set = (v: unknown): v is IntOrString => v !== undefined && v !== null;
  if (set(s.minAvailable) && set(s.maxUnavailable)) errs.push(invalidShown(path, internalSpecJSON(s), 'minAvailable and maxUnavailable cannot be both set'));
  for (const field of ['minAvailable', 'maxUnavailable'] as const) {
    const value = s[field];
    if (!set(value)) continue;
    errs.push(...validatePositiveIntOrPercent(value, `${path}.${field}`), ...isNotMoreThan100Percent(value, `${path}.${field}`));
  }
  errs.push(...validateLabelSelector(s.selector, `${path}.selector`));
  const policy = s.unhealthyPodEvictionPolicy;
  if (policy !== undefined && policy !== null && !(SUPPORTED_UNHEALTHY_POD_EVICTION_POLICIES as readonly string[]).includes(policy)) {
    // A named string type (UnhealthyPodEvictionPolicyType): ErrorBody prints it with json.Marshal.
    errs.push(notSupported(`${path}.unhealthyPodEvictionPolicy`, asJSON(policy), SUPPORTED_UNHEALTHY_POD_EVICTION_POLICIES));
  }
  return errs;
}

/** internalSpecJSON is json.Marshal of policy.PodDisruptionBudgetSpec, whose fields have no json tags. */
function internalSpecJSON(s: BudgetSpec): string {
  const intOrString = (v: IntOrString | null | undefined) => (v === undefined || v === null ? 'null' : goJSONMarshal(v));
  const selector = s.selector === undefined || s.selector === null ? 'null' : labelSelectorJSON(s.selector);
  const policy = s.unhealthyPodEvictionPolicy === undefined || s.unhealthyPodEvictionPolicy === null ? 'null' : goJSONMarshal(s.unhealthyPodEvictionPolicy);
  return `{"MinAvailable":${intOrString(s.minAvailable)},"Selector":${selector},"MaxUnavailable":${intOrString(s.maxUnavailable)},"UnhealthyPodEvictionPolicy":${policy}}`;
}
