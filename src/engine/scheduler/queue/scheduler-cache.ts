// The scheduler's cache: the nodes and the pods bound or assumed on them, kept from watch events, and the Snapshot the
// cycles read, updated pod by pod and rebuilt only when the nodes change. Kept beside the queue: the same event handlers
// feed both. See pkg/scheduler/backend/cache/cache.go (AssumePod, FinishBinding, ForgetPod, AddPod, UpdateSnapshot).
import type { Node, Pod } from '../../api/types';
import { Snapshot, TERMINAL_PHASES } from '../framework/snapshot';
import { podKey } from '../../api/types';

/** isTerminal tells a Succeeded or Failed pod: the scheduler's pod informer does not see it, so it holds nothing. */
export function isTerminal(pod: Pod): boolean {
  return TERMINAL_PHASES.has(pod.status?.phase ?? '');
}

/** SchedulerCache holds nodes and pods by name and hands out an up-to-date Snapshot. */
export class SchedulerCache {
  private readonly nodes = new Map<string, Node>();
  private readonly pods = new Map<string, Pod>();
  private readonly assumed = new Set<string>();
  private current: Snapshot | undefined;

  /** numNodes is the number of nodes known. */
  get numNodes(): number {
    return this.nodes.size;
  }

  /** addNode adds (or replaces) a node; the snapshot is rebuilt on next use. */
  addNode(node: Node): void {
    this.nodes.set(node.metadata?.name ?? '', node);
    this.current = undefined;
  }

  /** removeNode forgets a node. */
  removeNode(node: Node): void {
    this.nodes.delete(node.metadata?.name ?? '');
    this.current = undefined;
  }

  /** addPod accounts a bound pod; an assumed one is confirmed (its assumed copy is replaced by the real pod). */
  addPod(pod: Pod): void {
    if (isTerminal(pod)) return;
    const key = podKey(pod);
    const old = this.pods.get(key);
    this.assumed.delete(key);
    this.pods.set(key, pod);
    if (this.current) {
      // A status write changes nothing the snapshot accounts: the pod is taken in place, not removed and added again.
      if (old && this.current.updatePod(old, pod)) return;
      if (old) this.current.removePod(old);
      this.current.addPod(pod);
    }
  }

  /** removePod forgets a pod (deleted, or terminal). */
  removePod(pod: Pod): void {
    const key = podKey(pod);
    const old = this.pods.get(key);
    if (!old) return;
    this.pods.delete(key);
    this.assumed.delete(key);
    this.current?.removePod(old);
  }

  /** assumePod accounts a pod on the node the cycle chose before it is bound, so the next cycle sees it (AssumePod). */
  assumePod(pod: Pod): void {
    this.addPod(pod);
    this.assumed.add(podKey(pod));
  }

  /** forgetPod drops an assumed pod whose binding failed (ForgetPod). */
  forgetPod(pod: Pod): void {
    if (this.assumed.has(podKey(pod))) this.removePod(pod);
  }

  /** isAssumed tells whether a pod is assumed and not yet seen bound. */
  isAssumed(pod: Pod): boolean {
    return this.assumed.has(podKey(pod));
  }

  /** snapshot returns the Snapshot, built in node-name order when the nodes changed since the last one. */
  snapshot(): Snapshot {
    if (!this.current) {
      const nodes = [...this.nodes.values()].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
      this.current = Snapshot.build(nodes, [...this.pods.values()]);
    }
    return this.current;
  }
}
