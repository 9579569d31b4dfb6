// A ValidatingAdmissionPolicy compiled as the plugin compiles it: variables in order, match conditions, validations,
// message expressions and audit annotations, each with the variables it may see.
// See staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go (compilePolicy).
import type { KubeObject, LabelSelector } from '../../../api/types';
import type { RuleWithOperations } from '../webhook/matching';
import { compileMatchConditions, type CompiledMatchCondition } from '../webhook/match-conditions';
import { compileCel, type CelDeclarations, type CompiledCel } from './cel/environment';
import type { CompositedVariable } from './cel/evaluate';

/** Validation is one spec.validations entry. */
export interface Validation {
  expression: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
}

/** PolicySpec is the part of a ValidatingAdmissionPolicy's spec the plugin reads. */
export interface PolicySpec {
  paramKind?: { apiVersion?: string; kind?: string };
  matchConstraints?: MatchResources;
  validations?: Validation[];
  failurePolicy?: string;
  auditAnnotations?: { key: string; valueExpression: string }[];
  matchConditions?: { name: string; expression: string }[];
  variables?: { name: string; expression: string }[];
}

/** MatchResources is admissionregistration/v1 MatchResources (a policy's matchConstraints, a binding's matchResources). */
export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: RuleWithOperations[];
  excludeResourceRules?: RuleWithOperations[];
  matchPolicy?: string;
}

/** CompiledValidation is a validation with its compiled expression and message expression. */
export interface CompiledValidation {
  validation: Validation;
  compiled: CompiledCel;
  messageCompiled?: CompiledCel;
}

/** CompiledPolicy is everything evaluation needs of one policy. */
export interface CompiledPolicy {
  name: string;
  spec: PolicySpec;
  failurePolicy: 'Fail' | 'Ignore';
  variables: CompositedVariable[];
  matchConditions: CompiledMatchCondition[];
  validations: CompiledValidation[];
  auditAnnotations: { key: string; valueExpression: string; compiled: CompiledCel }[];
}

/** policySpecOf reads a policy object's spec. */
export function policySpecOf(policy: KubeObject): PolicySpec {
  const spec = policy['spec'];
  return (typeof spec === 'object' && spec !== null ? spec : {}) as PolicySpec;
}

const compiledPolicies = new WeakMap<KubeObject, CompiledPolicy>();

/**
 * compilePolicy compiles a stored policy once (stored objects are replaced, never changed, so the object is the cache
 * key). Variables see params and the authorizer and the variables before them; messageExpressions see no authorizer.
 */
export function compilePolicy(policy: KubeObject): CompiledPolicy {
  const cached = compiledPolicies.get(policy);
  if (cached) return cached;
  const spec = policySpecOf(policy);
  const hasParams = !!spec.paramKind;
  const declared: { name: string; type: string }[] = [];
  const variables: CompositedVariable[] = [];
  for (const v of spec.variables ?? []) {
    const compiled = compileCel(v.expression, { hasParams, hasAuthorizer: true, variables: [...declared] }, 'any');
    variables.push({ name: v.name, compiled });
    // Why: composition.go AddField: a variable that does not compile is still declared, as dyn.
    declared.push({ name: v.name, type: compiled.ok ? compiled.outputType : 'dyn' });
  }
  const decls: CelDeclarations = { hasParams, hasAuthorizer: true, variables: declared };
  const messageDecls: CelDeclarations = { ...decls, hasAuthorizer: false };
  const result: CompiledPolicy = {
    name: policy.metadata?.name ?? '',
    spec,
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    variables,
    matchConditions: compileMatchConditions(spec.matchConditions ?? [], decls),
    validations: (spec.validations ?? []).map((validation) => ({
      validation,
      compiled: compileCel(validation.expression, decls, 'bool'),
      ...(validation.messageExpression ? { messageCompiled: compileCel(validation.messageExpression, messageDecls, 'string') } : {}),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({ ...a, compiled: compileCel(a.valueExpression, messageDecls, 'any') })),
  };
  compiledPolicies.set(policy, result);
  return result;
}
