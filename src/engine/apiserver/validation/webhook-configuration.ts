// ValidatingWebhookConfiguration and MutatingWebhookConfiguration validation on create and update: each webhook's
// name, rules, policies, side effects, timeout, selectors, clientConfig and matchConditions, then its
// admissionReviewVersions and the uniqueness of its name. Validated after admissionregistration/v1 defaulting
// (api/defaults-kinds.ts). See pkg/apis/admissionregistration/validation/validation.go (k8s.io/kubernetes v1.36.3).
import { isObject, type KubeObject, type LabelSelector } from '../../api/types';
import { compileCel } from '../admission/policy/cel/environment';
import { asJSON, child, duplicate, type FieldError, index, invalidValue, notSupported, required, tooMany } from './field-errors';
import { isDNS1035Label, validateObjectMeta } from './metadata';
import { isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from './names';
import { validateLabelSelector } from './pod-label-selectors';
import { validateWebhookService, validateWebhookURL } from './webhook-client-config';
import { validateRuleWithOperations } from './webhook-rules';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

// The supported values as sets.List gives them: sorted.
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
/** ACCEPTED_ADMISSION_REVIEW_VERSIONS is AcceptedAdmissionReviewVersions: admission/v1 and v1beta1. */
const ACCEPTED_ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];
/** MAX_MATCH_CONDITIONS is validateMatchConditions' limit. */
const MAX_MATCH_CONDITIONS = 64;

/** WebhookOptions are validationOptions: create sets them strict; an update relaxes what the old object already broke. */
interface WebhookOptions {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
}

const CREATE_OPTIONS: WebhookOptions = {
  ignoreMatchConditions: false, requireNoSideEffects: true, requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true, allowInvalidLabelValueInSelector: false,
};

/** validateValidatingWebhookConfiguration is ValidateValidatingWebhookConfiguration (the create options). */
export function validateValidatingWebhookConfiguration(config: KubeObject): FieldError[] {
  return validateConfiguration(config, false, CREATE_OPTIONS);
}

/** validateMutatingWebhookConfiguration is ValidateMutatingWebhookConfiguration (the create options). */
export function validateMutatingWebhookConfiguration(config: KubeObject): FieldError[] {
  return validateConfiguration(config, true, CREATE_OPTIONS);
}

/**
 * validateWebhookConfigurationUpdate is ValidateValidatingWebhookConfigurationUpdate and
 * ValidateMutatingWebhookConfigurationUpdate: the same rules, with the options the old object allows (side effects,
 * review versions, duplicate names or bad selector values it already had stay allowed; unchanged matchConditions are
 * not compiled again).
 */
export function validateWebhookConfigurationUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const oldHooks = list(old['webhooks']).map(rec);
  const newHooks = list(next['webhooks']).map(rec);
  const names = oldHooks.map((h) => str(h['name']));
  // reflect.DeepEqual of the conditions: their names and expressions, in order.
  const conditions = (h: Rec): string => JSON.stringify(list(h['matchConditions']).map((c) => [str(rec(c)['name']), str(rec(c)['expression'])]));
  const opts: WebhookOptions = {
    ignoreMatchConditions: newHooks.length === oldHooks.length && oldHooks.every((h, i) => conditions(h) === conditions(newHooks[i]!)),
    requireNoSideEffects: oldHooks.every((h) => NO_SIDE_EFFECT_CLASSES.includes(str(h['sideEffects']))),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => {
      const versions = list(h['admissionReviewVersions']);
      return versions.length === 0 || versions.some((v) => ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(str(v)));
    }),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: oldHooks.some((h) => ['namespaceSelector', 'objectSelector']
      .some((s) => isObject(h[s]) && validateLabelSelector(h[s] as LabelSelector, s).length > 0)),
  };
  return validateConfiguration(next, next.kind === 'MutatingWebhookConfiguration', opts);
}

/** validateConfiguration is validate{Validating,Mutating}WebhookConfiguration: metadata, then per webhook its rules, versions and name. */
function validateConfiguration(config: KubeObject, mutating: boolean, opts: WebhookOptions): FieldError[] {
  const errs = validateObjectMeta(config, false, nameIsDNSSubdomain);
  const hookNames = new Set<string>();
  list(config['webhooks']).forEach((raw, i) => {
    const hook = rec(raw);
    const path = index('webhooks', i);
    errs.push(...validateWebhook(hook, mutating, opts, path));
    errs.push(...validateAdmissionReviewVersions(list(hook['admissionReviewVersions']).map(str), opts.requireRecognizedAdmissionReviewVersion, child(path, 'admissionReviewVersions')));
    const name = str(hook['name']);
    if (opts.requireUniqueWebhookNames && name.length > 0) {
      if (hookNames.has(name)) errs.push(duplicate(child(path, 'name'), name));
      else hookNames.add(name);
    }
  });
  return errs;
}

/** validateWebhook is validateValidatingWebhook (and validateMutatingWebhook, which adds reinvocationPolicy). */
function validateWebhook(hook: Rec, mutating: boolean, opts: WebhookOptions, path: string): FieldError[] {
  const errs = isFullyQualifiedName(child(path, 'name'), str(hook['name']));
  list(hook['rules']).forEach((rule, i) => errs.push(...validateRuleWithOperations(rec(rule), index(child(path, 'rules'), i))));
  // The policies are named string types behind pointers: ErrorBody prints them with json.Marshal.
  const failurePolicy = hook['failurePolicy'];
  if (typeof failurePolicy === 'string' && !FAILURE_POLICIES.includes(failurePolicy)) errs.push(notSupported(child(path, 'failurePolicy'), asJSON(failurePolicy), FAILURE_POLICIES));
  const matchPolicy = hook['matchPolicy'];
  if (typeof matchPolicy === 'string' && !MATCH_POLICIES.includes(matchPolicy)) errs.push(notSupported(child(path, 'matchPolicy'), asJSON(matchPolicy), MATCH_POLICIES));
  const allowedSideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECT_CLASSES : SIDE_EFFECT_CLASSES;
  const sideEffects = hook['sideEffects'];
  if (typeof sideEffects !== 'string') errs.push(required(child(path, 'sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(sideEffects)) errs.push(notSupported(child(path, 'sideEffects'), asJSON(sideEffects), allowedSideEffects));
  const timeout = hook['timeoutSeconds'];
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) errs.push(invalidValue(child(path, 'timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  for (const selector of ['namespaceSelector', 'objectSelector']) {
    if (isObject(hook[selector])) errs.push(...validateLabelSelector(hook[selector] as LabelSelector, child(path, selector), opts.allowInvalidLabelValueInSelector));
  }
  const reinvocation = hook['reinvocationPolicy'];
  if (mutating && typeof reinvocation === 'string' && !REINVOCATION_POLICIES.includes(reinvocation)) {
    errs.push(notSupported(child(path, 'reinvocationPolicy'), asJSON(reinvocation), REINVOCATION_POLICIES));
  }
  const cc = rec(hook['clientConfig']);
  const hasURL = typeof cc['url'] === 'string';
  const hasService = isObject(cc['service']);
  if (hasURL === hasService) errs.push(required(child(path, 'clientConfig'), 'exactly one of url or service is required'));
  else if (hasURL) errs.push(...validateWebhookURL(child(path, 'clientConfig', 'url'), cc['url'] as string));
  else errs.push(...validateWebhookService(child(path, 'clientConfig', 'service'), rec(cc['service'])));
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(list(hook['matchConditions']).map(rec), child(path, 'matchConditions')));
  return errs;
}

/**
 * isFullyQualifiedName is utilvalidation.IsFullyQualifiedName: required, a DNS subdomain (its messages joined with a
 * comma), of at least three dot-separated segments; the first failure alone.
 * See staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (v0.36.3).
 */
function isFullyQualifiedName(path: string, name: string): FieldError[] {
  if (name.length === 0) return [required(path)];
  const subdomain = isDNS1123Subdomain(name);
  if (subdomain.length > 0) return [invalidValue(path, name, subdomain.join(','))];
  if (name.split('.').length < 3) return [invalidValue(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** validateAdmissionReviewVersions: at least one, no repeats, each a DNS-1035 label, and (on create) one the server accepts. */
function validateAdmissionReviewVersions(versions: string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length < 1) return [required(path, `must specify one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasAccepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalidValue(index(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalidValue(index(path, i), v, msg));
    if (ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted) errs.push(invalidValue(path, versions, `must include at least one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

/**
 * validateMatchConditions: at most 64, each valid, no name twice. hasParams is allowParamsInMatchConditions: a
 * ValidatingAdmissionPolicy with a paramKind lets its match conditions read params (admission-policy.ts).
 */
export function validateMatchConditions(conditions: Rec[], path: string, hasParams = false): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    errs.push(...validateMatchCondition(c, index(path, i), hasParams));
    const name = str(c['name']);
    if (name.length > 0) {
      if (names.has(name)) errs.push(duplicate(child(index(path, i), 'name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/**
 * validateMatchCondition: the trimmed expression compiled as a bool in the match-condition environment (params when
 * allowed, an authorizer, no variables), a compile error reported with the expression (convertCELErrorToValidationError:
 * ErrorTypeInvalid); then the name, a qualified name.
 */
function validateMatchCondition(condition: Rec, path: string, hasParams: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const expression = str(condition['expression']).trim();
  if (expression.length === 0) errs.push(required(child(path, 'expression')));
  else {
    const compiled = compileCel(expression, { hasParams, hasAuthorizer: true, variables: [], stateless: true }, 'bool');
    if (!compiled.ok) errs.push(invalidValue(child(path, 'expression'), expression, compiled.error));
  }
  const name = str(condition['name']);
  if (name.length === 0) errs.push(required(child(path, 'name')));
  else errs.push(...isQualifiedName(name).map((msg) => invalidValue(child(path, 'name'), name, msg)));
  return errs;
}
