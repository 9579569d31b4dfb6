// matchConditions of webhooks and admission policies: CEL conditions that all must hold for the hook to be called,
// with the failure policy deciding what an erroring condition means.
// See staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions/matcher.go.
import { compileCel, type CelDeclarations, type CompiledCel } from '../policy/cel/environment';
import { type CelActivation, evaluateCel } from '../policy/cel/evaluate';
import type { MatchCondition } from './config';

/** CompiledMatchCondition is a named condition and its compiled expression. */
export interface CompiledMatchCondition {
  name: string;
  compiled: CompiledCel;
}

/** ConditionEvaluation is one condition's outcome for the trace: true, false, or its error. */
export interface ConditionEvaluation {
  name: string;
  expression: string;
  result: boolean | string;
}

/** MatchResult is Matcher.Match's outcome: matched, skipped (naming the false condition), or the error that fails closed. */
export interface MatchResult {
  matches: boolean;
  failedCondition?: string;
  error?: string;
  evaluations: ConditionEvaluation[];
}

/** compileMatchConditions compiles each condition to a bool expression with the given declarations. */
export function compileMatchConditions(conditions: readonly MatchCondition[], decls: CelDeclarations): CompiledMatchCondition[] {
  return conditions.map((c) => ({ name: c.name, compiled: compileCel(c.expression, decls, 'bool') }));
}

/**
 * evaluateExpression gives a compiled expression's value or its error as the CEL filter words it:
 * `compilation error: ...`, or `expression '<expr>' resulted in error: <cel error>`. See cel/activation.go (Evaluate).
 */
export function evaluateExpression(compiled: CompiledCel, activation: CelActivation): { value: unknown } | { error: string } {
  if (!compiled.ok) return { error: `compilation error: ${compiled.error}` };
  const outcome = evaluateCel(compiled, activation);
  return 'error' in outcome ? { error: `expression '${compiled.expression}' resulted in error: ${outcome.error}` } : outcome;
}

/** aggregate prints errors as utilerrors.NewAggregate does: one alone, several as `[a, b]` (duplicates dropped). */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/**
 * matchConditions runs the conditions in order: any false one skips the hook, whatever errors others had; errors with no
 * false condition fail the request (failurePolicy Fail, aggregated) or skip the hook (Ignore).
 */
export function matchConditions(conditions: readonly CompiledMatchCondition[], activation: CelActivation, failurePolicy: 'Fail' | 'Ignore'): MatchResult {
  const evaluations: ConditionEvaluation[] = [];
  const errors: string[] = [];
  for (const c of conditions) {
    const outcome = evaluateExpression(c.compiled, activation);
    const result = 'error' in outcome ? outcome.error : outcome.value === true;
    evaluations.push({ name: c.name, expression: c.compiled.expression, result });
    if (typeof result === 'string') errors.push(result);
    else if (!result) return { matches: false, failedCondition: c.name, evaluations };
  }
  if (errors.length > 0) return failurePolicy === 'Fail' ? { matches: false, error: aggregate(errors), evaluations } : { matches: false, evaluations };
  return { matches: true, evaluations };
}
