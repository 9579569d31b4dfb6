// The stages of a run: create (kubectl applies, the cluster brings the workload up), then delete when asked (the
// workload goes away), then done; each ends when the workload settles, or when its time runs out.
import type { KubeObject, Pod } from './api/types';
import type { Behavior } from './cluster/inputs';
import type { Store } from './cluster/store';
import type { Task } from './context';
import type { KubeProxy } from './kubeproxy/proxy';
import type { Kubelet } from './kubelet/kubelet';
import { computeOutcome, type Rejection } from './outcome';
import type { EventQueue, VirtualClock } from './runtime/clock';
import type { RunDeletes } from './run-deletes';
import { workloadSettled } from './settled';
import { type BudgetStop, DEFAULT_MAX_MS, type SimulationOptions } from './simulation-options';
import type { InformerDelivery } from './watch/delivery';

/** Stage is where a run is. */
export type Stage = 'create' | 'delete' | 'done';

/** StageDeps is what the stages judge by: the run's options, clock, queue, what was applied and what runs. */
export interface StageDeps {
  options: SimulationOptions;
  clock: VirtualClock;
  queue: EventQueue<Task>;
  store: Store;
  behavior: Behavior;
  applied: ReadonlyMap<string, KubeObject>;
  rejection: () => Rejection | undefined;
  /** kubectlPending counts the later kubectl commands still to come or running. */
  kubectlPending: () => number;
  kubeProxy: KubeProxy;
  /** controllersSettling: a controller has work to come that may still change the workload (a claim's binding). */
  controllersSettling: () => boolean;
  /** controllersAtWork names the controllers with a sync under way or queued. */
  controllersAtWork: () => string[];
  kubelets: ReadonlyMap<string, Kubelet>;
  deletes: RunDeletes;
  informers: InformerDelivery | undefined;
  finishedJobs: ReadonlyMap<string, 'Succeeded' | 'Failed'>;
  workloadPodUids: Set<string>;
  pods: () => Pod[];
}

/** RunStages moves a run through its stages. */
export class RunStages {
  stage: Stage = 'create';
  /** timeStop is set when the create stage ran into its time limit while controllers were still at work. */
  timeStop: BudgetStop | undefined;
  /** startedAt is when the current stage started (virtual milliseconds). */
  startedAt = 0;

  constructor(private readonly d: StageDeps) {}

  /** advance moves from create to delete to done when the workload settles or time runs out. */
  advance(): void {
    if (this.d.options.live) return;
    const next = this.d.queue.peek();
    // --for bounds the create stage; the deletion runs to its end (at most maxMs).
    const limit = this.stage === 'create' ? this.d.options.forMs ?? this.d.options.maxMs ?? DEFAULT_MAX_MS : this.d.options.maxMs ?? DEFAULT_MAX_MS;
    const stageStart = this.startedAt;
    const timeUp = next !== undefined && next.at - stageStart > limit;
    const idle = next === undefined;
    // Reactions due at this very instant (an endpoints update on readiness) still belong to the stage.
    const quiet = idle || next.at > this.d.clock.now;
    if (this.stage === 'create') {
      // A refused document ends the run unless another one was created: kubectl goes on with the others, and so does
      // the cluster with what they made (apply.go Run applies every object the builder read, errors or not). kube-proxy's
      // sync of a change the workload brought (its endpoints) is part of it: the traffic reaches the pods then.
      const refusedAlone = this.d.rejection() !== undefined && this.d.applied.size === 0;
      const settled = refusedAlone || (this.d.options.forMs === undefined && quiet && this.d.kubectlPending() === 0 && !this.d.kubeProxy.syncPending && !this.d.controllersSettling() && this.workloadSettled());
      if (!(settled || idle || timeUp || (this.d.options.forMs !== undefined && this.d.clock.now - stageStart >= limit))) return;
      if (this.d.options.delete && this.d.applied.size > 0) {
        // With --for the delete comes once that much virtual time has passed.
        const at = this.d.options.forMs !== undefined ? Math.max(this.d.clock.now, stageStart + limit) : this.d.clock.now;
        this.stage = 'delete';
        this.startedAt = at;
        this.d.deletes.first(at);
      } else {
        this.stage = 'done';
        // Cut by the limit while the controllers were still making the workload (a big ReplicaSet at its client's pace):
        // the run says it stopped short, not that the workload is Pending for a reason of its own.
        const busy = timeUp && !settled && this.d.options.forMs === undefined ? this.d.controllersAtWork() : [];
        if (busy.length > 0) this.timeStop = { budget: 'time', limit: limit / 1000, busy };
        // The run lasted as long as it was given: --for, or the limit it ran into.
        if (timeUp || this.d.options.forMs !== undefined) this.d.clock.now = Math.max(this.d.clock.now, stageStart + limit);
      }
      return;
    }
    if (this.stage === 'delete') {
      const orphaning = this.orphaning;
      const gone = computeOutcome(this.d.store, [...this.d.applied.values()], undefined, true, orphaning ? new Set() : this.d.workloadPodUids, orphaning) === 'Deleted';
      // A pod removed at once (--force) still has its containers killed by the kubelet: the run shows that too.
      // A further delete still to come keeps the run going until its time (or the time limit).
      if ((gone && quiet && !this.deletePending() && !this.d.deletes.waiting && !this.kubeletsTerminating() && !this.d.kubeProxy.syncPending && !this.d.informers?.delivering) || idle || timeUp) this.stage = 'done';
      if (this.stage === 'done' && timeUp) this.d.clock.now = Math.max(this.d.clock.now, stageStart + limit);
    }
  }

  /** kubeletsTerminating tells whether a kubelet still kills or cleans up a pod. */
  private kubeletsTerminating(): boolean {
    return [...this.d.kubelets.values()].some((k) => !k.down && [...k.pods.values()].some((p) => p.terminating));
  }

  /** orphaning: `--cascade=orphan` leaves the dependents on purpose; the deletion ends when the applied objects are gone. */
  get orphaning(): boolean {
    return this.d.options.delete?.propagationPolicy === 'Orphan';
  }

  private deletePending(): boolean {
    return this.d.queue.peek()?.label === 'kubectl delete';
  }

  /** workloadSettled: the manifest's workload has reached a state nothing scripted will change. */
  private workloadSettled(): boolean {
    // Judged by what was created: a refused document of the same manifest does not settle the others.
    return workloadSettled(this.d.store, [...this.d.applied.values()], undefined, this.d.finishedJobs, this.d.pods, this.d.behavior, this.d.options.delete !== undefined);
  }
}
