// The nominator: the pods nominated to a node — by the preemption that chose it for them, or by their own
// status.nominatedNodeName — while they wait for their victims to go. The filters count those of equal or higher
// priority on their node as if they ran there (RunFilterPluginsWithNominatedPods), so that a lesser pod does not take
// the room a preemption made. See pkg/scheduler/backend/queue/nominator.go (v1.36.3).
import type { Pod } from '../../api/types';

/**
 * NominatingInfo is a nomination to apply (fwk.NominatingInfo): `override` puts the pod on `nodeName` (none when it is
 * ''); undefined is ModeNoop, the pod's own status.nominatedNodeName.
 */
export type NominatingInfo = { mode: 'override'; nodeName: string } | undefined;

/** NominatedRef is a nominated pod as the nominator keeps it: its name and uid. */
export interface NominatedRef {
  namespace: string;
  name: string;
  uid: string;
}

/** Nominator keeps the nominated pods by node, and each pod's node by uid. */
export class Nominator {
  private readonly byNode = new Map<string, NominatedRef[]>();
  private readonly nodeOf = new Map<string, string>();

  /** `lister` reads the pod as the scheduler's informer has it (undefined when it is gone); without one, no check. */
  constructor(private readonly lister?: (namespace: string | undefined, name: string) => Pod | undefined) {}

  /**
   * add nominates a pod (addNominatedPodUnlocked): always forgetting its nomination first; not when the informer no
   * longer has it or it is already bound.
   */
  add(pod: Pod, nominating: NominatingInfo): void {
    this.delete(pod);
    const nodeName = nominating ? nominating.nodeName : (pod.status?.nominatedNodeName ?? '');
    if (!nominating && nodeName === '') return;
    if (this.lister) {
      const current = this.lister(pod.metadata?.namespace, pod.metadata?.name ?? '');
      if (!current || current.spec?.nodeName) return;
    }
    const uid = pod.metadata?.uid ?? '';
    this.nodeOf.set(uid, nodeName);
    // Never twice: its nomination was forgotten above.
    const list = this.byNode.get(nodeName) ?? [];
    list.push({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', uid });
    this.byNode.set(nodeName, list);
  }

  /**
   * update follows a queued pod's update (UpdateNominatedPod): an update that neither carries nor drops a
   * nominatedNodeName keeps the node the scheduler nominated it to in memory; otherwise the status decides.
   */
  update(oldPod: Pod, newPod: Pod): void {
    let nominating: NominatingInfo;
    if (!oldPod.status?.nominatedNodeName && !newPod.status?.nominatedNodeName) {
      const kept = this.nodeOf.get(oldPod.metadata?.uid ?? '');
      if (kept !== undefined) nominating = { mode: 'override', nodeName: kept };
    }
    this.delete(oldPod);
    this.add(newPod, nominating);
  }

  /** delete forgets a pod's nomination, if it has one (DeleteNominatedPodIfExists). */
  delete(pod: Pod): void {
    const uid = pod.metadata?.uid ?? '';
    const nodeName = this.nodeOf.get(uid);
    if (nodeName === undefined) return;
    const list = this.byNode.get(nodeName) ?? [];
    const i = list.findIndex((r) => r.uid === uid);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.byNode.delete(nodeName);
    this.nodeOf.delete(uid);
  }

  /** podsForNode lists the pods nominated to a node, in the order they were nominated. */
  podsForNode(nodeName: string): readonly NominatedRef[] {
    // Filter asks for every node it checks; most cycles have no nomination at all.
    return this.byNode.size === 0 ? NONE : (this.byNode.get(nodeName) ?? NONE);
  }
}

const NONE: readonly NominatedRef[] = Object.freeze([]);
