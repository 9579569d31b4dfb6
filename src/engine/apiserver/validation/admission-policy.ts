// ValidatingAdmissionPolicy validation on create and update: failurePolicy, paramKind, matchConstraints,
// matchConditions, variables, validations and auditAnnotations, each CEL expression compiled as kube-apiserver compiles
// it. Validated after admissionregistration/v1 defaulting (api/defaults-kinds.ts). See ValidateValidatingAdmissionPolicy
// and validateValidatingAdmissionPolicySpec in pkg/apis/admissionregistration/validation/validation.go (k8s.io/kubernetes
// v1.36.3). The CEL errors are the engine's compiler's (admission/policy/cel/environment.ts): its parse and type-check
// errors, and the result type checks, are cel-go's words; what it cannot see (the cost budget cel-go estimates from the
// expression, the libraries only the stored-expressions environment has) may differ.
import { isObject, type KubeObject } from '../../api/types';
import { celGoTypeName, compileCel, type CelDeclarations } from '../admission/policy/cel/environment';
import { validateMatchResources } from './admission-policy-match';
import { asJSON, child, duplicate, type FieldError, index, invalidValue, notSupported, required } from './field-errors';
import { isDNS1035Label, validateObjectMeta } from './metadata';
import { byteLength, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from './names';
import { validateMatchConditions } from './webhook-configuration';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** FAILURE_POLICIES are supportedFailurePolicies as sets.List gives them: sorted. */
const FAILURE_POLICIES = ['Fail', 'Ignore'];
/** VALIDATION_REASONS are supportedValidationPolicyReason (metav1.StatusReason values), sorted. */
const VALIDATION_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
/** MAX_AUDIT_ANNOTATIONS is maxAuditAnnotations. */
const MAX_AUDIT_ANNOTATIONS = 20;
/** MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH is maxAuditAnnotationValueExpressionLength: 5 KiB. */
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024;
/** CEL_IDENT is celIdentRegex; CEL_RESERVED are celReserved (isCELIdentifier). */
const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import',
  'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** PolicyOptions are the validationOptions a policy's validation reads: an update that leaves the match conditions (and the paramKind) alone does not compile them again. */
interface PolicyOptions {
  ignoreMatchConditions: boolean;
}

/** validateValidatingAdmissionPolicy is ValidateValidatingAdmissionPolicy: metadata (cluster-scoped, a DNS subdomain), then the spec. */
export function validateValidatingAdmissionPolicy(policy: KubeObject): FieldError[] {
  return validatePolicy(policy, { ignoreMatchConditions: false });
}

/**
 * validateValidatingAdmissionPolicyUpdate is ValidateValidatingAdmissionPolicyUpdate: the create rules, but the match
 * conditions are not validated when they and the paramKind are as they were (ignoreValidatingAdmissionPolicyMatchConditions).
 * Expressions the old object held compile in the stored-expressions environment there, which the engine's compiler
 * does not tell apart from the new-expressions one.
 */
export function validateValidatingAdmissionPolicyUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const n = rec(next['spec']);
  const o = rec(old['spec']);
  const same = (field: string): boolean => JSON.stringify(n[field] ?? null) === JSON.stringify(o[field] ?? null);
  return validatePolicy(next, { ignoreMatchConditions: same('paramKind') && same('matchConditions') });
}

function validatePolicy(policy: KubeObject, opts: PolicyOptions): FieldError[] {
  const errs = validateObjectMeta(policy, false, nameIsDNSSubdomain);
  return [...errs, ...validateSpec(policy.metadata?.name ?? '', rec(policy['spec']), opts, 'spec')];
}

/** validateSpec is validateValidatingAdmissionPolicySpec, in its order. */
function validateSpec(name: string, spec: Rec, opts: PolicyOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const failurePolicy = spec['failurePolicy'];
  if (typeof failurePolicy !== 'string') errs.push(required(child(path, 'failurePolicy')));
  else if (!FAILURE_POLICIES.includes(failurePolicy)) errs.push(notSupported(child(path, 'failurePolicy'), asJSON(failurePolicy), FAILURE_POLICIES));
  const hasParams = isObject(spec['paramKind']);
  if (hasParams) errs.push(...validateParamKind(rec(spec['paramKind']), child(path, 'paramKind')));
  const constraints = spec['matchConstraints'];
  if (!isObject(constraints)) errs.push(required(child(path, 'matchConstraints')));
  else {
    errs.push(...validateMatchResources(constraints, child(path, 'matchConstraints')));
    // "at least one resourceRule must be defined to provide type information"
    if (list(constraints['resourceRules']).length === 0) errs.push(required(child(path, 'matchConstraints', 'resourceRules')));
  }
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(list(spec['matchConditions']).map(rec), child(path, 'matchConditions'), hasParams));
  // The variables are compiled in order, each seeing those before it (the composited compiler, CompileAndStoreVariable);
  // the validations, messages and audit annotations then see them all.
  const declared: { name: string; type: string }[] = [];
  list(spec['variables']).forEach((raw, i) => {
    const variable = rec(raw);
    errs.push(...validateVariable(variable, { hasParams, hasAuthorizer: true, variables: [...declared] }, declared, index(child(path, 'variables'), i)));
  });
  // Without variables kube-apiserver compiles with the stateless compiler: `variables` is not even declared.
  const decls: CelDeclarations = { hasParams, hasAuthorizer: true, variables: declared, stateless: list(spec['variables']).length === 0 };
  const validations = list(spec['validations']);
  const annotations = list(spec['auditAnnotations']);
  if (validations.length === 0 && annotations.length === 0) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    return [...errs, required(child(path, 'validations'), detail), required(child(path, 'auditAnnotations'), detail)];
  }
  validations.forEach((v, i) => errs.push(...validateValidation(rec(v), decls, index(child(path, 'validations'), i))));
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) {
    // The internal type has no json tags: json.Marshal names the fields as Go does.
    const shown = annotations.map((a) => ({ Key: str(rec(a)['key']), ValueExpression: str(rec(a)['valueExpression']) }));
    errs.push(invalidValue(child(path, 'auditAnnotations'), asJSON(shown), `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const keys = new Set<string>();
  annotations.forEach((raw, i) => {
    const annotation = rec(raw);
    const at = index(child(path, 'auditAnnotations'), i);
    errs.push(...validateAuditAnnotation(name, annotation, decls, at));
    const key = str(annotation['key']);
    if (keys.has(key)) errs.push(duplicate(child(at, 'key'), key));
    keys.add(key);
  });
  return errs;
}

/**
 * validateParamKind: apiVersion required, a group/version (parseGroupVersion) whose group is a DNS subdomain and whose
 * version a DNS-1035 label (as an APIService's); kind required, a DNS-1035 label once lower-cased.
 */
function validateParamKind(paramKind: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(paramKind['apiVersion']);
  const versionPath = child(path, 'apiVersion');
  if (apiVersion.length === 0) errs.push(required(versionPath));
  else {
    const slashes = apiVersion.split('/').length - 1;
    if (slashes > 1) errs.push(invalidValue(versionPath, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    else {
      const [group, version] = apiVersion === '/' ? ['', ''] : slashes === 0 ? ['', apiVersion] : apiVersion.split('/') as [string, string];
      if (group.length > 0) {
        const msgs = isDNS1123Subdomain(group);
        if (msgs.length > 0) errs.push(invalidValue(versionPath, group, msgs.join(',')));
      }
      if (version.length === 0) errs.push(invalidValue(versionPath, apiVersion, 'version must be specified'));
      else {
        const msgs = isDNS1035Label(version);
        if (msgs.length > 0) errs.push(invalidValue(versionPath, version, msgs.join(',')));
      }
    }
  }
  const kind = str(paramKind['kind']);
  if (kind.length === 0) errs.push(required(child(path, 'kind')));
  else {
    const msgs = isDNS1035Label(kind.toLowerCase());
    if (msgs.length > 0) errs.push(invalidValue(child(path, 'kind'), kind, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
  }
  return errs;
}

/**
 * validateVariable: the name required and a CEL identifier; the expression required and compiled as given (any result
 * type). A variable is declared for those after it even when it fails to compile, as dyn (composition.go AddField);
 * one whose name is no identifier cannot be read by any expression, so it is not declared.
 */
function validateVariable(variable: Rec, decls: CelDeclarations, declared: { name: string; type: string }[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(variable['name']);
  if (name.trim() === '') errs.push(required(child(path, 'name'), 'name is not specified'));
  else if (!isCELIdentifier(name)) errs.push(invalidValue(child(path, 'name'), name, 'must be a valid CEL identifier'));
  const expression = str(variable['expression']);
  let type = 'dyn';
  if (expression.trim() === '') errs.push(required(child(path, 'expression'), 'expression is not specified'));
  else {
    const compiled = compileCel(expression, decls, 'any');
    if (compiled.ok) type = compiled.outputType;
    else errs.push(invalidValue(child(path, 'expression'), expression, compiled.error));
  }
  if (isCELIdentifier(name)) declared.push({ name, type });
  return errs;
}

/** isCELIdentifier is isCELIdentifier: `[_a-zA-Z][_a-zA-Z0-9]*` and not a reserved word. */
function isCELIdentifier(name: string): boolean {
  return CEL_IDENT.test(name) && !CEL_RESERVED.has(name);
}

/**
 * validateValidation is validateValidation: the expression required and compiled as a bool (as written, so the
 * compiler's columns are right); a messageExpression, when given, not blank and compiled as a string without the
 * authorizer; a message not blank and on one line; a reason among the supported ones.
 */
function validateValidation(validation: Rec, decls: CelDeclarations, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const expression = str(validation['expression']);
  if (expression.trim().length === 0) errs.push(required(child(path, 'expression'), 'expression is not specified'));
  else errs.push(...compileInvalid(expression, decls, 'bool', child(path, 'expression')));
  const messageExpression = str(validation['messageExpression']);
  if (messageExpression.length > 0 && messageExpression.trim().length === 0) {
    errs.push(invalidValue(child(path, 'messageExpression'), messageExpression, 'must be non-empty if specified'));
  } else if (messageExpression.trim().length > 0) {
    errs.push(...compileInvalid(messageExpression, { ...decls, hasAuthorizer: false }, 'string', child(path, 'messageExpression')));
  }
  const message = str(validation['message']);
  if (message.length > 0 && message.trim().length === 0) errs.push(invalidValue(child(path, 'message'), message, 'must be non-empty if specified'));
  else if (/[\n\r]/.test(message.trim())) errs.push(invalidValue(child(path, 'message'), message, 'must not contain line breaks'));
  const reason = validation['reason'];
  if (typeof reason === 'string' && !VALIDATION_REASONS.includes(reason)) errs.push(notSupported(child(path, 'reason'), asJSON(reason), VALIDATION_REASONS));
  return errs;
}

/** compileInvalid is validateCELCondition: a compile error as field.Invalid of the expression as written. */
function compileInvalid(expression: string, decls: CelDeclarations, returnType: 'bool' | 'string', path: string): FieldError[] {
  const compiled = compileCel(expression, decls, returnType);
  return compiled.ok ? [] : [invalidValue(path, expression, compiled.error)];
}

/**
 * validateAuditAnnotation: `<policy name>/<key>` a qualified name; the valueExpression required, at most 5 KiB once
 * trimmed, compiled trimmed (with the authorizer) to a string or null; its errors show it as written.
 */
function validateAuditAnnotation(policyName: string, annotation: Rec, decls: CelDeclarations, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(annotation['key']);
  if (policyName.length > 0) {
    const qualified = `${policyName}/${key}`;
    errs.push(...isQualifiedName(qualified).map((msg) => invalidValue(child(path, 'key'), qualified, msg)));
  } else errs.push(invalidValue(child(path, 'key'), key, 'requires metadata.name be non-empty'));
  const valueExpression = str(annotation['valueExpression']);
  const trimmed = valueExpression.trim();
  const at = child(path, 'valueExpression');
  if (trimmed.length === 0) errs.push(required(at, 'valueExpression is not specified'));
  else if (byteLength(trimmed) > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH) {
    errs.push(required(at, `must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length`));
  } else {
    // AuditAnnotationCondition.ReturnTypes: string or null, so the message lists both ("must evaluate to one of %v").
    const compiled = compileCel(trimmed, decls, 'any');
    if (!compiled.ok) errs.push(invalidValue(at, valueExpression, compiled.error));
    else if (compiled.outputType !== 'string' && compiled.outputType !== 'null') {
      errs.push(invalidValue(at, valueExpression, `must evaluate to one of [string null_type] but got ${celGoTypeName(compiled.outputType)}`));
    }
  }
  return errs;
}
