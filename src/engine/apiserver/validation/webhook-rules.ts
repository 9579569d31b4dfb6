// A webhook's rules as kube-apiserver checks them: operations, then apiGroups, apiVersions, resources (with their
// wildcard and subresource rules) and scope. See pkg/apis/admissionregistration/validation/validation.go
// (validateRuleWithOperations, validateRule, validateResources; k8s.io/kubernetes v1.36.3).
import { asJSON, child, type FieldError, index, invalidValue, notSupported, required } from './field-errors';

type Rec = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((s) => (typeof s === 'string' ? s : '')) : []);

/** SUPPORTED_OPERATIONS are supportedOperations, sorted: `*`, CONNECT, CREATE, DELETE, UPDATE. */
const SUPPORTED_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
/** VALID_SCOPES are validScopes, sorted. */
const VALID_SCOPES = ['*', 'Cluster', 'Namespaced'];

/** validateRuleWithOperations: operations (at least one, `*` alone, each supported), then the rule with subresources allowed. */
export function validateRuleWithOperations(rule: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const operations = strings(rule['operations']);
  if (operations.length === 0) errs.push(required(child(path, 'operations')));
  // []OperationType and OperationType are named types: printed with json.Marshal.
  if (operations.length > 1 && operations.includes('*')) errs.push(invalidValue(child(path, 'operations'), asJSON(operations), "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!SUPPORTED_OPERATIONS.includes(op)) errs.push(notSupported(index(child(path, 'operations'), i), asJSON(op), SUPPORTED_OPERATIONS));
  });
  return [...errs, ...validateRule(rule, path)];
}

/** validateRule: apiGroups and apiVersions (at least one, `*` alone, no empty version), resources, then scope. */
function validateRule(rule: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const groups = strings(rule['apiGroups']);
  if (groups.length === 0) errs.push(required(child(path, 'apiGroups')));
  if (groups.length > 1 && groups.includes('*')) errs.push(invalidValue(child(path, 'apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  const versions = strings(rule['apiVersions']);
  if (versions.length === 0) errs.push(required(child(path, 'apiVersions')));
  if (versions.length > 1 && versions.includes('*')) errs.push(invalidValue(child(path, 'apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(index(child(path, 'apiVersions'), i)));
  });
  errs.push(...validateResources(strings(rule['resources']), child(path, 'resources')));
  const scope = rule['scope'];
  if (typeof scope === 'string' && !VALID_SCOPES.includes(scope)) errs.push(notSupported(child(path, 'scope'), asJSON(scope), VALID_SCOPES));
  return errs;
}

/**
 * validateResources: at least one, none empty; `x/*` excludes other `x/...`, `* /y` other `.../y` (each reported at the
 * later entry); `* /*` stands alone; `*` excludes resources without a subresource.
 */
function validateResources(resources: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const withWildcardSubresource = new Set<string>();
  const subresourcesWithWildcardResource = new Set<string>();
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(index(path, i)));
      return;
    }
    if (resSub === '*/*') hasDoubleWildcard = true;
    if (resSub === '*') hasSingleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      // Go assigns, not ORs: the last resource without a subresource decides.
      hasResourceWithoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSubresource.has(res)) errs.push(invalidValue(index(path, i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subresourcesWithWildcardResource.has(sub)) errs.push(invalidValue(index(path, i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSubresource.add(res);
    if (res === '*') subresourcesWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && hasDoubleWildcard) errs.push(invalidValue(path, resources, "if '*/*' is present, must not specify other resources"));
  if (hasSingleWildcard && hasResourceWithoutSubresource) errs.push(invalidValue(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}
