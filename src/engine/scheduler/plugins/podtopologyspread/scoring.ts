// PodTopologySpread's PreScore state and Score: matching pods per domain, weighted by log(domains + 2), plus maxSkew - 1.
// See pkg/scheduler/framework/plugins/podtopologyspread/scoring.go.
import type { Pod } from '../../../api/types';
import type { NodeScore } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/node-info';
import type { Snapshot } from '../../framework/snapshot';
import { MAX_NODE_SCORE } from '../../framework/profile';
import { LABEL_HOSTNAME } from './args';
import { isEmptySelector } from './default-selector';
import {
  countKey, countPodsForKey, countPodsMatchSelector, EVERY_NODE, labelValue, nodeInclusion, nodeLabelsMatchSpreadConstraints, type SpreadConstraint,
} from './common';

/** INVALID_SCORE marks an ignored node during NormalizeScore. */
const INVALID_SCORE = -1;

/** PreScoreState is what PreScore computes for Score and NormalizeScore. */
export interface PreScoreState {
  constraints: readonly SpreadConstraint[];
  /** ignoredNodes are the feasible nodes missing a topology key; they score 0. */
  ignoredNodes: Set<string>;
  /** topologyValueToPodCounts is indexed by constraint: matching pods per domain of the feasible nodes (not for hostname). */
  topologyValueToPodCounts: Map<string, number>[];
  /** topologyNormalizingWeight is indexed by constraint: log(number of domains + 2). */
  topologyNormalizingWeight: number[];
  /** countKeys is indexed by constraint: the count key of its selector in the pod's namespace, undefined when empty. */
  countKeys: (string | undefined)[];
  /** namespace is the pod's. */
  namespace: string;
}

/** topologyNormalizingWeight is log(size + 2), so that the counts of small topologies are not watered down by big ones. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

/** scoreForCount is count × weight + maxSkew − 1: the maxSkew − 1 waters down the differences between domains. */
export function scoreForCount(cnt: number, maxSkew: number, tpWeight: number): number {
  return cnt * tpWeight + (maxSkew - 1);
}

/** roundHalfAwayFromZero is Go's math.Round. */
function roundHalfAwayFromZero(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * initPreScoreState finds the ignored feasible nodes (those missing a topology key, when all are required) and the
 * domains of each constraint among the feasible nodes. A feasible node without a label that is not required opens the
 * "" domain, which counts in the size, as in Go.
 */
export function initPreScoreState(constraints: readonly SpreadConstraint[], filteredNodes: readonly NodeInfo[], requireAllTopologies: boolean): PreScoreState {
  const s: PreScoreState = {
    constraints, ignoredNodes: new Set(), topologyValueToPodCounts: constraints.map(() => new Map()), topologyNormalizingWeight: [],
    countKeys: [], namespace: '',
  };
  const topoSize = constraints.map(() => 0);
  for (const ni of filteredNodes) {
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(ni.node.metadata?.labels, constraints)) {
      s.ignoredNodes.add(ni.name);
      continue;
    }
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i]!;
      // Per-node counts (hostname) are computed in Score.
      if (c.topologyKey === LABEL_HOSTNAME) continue;
      const value = labelValue(ni.node, c.topologyKey) ?? '';
      const counts = s.topologyValueToPodCounts[i]!;
      if (!counts.has(value)) {
        counts.set(value, 0);
        topoSize[i]!++;
      }
    }
  }
  s.topologyNormalizingWeight = constraints.map((c, i) =>
    topologyNormalizingWeight(c.topologyKey === LABEL_HOSTNAME ? filteredNodes.length - s.ignoredNodes.size : topoSize[i]!));
  return s;
}

/**
 * countAllNodes adds the matching pods of every eligible node of the cluster to the domains the feasible nodes opened.
 * When every node counts, it reads the snapshot's kept per-domain sums (the same numbers) instead of visiting the nodes.
 */
export function countAllNodes(s: PreScoreState, pod: Pod, allNodes: readonly NodeInfo[], requireAllTopologies: boolean, snapshot?: Snapshot): void {
  const inclusion = nodeInclusion(pod, s.constraints);
  const namespace = pod.metadata?.namespace ?? '';
  s.namespace = namespace;
  s.countKeys = s.constraints.map((c) => (isEmptySelector(c.selector) ? undefined : countKey(c.selector, namespace)));
  if (snapshot && inclusion === EVERY_NODE && allNodes === snapshot.nodeInfoList) {
    const requiredKeys = requireAllTopologies ? s.constraints.map((c) => c.topologyKey) : [];
    s.constraints.forEach((c, i) => {
      if (c.topologyKey === LABEL_HOSTNAME || isEmptySelector(c.selector)) return;
      const sums = snapshot.domainCounts.sums(allNodes, countKey(c.selector, namespace), c.topologyKey, requiredKeys, c.selector, namespace);
      const counts = s.topologyValueToPodCounts[i]!;
      for (const value of counts.keys()) counts.set(value, sums.get(value) ?? 0);
    });
    return;
  }
  for (const ni of allNodes) {
    const labels = ni.node.metadata?.labels;
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, s.constraints)) continue;
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i]!;
      if (!inclusion(i, ni.node)) continue;
      const value = labels && Object.hasOwn(labels, c.topologyKey) ? labels[c.topologyKey]! : '';
      const counts = s.topologyValueToPodCounts[i]!;
      const count = counts.get(value);
      // A domain no feasible node is in does not matter; hostname domains are counted in Score.
      if (count === undefined) continue;
      counts.set(value, count + countPodsMatchSelector(ni, c.selector, namespace));
    }
  }
}

/** scoreNode sums scoreForCount over the constraints whose key the node has; the score is the rounded sum (fewer is better). */
export function scoreNode(s: PreScoreState, _pod: Pod, nodeInfo: NodeInfo): number {
  if (s.ignoredNodes.size > 0 && s.ignoredNodes.has(nodeInfo.name)) return 0;
  let score = 0;
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    const tpVal = labelValue(nodeInfo.node, c.topologyKey);
    if (tpVal === undefined) continue;
    let cnt: number;
    if (c.topologyKey === LABEL_HOSTNAME) {
      const key = s.countKeys[i];
      cnt = key === undefined ? 0 : countPodsForKey(nodeInfo, key, c.selector, s.namespace);
    } else {
      cnt = s.topologyValueToPodCounts[i]!.get(tpVal) ?? 0;
    }
    score += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]!);
  }
  return roundHalfAwayFromZero(score);
}

/** normalizeScores reverses the scores onto [0, 100]: MaxNodeScore × (max + min − score) / max; ignored nodes get 0. */
export function normalizeScores(s: PreScoreState, scores: NodeScore[]): void {
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  for (const ns of scores) {
    if (s.ignoredNodes.has(ns.name)) {
      ns.score = INVALID_SCORE;
      continue;
    }
    if (ns.score < minScore) minScore = ns.score;
    if (ns.score > maxScore) maxScore = ns.score;
  }
  for (const ns of scores) {
    if (ns.score === INVALID_SCORE) ns.score = 0;
    else if (maxScore === 0) ns.score = MAX_NODE_SCORE;
    else ns.score = Math.trunc((MAX_NODE_SCORE * (maxScore + minScore - ns.score)) / maxScore);
  }
}
