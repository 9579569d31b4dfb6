// InterPodAffinity's PreScore and Score: per topology pair, the weights of the preferred terms (the pod's and the
// existing pods') and of existing pods' required affinity that match; normalized from [min, max] to [0, 100].
// See pkg/scheduler/framework/plugins/interpodaffinity/scoring.go.
import type { Labels } from '../../../api/labels';
import type { Node, Pod } from '../../../api/types';
import type { NodeScore } from '../../framework/interfaces';
import { affinityTermMatches, type AffinityTerm, type NodeInfo, type PodInfo, type WeightedAffinityTerm } from '../../framework/node-info';
import { MAX_NODE_SCORE } from '../../framework/profile';
import type { IncomingPod } from './terms';

/** PreScoreState is what PreScore computes for Score: the summed weight per topology pair. */
export interface PreScoreState {
  topologyScore: TopologyScore;
}

/** TopologyScore is scoreMap: a weight per topology key and value, kept even when the sum is 0. */
export class TopologyScore {
  readonly byKey = new Map<string, Map<string, number>>();

  /** add adds to a pair, creating it (a created pair stays, even at 0, as in Go's map). */
  add(key: string, value: string, delta: number): void {
    let values = this.byKey.get(key);
    if (!values) this.byKey.set(key, (values = new Map()));
    values.set(value, (values.get(value) ?? 0) + delta);
  }

  /** size is the number of topology keys with a pair (len(scoreMap)). */
  get size(): number {
    return this.byKey.size;
  }
}

/** ScoringArgs are the plugin args scoring reads. */
export interface ScoringArgs {
  hardPodAffinityWeight: number;
}

/** processTerm adds weight × multiplier to the term's pair on the node when the pod matches the term. */
function processTerm(m: TopologyScore, term: AffinityTerm, weight: number, pod: Pod, nsLabels: Labels, node: Node, multiplier: number): void {
  if (!affinityTermMatches(term, pod, nsLabels)) return;
  const labels = node.metadata?.labels;
  if (labels && Object.hasOwn(labels, term.topologyKey)) m.add(term.topologyKey, labels[term.topologyKey]!, weight * multiplier);
}

/** TermMatches memoizes, per existing pod's term (replicas share them), whether the incoming pod matches it. */
type TermMatches = Map<AffinityTerm, boolean>;

function processExistingTerms(m: TopologyScore, terms: readonly WeightedAffinityTerm[], incoming: Pod, nsLabels: Labels, node: Node, multiplier: number, memo: TermMatches): void {
  for (const t of terms) processMemoTerm(m, t, t.weight, incoming, nsLabels, node, multiplier, memo);
}

function processMemoTerm(m: TopologyScore, term: AffinityTerm, weight: number, incoming: Pod, nsLabels: Labels, node: Node, multiplier: number, memo: TermMatches): void {
  let matches = memo.get(term);
  if (matches === undefined) memo.set(term, (matches = affinityTermMatches(term, incoming, nsLabels)));
  const labels = node.metadata?.labels;
  if (matches && labels && Object.hasOwn(labels, term.topologyKey)) m.add(term.topologyKey, labels[term.topologyKey]!, weight * multiplier);
}

/**
 * processExistingPod scores the existing pod's node topology with the existing pod's required affinity (at
 * hardPodAffinityWeight) and preferred (anti-)affinity terms that the incoming pod matches.
 */
function processExistingPod(m: TopologyScore, incoming: IncomingPod, nsLabels: Labels, existing: PodInfo, node: Node, args: ScoringArgs, memo: TermMatches): void {
  const theirs = existing.affinity;
  if (args.hardPodAffinityWeight > 0) {
    for (const t of theirs.requiredAffinityTerms) processMemoTerm(m, t, args.hardPodAffinityWeight, incoming.pod, nsLabels, node, 1, memo);
  }
  processExistingTerms(m, theirs.preferredAffinityTerms, incoming.pod, nsLabels, node, 1, memo);
  processExistingTerms(m, theirs.preferredAntiAffinityTerms, incoming.pod, nsLabels, node, -1, memo);
}

/** hasLabels tells whether a node has any label: a node without labels has no topology to score. */
function hasLabels(node: Node): boolean {
  for (const key in node.metadata?.labels) return key !== undefined;
  return false;
}

/**
 * topologyScoreOf scores the topologies of the nodes' pods: the pod's preferred (anti-)affinity terms that each pod
 * matches (only pods with the terms' label values can: the label index finds them), and the terms of the pods with
 * affinity that the pod matches. The sums are Go's, summed in another order.
 */
export function topologyScoreOf(incoming: IncomingPod, nsLabels: Labels, nodes: readonly NodeInfo[], args: ScoringArgs): TopologyScore {
  const m = new TopologyScore();
  const memo: TermMatches = new Map();
  const own = incoming.terms;
  for (const ni of nodes) {
    if (!hasLabels(ni.node)) continue;
    // The incoming pod's namespaceSelectors are unrolled, so the existing pods' namespace labels are not needed.
    for (const t of own.preferredAffinityTerms) {
      for (const existing of ni.podsMatching(t.selector)) processTerm(m, t, t.weight, existing.pod, undefined, ni.node, 1);
    }
    for (const t of own.preferredAntiAffinityTerms) {
      for (const existing of ni.podsMatching(t.selector)) processTerm(m, t, t.weight, existing.pod, undefined, ni.node, -1);
    }
    for (const existing of ni.podsWithAffinity) processExistingPod(m, incoming, nsLabels, existing, ni.node, args, memo);
  }
  return m;
}

/** scoreNode sums the weights of the pairs the node's labels hold: positive for affinity, negative for anti-affinity. */
export function scoreNode(s: PreScoreState, nodeInfo: NodeInfo): number {
  const labels = nodeInfo.node.metadata?.labels;
  if (!labels) return 0;
  let score = 0;
  for (const [key, values] of s.topologyScore.byKey) {
    if (Object.hasOwn(labels, key)) score += values.get(labels[key]!) ?? 0;
  }
  return score;
}

/** normalizeScores maps [min, max] onto [0, 100], truncating; all equal scores become 0. */
export function normalizeScores(s: PreScoreState, scores: NodeScore[]): void {
  if (s.topologyScore.size === 0) return;
  let minCount = Number.POSITIVE_INFINITY;
  let maxCount = Number.NEGATIVE_INFINITY;
  for (const ns of scores) {
    if (ns.score > maxCount) maxCount = ns.score;
    if (ns.score < minCount) minCount = ns.score;
  }
  const diff = maxCount - minCount;
  for (const ns of scores) ns.score = Math.trunc(diff > 0 ? MAX_NODE_SCORE * ((ns.score - minCount) / diff) : 0);
}
