// PodTopologySpread's PreFilter state and Filter check: matching pods per domain, the two smallest domains, the skew.
// See pkg/scheduler/framework/plugins/podtopologyspread/filtering.go.
import { selectorMatches } from '../../../api/labels';
import type { Pod } from '../../../api/types';
import type { CycleState } from '../../framework/cycle-state';
import type { NodeInfo } from '../../framework/node-info';
import { getRequiredNodeAffinity } from '../nodeaffinity';
import {
  countPodsMatchSelector, labelValue, matchNodeInclusionPolicies, nodeInclusion, nodeLabelsMatchSpreadConstraints, type SpreadConstraint,
} from './common';

/** MAX_INT32 stands for "no domain yet" in a critical path, as math.MaxInt32 does in Go. */
const MAX_INT32 = 2 ** 31 - 1;

/** CriticalPath is a domain (topology value) and its number of matching pods. */
export interface CriticalPath {
  topologyValue: string;
  matchNum: number;
}

/**
 * CriticalPaths keeps two domains per constraint: [0] always holds the fewest matching pods; [1] holds at least as many,
 * not necessarily the second fewest. Enough for preemption, which removes pods from one node at a time.
 */
export type CriticalPaths = [CriticalPath, CriticalPath];

/** newCriticalPaths starts with no domain. */
export function newCriticalPaths(): CriticalPaths {
  return [{ topologyValue: '', matchNum: MAX_INT32 }, { topologyValue: '', matchNum: MAX_INT32 }];
}

/** updateCriticalPaths records a domain's new count (criticalPaths.update). */
export function updateCriticalPaths(p: CriticalPaths, tpVal: string, num: number): void {
  const existing = tpVal === p[0].topologyValue ? p[0] : tpVal === p[1].topologyValue ? p[1] : undefined;
  if (existing) {
    existing.matchNum = num;
    if (p[0].matchNum > p[1].matchNum) [p[0], p[1]] = [p[1], p[0]];
  } else if (num < p[0].matchNum) {
    p[1] = p[0];
    p[0] = { topologyValue: tpVal, matchNum: num };
  } else if (num < p[1].matchNum) {
    p[1] = { topologyValue: tpVal, matchNum: num };
  }
}

/** PreFilterState is what PreFilter computes for Filter; no constraints means every node passes. */
export interface PreFilterState {
  constraints: readonly SpreadConstraint[];
  /** criticalPaths is indexed by constraint. */
  criticalPaths: CriticalPaths[];
  /** tpValueToMatchNum is indexed by constraint: matching pods per domain of the eligible nodes. */
  tpValueToMatchNum: Map<string, number>[];
  /** owner is the CycleState whose copy this is; AddPod/RemovePod copy the state before their first change to another cycle state's. */
  owner?: CycleState;
}

/** clonePreFilterState copies the counts; the constraints are shared since they never change (preFilterState.Clone). */
export function clonePreFilterState(s: PreFilterState, owner: CycleState): PreFilterState {
  return {
    constraints: s.constraints,
    criticalPaths: s.criticalPaths.map((p) => [{ ...p[0] }, { ...p[1] }] as CriticalPaths),
    tpValueToMatchNum: s.tpValueToMatchNum.map((m) => new Map(m)),
    owner,
  };
}

/**
 * calPreFilterState counts, for every hard constraint, the matching pods of the pod's namespace in each domain of the
 * nodes that carry all topology keys and pass the constraint's node inclusion policies.
 */
export function calPreFilterState(pod: Pod, constraints: readonly SpreadConstraint[], allNodes: readonly NodeInfo[]): PreFilterState {
  const s: PreFilterState = { constraints, criticalPaths: [], tpValueToMatchNum: constraints.map(() => new Map<string, number>()) };
  if (constraints.length === 0) return s;
  const inclusion = nodeInclusion(pod, constraints);
  const namespace = pod.metadata?.namespace ?? '';
  for (const nodeInfo of allNodes) {
    const labels = nodeInfo.node.metadata?.labels;
    if (!nodeLabelsMatchSpreadConstraints(labels, constraints)) continue;
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i]!;
      if (!inclusion(i, nodeInfo.node)) continue;
      const value = labels![c.topologyKey]!;
      const counts = s.tpValueToMatchNum[i]!;
      counts.set(value, (counts.get(value) ?? 0) + countPodsMatchSelector(nodeInfo, c.selector, namespace));
    }
  }
  s.criticalPaths = s.tpValueToMatchNum.map((counts) => {
    const paths = newCriticalPaths();
    for (const [value, num] of counts) updateCriticalPaths(paths, value, num);
    return paths;
  });
  return s;
}

/** minMatchNum is the global minimum of a constraint: 0 while fewer domains than minDomains are eligible. */
export function minMatchNum(s: PreFilterState, i: number, minDomains: number): number {
  return s.tpValueToMatchNum[i]!.size < minDomains ? 0 : s.criticalPaths[i]![0].matchNum;
}

/** FilterVerdict is why a node fails the hard constraints: a missing topology label, or a skew above maxSkew. */
export type FilterVerdict = 'fits' | 'missingLabel' | 'skew';

/** checkNode applies every hard constraint: matching pods in the node's domain, plus the pod if it matches, minus the minimum. */
export function checkNode(s: PreFilterState, pod: Pod, nodeInfo: NodeInfo): FilterVerdict {
  const podLabels = pod.metadata?.labels;
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    const tpVal = labelValue(nodeInfo.node, c.topologyKey);
    if (tpVal === undefined) return 'missingLabel';
    const selfMatchNum = selectorMatches(c.selector, podLabels) ? 1 : 0;
    const matchNum = s.tpValueToMatchNum[i]!.get(tpVal) ?? 0;
    if (matchNum + selfMatchNum - minMatchNum(s, i, c.minDomains) > c.maxSkew) return 'skew';
  }
  return 'fits';
}

/** updateWithPod counts a pod in (delta 1) or out (delta -1) of the domains of its node, for preemption's dry runs. */
export function updateWithPod(s: PreFilterState, updatedPod: Pod, preemptorPod: Pod, nodeInfo: NodeInfo, delta: number): void {
  const node = nodeInfo.node;
  if ((updatedPod.metadata?.namespace ?? '') !== (preemptorPod.metadata?.namespace ?? '')) return;
  if (!nodeLabelsMatchSpreadConstraints(node.metadata?.labels, s.constraints)) return;
  const required = getRequiredNodeAffinity(preemptorPod);
  s.constraints.forEach((c, i) => {
    if (!selectorMatches(c.selector, updatedPod.metadata?.labels)) return;
    if (!matchNodeInclusionPolicies(c, preemptorPod, node, required)) return;
    const v = labelValue(node, c.topologyKey) ?? '';
    const counts = s.tpValueToMatchNum[i]!;
    const num = (counts.get(v) ?? 0) + delta;
    counts.set(v, num);
    updateCriticalPaths(s.criticalPaths[i]!, v, num);
  });
}
