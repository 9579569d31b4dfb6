// InterPodAffinity: required pod affinity and anti-affinity (the pod's and the existing pods') filter nodes by topology;
// preferred terms and existing pods' required affinity score them. See pkg/scheduler/framework/plugins/interpodaffinity.
import type { Pod } from '../../api/types';
import { NOT_FOUND, stateKey, type CycleState } from '../framework/cycle-state';
import {
  ExtensionPoint, type FilterPlugin, type Handle, type NodeInfo, type NodeScore, type Plugin, type PreFilterOutput,
  type PreFilterPlugin, type PreScorePlugin, type ScorePlugin,
} from '../framework/interfaces';
import { EMPTY_LISTERS, type Listers } from '../framework/listers';
import type { PodInfo } from '../framework/node-info';
import { havePodsWithAffinity, havePodsWithRequiredAntiAffinity } from '../framework/snapshot';
import { asError, Code, newStatus, type PluginStatus } from '../framework/status';
import { resolveInterPodAffinityArgs, type ResolvedAffinityArgs } from './interpodaffinity/args';
import {
  clonePreFilterState, existingAntiAffinityCounts, incomingAffinityCounts, satisfyExistingPodsAntiAffinity, satisfyPodAffinity,
  satisfyPodAntiAffinity, updateWithPod, type PreFilterState,
} from './interpodaffinity/filtering';
import { normalizeScores, scoreNode, topologyScoreOf, type PreScoreState } from './interpodaffinity/scoring';
import { incomingPod, namespaceLabels } from './interpodaffinity/terms';
import { Names } from './names';
import { pluginArgs } from './podtopologyspread/args';

export type { InterPodAffinityArgs } from './interpodaffinity/args';

/** Name is the plugin's name in profiles. */
export const Name = Names.InterPodAffinity;

/** ErrReasonExistingAntiAffinityRulesNotMatch is the Filter reason for a node an existing pod's anti-affinity forbids. */
export const ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules";
/** ErrReasonAffinityRulesNotMatch is the Filter reason for a node without the pods the pod's required affinity asks for. */
export const ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
/** ErrReasonAntiAffinityRulesNotMatch is the Filter reason for a node with pods the pod's required anti-affinity avoids. */
export const ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";

const preFilterStateKey = stateKey<PreFilterState>(`PreFilter${Name}`);
const preScoreStateKey = stateKey<PreScoreState>(`PreScore${Name}`);

const REQUIRED = 'requiredDuringSchedulingIgnoredDuringExecution';
const PREFERRED = 'preferredDuringSchedulingIgnoredDuringExecution';

/** InterPodAffinity places pods near or away from other pods. */
export class InterPodAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = Name;
  private readonly handle: Handle | undefined;
  readonly args: ResolvedAffinityArgs;

  constructor(handle: Handle | undefined, args?: Record<string, unknown>) {
    this.handle = handle;
    this.args = resolveInterPodAffinityArgs(args ?? pluginArgs(handle, Name));
  }

  private listers(): Listers {
    return this.handle?.listers() ?? EMPTY_LISTERS;
  }

  /** preFilter counts, per topology pair, what the three checks need; with no required terms on either side it skips Filter. */
  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterOutput {
    const listers = this.listers();
    const incoming = incomingPod(pod, listers, 'required');
    if (incoming.parseError !== undefined) return { status: newStatus(Code.UnschedulableAndUnresolvable, `parsing pod: ${incoming.parseError}`) };
    const nsLabels = namespaceLabels(pod, listers);
    // Why: Kubernetes walks HavePodsWithRequiredAntiAffinityList here, the snapshot's few nodes with such pods.
    const existing = existingAntiAffinityCounts(pod, nsLabels, havePodsWithRequiredAntiAffinity(nodes));
    const { affinity, antiAffinity } = incomingAffinityCounts(incoming, nodes);
    const { requiredAffinityTerms, requiredAntiAffinityTerms } = incoming.terms;
    if (existing.size === 0 && requiredAffinityTerms.length === 0 && requiredAntiAffinityTerms.length === 0) return { status: newStatus(Code.Skip) };
    state.write(preFilterStateKey, { existingAntiAffinityCounts: existing, affinityCounts: affinity, antiAffinityCounts: antiAffinity, incoming, namespaceLabels: nsLabels });
    return { status: null };
  }

  /** filter checks the pod's required affinity, then its required anti-affinity, then the existing pods' anti-affinity. */
  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    const s = state.read(preFilterStateKey);
    if (s === undefined) return asError(`error reading "${preFilterStateKey.name}" from cycleState: ${NOT_FOUND}`);
    if (!satisfyPodAffinity(s, nodeInfo)) return newStatus(Code.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch);
    if (!satisfyPodAntiAffinity(s, nodeInfo)) return newStatus(Code.Unschedulable, ErrReasonAntiAffinityRulesNotMatch);
    if (!satisfyExistingPodsAntiAffinity(s, nodeInfo)) return newStatus(Code.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch);
    return null;
  }

  /** addPod counts a pod in as if it ran on the node (PreFilterExtensions.AddPod, used by preemption's dry runs). */
  addPod(state: CycleState, _podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): PluginStatus {
    return this.updateState(state, podInfoToAdd, nodeInfo, 1);
  }

  /** removePod counts a pod out as if it left the node (PreFilterExtensions.RemovePod). */
  removePod(state: CycleState, _podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): PluginStatus {
    return this.updateState(state, podInfoToRemove, nodeInfo, -1);
  }

  private updateState(state: CycleState, pi: PodInfo, nodeInfo: NodeInfo, delta: number): PluginStatus {
    let s = state.read(preFilterStateKey);
    if (s === undefined) return asError(`error reading "${preFilterStateKey.name}" from cycleState: ${NOT_FOUND}`);
    // The state is shared by cloned cycle states; copy it once for this one before changing it (preFilterState.Clone).
    if (s.owner !== state) {
      s = clonePreFilterState(s, state);
      state.write(preFilterStateKey, s);
    }
    updateWithPod(s, pi, nodeInfo.node, delta);
    return null;
  }

  /**
   * preScore sums the matching weights per topology pair over the cluster's pods: all of them when the pod has preferred
   * terms, only those with affinity otherwise. It skips Score when nothing matched.
   */
  preScore(state: CycleState, pod: Pod, filteredNodes: readonly NodeInfo[]): PluginStatus {
    const affinity = pod.spec?.affinity;
    const hasConstraints = (affinity?.podAffinity?.[PREFERRED]?.length ?? 0) > 0 || (affinity?.podAntiAffinity?.[PREFERRED]?.length ?? 0) > 0;
    if (this.args.ignorePreferredTermsOfExistingPods && !hasConstraints) return newStatus(Code.Skip);
    const all = this.handle?.snapshot().nodeInfoList ?? filteredNodes;
    const nodes = hasConstraints ? all : havePodsWithAffinity(all);
    const listers = this.listers();
    const incoming = incomingPod(pod, listers, 'preferred');
    if (incoming.parseError !== undefined) return asError(`failed to parse pod: ${incoming.parseError}`);
    const topologyScore = topologyScoreOf(incoming, namespaceLabels(pod, listers), nodes, this.args);
    if (topologyScore.size === 0) return newStatus(Code.Skip);
    state.write(preScoreStateKey, { topologyScore });
    return null;
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | PluginStatus {
    const s = state.read(preScoreStateKey);
    if (s === undefined) return asError(`failed to read "${preScoreStateKey.name}" from cycleState: ${NOT_FOUND}`);
    return scoreNode(s, nodeInfo);
  }

  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): PluginStatus {
    const s = state.read(preScoreStateKey);
    if (s === undefined) return asError(`failed to read "${preScoreStateKey.name}" from cycleState: ${NOT_FOUND}`);
    normalizeScores(s, scores);
    return null;
  }

  /** fieldPath is the pod's required terms at PreFilter and Filter, its preferred ones at PreScore and Score, else its labels. */
  fieldPath(pod: Pod, point: ExtensionPoint): string {
    const affinity = pod.spec?.affinity;
    const which = point === ExtensionPoint.PreScore || point === ExtensionPoint.Score ? PREFERRED : REQUIRED;
    if ((affinity?.podAffinity?.[which]?.length ?? 0) > 0) return `spec.affinity.podAffinity.${which}`;
    if ((affinity?.podAntiAffinity?.[which]?.length ?? 0) > 0) return `spec.affinity.podAntiAffinity.${which}`;
    // Existing pods' terms select the pod by its labels.
    return 'metadata.labels';
  }
}

/** New builds the plugin with the profile's InterPodAffinityArgs, or the defaults (hardPodAffinityWeight 1). */
export function New(handle: Handle): Plugin {
  return new InterPodAffinity(handle);
}
