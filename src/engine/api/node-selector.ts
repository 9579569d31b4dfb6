// Node selector terms matched against a node's labels and name, as component-helpers/scheduling/corev1/nodeaffinity
// does: required node affinity, the nodeSelectorTerms of a PersistentVolume's nodeAffinity.
import { aggregate, goStrings, invalid, notSupported, requirementErrors } from './labels-validation';
import { requirementMatches, type Requirement, type SelectorOperator } from './labels';
import type { Node, NodeSelectorRequirement, NodeSelectorTerm } from './types';
const NODE_OPERATORS: Readonly<Record<string, string>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt' };

/** NodeSelectorMatch is the outcome of matchNodeSelectorTerms: the parse errors are reported only when no term matched. */
export interface NodeSelectorMatch {
  matches: boolean;
  error?: string;
}

/**
 * matchNodeSelectorTerms is LazyErrorNodeSelector.Match: the terms are ORed, a term's requirements ANDed;
 * an empty term (no matchExpressions, no matchFields) and a term with a parse error match nothing.
 * matchExpressions take In, NotIn, Exists, DoesNotExist, Gt and Lt on the node's labels; matchFields take
 * In/NotIn with one value on metadata.name, and are skipped for a node without a name, as in Go.
 * Why: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go, which
 * pkg/apis/core/v1/helper.MatchNodeSelectorTerms calls.
 */
export function matchNodeSelectorTerms(
  node: Node | undefined | null,
  terms: readonly NodeSelectorTerm[] | undefined | null,
): NodeSelectorMatch {
  if (!node) return { matches: false };
  const labels = node.metadata?.labels;
  const fields: Record<string, string> = node.metadata?.name ? { 'metadata.name': node.metadata.name } : {};
  const errs: string[] = [];
  for (const [i, term] of (terms ?? []).entries()) {
    const expressions = term.matchExpressions ?? [];
    const fieldReqs = term.matchFields ?? [];
    if (expressions.length === 0 && fieldReqs.length === 0) continue;
    const termErrs: string[] = [];
    const labelReqs = parseNodeSelectorTerm(term, `nodeSelectorTerms[${i}]`, termErrs);
    if (termErrs.length > 0) {
      errs.push(...termErrs);
      continue;
    }
    const labelsOk = labelReqs.every((r) => requirementMatches(r, labels));
    const fieldsOk = Object.keys(fields).length === 0 || fieldReqs.every((r) => fieldMatches(r, fields));
    if (labelsOk && fieldsOk) return { matches: true };
  }
  return errs.length > 0 ? { matches: false, error: aggregate(errs) } : { matches: false };
}

/**
 * parseNodeSelectorTerm is newNodeSelectorTerm: a term's label requirements, with the problems of its matchExpressions
 * and matchFields added to `errs`, each named under `path` (`nodeSelectorTerms[0]` for a required term, `[0]` for a
 * preferred one, whose list NewPreferredSchedulingTerms indexes from an empty path).
 */
export function parseNodeSelectorTerm(term: NodeSelectorTerm, path: string, errs: string[]): Requirement[] {
  const labelReqs = (term.matchExpressions ?? []).flatMap((expr, j) => nodeRequirement(expr, `${path}.matchExpressions[${j}]`, errs));
  (term.matchFields ?? []).forEach((expr, j) => checkFieldRequirement(expr, `${path}.matchFields[${j}]`, errs));
  return labelReqs;
}

/** matchesNodeSelectorTerms tells whether a node matches any of the terms (matchNodeSelectorTerms without the errors). */
export function matchesNodeSelectorTerms(node: Node | undefined | null, terms: readonly NodeSelectorTerm[] | undefined | null): boolean {
  return matchNodeSelectorTerms(node, terms).matches;
}

function nodeRequirement(expr: NodeSelectorRequirement, path: string, errs: string[]): Requirement[] {
  const op = Object.hasOwn(NODE_OPERATORS, expr.operator) ? NODE_OPERATORS[expr.operator] : undefined;
  if (op === undefined) {
    errs.push(notSupported(`${path}.operator`, expr.operator, Object.keys(NODE_OPERATORS)));
    return [];
  }
  const values = expr.values ?? null;
  const reqErrs = requirementErrors(expr.key, op, values, path);
  errs.push(...reqErrs);
  return reqErrs.length > 0 ? [] : [{ key: expr.key, operator: op as SelectorOperator, values: [...(values ?? [])] }];
}

function checkFieldRequirement(expr: NodeSelectorRequirement, path: string, errs: string[]): void {
  if (expr.operator !== 'In' && expr.operator !== 'NotIn') {
    errs.push(notSupported(`${path}.operator`, expr.operator, ['In', 'NotIn']));
  } else if (expr.values?.length !== 1) {
    errs.push(invalid(`${path}.values`, goStrings(expr.values), 'must have one element'));
  }
}

function fieldMatches(expr: NodeSelectorRequirement, fields: Record<string, string>): boolean {
  const have = Object.hasOwn(fields, expr.key) ? fields[expr.key] : '';
  return expr.operator === 'In' ? have === expr.values![0] : have !== expr.values![0];
}
