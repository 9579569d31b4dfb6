// NodeResourcesBalancedAllocation: prefers nodes whose cpu and memory usage the pod brings closer together (or keeps close).
// See pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go.
import type { Pod } from '../../api/types';
import { stateKey, type CycleState } from '../framework/cycle-state';
import type { NodeInfo, Plugin, PreScorePlugin, ScorePlugin } from '../framework/interfaces';
import { MAX_NODE_SCORE } from '../framework/profile';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { Names } from './names';
import { resourcesFieldPath } from './noderesources-fit';
import { DEFAULT_RESOURCES, isBestEffort, podResourceRequestList, scoreNode } from './resource-allocation';

/** Name is the plugin's name in profiles. */
export const Name = Names.NodeResourcesBalancedAllocation;

const preScoreStateKey = stateKey<number[]>(`PreScore${Name}`);

/**
 * balancedResourceScore is (1 - std) * 100 of the requested/allocatable fractions (capped at 1): for two resources the
 * standard deviation is |f1 - f2| / 2, for more the usual root of the mean squared deviation. It runs twice per node
 * scored, so it keeps no array: the fractions are recomputed (the same way) for the deviation.
 */
export function balancedResourceScore(requested: readonly number[], allocatable: readonly number[]): number {
  let total = 0;
  let count = 0;
  let first = 0;
  let second = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    const fraction = Math.min(requested[i]! / allocatable[i]!, 1);
    total += fraction;
    if (count === 0) first = fraction;
    else if (count === 1) second = fraction;
    count++;
  }
  let std = 0;
  if (count === 2) {
    std = Math.abs((first - second) / 2);
  } else if (count > 2) {
    const mean = total / count;
    let sum = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      const f = Math.min(requested[i]! / allocatable[i]!, 1);
      sum += (f - mean) * (f - mean);
    }
    std = Math.sqrt(sum / count);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/**
 * balancedResourceScorer scores the change the pod makes to the node's balance, kept in [50, 100]: 75 for no change,
 * 100 from fully unbalanced to balanced, 50 the other way (kubernetes/kubernetes#135573).
 */
export function balancedResourceScorer(requested: number[], allocated: number[], allocatable: number[]): number {
  const withPod = balancedResourceScore(requested, allocatable);
  const withoutPod = balancedResourceScore(allocated, allocatable);
  const half = MAX_NODE_SCORE / 2;
  return half + Math.trunc((half + withPod - withoutPod) / 2);
}

/** NodeResourcesBalancedAllocation scores how balanced the node's resource usage would be. */
export class NodeResourcesBalancedAllocation implements PreScorePlugin, ScorePlugin {
  readonly name = Name;

  /** preScore computes the pod's actual requests; a pod that requests no cpu nor memory skips Score (kubernetes/kubernetes#129138). */
  preScore(state: CycleState, pod: Pod): PluginStatus {
    const podRequestList = podResourceRequestList(pod, DEFAULT_RESOURCES, true);
    if (isBestEffort(podRequestList)) return newStatus(Code.Skip);
    state.write(preScoreStateKey, podRequestList);
    return null;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    let podRequestList = state.read(preScoreStateKey);
    if (podRequestList === undefined) {
      podRequestList = podResourceRequestList(pod, DEFAULT_RESOURCES, true);
      if (isBestEffort(podRequestList)) return 0;
    }
    return scoreNode(nodeInfo, podRequestList, DEFAULT_RESOURCES, true, balancedResourceScorer);
  }

  fieldPath(pod: Pod): string {
    return resourcesFieldPath(pod);
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new NodeResourcesBalancedAllocation();
}
