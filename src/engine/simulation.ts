// The simulation facade: load the inputs, run the lifecycle step by step, pause, snapshot, and report the outcome.
import type { KubeObject, Pod } from './api/types';
import { configurePodSecurity } from './apiserver/admission/pod-security';
import { ApiServer } from './apiserver/server';
import { bootstrapCluster, startFrom } from './cluster/bootstrap';
import type { SimulationInputs, SourceDocument } from './cluster/inputs';
import { Store } from './cluster/store';
import { type EngineContext, SourceIndex, type Task } from './context';
import { watchNode } from './controllers/node-lifecycle';
import type { Credentials } from './kubectl/apply';
import { credentialsFor } from './kubectl/credentials';
import { clusterSettled } from './settled';
import type { KubeProxy } from './kubeproxy/proxy';
import type { Kubelet } from './kubelet/kubelet';
import { deliver, kubeletTaskDown, startComponents } from './components';
import { type InformerDelivery, startInformers } from './watch/delivery';
import { EventQueue, type Millis, VirtualClock } from './runtime/clock';
import { Random } from './runtime/random';
import { type KubeEvent, Recorder, type TraceEntry, type TraceInput } from './runtime/recorder';
import { type Batch, isBatch, isSleep, type StepYield, type Steps } from './runtime/step';
import { computeOutcome, isWorkloadPod, noteFinishedJob, type Rejection, workloadOutcomes, workloadPods } from './outcome';
import { RunDeletes } from './run-deletes';
import { RunKubectl } from './run-kubectl';
import { RunStages } from './run-stages';

export type { FurtherDelete } from './further-deletes';

import { budgetStop, DEFAULT_MAX_MS, type BudgetStop, type KubectlCommandRun, type SimulationOptions, type SimulationResult } from './simulation-options';

export { budgetReached, DEFAULT_BUDGET, DEFAULT_MAX_MS, type BudgetStop, type KubectlCommandRun, type LaterApply, type LaterKubectl, type RunBudget, type SimulationOptions, type SimulationResult } from './simulation-options';

/** Simulation runs one manifest on one simulated cluster. */
export class Simulation {
  readonly clock: VirtualClock;
  readonly store = new Store();
  readonly recorder: Recorder;
  readonly rng: Random;
  readonly sources = new SourceIndex();
  readonly ctx: EngineContext;
  readonly api: ApiServer;
  readonly kubelets: ReadonlyMap<string, Kubelet>;
  private readonly kubeProxy: KubeProxy;
  /** informers deliver the store's changes when the run shows its watches or delays an informer (watch/delivery.ts). */
  private readonly informers: InformerDelivery | undefined;
  /** kubeletDown tells whether a task belongs to a kubelet the Behavior has stopped by now. */
  private readonly kubeletDown: (label: string) => boolean;
  readonly kubectlOutput: string[] = [];
  /** kubectlLog is kubectl's -v=N log (its stderr), apart from what it prints. */
  readonly kubectlLog: string[] = [];
  /** commands are the later kubectl commands that have begun, with what each printed. */
  readonly commands: KubectlCommandRun[] = [];
  rejection: Rejection | undefined;
  /** applied are the objects kubectl created from the manifest, by their trace reference. */
  readonly applied = new Map<string, KubeObject>();
  /** finishedJobs remembers each Job's verdict, which outlives a Job its TTL deletes. */
  private readonly finishedJobs = new Map<string, 'Succeeded' | 'Failed'>();
  /** workloadPodUids remembers every pod the workload had, so pods left by a deleted owner still count. */
  private readonly workloadPodUids = new Set<string>();
  private readonly queue = new EventQueue<Task>();
  private running: { gen: Steps<void>; label: string } | undefined;
  /** marks are the store's place in its history right after each trace entry (snapshots on). */
  private readonly marks: number[] = [];
  private readonly credentials: Credentials;
  /** deletes are the run's first kubectl delete and the further ones. */
  private readonly deletes: RunDeletes;
  /** kubectl runs the run's kubectl commands. */
  private readonly kubectl: RunKubectl;
  /** stages move the run from create to delete to done. */
  private readonly stages: RunStages;

  constructor(readonly inputs: SimulationInputs, readonly options: SimulationOptions = {}) {
    this.clock = new VirtualClock(options.epoch);
    this.rng = new Random(options.seed ?? 1);
    this.deletes = new RunDeletes({
      clock: this.clock, options, sources: this.sources, applied: this.applied, session: () => this.kubectl.session,
      push: (at, label, task) => this.queue.push(at, label, task), nextAt: () => this.queue.peek()?.at,
      printed: (text) => this.kubectlOutput.push(text), refused: (r) => void (this.rejection ??= r),
    });
    this.recorder = new Recorder(() => this.clock.now - this.origin);
    this.ctx = {
      clock: this.clock, store: this.store, recorder: this.recorder, rng: this.rng,
      behavior: inputs.behavior, profile: inputs.cluster.profile, sources: this.sources,
      ...(options.tableLimit !== undefined ? { tableLimit: options.tableLimit } : {}),
      ...(options.pastInvalid ? { pastInvalid: true } : {}),
      ...(options.live ? { recordManagers: true } : {}),
      schedule: (delay, label, task) => this.queue.push(this.clock.now + delay, label, task),
    };
    // Component configuration is read once, as kube-apiserver reads its files at start.
    configurePodSecurity(this.ctx, inputs.cluster.config);
    // A run may start from the image of the same cluster stored by an earlier run of the same seed.
    const image = options.bootstrapped;
    if (image && image.cluster === inputs.cluster && image.seed === (options.seed ?? 1)) startFrom(image, this.store, this.rng, this.sources);
    else bootstrapCluster(inputs.cluster, this.store, this.clock, this.rng, this.sources);
    this.api = new ApiServer(this.ctx);
    const components = startComponents(this.ctx, this.api, inputs.cluster.config);
    this.kubelets = components.kubelets;
    this.kubeProxy = components.kubeProxy;
    this.kubeletDown = kubeletTaskDown(inputs.behavior, this.kubelets);
    const informers = (this.informers = startInformers(this.ctx, components, options, () => this.now));
    this.store.watch((type, obj, old) => {
      if (obj.kind === 'Pod' && type === 'ADDED' && this.applied.size > 0 && isWorkloadPod(this.store, this.applied, obj as Pod)) {
        this.workloadPodUids.add(obj.metadata?.uid ?? '');
      }
      if (obj.kind === 'Job' && type === 'MODIFIED') noteFinishedJob(this.finishedJobs, obj);
      if (informers) informers.onChange(type, obj, old);
      else deliver(components, type, obj, old);
    });
    this.credentials = credentialsFor(inputs.identity);
    this.stages = new RunStages({
      options, clock: this.clock, queue: this.queue, store: this.store, behavior: inputs.behavior, applied: this.applied, rejection: () => this.rejection,
      kubectlPending: () => this.kubectl.pending, kubeProxy: this.kubeProxy, controllersSettling: () => components.controllers.settling, controllersAtWork: () => components.controllers.atWork, kubelets: this.kubelets, deletes: this.deletes, informers,
      finishedJobs: this.finishedJobs, workloadPodUids: this.workloadPodUids, pods: () => this.pods(),
    });
    // The manifest's documents are known by kubectl's reference before the server stores them.
    this.sources.addManifest(inputs.manifest);
    components.controllers.resync();
    this.warmUp();
    informers?.start();
    if (options.live) this.expireEvents(options.eventTtlSeconds ?? 0);
    // A run too big to hold its trace hands it on as it goes (the warm-up's entries are not part of it).
    if (options.traceSink) this.recorder.spillTo(options.traceSink);
    // Stepping back reads the store as it was after any entry: from here on, every write is kept.
    if (options.snapshots) this.store.keepHistory();
    this.kubectl = new RunKubectl({
      api: this.api, ctx: this.ctx, credentials: this.credentials, inputs, options, sources: this.sources, applied: this.applied,
      output: this.kubectlOutput, log: this.kubectlLog, commands: this.commands, now: () => this.now, refused: (r) => void (this.rejection ??= r),
    });
    this.kubectl.schedule((at, label, task) => this.queue.push(at, label, task), this.clock.now);
    // The node lifecycle controller watches the nodes whose kubelet the Behavior stops.
    for (const name of this.kubelets.keys()) watchNode(this.ctx, name, (node) => components.taintEviction.onNodeTainted(node));
  }

  /** origin is the virtual time kubectl starts at: after the cluster's own workloads are brought up. */
  private origin = 0;
  private warming = false;

  /**
   * warmUp brings the cluster file's workloads to their steady state before kubectl acts, as a real cluster has
   * long been running them: the controllers sync what they found (a Deployment alone gets its ReplicaSet and pods;
   * a `kubectl get -o yaml` dump that holds them already needs nothing), the pods are scheduled and start. None of
   * it is in the trace or the events; the run's time starts once it is done (at most DEFAULT_MAX_MS).
   */
  private warmUp(): void {
    if (!this.queue.peek()) return;
    this.warming = true;
    for (;;) {
      const next = this.queue.peek();
      if (!this.running && next && next.at > this.clock.now && clusterSettled(this.store)) break;
      // step ends the warm-up when no task is left before its time is up (a task part-way stops only at its entries).
      if (!this.step()) break;
    }
    this.warming = false;
    this.recorder.clear();
    this.origin = this.clock.now;
    this.stages.startedAt = this.clock.now;
  }

  /**
   * expireEvents makes the Events expire with their leases (a task when each lease is due) and gives each Event write
   * the store's next revision, as etcd numbers Events and objects alike.
   */
  private expireEvents(ttlSeconds: number): void {
    this.recorder.expireEventsAfter({
      ttlSeconds: Math.max(0, Math.trunc(ttlSeconds)),
      schedule: (delay, run) => this.queue.push(this.clock.now + delay, 'etcd lease expiry', function* () {
        run();
      }),
      revision: () => this.store.nextRevision(),
    });
  }

  /** now is the current virtual time in seconds. */
  get now(): number {
    return (this.clock.now - this.origin) / 1000;
  }

  /** trace is every decision recorded so far. */
  get trace(): readonly TraceEntry[] {
    return this.recorder.trace;
  }

  /** events are the Kubernetes Events recorded so far. */
  get events(): readonly KubeEvent[] {
    return this.recorder.events;
  }

  /** firstDeleteAt is the virtual second the run's first kubectl delete began; undefined before it. */
  get firstDeleteAt(): number | undefined {
    return this.deletes.startedAt === undefined ? undefined : (this.deletes.startedAt - this.origin) / 1000;
  }

  /** furtherKubectl is what each further delete (by its place in `thenDelete`) printed, once it has run. */
  get furtherKubectl(): readonly (string | undefined)[] {
    return this.deletes.furtherKubectl;
  }

  /** finished tells whether the run has ended. */
  get finished(): boolean {
    return this.stages.stage === 'done';
  }

  /** step runs until the next trace entry and returns it; undefined once the run has ended. */
  step(): TraceEntry | undefined {
    // The rest of a batch comes before the task runs on, as its entries would have come one by one.
    if (this.batch !== undefined) return this.recordNext(this.batch);
    while (this.stages.stage !== 'done') {
      if (!this.running) {
        if (!this.warming) {
          if (this.stages.stage === 'delete') this.deletes.queueFurther();
          this.stages.advance();
        }
        if (this.finished) return undefined;
        // A live cluster runs what is due by its horizon and then waits for time to pass (advanceTo).
        if (this.options.live && !this.warming && (this.queue.peek()?.at ?? Infinity) > this.horizon) {
          this.clock.now = Math.max(this.clock.now, this.horizon);
          return undefined;
        }
        // The warm-up starts no task past its time: a cluster's workload that never settles (no node for its pods) is
        // left where it stands, not retried to the step budget.
        if (this.warming && !((this.queue.peek()?.at ?? Infinity) <= DEFAULT_MAX_MS)) return undefined;
        // A watch that reaches its timeoutSeconds before the next task ends then, and its reflector watches again.
        const rewatch = this.warming ? undefined : this.informers?.rewatchDue(Math.min(this.queue.peek()?.at ?? -Infinity, this.options.live ? this.horizon : Infinity));
        if (rewatch) {
          this.clock.now = Math.max(this.clock.now, rewatch.at);
          this.running = { gen: rewatch.steps, label: 'informers: rewatch' };
          continue;
        }
        const task = this.queue.pop();
        if (!task) continue;
        this.clock.now = Math.max(this.clock.now, task.at);
        // A stopped kubelet does nothing more: its syncs, probes and kills are dropped where they stand.
        if (this.kubeletDown(task.label)) continue;
        this.running = { gen: this.informers ? this.informers.wrap(task.task()) : task.task(), label: task.label };
      }
      let r: IteratorResult<StepYield, void>;
      try {
        r = this.running.gen.next();
      } catch (err) {
        // A fault in one task must not end the run: it is recorded where it happened and the task stops.
        const label = this.running.label;
        this.running = undefined;
        const last = this.recorder.last;
        return this.recorder.record({
          phase: last?.phase ?? 'kubectl.validate', ...(last?.object ? { object: last.object } : {}),
          result: `internal error in ${label}: ${(err as Error)?.message ?? String(err)}`, detail: { task: label, stack: String((err as Error)?.stack ?? '') }, outcome: 'failed',
        });
      }
      if (r.done) {
        this.running = undefined;
        continue;
      }
      if (isSleep(r.value)) {
        const gen = this.running.gen;
        this.queue.push(this.clock.now + r.value.sleep, this.running.label, () => gen);
        this.running = undefined;
        continue;
      }
      if (!isBatch(r.value)) return this.recordOne(r.value);
      if (r.value.length === 0) continue;
      return this.recordNext({ entries: r.value, next: 0 });
    }
    return undefined;
  }

  /** batch is what is left to record of the entries a task yielded at once (Batch). */
  private batch: { entries: Batch; next: number } | undefined;

  /** recordNext records a batch's next entry; the batch is done with after its last. */
  private recordNext(batch: { entries: Batch; next: number }): TraceEntry {
    const input = batch.entries[batch.next++]!;
    this.batch = batch.next < batch.entries.length ? batch : undefined;
    return this.recordOne(input);
  }

  /** recordOne records a trace entry, keeps the store's mark for stepping back and checks the budget. */
  private recordOne(input: TraceInput): TraceEntry {
    const entry = this.recorder.record(input);
    if (this.options.snapshots) this.marks[entry.seq] = this.store.mark();
    this.checkBudget(entry.seq + 1);
    return entry;
  }

  /** horizon is how far a live cluster's virtual time may go (advanceTo); a run that is not live ignores it. */
  private horizon = 0;

  /** advanceTo lets a live cluster's virtual time run to `at` (virtual milliseconds): step then runs what is due by then. */
  advanceTo(at: Millis): void {
    this.horizon = Math.max(this.horizon, at);
  }

  /** nextDue is the virtual time of the next task, if one is queued. */
  get nextDue(): Millis | undefined {
    return this.queue.peek()?.at;
  }

  /** submit queues a task now: a live cluster's client request, run in turn with what else is due. */
  submit(label: string, task: Task): void {
    this.queue.push(this.clock.now, label, task);
  }

  /** virtualNow is the current virtual time in milliseconds (clock.now): a live cluster's front maps it to the wall clock. */
  get virtualNow(): Millis {
    return this.clock.now;
  }

  /** runUntil steps until `stop` accepts an entry (returned) or the run ends (undefined). */
  runUntil(stop: (entry: TraceEntry) => boolean): TraceEntry | undefined {
    for (let e = this.step(); e; e = this.step()) if (stop(e)) return e;
    return undefined;
  }

  /** run goes to the end and returns the result. */
  run(): SimulationResult {
    while (this.step());
    this.recorder.drain();
    return this.result();
  }

  /** snapshot returns the stored objects right after trace entry `seq` (snapshots on), or now. */
  snapshot(seq?: number): KubeObject[] {
    if (seq === undefined) return [...this.store.snapshot().objects.values()];
    const mark = this.marks[seq];
    return mark === undefined ? [] : [...this.store.snapshotAt(mark).objects.values()];
  }

  /** workloadPods are the pods the manifest made, directly or through its controllers. */
  pods(): Pod[] {
    return workloadPods(this.store, [...this.applied.values()]);
  }

  /** sourceOf finds the manifest document an object came from: its own, or its owner's pod template. */
  sourceOf(ref: string): { doc: SourceDocument; prefix: string } | undefined {
    return this.sources.documentOf(ref, this.store);
  }

  /** result is the run's report as it stands. */
  result(): SimulationResult {
    const deleting = this.options.delete !== undefined && this.stages.stage !== 'create';
    const applied = [...this.applied.values()];
    const dryRun = this.inputs.kubectl && 'command' in this.inputs.kubectl && this.inputs.kubectl.command.dryRun !== 'none';
    // A dry run stores nothing, so nothing runs: its outcome says so rather than judging an absent workload.
    const outcome = dryRun && !this.rejection ? 'DryRun' : computeOutcome(this.store, applied, this.rejection, deleting, this.stages.orphaning ? new Set() : this.workloadPodUids, this.stages.orphaning, this.finishedJobs, this.options.allowUnsimulated);
    const workloads = workloadOutcomes(this.store, applied, this.rejection, deleting, this.finishedJobs);
    return {
      outcome, ...(this.rejection ? { rejection: this.rejection } : {}),
      kubectl: this.kubectlOutput.join('\n'),
      ...(this.kubectlLog.length ? { kubectlLog: [...this.kubectlLog] } : {}),
      ...(this.commands.length ? { commands: this.commands.map((c) => ({ ...c })) } : {}),
      // One workload that ran speaks by the outcome alone.
      ...(workloads.length > 1 || workloads.some((w) => w.note) ? { workloads } : {}),
      ...(this.stopped ?? this.stages.timeStop ? { stopped: (this.stopped ?? this.stages.timeStop)! } : {}),
      objects: this.store.all(),
      events: this.recorder.events.map(({ host: _h, count, ...e }) => ({ ...e, ...(count > 1 ? { count } : {}) })),
      trace: this.recorder.trace,
    };
  }

  /** stopped is the budget the run stopped at, if it did. */
  private stopped: BudgetStop | undefined;

  /** checkBudget ends the run once it has taken its budget of steps or the store its budget of objects. */
  private checkBudget(steps: number): void {
    const stop = budgetStop(this.options, steps, this.store.size);
    if (!stop) return;
    this.stopped = stop;
    this.running = undefined;
    this.batch = undefined;
    this.stages.stage = 'done';
  }
}
