// InterPodAffinity's PreFilter state and Filter checks: per topology pair, the existing pods whose required anti-affinity
// the pod matches, and the existing pods matching the pod's required affinity and anti-affinity terms.
// See pkg/scheduler/framework/plugins/interpodaffinity/filtering.go.
import type { Labels } from '../../../api/labels';
import type { Node, Pod } from '../../../api/types';
import type { CycleState } from '../../framework/cycle-state';
import { affinityTermMatches, type AffinityTerm, type NodeInfo, type PodInfo } from '../../framework/node-info';
import type { IncomingPod } from './terms';
import { TopologyCounts } from './topology-counts';

/** PreFilterState is what PreFilter computes for Filter. */
export interface PreFilterState {
  /** existingAntiAffinityCounts: existing pods whose required anti-affinity terms match the pod, per topology pair. */
  existingAntiAffinityCounts: TopologyCounts;
  /** affinityCounts: existing pods matching all the pod's required affinity terms, per pair of each term. */
  affinityCounts: TopologyCounts;
  /** antiAffinityCounts: existing pods matching one of the pod's required anti-affinity terms, per pair of that term. */
  antiAffinityCounts: TopologyCounts;
  incoming: IncomingPod;
  /** namespaceLabels are the labels of the pod's namespace, which existing pods' namespaceSelectors match. */
  namespaceLabels: Labels;
  /** owner is the CycleState whose copy this is; AddPod/RemovePod copy the state before their first change to another's. */
  owner?: CycleState;
}

/** clonePreFilterState copies the counts; the incoming pod's terms never change. */
export function clonePreFilterState(s: PreFilterState, owner: CycleState): PreFilterState {
  return {
    ...s,
    existingAntiAffinityCounts: s.existingAntiAffinityCounts.clone(),
    affinityCounts: s.affinityCounts.clone(),
    antiAffinityCounts: s.antiAffinityCounts.clone(),
    owner,
  };
}

/** podMatchesAllAffinityTerms is true when there are terms and the pod matches all of them (the incoming pod's namespaces are unrolled). */
export function podMatchesAllAffinityTerms(terms: readonly AffinityTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!affinityTermMatches(t, pod, undefined)) return false;
  return true;
}

/** updateWithAffinityTerms counts a pod in every term's pair on its node when it matches all the terms. */
function updateWithAffinityTerms(m: TopologyCounts, terms: readonly AffinityTerm[], pod: Pod, node: Node, delta: number): void {
  if (!podMatchesAllAffinityTerms(terms, pod)) return;
  for (const t of terms) m.update(node, t.topologyKey, delta);
}

/** updateWithAntiAffinityTerms counts a pod in the pair of each term it matches. */
function updateWithAntiAffinityTerms(m: TopologyCounts, terms: readonly AffinityTerm[], pod: Pod, nsLabels: Labels, node: Node, delta: number): void {
  for (const t of terms) if (affinityTermMatches(t, pod, nsLabels)) m.update(node, t.topologyKey, delta);
}

/**
 * existingAntiAffinityCounts counts the existing pods with required anti-affinity terms that match the pod. Replicas
 * share their parsed terms, so each distinct term is matched against the pod once.
 */
export function existingAntiAffinityCounts(pod: Pod, nsLabels: Labels, allNodes: readonly NodeInfo[]): TopologyCounts {
  const counts = new TopologyCounts();
  const matches = new Map<AffinityTerm, boolean>();
  for (const ni of allNodes) {
    for (const existing of ni.podsWithRequiredAntiAffinity) {
      for (const t of existing.affinity.requiredAntiAffinityTerms) {
        let m = matches.get(t);
        if (m === undefined) matches.set(t, (m = affinityTermMatches(t, pod, nsLabels)));
        if (m) counts.update(ni.node, t.topologyKey, 1);
      }
    }
  }
  return counts;
}

/**
 * incomingAffinityCounts counts the existing pods that match the pod's required affinity terms (all of them) and each of
 * its anti-affinity terms. Only the pods with a term's label values can match: the nodes' label index finds them.
 */
export function incomingAffinityCounts(incoming: IncomingPod, allNodes: readonly NodeInfo[]): { affinity: TopologyCounts; antiAffinity: TopologyCounts } {
  const affinity = new TopologyCounts();
  const antiAffinity = new TopologyCounts();
  const { requiredAffinityTerms, requiredAntiAffinityTerms } = incoming.terms;
  if (requiredAffinityTerms.length === 0 && requiredAntiAffinityTerms.length === 0) return { affinity, antiAffinity };
  for (const ni of allNodes) {
    if (requiredAffinityTerms.length > 0) {
      for (const existing of ni.podsMatching(requiredAffinityTerms[0]!.selector)) {
        updateWithAffinityTerms(affinity, requiredAffinityTerms, existing.pod, ni.node, 1);
      }
    }
    for (const t of requiredAntiAffinityTerms) {
      for (const existing of ni.podsMatching(t.selector)) {
        if (affinityTermMatches(t, existing.pod, undefined)) antiAffinity.update(ni.node, t.topologyKey, 1);
      }
    }
  }
  return { affinity, antiAffinity };
}

/** updateWithPod counts a pod in or out of the three maps for preemption's dry runs (preFilterState.updateWithPod). */
export function updateWithPod(s: PreFilterState, pi: PodInfo, node: Node, delta: number): void {
  updateWithAntiAffinityTerms(s.existingAntiAffinityCounts, pi.affinity.requiredAntiAffinityTerms, s.incoming.pod, s.namespaceLabels, node, delta);
  updateWithAffinityTerms(s.affinityCounts, s.incoming.terms.requiredAffinityTerms, pi.pod, node, delta);
  updateWithAntiAffinityTerms(s.antiAffinityCounts, s.incoming.terms.requiredAntiAffinityTerms, pi.pod, undefined, node, delta);
}

/** satisfyExistingPodsAntiAffinity tells whether no existing pod's required anti-affinity forbids the node's topology. */
export function satisfyExistingPodsAntiAffinity(s: PreFilterState, nodeInfo: NodeInfo): boolean {
  return s.existingAntiAffinityCounts.size === 0 || !s.existingAntiAffinityCounts.anyPositive(nodeInfo.node.metadata?.labels);
}

/** satisfyPodAntiAffinity tells whether no existing pod matching one of the pod's anti-affinity terms shares the term's topology. */
export function satisfyPodAntiAffinity(s: PreFilterState, nodeInfo: NodeInfo): boolean {
  if (s.antiAffinityCounts.size === 0) return true;
  const labels = nodeInfo.node.metadata?.labels;
  for (const term of s.incoming.terms.requiredAntiAffinityTerms) {
    if (labels && Object.hasOwn(labels, term.topologyKey) && s.antiAffinityCounts.get(term.topologyKey, labels[term.topologyKey]!) > 0) return false;
  }
  return true;
}

/**
 * satisfyPodAffinity tells whether the node has every term's topology key and, for each term, a matching pod in its
 * domain. The first pod of a group that matches its own terms passes when no pod anywhere matches them yet.
 */
export function satisfyPodAffinity(s: PreFilterState, nodeInfo: NodeInfo): boolean {
  const labels = nodeInfo.node.metadata?.labels;
  let podsExist = true;
  for (const term of s.incoming.terms.requiredAffinityTerms) {
    if (!labels || !Object.hasOwn(labels, term.topologyKey)) return false;
    if (s.affinityCounts.get(term.topologyKey, labels[term.topologyKey]!) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  return s.affinityCounts.size === 0 && podMatchesAllAffinityTerms(s.incoming.terms.requiredAffinityTerms, s.incoming.pod);
}
