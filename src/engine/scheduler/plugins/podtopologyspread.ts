// PodTopologySpread: DoNotSchedule constraints filter nodes on the skew they would cause; ScheduleAnyway ones (and the
// system defaults for pods of a Service or workload) score them. See pkg/scheduler/framework/plugins/podtopologyspread.
import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { SelectorError } from '../../api/labels';
import type { Pod } from '../../api/types';
import { NOT_FOUND, stateKey, type CycleState } from '../framework/cycle-state';
import {
  type FilterPlugin, type Handle, type NodeInfo, type NodeScore, type Plugin, type PreFilterOutput,
  type PreFilterPlugin, type PreScorePlugin, type ScorePlugin,
} from '../framework/interfaces';
import { EMPTY_LISTERS } from '../framework/listers';
import type { PodInfo } from '../framework/node-info';
import { asError, Code, newStatus, type PluginStatus } from '../framework/status';
import { Names } from './names';
import { pluginArgs, resolvePodTopologySpreadArgs } from './podtopologyspread/args';
import { buildDefaultConstraints, filterTopologySpreadConstraints, UnsatisfiableConstraintAction, type SpreadConstraint } from './podtopologyspread/common';
import { calPreFilterState, checkNode, clonePreFilterState, updateWithPod, type PreFilterState } from './podtopologyspread/filtering';
import { countAllNodes, initPreScoreState, normalizeScores, scoreNode, type PreScoreState } from './podtopologyspread/scoring';

export type { PodTopologySpreadArgs } from './podtopologyspread/args';
export { DefaultingType, SYSTEM_DEFAULT_CONSTRAINTS } from './podtopologyspread/args';

/** Name is the plugin's name in profiles. */
export const Name = Names.PodTopologySpread;

/** ErrReasonConstraintsNotMatch is the Filter reason for a node where the pod would exceed a maxSkew. */
export const ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
/** ErrReasonNodeLabelNotMatch is the Filter reason for a node without a constraint's topology key. */
export const ErrReasonNodeLabelNotMatch = `${ErrReasonConstraintsNotMatch} (missing required label)`;

const preFilterStateKey = stateKey<PreFilterState>(`PreFilter${Name}`);
const preScoreStateKey = stateKey<PreScoreState>(`PreScore${Name}`);

/** PodTopologySpread spreads pods over topology domains. */
export class PodTopologySpread implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = Name;
  private readonly handle: Handle | undefined;
  private readonly defaultConstraints: readonly TopologySpreadConstraint[];
  private readonly systemDefaulted: boolean;

  constructor(handle: Handle | undefined, args?: Record<string, unknown>) {
    this.handle = handle;
    const resolved = resolvePodTopologySpreadArgs(args ?? pluginArgs(handle, Name));
    this.defaultConstraints = resolved.defaultConstraints;
    this.systemDefaulted = resolved.systemDefaulted;
  }

  /** constraints are the pod's own constraints with this whenUnsatisfiable, or the default ones when it has none. */
  private constraints(pod: Pod, action: string): SpreadConstraint[] {
    const own = pod.spec?.topologySpreadConstraints ?? [];
    if (own.length > 0) return filterTopologySpreadConstraints(own, pod.metadata?.labels, action);
    return buildDefaultConstraints(pod, this.defaultConstraints, action, this.handle?.listers() ?? EMPTY_LISTERS);
  }

  /** preFilter counts matching pods per domain for the DoNotSchedule constraints; a pod without any skips Filter. */
  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterOutput {
    let constraints: SpreadConstraint[];
    try {
      constraints = this.constraints(pod, UnsatisfiableConstraintAction.DoNotSchedule);
    } catch (err) {
      if (!(err instanceof SelectorError)) throw err;
      const which = (pod.spec?.topologySpreadConstraints?.length ?? 0) > 0 ? "obtaining pod's hard" : 'setting default hard';
      return { status: asError(`get constraints from pod: ${which} topology spread constraints: ${err.message}`) };
    }
    if (constraints.length === 0) return { status: newStatus(Code.Skip) };
    state.write(preFilterStateKey, calPreFilterState(pod, constraints, nodes));
    return { status: null };
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    const s = state.read(preFilterStateKey);
    if (s === undefined) return asError(`reading "${preFilterStateKey.name}" from cycleState: ${NOT_FOUND}`);
    switch (checkNode(s, pod, nodeInfo)) {
      case 'missingLabel':
        return newStatus(Code.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch);
      case 'skew':
        return newStatus(Code.Unschedulable, ErrReasonConstraintsNotMatch);
      default:
        return null;
    }
  }

  /** addPod counts a pod in as if it ran on the node (PreFilterExtensions.AddPod, used by preemption's dry runs). */
  addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): PluginStatus {
    return this.updateState(state, podToSchedule, podInfoToAdd, nodeInfo, 1);
  }

  /** removePod counts a pod out as if it left the node (PreFilterExtensions.RemovePod). */
  removePod(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): PluginStatus {
    return this.updateState(state, podToSchedule, podInfoToRemove, nodeInfo, -1);
  }

  private updateState(state: CycleState, podToSchedule: Pod, pi: PodInfo, nodeInfo: NodeInfo, delta: number): PluginStatus {
    let s = state.read(preFilterStateKey);
    if (s === undefined) return asError(`reading "${preFilterStateKey.name}" from cycleState: ${NOT_FOUND}`);
    // The state is shared by cloned cycle states; copy it once for this one before changing it (preFilterState.Clone).
    if (s.owner !== state) {
      s = clonePreFilterState(s, state);
      state.write(preFilterStateKey, s);
    }
    updateWithPod(s, pi.pod, podToSchedule, nodeInfo, delta);
    return null;
  }

  /** preScore counts matching pods per domain for the ScheduleAnyway constraints; a pod without any skips Score. */
  preScore(state: CycleState, pod: Pod, filteredNodes: readonly NodeInfo[]): PluginStatus {
    const snapshot = this.handle?.snapshot();
    const allNodes = snapshot?.nodeInfoList ?? filteredNodes;
    if (allNodes.length === 0) return newStatus(Code.Skip);
    // Nodes without a zone label still get hostname spreading under the system defaults.
    const requireAllTopologies = (pod.spec?.topologySpreadConstraints?.length ?? 0) > 0 || !this.systemDefaulted;
    let constraints: SpreadConstraint[];
    try {
      constraints = this.constraints(pod, UnsatisfiableConstraintAction.ScheduleAnyway);
    } catch (err) {
      if (!(err instanceof SelectorError)) throw err;
      const which = (pod.spec?.topologySpreadConstraints?.length ?? 0) > 0 ? "obtaining pod's soft" : 'setting default soft';
      return asError(`calculating preScoreState: ${which} topology spread constraints: ${err.message}`);
    }
    if (constraints.length === 0) return newStatus(Code.Skip);
    const s = initPreScoreState(constraints, filteredNodes, requireAllTopologies);
    countAllNodes(s, pod, allNodes, requireAllTopologies, snapshot);
    state.write(preScoreStateKey, s);
    return null;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | PluginStatus {
    const s = state.read(preScoreStateKey);
    if (s === undefined) return asError(`error reading "${preScoreStateKey.name}" from cycleState: ${NOT_FOUND}`);
    return scoreNode(s, pod, nodeInfo);
  }

  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): PluginStatus {
    const s = state.read(preScoreStateKey);
    if (s === undefined) return asError(`error reading "${preScoreStateKey.name}" from cycleState: ${NOT_FOUND}`);
    normalizeScores(s, scores);
    return null;
  }

  /** fieldPath is the pod's constraints; without them, its labels, which the default constraints' owners select. */
  fieldPath(pod: Pod): string {
    return (pod.spec?.topologySpreadConstraints?.length ?? 0) > 0 ? 'spec.topologySpreadConstraints' : 'metadata.labels';
  }
}

/** New builds the plugin with the profile's PodTopologySpreadArgs, or the defaults (System defaulting). */
export function New(handle: Handle): Plugin {
  return new PodTopologySpread(handle);
}
