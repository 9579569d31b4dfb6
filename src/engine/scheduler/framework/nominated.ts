// Filtering a node with the pods nominated to it: those of equal or higher priority count as if they ran there, so a
// pod does not take the room a preemption made for a more important one; when the filters pass with them, they run
// again without them (a pod affinity to one of them must not be met by a pod that may end up elsewhere). See
// RunFilterPluginsWithNominatedPods and addGENominatedPods in pkg/scheduler/framework/runtime/framework.go (v1.36.3).
import type { Pod } from '../../api/types';
import type { CycleState } from './cycle-state';
import { type NodeInfo, PodInfo } from './node-info';
import { isSuccess, type PluginStatus } from './status';

/** NominatedPods lists the pods nominated to a node (the scheduling queue's nominator). */
export type NominatedPods = (nodeName: string) => readonly Pod[];

/** FilterRunner runs a profile's Filter plugins on one node. */
export type FilterRunner = (state: CycleState, pod: Pod, nodeInfo: NodeInfo) => PluginStatus;

/** CountedNominated is told of the nominated pods a node was filtered with (for the trace). */
export type CountedNominated = (nodeName: string, pods: readonly Pod[]) => void;

/**
 * filterWithNominatedPods is RunFilterPluginsWithNominatedPods: the two passes, the second only when the first added
 * pods and passed; `counted` hears of the pods added.
 */
export function filterWithNominatedPods(run: FilterRunner, nominated: NominatedPods | undefined, state: CycleState, pod: Pod, nodeInfo: NodeInfo, counted?: CountedNominated): PluginStatus {
  const added = addGENominatedPods(nominated, state, pod, nodeInfo);
  if (!added) return run(state, pod, nodeInfo);
  counted?.(nodeInfo.name, added.pods);
  const status = run(added.state, pod, added.nodeInfo);
  if (!isSuccess(status)) return status;
  return run(state, pod, nodeInfo);
}

/**
 * addGENominatedPods is a copy of the node and of the cycle's state with the nominated pods of equal or higher
 * priority than the pod added (not the pod itself); undefined when there are none. PreFilter's AddPod extensions are
 * not run for them (the plugins' PreFilter state, PodTopologySpread's and InterPodAffinity's counts, stays without them).
 */
function addGENominatedPods(nominated: NominatedPods | undefined, state: CycleState, pod: Pod, nodeInfo: NodeInfo): { state: CycleState; nodeInfo: NodeInfo; pods: Pod[] } | undefined {
  const pods = nominated?.(nodeInfo.name);
  if (!pods || pods.length === 0) return undefined;
  const priority = pod.spec?.priority ?? 0;
  const uid = pod.metadata?.uid;
  let copy: NodeInfo | undefined;
  const added: Pod[] = [];
  for (const p of pods) {
    if ((p.spec?.priority ?? 0) < priority || p.metadata?.uid === uid) continue;
    copy ??= nodeInfo.without(() => false);
    copy.addPod(new PodInfo(p));
    added.push(p);
  }
  return copy && { state: state.clone(), nodeInfo: copy, pods: added };
}
