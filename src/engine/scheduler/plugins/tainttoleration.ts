// TaintToleration: a node's NoSchedule/NoExecute taints must be tolerated; untolerated PreferNoSchedule taints lower the score.
// See pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go.
import type { Pod, Toleration } from '../../api/types';
import { stateKey, type CycleState } from '../framework/cycle-state';
import type { FilterPlugin, NodeInfo, NodeScore, Plugin, PreScorePlugin, ScorePlugin } from '../framework/interfaces';
import { defaultNormalizeScore } from '../framework/normalize';
import { MAX_NODE_SCORE } from '../framework/profile';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { doNotScheduleTaint, findMatchingUntoleratedTaint, TaintEffect, tolerationsTolerateTaint } from '../framework/taints';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.TaintToleration;

/**
 * ErrReasonNotMatch is the Filter reason. Current releases no longer print the taint (older ones wrote
 * `node(s) had untolerated taint {key: value}`); the taint goes to the scheduler's log only.
 */
export const ErrReasonNotMatch = 'node(s) had untolerated taint(s)';

const preScoreStateKey = stateKey<Toleration[]>(`PreScore${Name}`);

/** TaintToleration filters nodes on taints and prefers nodes with fewer untolerated PreferNoSchedule taints. */
export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = Name;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    const taint = findMatchingUntoleratedTaint(nodeInfo.node.spec?.taints, pod.spec?.tolerations, doNotScheduleTaint);
    return taint === undefined ? null : newStatus(Code.UnschedulableAndUnresolvable, ErrReasonNotMatch);
  }

  /** preScore keeps the tolerations that can tolerate PreferNoSchedule taints: that effect or none. */
  preScore(state: CycleState, pod: Pod): PluginStatus {
    const tolerations = (pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === TaintEffect.PreferNoSchedule);
    state.write(preScoreStateKey, tolerations);
    return null;
  }

  /** score counts the node's PreferNoSchedule taints the pod does not tolerate (more is worse; normalized reversed). */
  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | PluginStatus {
    const tolerations = state.read(preScoreStateKey);
    if (tolerations === undefined) return newStatus(Code.Error, `failed to read "${preScoreStateKey.name}" from cycleState: not found`);
    const taints = nodeInfo.node.spec?.taints;
    if (!taints) return 0;
    let count = 0;
    for (const taint of taints) {
      if (taint.effect === TaintEffect.PreferNoSchedule && !tolerationsTolerateTaint(tolerations, taint)) count++;
    }
    return count;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): PluginStatus {
    return defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
  }

  fieldPath(): string {
    return 'spec.tolerations';
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new TaintToleration();
}
