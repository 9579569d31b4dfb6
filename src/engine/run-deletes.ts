// The run's kubectl deletes: the first `kubectl delete -f MANIFEST` once the workload settles (`--delete`), then the
// further ones of `thenDelete` at their times after it, each over the objects it names. The Simulation decides when
// the delete stage starts; this keeps what the deletes need and what they printed.
import { refOf, type KubeObject } from './api/types';
import type { SourceIndex, Task } from './context';
import { type DeleteTarget, FurtherDeletes, podTarget } from './further-deletes';
import { deleteTargets, type ApplySession } from './kubectl/manifest-apply';
import { fileOf } from './kubectl/run-command';
import type { Rejection } from './outcome';
import type { Millis, VirtualClock } from './runtime/clock';
import type { Steps } from './runtime/step';
import type { SimulationOptions } from './simulation-options';

/** DeleteHost is what the deletes read of their run and how they queue work and report. */
export interface DeleteHost {
  readonly clock: VirtualClock;
  readonly options: SimulationOptions;
  readonly sources: SourceIndex;
  /** applied are the objects kubectl created from the manifest: what `kubectl delete -f` names. */
  readonly applied: ReadonlyMap<string, KubeObject>;
  session(): ApplySession;
  push(at: Millis, label: string, task: Task): void;
  /** nextAt is when the next queued task is due, undefined when none is. */
  nextAt(): Millis | undefined;
  printed(text: string): void;
  /** refused is the first delete's refusal (403, or kubectl's own flag check): the run's rejection. */
  refused(r: Rejection): void;
}

/** RunDeletes runs the first kubectl delete and the further ones. */
export class RunDeletes {
  /** furtherKubectl is what each further delete (by its place in `thenDelete`) printed, once it has run. */
  readonly furtherKubectl: (string | undefined)[] = [];
  /** startedAt is the virtual time the first kubectl delete began. */
  startedAt: Millis | undefined;
  private readonly further: FurtherDeletes;

  constructor(private readonly host: DeleteHost) {
    this.further = new FurtherDeletes(host.options.delete ? host.options.thenDelete : []);
  }

  /** waiting tells whether a further delete has yet to be run. */
  get waiting(): boolean {
    return this.further.waiting;
  }

  /** first queues the run's first `kubectl delete -f MANIFEST` at `at`. */
  first(at: Millis): void {
    this.host.push(at, 'kubectl delete', () => this.deleteAll());
  }

  /** deleteAll is the run's first `kubectl delete -f MANIFEST`: a refused one is the run's rejection. */
  private *deleteAll(): Steps<void> {
    this.startedAt ??= this.host.clock.now;
    yield* this.kubectlDelete(this.manifestTargets(), this.host.options.delete ?? {});
  }

  /** manifestTargets are the objects `kubectl delete -f MANIFEST` names: those the apply created. */
  private manifestTargets(): DeleteTarget[] {
    // What kubectl generated has no file: its delete names the objects (`kubectl delete pod/web`), so errors name no file.
    return [...this.host.applied.values()].map((object) => ({ object, source: fileOf(this.host.sources.get(refOf(object))?.file) }));
  }

  /**
   * queueFurther puts the next further delete in the queue once its time has come and nothing else is due before it.
   * It names a pod, or repeats `kubectl delete -f` with the first delete's --cascade.
   */
  queueFurther(): void {
    if (this.startedAt === undefined) return;
    const due = this.further.due(this.startedAt, this.host.nextAt());
    if (!due) return;
    const d = due.delete;
    const targets = d.pod ? [podTarget(d.pod)] : this.manifestTargets();
    const propagationPolicy = d.pod ? undefined : this.host.options.delete?.propagationPolicy;
    const flags = { ...(d.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: d.gracePeriodSeconds } : {}), ...(d.force ? { force: true } : {}), ...(propagationPolicy ? { propagationPolicy } : {}) };
    this.host.push(Math.max(due.at, this.host.clock.now), 'kubectl delete', () => this.kubectlDelete(targets, flags, due.index));
  }

  /**
   * kubectlDelete runs one `kubectl delete` over its targets: the first delete (no `further` index), whose refusal is
   * the run's rejection, or the further delete `further` of `thenDelete`, whose output is also kept apart.
   */
  private *kubectlDelete(targets: DeleteTarget[], flags: NonNullable<SimulationOptions['delete']>, further?: number): Steps<void> {
    yield* deleteTargets(this.host.session(), targets, flags, (printed) => {
      this.host.printed(printed);
      if (further !== undefined) this.furtherKubectl[further] = [this.furtherKubectl[further], printed].filter((p) => p !== undefined).join('\n');
    }, (r) => {
      if (further === undefined) this.host.refused(r);
    });
  }
}
