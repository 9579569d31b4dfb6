// ResourceQuota validation on create: ValidateResourceQuota of pkg/apis/core/validation/validation.go (the spec's hard
// limits, scopes and scope selector; not the status, which PrepareForCreate clears before Validate sees it), as
// pkg/registry/core/resourcequota/strategy.go runs it, with the resource classes of pkg/apis/core/helper/helpers.go,
// k8s.io/kubernetes v1.36.3. Go walks the hard map in random order; this walks it as written.
import { quantityOf } from '../../api/quantity';
import { isObject, type KubeObject } from '../../api/types';
import { asJSON, child, type FieldError, invalidValue, key, required } from './field-errors';
import { validateObjectMeta } from './metadata';
import { nameIsDNSSubdomain } from './names';
import { validateResourceName, validateResourceQuantityValue } from './pod-resources';

type Rec = Record<string, unknown>;

/** STANDARD_QUOTA_RESOURCES is helper.standardQuotaResources; requests.hugepages-* and hugepages-* count too. */
const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);
/** STANDARD_SCOPES is helper.standardResourceQuotaScopes plus CrossNamespacePodAffinity (IsStandardResourceQuotaScope). */
const STANDARD_SCOPES = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'VolumeAttributesClass', 'CrossNamespacePodAffinity']);
const POD_COUNT = new Set(['pods']);
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const PVC_RESOURCES = new Set(['persistentvolumeclaims', 'requests.storage']);
/** EXISTS_ONLY_SCOPES are the scopes whose selector operator must be Exists. */
const EXISTS_ONLY_SCOPES = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);
const CONFLICTING_SCOPES = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']] as const;

/** isStandardQuotaResourceName is helper.IsStandardQuotaResourceName. */
const isStandardQuotaResourceName = (name: string): boolean =>
  STANDARD_QUOTA_RESOURCES.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');

/** scopeValidForResource is helper.IsResourceQuotaScopeValidForResource. */
function scopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating': case 'NotTerminating': case 'NotBestEffort': case 'PriorityClass': case 'CrossNamespacePodAffinity':
      return POD_COUNT.has(resource) || POD_COMPUTE.has(resource);
    case 'BestEffort':
      return POD_COUNT.has(resource);
    case 'VolumeAttributesClass':
      return PVC_RESOURCES.has(resource);
    default:
      return true;
  }
}

/**
 * validateResourceQuota is ValidateResourceQuota: the metadata (a DNS subdomain name), then the spec. Its status check
 * always passes on create (resourcequotaStrategy.PrepareForCreate empties the status) and is not run on update.
 */
export function validateResourceQuota(quota: KubeObject): FieldError[] {
  const errs = validateObjectMeta(quota, true, nameIsDNSSubdomain);
  const spec = isObject(quota['spec']) ? quota['spec'] : {};
  errs.push(...validateHard(spec['hard'], 'spec.hard'));
  errs.push(...validateScopes(spec));
  if (isObject(spec['scopeSelector'])) errs.push(...validateScopeSelector(spec, spec['scopeSelector']));
  return errs;
}

/** validateHard checks a resource list: ValidateResourceQuotaResourceName and ValidateResourceQuantityValue per entry. */
function validateHard(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, raw] of Object.entries(isObject(list) ? list : {})) {
    const at = key(path, name);
    errs.push(...validateResourceName(name, at));
    // ValidateResourceQuotaResourceName: a name without a domain must also be one quota knows.
    if (!name.includes('/') && !isStandardQuotaResourceName(name)) errs.push(invalidValue(at, asJSON(name), 'must be a standard resource for quota'));
    const q = quantityOf(raw);
    if (q) errs.push(...validateResourceQuantityValue(name, q, at));
  }
  return errs;
}

/** hardNames is sets.List of the hard limits' names: sorted. */
const hardNames = (spec: Rec): string[] => Object.keys(isObject(spec['hard']) ? spec['hard'] : {}).sort();

/** validateScopes is validateResourceQuotaScopes: known scopes, each valid for every hard limit, no conflicting pair. */
function validateScopes(spec: Rec): FieldError[] {
  const scopes = Array.isArray(spec['scopes']) ? spec['scopes'].map(String) : [];
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const shown = asJSON(scopes);
  for (const scope of scopes) {
    if (!STANDARD_SCOPES.has(scope)) errs.push(invalidValue('spec.scopes', shown, 'unsupported scope'));
    for (const name of hardNames(spec)) {
      if (isStandardQuotaResourceName(name) && !scopeValidForResource(scope, name)) errs.push(invalidValue('spec.scopes', shown, 'unsupported scope applied to resource'));
    }
  }
  for (const [a, b] of CONFLICTING_SCOPES) if (scopes.includes(a) && scopes.includes(b)) errs.push(invalidValue('spec.scopes', shown, 'conflicting scopes'));
  return errs;
}

/** validateScopeSelector is validateScopedResourceSelectorRequirement over spec.scopeSelector.matchExpressions. */
function validateScopeSelector(spec: Rec, selector: Rec): FieldError[] {
  const errs: FieldError[] = [];
  const path = 'spec.scopeSelector.matchExpressions';
  const seen = new Set<string>();
  for (const raw of Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'] : []) {
    const req = isObject(raw) ? raw : {};
    const scope = typeof req['scopeName'] === 'string' ? req['scopeName'] : '';
    const operator = typeof req['operator'] === 'string' ? req['operator'] : '';
    const values = Array.isArray(req['values']) ? req['values'] : [];
    if (!STANDARD_SCOPES.has(scope)) errs.push(invalidValue(child(path, 'scopeName'), asJSON(scope), 'unsupported scope'));
    for (const name of hardNames(spec)) {
      if (isStandardQuotaResourceName(name) && !scopeValidForResource(scope, name)) {
        errs.push(invalidValue(path, asJSON(scopeSelectorGo(selector)), 'unsupported scope applied to resource'));
      }
    }
    if (EXISTS_ONLY_SCOPES.has(scope) && operator !== 'Exists') {
      errs.push(invalidValue(child(path, 'operator'), asJSON(operator), 'must be \'Exists\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity'));
    }
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) errs.push(required(child(path, 'values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length !== 0) errs.push(invalidValue(child(path, 'values'), asJSON(values), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
    } else {
      errs.push(invalidValue(child(path, 'operator'), asJSON(operator), 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  // Go shows spec.scopes here (nil, printed null, when the quota has none).
  const scopes = Array.isArray(spec['scopes']) && spec['scopes'].length ? spec['scopes'] : null;
  for (const [a, b] of CONFLICTING_SCOPES) if (seen.has(a) && seen.has(b)) errs.push(invalidValue(path, asJSON(scopes), 'conflicting scopes'));
  return errs;
}

/** scopeSelectorGo is the internal core.ScopeSelector as json.Marshal writes it: Go field names, no json tags. */
function scopeSelectorGo(selector: Rec): Rec {
  const expressions = Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'] : [];
  return {
    MatchExpressions: expressions.map((raw: unknown) => {
      const req = isObject(raw) ? raw : {};
      const values = Array.isArray(req['values']) && req['values'].length ? req['values'] : null;
      return { ScopeName: req['scopeName'] ?? '', Operator: req['operator'] ?? '', Values: values };
    }),
  };
}
