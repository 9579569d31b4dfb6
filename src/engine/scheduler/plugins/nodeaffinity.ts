// NodeAffinity: nodeSelector and required node affinity filter nodes; preferred node affinity terms score them.
// See pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go and component-helpers/scheduling/corev1/nodeaffinity.
import {
  requirementMatches, selectorFromSet, type Labels, type Requirement, type Selector, type SelectorOperator,
} from '../../api/labels';
import { matchNodeSelectorTerms, parseNodeSelectorTerm } from '../../api/node-selector';
import { aggregate } from '../../api/labels-validation';
import type { PreferredSchedulingTerm } from 'kubernetes-types/core/v1';
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod } from '../../api/types';
import { stateKey, type CycleState } from '../framework/cycle-state';
import {
  ExtensionPoint, type FilterPlugin, type NodeInfo, type NodeScore, type Plugin, type PreFilterOutput, type PreFilterPlugin,
  type PreScorePlugin, type ScorePlugin,
} from '../framework/interfaces';
import { defaultNormalizeScore } from '../framework/normalize';
import { MAX_NODE_SCORE } from '../framework/profile';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.NodeAffinity;

/** ErrReasonPod is the reason for a node the pod's nodeSelector or required node affinity does not match. */
export const ErrReasonPod = "node(s) didn't match Pod's node affinity/selector";

/** ErrReasonConflict is the PreFilter reason when the required terms name no common node. */
export const ErrReasonConflict = 'pod affinity terms conflict';

/** OBJECT_NAME_FIELD is the node field matchFields can select on. */
export const OBJECT_NAME_FIELD = 'metadata.name';
/** OPERATOR_IN is the node selector operator PreFilter reads node names from. */
export const OPERATOR_IN = 'In';

/** RequiredNodeAffinity is a pod's nodeSelector (as a selector) and its required terms (GetRequiredNodeAffinity). */
export interface RequiredNodeAffinity {
  labelSelector?: Selector;
  terms?: readonly NodeSelectorTerm[];
  /** compiled are the terms as compileNodeSelectorTerms checks them once; absent, matchRequired reads `terms`. */
  compiled?: readonly CompiledTerm[];
}

/**
 * CompiledTerm is a node selector term that can match (not empty, no parse error) with its requirements parsed: the
 * checks matchNodeSelectorTerms repeats on every node are done once per pod.
 */
export interface CompiledTerm {
  labels: readonly Requirement[];
  fields: readonly NodeSelectorRequirement[];
}

/** WeightedTerm is a preferred term that counts: non-zero weight, not empty, no parse error. */
interface WeightedTerm {
  weight: number;
  term: NodeSelectorTerm;
  compiled: readonly CompiledTerm[];
}

const preFilterStateKey = stateKey<RequiredNodeAffinity>(`PreFilter${Name}`);
const preScoreStateKey = stateKey<WeightedTerm[]>(`PreScore${Name}`);
const EMPTY_NODE: Node = { metadata: {} };
// Why: NODE_OPERATORS in api/labels.ts, which maps a NodeSelectorOperator to the labels package's operator.
const NODE_OPERATORS: Readonly<Record<string, SelectorOperator>> = {
  In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt',
};

/**
 * compileNodeSelectorTerms keeps the terms matchNodeSelectorTerms can match — it skips an empty term and one with a parse
 * error (found by matching the term alone against a node without labels or name) — with their requirements parsed.
 */
export function compileNodeSelectorTerms(terms: readonly NodeSelectorTerm[]): CompiledTerm[] {
  const out: CompiledTerm[] = [];
  for (const term of terms) {
    const expressions = term.matchExpressions ?? [];
    const fields = term.matchFields ?? [];
    if (expressions.length === 0 && fields.length === 0) continue;
    if (matchNodeSelectorTerms(EMPTY_NODE, [term]).error !== undefined) continue;
    const labels = expressions.map((e): Requirement => ({
      key: e.key, operator: NODE_OPERATORS[e.operator]!, values: [...(e.values ?? [])],
    }));
    out.push({ labels, fields });
  }
  return out;
}

/**
 * matchCompiledTerms is matchNodeSelectorTerms(node, terms).matches over compiled terms: the terms are ORed, a term's
 * requirements ANDed; matchFields compare metadata.name (In: equal, NotIn: different), skipped for a node without a name.
 */
export function matchCompiledTerms(terms: readonly CompiledTerm[], node: Node): boolean {
  const labels = node.metadata?.labels;
  const name = node.metadata?.name;
  for (const term of terms) {
    if (matchesAll(term.labels, labels) && (!name || fieldsMatch(term.fields, name))) return true;
  }
  return false;
}

function matchesAll(requirements: readonly Requirement[], labels: Labels): boolean {
  for (const r of requirements) if (!requirementMatches(r, labels)) return false;
  return true;
}

function fieldsMatch(fields: readonly NodeSelectorRequirement[], name: string): boolean {
  for (const f of fields) {
    const have = f.key === OBJECT_NAME_FIELD ? name : '';
    if ((f.operator === OPERATOR_IN) !== (have === f.values![0])) return false;
  }
  return true;
}

/** getRequiredNodeAffinity reads the pod's nodeSelector and required node affinity, its terms compiled. */
export function getRequiredNodeAffinity(pod: Pod): RequiredNodeAffinity {
  const req: RequiredNodeAffinity = {};
  const selector = pod.spec?.nodeSelector;
  if (selector && Object.keys(selector).length > 0) req.labelSelector = selectorFromSet(selector);
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required) {
    req.terms = required.nodeSelectorTerms ?? [];
    req.compiled = compileNodeSelectorTerms(req.terms);
  }
  return req;
}

/** matchRequired tells whether a node matches the nodeSelector and at least one required term; parse errors never match. */
export function matchRequired(req: RequiredNodeAffinity, node: Node): boolean {
  // selectorMatches, written out: Filter runs this on every node checked.
  const selector = req.labelSelector;
  if (selector && (selector.nothing || !matchesAll(selector.requirements, node.metadata?.labels))) return false;
  if (req.terms === undefined) return true;
  return req.compiled ? matchCompiledTerms(req.compiled, node) : matchNodeSelectorTerms(node, req.terms).matches;
}

/** parsePreferredTerms keeps the terms that count; a term that does not parse fails them all, as NewPreferredSchedulingTerms. */
export function parsePreferredTerms(terms: readonly PreferredSchedulingTerm[]): WeightedTerm[] | string {
  const kept: WeightedTerm[] = [];
  const errors: string[] = [];
  terms.forEach((t, i) => {
    const p = t.preference;
    if (t.weight === 0 || ((p.matchExpressions?.length ?? 0) === 0 && (p.matchFields?.length ?? 0) === 0)) return;
    // NewPreferredSchedulingTerms names a term's problems from an empty path: `[0].matchExpressions[0]...`.
    const termErrs: string[] = [];
    parseNodeSelectorTerm(p, `[${i}]`, termErrs);
    if (termErrs.length > 0) errors.push(...termErrs);
    else kept.push({ weight: t.weight, term: p, compiled: compileNodeSelectorTerms([p]) });
  });
  // errors.Flatten(errors.NewAggregate(errs)): one error as it is, several as `[a, b]`.
  return errors.length > 0 ? aggregate(errors) : kept;
}

/** nodeNamesOf is what PreFilter narrows to: per term the intersection of its metadata.name In values, across terms the union. */
export function nodeNamesOf(terms: readonly NodeSelectorTerm[]): Set<string> | null {
  let all: Set<string> | null = null;
  for (const t of terms) {
    let termNames: Set<string> | null = null;
    for (const r of t.matchFields ?? []) {
      if (r.key !== OBJECT_NAME_FIELD || r.operator !== OPERATOR_IN) continue;
      const values = new Set(r.values ?? []);
      termNames = termNames === null ? values : new Set([...termNames].filter((n: string) => values.has(n)));
    }
    // A term without a metadata.name field allows every node, since terms are ORed.
    if (termNames === null) return null;
    all = new Set([...(all ?? []), ...termNames]);
  }
  return all;
}

/** NodeAffinity filters and scores nodes on the pod's node affinity. */
export class NodeAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = Name;

  /** preFilter skips pods with neither nodeSelector nor required affinity, and narrows to the nodes named by matchFields. */
  preFilter(state: CycleState, pod: Pod): PreFilterOutput {
    const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (!required && !pod.spec?.nodeSelector) return { status: newStatus(Code.Skip) };
    state.write(preFilterStateKey, getRequiredNodeAffinity(pod));
    const terms = required?.nodeSelectorTerms ?? [];
    if (terms.length === 0) return { status: null };
    const nodeNames = nodeNamesOf(terms);
    if (nodeNames !== null && nodeNames.size === 0) return { status: newStatus(Code.UnschedulableAndUnresolvable, ErrReasonConflict) };
    return nodeNames !== null ? { result: { nodeNames }, status: null } : { status: null };
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    const req = state.read(preFilterStateKey) ?? getRequiredNodeAffinity(pod);
    return matchRequired(req, nodeInfo.node) ? null : newStatus(Code.UnschedulableAndUnresolvable, ErrReasonPod);
  }

  /** preScore keeps the preferred terms that count; a pod without preferred terms skips Score. */
  preScore(state: CycleState, pod: Pod): PluginStatus {
    const preferred = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
    if (!preferred) return newStatus(Code.Skip);
    const terms = parsePreferredTerms(preferred);
    if (typeof terms === 'string') return newStatus(Code.Error, terms);
    state.write(preScoreStateKey, terms);
    return null;
  }

  /** score sums the weights of the preferred terms the node matches. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | PluginStatus {
    let terms = state.read(preScoreStateKey);
    if (terms === undefined) {
      const parsed = parsePreferredTerms(pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []);
      if (typeof parsed === 'string') return newStatus(Code.Error, parsed);
      terms = parsed;
    }
    let score = 0;
    for (const t of terms) if (matchCompiledTerms(t.compiled, nodeInfo.node)) score += t.weight;
    return score;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): PluginStatus {
    return defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
  }

  fieldPath(pod: Pod, point: string): string {
    if (point === ExtensionPoint.PreScore || point === ExtensionPoint.Score) {
      return 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution';
    }
    return pod.spec?.nodeSelector ? 'spec.nodeSelector' : 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution';
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new NodeAffinity();
}
