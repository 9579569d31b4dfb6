// Choosing the victims on one node: evict every lower-priority pod in a dry run, check the preemptor fits, then put back
// as many as still let it fit. See pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
// (SelectVictimsOnNode, isPreemptionAllowed) and pkg/scheduler/util/utils.go (MoreImportantPod, GetPodStartTime).
import type { Pod } from '../../../api/types';
import type { CycleState } from '../../framework/cycle-state';
import type { Handle } from '../../framework/interfaces';
import type { NodeInfo, PodInfo } from '../../framework/node-info';
import { asError, Code, isSuccess, newStatus, type PluginStatus } from '../../framework/status';
import { podPriority } from '../queuesort';
import { filterPodsWithPDBViolation, type PodDisruptionBudget } from './pdb';

/** NO_VICTIMS is the status reason of a node without lower-priority pods. */
export const NO_VICTIMS = 'No preemption victims found for incoming pod';

/**
 * PreemptionHandle is a Handle with what preemption also uses of the framework when the framework offers it:
 * RunPreFilterExtensionAddPod/RemovePod (plugins with PreFilter state, such as PodTopologySpread and InterPodAffinity,
 * update it for the pods taken off and put back) and RunFilterPluginsWithNominatedPods. Without them, the filters
 * alone decide, on the node as the dry run left it.
 */
export interface PreemptionHandle extends Handle {
  runPreFilterExtensionAddPod?(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): PluginStatus;
  runPreFilterExtensionRemovePod?(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): PluginStatus;
  runFilterPluginsWithNominatedPods?(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus;
}

/** VictimSelection is what the dry run on one node found: the victims (most important first) and how many break a PDB. */
export interface VictimSelection {
  victims: Pod[];
  numPDBViolations: number;
  /** status is null when the pod fits once the victims are gone, else why not (or the Error that stopped the dry run). */
  status: PluginStatus;
}

/** isPreemptionAllowed tells whether a pod may be a victim of the preemptor: it must have a lower priority. */
export function isPreemptionAllowed(victim: PodInfo, preemptor: Pod): boolean {
  return victim.priority < podPriority(preemptor);
}

/** podStartTime is status.startTime in ms; a pod not started yet counts as started now, later than any started pod. */
export function podStartTime(pod: Pod): number {
  const t = pod.status?.startTime ? Date.parse(pod.status.startTime) : NaN;
  // Why: GetPodStartTime returns time.Now() for assumed or bound pods that have not started; every such pod is "now".
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** moreImportantPod tells whether a is more important than b: higher priority, or equal priority and started earlier. */
export function moreImportantPod(a: Pod, b: Pod): boolean {
  const p1 = podPriority(a);
  const p2 = podPriority(b);
  if (p1 !== p2) return p1 > p2;
  return podStartTime(a) < podStartTime(b);
}

/** byImportance sorts pods (or pod infos) most important first; the sort is stable, so equals keep the node's order. */
export function byImportance<T>(items: readonly T[], pod: (item: T) => Pod): T[] {
  return [...items].sort((x, y) => (moreImportantPod(pod(x), pod(y)) ? -1 : moreImportantPod(pod(y), pod(x)) ? 1 : 0));
}

/** earliestPodStartTime is the earliest start time among the victims of the highest priority (GetEarliestPodStartTime). */
export function earliestPodStartTime(victims: readonly Pod[]): number | undefined {
  if (victims.length === 0) return undefined;
  let maxPriority = podPriority(victims[0]!);
  let earliest = podStartTime(victims[0]!);
  for (const pod of victims) {
    const priority = podPriority(pod);
    if (priority === maxPriority) earliest = Math.min(earliest, podStartTime(pod));
    else if (priority > maxPriority) {
      maxPriority = priority;
      earliest = podStartTime(pod);
    }
  }
  return earliest;
}

/**
 * selectVictimsOnNode finds the fewest lower-priority pods to evict from a copy of the node: it removes them all and runs
 * the filters; if the pod fits, it puts them back most important first, budget-violating ones before the others, keeping
 * each that still lets the pod fit. The victims come out most important first.
 */
export function selectVictimsOnNode(
  handle: PreemptionHandle, state: CycleState, pod: Pod, original: NodeInfo, pdbs: readonly PodDisruptionBudget[],
): VictimSelection {
  const nodeInfo = original.without(() => false);
  const runFilters = (): PluginStatus => (handle.runFilterPluginsWithNominatedPods ?? handle.runFilterPlugins).call(handle, state, pod, nodeInfo);
  const removePod = (pi: PodInfo): PluginStatus => {
    nodeInfo.removePod(pi.pod);
    return handle.runPreFilterExtensionRemovePod?.(state, pod, pi, nodeInfo) ?? null;
  };
  const addPod = (pi: PodInfo): PluginStatus => {
    nodeInfo.addPod(pi);
    return handle.runPreFilterExtensionAddPod?.(state, pod, pi, nodeInfo) ?? null;
  };
  const fail = (status: PluginStatus): VictimSelection => ({ victims: [], numPDBViolations: 0, status: asError(status?.message() ?? '') });

  const potential = nodeInfo.pods.filter((pi) => isPreemptionAllowed(pi, pod));
  for (const pi of potential) {
    const s = removePod(pi);
    if (!isSuccess(s)) return fail(s);
  }
  if (potential.length === 0) return { victims: [], numPDBViolations: 0, status: newStatus(Code.UnschedulableAndUnresolvable, NO_VICTIMS) };
  // Why: affinity of the preemptor to lower-priority pods is not considered; if it does not fit without them, give up.
  const fits = runFilters();
  if (!isSuccess(fits)) return { victims: [], numPDBViolations: 0, status: fits };

  const sorted = byImportance(potential, (pi) => pi.pod);
  const { violating, nonViolating } = filterPodsWithPDBViolation(sorted, pdbs);
  const victims: PodInfo[] = [];
  let numPDBViolations = 0;
  /** reprieve puts a pod back; if the preemptor no longer fits, takes it off again and makes it a victim. */
  const reprieve = (pi: PodInfo): { fits: boolean; error?: PluginStatus } => {
    const added = addPod(pi);
    if (!isSuccess(added)) return { fits: false, error: added };
    if (isSuccess(runFilters())) return { fits: true };
    const removed = removePod(pi);
    if (!isSuccess(removed)) return { fits: false, error: removed };
    victims.push(pi);
    return { fits: false };
  };
  for (const pi of violating) {
    const r = reprieve(pi);
    if (r.error !== undefined) return fail(r.error);
    if (!r.fits) numPDBViolations++;
  }
  for (const pi of nonViolating) {
    const r = reprieve(pi);
    if (r.error !== undefined) return fail(r.error);
  }
  // Why: with both groups present the victims interleave; sort them again so the most important comes first.
  const ordered = violating.length > 0 && nonViolating.length > 0 ? byImportance(victims, (pi) => pi.pod) : victims;
  return { victims: ordered.map((pi) => pi.pod), numPDBViolations, status: null };
}
