// The disruption controller's informer handlers and queues: a budget added, updated or deleted is synced; a pod added,
// updated or deleted syncs the first budget that selects it (with a MultiplePodDisruptionBudgets event on the pod when
// several do); a sync that recorded disruptions is rechecked when the earliest times out (the recheck queue hands the
// key back rate-limited); and a pod that carries a DisruptionTarget condition without being deleted gets it set to
// False once it is 2 minutes old (the stale pod disruption queue). See pkg/controller/disruption/disruption.go
// (addDB, updateDB, removeDB, addPod, updatePod, deletePod, getPdbForPod, processNextRecheckWorkItem,
// nonTerminatingPodHasStaleDisruptionCondition, syncStalePodDisruption) at v1.36.3.
import { budgetsOfPod, type PodDisruptionBudget } from '../api/pod-disruption-budget';
import type { KubeObject, Pod, PodCondition } from '../api/types';
import { refOf } from '../api/types';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { DISRUPTION_SOURCE, syncPodDisruptionBudget } from './disruption';
import type { WorkQueue } from './manager';
import { ControllerRateLimiter } from './rate-limiter';

/** STALE_POD_DISRUPTION_TIMEOUT_MS is stalePodDisruptionTimeout: how long a DisruptionTarget may stay on a pod not being deleted. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;

/** TERMINATION_BY_KUBELET is v1.PodReasonTerminationByKubelet: such a condition is never stale. */
const TERMINATION_BY_KUBELET = 'TerminationByKubelet';

/** DisruptionController routes budget and pod changes to the syncs of the budgets. */
export class DisruptionController {
  private readonly limiter = new ControllerRateLimiter();

  constructor(private readonly ctx: EngineContext, private readonly queue: WorkQueue, private readonly recheck: WorkQueue, private readonly stale: WorkQueue) {}

  /** resync queues every stored budget, as the informer's initial list does. */
  resync(): void {
    for (const pdb of this.ctx.store.list('PodDisruptionBudget')) this.enqueue(pdb.metadata?.namespace ?? '', pdb.metadata?.name ?? '');
  }

  /** onBudget is addDB, updateDB and removeDB: the budget is synced (a deleted one finds itself gone). */
  onBudget(obj: KubeObject): void {
    this.enqueue(obj.metadata?.namespace ?? '', obj.metadata?.name ?? '');
  }

  /** onPod is addPod, updatePod and deletePod. */
  onPod(type: WatchEventType, pod: Pod): void {
    const pdb = this.budgetForPod(pod);
    if (pdb) this.enqueue(pdb.metadata?.namespace ?? '', pdb.metadata?.name ?? '');
    if (type === 'DELETED') return;
    // enqueueStalePodDisruptionCleanup(pod, cleanAfter) is AddAfter(cleanAfter). Here the key is first looked at again
    // once the writer's task is over: a condition written just before a delete (an eviction, a preemption) finds the
    // pod being deleted and waits for nothing, as the real sync would find it 2 minutes later.
    if (this.staleDisruption(pod) !== undefined) this.enqueueStale(pod, 0);
  }

  /**
   * budgetForPod is getPdbForPod: the first budget selecting the pod; with several, a Warning on the pod:
   * `Pod "default"/"web-0" matches multiple PodDisruptionBudgets.  Chose "a" arbitrarily.` (two spaces, as the source has).
   */
  private budgetForPod(pod: Pod): PodDisruptionBudget | undefined {
    const pdbs = budgetsOfPod(this.ctx.store, pod);
    if (pdbs.length > 1) {
      const q = JSON.stringify;
      this.ctx.recorder.event({
        type: 'Warning', reason: 'MultiplePodDisruptionBudgets', object: refOf(pod), source: DISRUPTION_SOURCE,
        message: `Pod ${q(pod.metadata?.namespace ?? '')}/${q(pod.metadata?.name ?? '')} matches multiple PodDisruptionBudgets.  Chose ${q(pdbs[0]!.metadata?.name ?? '')} arbitrarily.`,
      });
    }
    return pdbs[0];
  }

  /** enqueue adds the budget's key to the queue, now or `after` milliseconds from now. */
  private enqueue(namespace: string, name: string, after: Millis = 0): void {
    if (!name) return;
    const key = `${namespace}/${name}`;
    this.queue.add(key, () => this.sync(namespace, name, key), after);
  }

  /** sync is processNextWorkItem: a sync (which never fails here), Forget, and the recheck a sync asks for (AddAfter). */
  private *sync(namespace: string, name: string, key: string): Steps<void> {
    const r = yield* syncPodDisruptionBudget(this.ctx, namespace, name);
    this.limiter.forget(key);
    if (r.recheckAfter !== undefined) this.recheck.add(key, () => this.handBack(namespace, name, key), r.recheckAfter);
  }

  /** handBack is processNextRecheckWorkItem: the key goes back to the main queue through its rate limiter (AddRateLimited). */
  private *handBack(namespace: string, name: string, key: string): Steps<void> {
    this.enqueue(namespace, name, this.limiter.when(key, this.ctx.clock.now));
  }

  /**
   * staleDisruption is nonTerminatingPodHasStaleDisruptionCondition: for a pod not being deleted, not terminal, with a
   * DisruptionTarget True condition not set by the kubelet, how long until it is stale (0 when it is already).
   */
  private staleDisruption(pod: Pod): Millis | undefined {
    if (pod.metadata?.deletionTimestamp) return undefined;
    const cond = (pod.status?.conditions ?? []).find((c) => c.type === 'DisruptionTarget');
    const phase = pod.status?.phase;
    if (!cond || cond.status !== 'True' || cond.reason === TERMINATION_BY_KUBELET || phase === 'Succeeded' || phase === 'Failed') return undefined;
    const since = cond.lastTransitionTime ? this.ctx.clock.epoch.getTime() + this.ctx.clock.now - Date.parse(cond.lastTransitionTime) : 0;
    return Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - since);
  }

  private enqueueStale(pod: Pod, after: Millis): void {
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    this.stale.add(`${namespace}/${name}`, () => this.syncStale(namespace, name), after);
  }

  /**
   * syncStale is syncStalePodDisruption: a pod still not being deleted whose DisruptionTarget is stale gets it set to
   * False (reason and message cleared, lastTransitionTime now) by a status update; one not yet stale waits again.
   */
  private *syncStale(namespace: string, name: string): Steps<void> {
    const pod = this.ctx.store.get<Pod>('Pod', namespace, name);
    if (!pod) return;
    const wait = this.staleDisruption(pod);
    if (wait === undefined) return;
    if (wait > 0) return this.enqueueStale(pod, wait);
    const generation = pod.metadata?.generation;
    this.ctx.store.update<Pod>('Pod', namespace, name, (p) => {
      const condition = {
        type: 'DisruptionTarget', status: 'False', ...(generation !== undefined ? { observedGeneration: generation } : {}),
        lastProbeTime: null, lastTransitionTime: this.ctx.clock.timestamp(),
      } as unknown as PodCondition;
      p.status = { ...p.status, conditions: (p.status?.conditions ?? []).map((c) => (c.type === 'DisruptionTarget' ? condition : c)) };
    });
    yield {
      phase: 'controllers.disruption', object: refOf(pod), field: 'status.conditions',
      result: `the pod's DisruptionTarget condition is ${STALE_POD_DISRUPTION_TIMEOUT_MS / 60000} minutes old and the pod is not being deleted: reset to False`,
      detail: { staleAfterMs: STALE_POD_DISRUPTION_TIMEOUT_MS },
    };
  }
}
