// One policy evaluated for one binding and param: match conditions, then each validation's decision with its message,
// then the audit annotations. See staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/validator.go.
import { type CelActivation, evaluateCel } from './cel/evaluate';
import type { CompiledPolicy } from './compile';
import { evaluateExpression, matchConditions, type ConditionEvaluation } from '../webhook/match-conditions';

/** PolicyDecision is one validation's verdict: admit, or deny with a message and reason; evaluation says whether it errored. */
export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  reason: string;
  /** expression is the validation's expression, for the trace (absent for a match-condition error). */
  expression?: string;
}

/** AuditAnnotationResult is a published annotation, or an error that counts as a denial under failurePolicy Fail. */
export interface AuditAnnotationResult {
  key: string;
  value?: string;
  error?: string;
}

/** ValidateResult is Validate's outcome, with the match conditions' evaluations for the trace. */
export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: AuditAnnotationResult[];
  conditions: ConditionEvaluation[];
  /** skipped names the match condition that was false, when one was. */
  skipped?: string;
}

// Why: MaxEvaluatedMessageExpressionSizeBytes in staging/src/k8s.io/apiserver/pkg/apis/cel/config.go.
const MAX_MESSAGE_BYTES = 5 * 1024;

/**
 * messageOf decides a failed validation's message: the messageExpression's value when it is a non-empty single-line
 * string of at most 5 KiB (trimmed), else the message (trimmed), else `failed expression: <expression>`.
 */
function messageOf(v: CompiledPolicy['validations'][number], activation: CelActivation): string {
  let message = '';
  if (v.messageCompiled?.ok) {
    const out = evaluateCel(v.messageCompiled, activation);
    if ('value' in out && typeof out.value === 'string') {
      message = out.value.trim();
      if (new TextEncoder().encode(message).length > MAX_MESSAGE_BYTES || message.includes('\n')) message = '';
    }
  }
  if (message === '' && v.validation.message) message = v.validation.message.trim();
  if (message === '') message = `failed expression: ${v.validation.expression.trim()}`;
  return message;
}

/**
 * validate is validator.Validate. An error (a match condition's, or a validation's that does not compile or fails to
 * evaluate) denies under failurePolicy Fail and admits under Ignore, with the error as the message; a validation that is
 * not true denies with its reason (Invalid by default) and message.
 */
export function validate(policy: CompiledPolicy, activation: CelActivation): ValidateResult {
  const errorAction = policy.failurePolicy === 'Ignore' ? 'admit' : 'deny';
  let conditions: ConditionEvaluation[] = [];
  if (policy.matchConditions.length > 0) {
    const match = matchConditions(policy.matchConditions, activation, policy.failurePolicy);
    conditions = match.evaluations;
    if (match.error !== undefined) {
      return { decisions: [{ action: errorAction, evaluation: 'error', message: match.error, reason: '' }], auditAnnotations: [], conditions };
    }
    if (!match.matches) return { decisions: [], auditAnnotations: [], conditions, ...(match.failedCondition ? { skipped: match.failedCondition } : {}) };
  }
  const decisions = policy.validations.map((v): PolicyDecision => {
    const expression = v.validation.expression;
    const outcome = evaluateExpression(v.compiled, activation);
    if ('error' in outcome) return { action: errorAction, evaluation: 'error', message: outcome.error, reason: '', expression };
    if (outcome.value === true) return { action: 'admit', evaluation: 'admit', message: '', reason: '', expression };
    return { action: 'deny', evaluation: 'deny', message: messageOf(v, activation), reason: v.validation.reason ?? 'Invalid', expression };
  });
  const auditAnnotations = policy.auditAnnotations.flatMap((a): AuditAnnotationResult[] => {
    const outcome = evaluateExpression(a.compiled, activation);
    if ('error' in outcome) return policy.failurePolicy === 'Ignore' ? [] : [{ key: a.key, error: outcome.error }];
    if (outcome.value === null) return [];
    if (typeof outcome.value !== 'string') {
      const type = typeof outcome.value === 'bigint' ? 'int' : typeof outcome.value === 'number' ? 'double' : typeof outcome.value === 'boolean' ? 'bool' : 'dyn';
      return [{ key: a.key, error: `valueExpression '${a.valueExpression}' resulted in unsupported return type: ${type}. Return type must be either string or null.` }];
    }
    const value = outcome.value.trim();
    return value ? [{ key: a.key, value }] : [];
  });
  return { decisions, auditAnnotations, conditions };
}
