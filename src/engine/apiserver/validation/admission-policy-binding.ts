// ValidatingAdmissionPolicyBinding validation, on create and on update alike (ValidateValidatingAdmissionPolicyBindingUpdate
// repeats the create rules): policyName, paramRef, matchResources and validationActions. See
// ValidateValidatingAdmissionPolicyBinding, validateParamRef and validateValidationActions in
// pkg/apis/admissionregistration/validation/validation.go (k8s.io/kubernetes v1.36.3). The declarative validation the
// strategy also runs (rest.ValidateDeclarativelyWithMigrationChecks) only shadows these errors in 1.36: they are the answer.
import { isObject, type KubeObject, type LabelSelector } from '../../api/types';
import { validateMatchResources } from './admission-policy-match';
import { asJSON, child, duplicate, type FieldError, forbidden, index, invalidValue, notSupported, required } from './field-errors';
import { pathSegmentName, validateObjectMeta } from './metadata';
import { nameIsDNSSubdomain } from './names';
import { validateLabelSelector } from './pod-label-selectors';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** VALIDATION_ACTIONS are validValidationActions as sets.List gives them: sorted. */
const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
/** PARAMETER_NOT_FOUND_ACTIONS are the two actions validateParamRef lists, in its order. */
const PARAMETER_NOT_FOUND_ACTIONS = ['Deny', 'Allow'];
const MUTUALLY_EXCLUSIVE = 'name and selector are mutually exclusive';

/** validateValidatingAdmissionPolicyBinding is ValidateValidatingAdmissionPolicyBinding: metadata, then the spec in its order. */
export function validateValidatingAdmissionPolicyBinding(binding: KubeObject): FieldError[] {
  const errs = validateObjectMeta(binding, false, nameIsDNSSubdomain);
  const spec = rec(binding['spec']);
  const policyName = str(spec['policyName']);
  if (policyName.length === 0) errs.push(required('spec.policyName'));
  else errs.push(...nameIsDNSSubdomain(policyName, false).map((msg) => invalidValue('spec.policyName', policyName, msg)));
  if (isObject(spec['paramRef'])) errs.push(...validateParamRef(spec['paramRef'], 'spec.paramRef'));
  if (isObject(spec['matchResources'])) errs.push(...validateMatchResources(spec['matchResources'], 'spec.matchResources'));
  errs.push(...validateValidationActions(Array.isArray(spec['validationActions']) ? spec['validationActions'].map(str) : [], 'spec.validationActions'));
  return errs;
}

/**
 * validateParamRef: a name (a path segment name) or a selector, not both (each side says so), not neither; the
 * parameterNotFoundAction required (there is no default) and Deny or Allow. The namespace is not checked.
 */
function validateParamRef(paramRef: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(paramRef['name']);
  const hasSelector = isObject(paramRef['selector']);
  if (name.length > 0) {
    errs.push(...pathSegmentName(name, false).map((msg) => invalidValue(child(path, 'name'), name, msg)));
    if (hasSelector) errs.push(forbidden(child(path, 'name'), MUTUALLY_EXCLUSIVE));
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(paramRef['selector'] as LabelSelector, child(path, 'selector')));
    if (name.length > 0) errs.push(forbidden(child(path, 'selector'), MUTUALLY_EXCLUSIVE));
  }
  if (name.length === 0 && !hasSelector) errs.push(required(path, 'one of name or selector must be specified'));
  const action = str(paramRef['parameterNotFoundAction']);
  if (action.length === 0) errs.push(required(child(path, 'parameterNotFoundAction')));
  // A pointer to a named string type: json.Marshal prints it.
  else if (!PARAMETER_NOT_FOUND_ACTIONS.includes(action)) errs.push(notSupported(child(path, 'parameterNotFoundAction'), asJSON(action), PARAMETER_NOT_FOUND_ACTIONS));
  return errs;
}

/**
 * validateValidationActions: each supported and not repeated; Deny and Warn not together ("repeating the same
 * validation failure information in the API response and headers serves no purpose"); at least one.
 */
function validateValidationActions(actions: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((action, i) => {
    if (!VALIDATION_ACTIONS.includes(action)) errs.push(notSupported(index(path, i), asJSON(action), VALIDATION_ACTIONS));
    if (seen.has(action)) errs.push(duplicate(index(path, i), asJSON(action)));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalidValue(path, asJSON(actions), 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(required(path, 'at least one validation action is required'));
  return errs;
}
