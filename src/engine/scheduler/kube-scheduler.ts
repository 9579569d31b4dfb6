// kube-scheduler as a component: its configuration's profiles, the scheduling queue and cache fed by watch events, and
// the loop that pops a pod, runs its scheduling cycle, then binds it (or records the failure and requeues it).
// See pkg/scheduler/scheduler.go, schedule_one.go (ScheduleOne, handleSchedulingFailure, bindingCycle) and eventhandlers.go.
import type { KubeObject, Pod, PodCondition } from '../api/types';
import { deepFreeze, refOf } from '../api/types';
import { ApiServer } from '../apiserver/server';
import type { SourceDocument } from '../cluster/inputs';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext, Task } from '../context';
import type { ScheduledTask } from '../runtime/clock';
import type { TraceInput } from '../runtime/recorder';
import type { PhaseName } from '../runtime/phases';
import type { Steps } from '../runtime/step';
import { loadSchedulerConfiguration, type SchedulerConfiguration } from './config';
import { CycleState } from './framework/cycle-state';
import { Framework } from './framework/framework';
import type { ObjectWrite } from './framework/interfaces';
import { DEFAULT_SCHEDULER_NAME } from './framework/profile';
import { bindingCycle, reserveAndPermit, scheduleCycle, ScheduleOutcome, unreserve, type BindingHost, type ScheduleResult } from './framework/runner';
import { isRejected, type Status } from './framework/status';
import { addPluginStatus, newDiagnosis, type FitError } from './framework/diagnosis';
import { EventReason, fitErrorMessage, PodScheduledReason, scheduledMessage, truncateMessage } from './messages';
import { IN_TREE_REGISTRY } from './plugins/registry';
import { Events } from './queue/events';
import { handleWatchEvent } from './queue/event-handlers';
import { queueProfileOf } from './queue/hints';
import { PreemptionExecutor, type Victim } from './queue/preemption';
import { SchedulerCache } from './queue/scheduler-cache';
import { schedulerNameOf, type QueuedPodInfo, type QueueMove } from './queue/queue-types';
import { SchedulingQueue } from './queue/scheduling-queue';
import { moveEntry, notMineEntry } from './queue/trace';
import { STATUS_MANAGERS, updateStatus } from '../apiserver/status-write';
import { ClientLimiter } from '../runtime/client-rate-limit';
import { podPath } from '../cluster/storage-keys';

/** CLIENT_NAME is the name the scheduler's client goes by (its user agent's program, as its waits are told). */
const CLIENT_NAME = 'kube-scheduler';

/** DEFAULT_SCHEDULER_NAME is the schedulerName of the default profile (re-exported where it always was). */
export { DEFAULT_SCHEDULER_NAME };

/** KubeScheduler watches the cluster, keeps its queue and cache, and schedules the pods its profiles answer to. */
export class KubeScheduler {
  readonly configuration: SchedulerConfiguration;
  readonly frameworks = new Map<string, Framework>();
  readonly cache = new SchedulerCache();
  readonly queue: SchedulingQueue;
  private readonly preemption: PreemptionExecutor;
  private readonly pending: TraceInput[] = [];
  private loopTask: ScheduledTask<Task> | undefined;
  private readonly timers: Partial<Record<'backoff' | 'leftover', ScheduledTask<Task>>> = {};
  private nextStartNodeIndex = 0;
  /** committed are the pods taken from the queue, in the order taken, each with its trace entry of the pop. */
  private readonly committed: { pInfo: QueuedPodInfo; popped: QueueMove[] }[] = [];
  /** busy is true while a scheduling cycle runs: the scheduler takes no other pod meanwhile. */
  private busy = false;
  /** client is the rate limiter of the scheduler's clientset (clientConnection's qps and burst): its bindings wait for it. */
  private readonly client: ClientLimiter;

  /** The constructor reads the KubeSchedulerConfiguration (InputError when it is bad) and lists what the store holds. */
  constructor(private readonly ctx: EngineContext, readonly config: SourceDocument[]) {
    this.configuration = configurationOf(config);
    this.client = new ClientLimiter(() => ctx.clock.now, { ...this.configuration.clientConnection, flags: 'clientConnection.qps, clientConnection.burst' });
    for (const profile of this.configuration.profiles) this.frameworks.set(profile.schedulerName, new Framework(IN_TREE_REGISTRY, profile));
    const first = [...this.frameworks.values()][0]!;
    // The queue's nominator, as the frameworks (WithPodNominator) and the preemption executor read it.
    const nominatedPods = (nodeName: string): readonly Pod[] => this.queue.nominatedPodsForNode(nodeName);
    this.preemption = new PreemptionExecutor(ctx, new ApiServer(ctx), {
      send: (verb, path, ref) => this.client.wait(CLIENT_NAME, 'scheduler.postFilter', ref, verb, path),
      nominatedPods,
      parallelism: this.configuration.parallelism,
    });
    this.queue = new SchedulingQueue({
      now: () => ctx.clock.now,
      less: (a, b) => first.queueSortPlugins[0]!.less(a, b),
      profiles: [...this.frameworks.values()].map(queueProfileOf),
      podInitialBackoff: this.configuration.podInitialBackoffSeconds * 1000,
      podMaxBackoff: this.configuration.podMaxBackoffSeconds * 1000,
      extraGate: (pod) => this.preemption.gate(pod, this.frameworks.get(schedulerNameOf(pod))),
      lister: (namespace, name) => ctx.store.get<Pod>('Pod', namespace, name),
    });
    for (const fw of this.frameworks.values()) fw.nominatedPods = nominatedPods;
    // The informers' first list: what the cluster already holds arrives as additions.
    for (const node of ctx.store.list<KubeObject>('Node')) this.onChange('ADDED', node);
    for (const pod of ctx.store.list<KubeObject>('Pod')) this.onChange('ADDED', pod);
  }

  /** onChange is the watch handler: cache and queue follow the event, then the loop and the flush timers are armed. */
  onChange(type: WatchEventType, obj: KubeObject, old?: KubeObject): void {
    handleWatchEvent({
      cache: this.cache, queue: this.queue,
      handles: (name) => this.frameworks.has(name),
      ignored: (pod) => this.pending.push(notMineEntry(pod, [...this.frameworks.keys()])),
    }, type, obj, old);
    this.wake();
  }

  /**
   * wake lets an idle scheduler take the head of the queue at once, schedules the loop when a pod or a move waits, and
   * sets the two flush timers to their next tick. Why pop here: kube-scheduler blocks in Pop and takes a pod the moment
   * it arrives; its cycles cost no virtual time, so pods created one after the other are taken in that order, and
   * QueueSort decides only among pods that wait together.
   */
  private wake(): void {
    if (!this.busy && this.queue.hasPoppable()) {
      const pInfo = this.queue.pop()!;
      this.committed.push({ pInfo, popped: this.queue.moves.splice(this.queue.moves.length - 1, 1) });
    }
    if (!this.loopTask && (this.committed.length > 0 || this.queue.moves.length > 0 || this.pending.length > 0)) {
      this.loopTask = this.ctx.schedule(0, 'kube-scheduler', () => this.loop());
    }
    this.arm('backoff', this.queue.nextBackoffFlush(), () => this.queue.flushBackoffQCompleted());
    this.arm('leftover', this.queue.nextLeftoverFlush(), () => this.queue.flushUnschedulablePodsLeftover());
  }

  private arm(which: 'backoff' | 'leftover', at: number | undefined, flush: () => void): void {
    const timer = this.timers[which];
    if (timer && !timer.cancelled && timer.at === at) return;
    if (timer) timer.cancelled = true;
    delete this.timers[which];
    if (at === undefined) return;
    const label = which === 'backoff' ? 'kube-scheduler: flushBackoffQCompleted' : 'kube-scheduler: flushUnschedulablePodsLeftover';
    const self = this;
    this.timers[which] = this.ctx.schedule(Math.max(0, at - this.ctx.clock.now), label, function* () {
      delete self.timers[which];
      flush();
      self.wake();
    });
  }

  /** loop is one turn of scheduleOne: trace the queue's moves, then the cycle of the pod taken first; then wake for the next. */
  private *loop(): Steps<void> {
    this.loopTask = undefined;
    yield* this.drain();
    const next = this.committed.shift();
    if (next) {
      for (const m of next.popped) yield moveEntry(m, this.ctx.clock.now);
      this.busy = true;
      try {
        yield* this.scheduleOne(next.pInfo);
      } finally {
        this.busy = false;
      }
    }
    yield* this.drain();
    this.wake();
  }

  private *drain(): Steps<void> {
    while (this.pending.length > 0) yield this.pending.shift()!;
    const moves = this.queue.moves.splice(0);
    for (const m of moves) yield moveEntry(m, this.ctx.clock.now);
  }

  /** scheduleOne runs one pod's scheduling cycle; success assumes it, runs Reserve and Permit and starts its binding. */
  private *scheduleOne(pInfo: QueuedPodInfo): Steps<void> {
    const ctx = this.ctx;
    // Why: the pod was taken when it arrived; what the cycle sees is the pod as it is now (gone or bound: nothing to do).
    const current = ctx.store.get<Pod>('Pod', pInfo.pod.metadata?.namespace, pInfo.pod.metadata?.name ?? '');
    if (!current || current.spec?.nodeName) return this.queue.done(pInfo.pod);
    const pod = (pInfo.pod = current);
    const ref = refOf({ ...pod, kind: 'Pod' });
    const fw = this.frameworks.get(schedulerNameOf(pod))!;
    if (pod.metadata?.deletionTimestamp) {
      this.event(fw, ref, 'Warning', EventReason.FailedScheduling, `skip schedule deleting pod: ${pod.metadata.namespace}/${pod.metadata.name}`);
      return this.queue.done(pod);
    }
    if (this.cache.isAssumed(pod)) return this.queue.done(pod);
    const state = new CycleState();
    const result = yield* scheduleCycle({
      pod, snapshot: this.cache.snapshot(), random: ctx.rng, nextStartNodeIndex: this.nextStartNodeIndex, framework: fw,
      percentageOfNodesToScore: this.configuration.percentageOfNodesToScore, listers: ctx.store, state,
      ...(ctx.tableLimit !== undefined ? { tableLimit: ctx.tableLimit } : {}),
      ...(ctx.recorder.isQuiet(ref) ? { quiet: true } : {}),
    });
    this.nextStartNodeIndex = result.nextStartNodeIndex;
    if (result.outcome !== ScheduleOutcome.Scheduled || !result.suggestedHost) {
      // Why: only a PostFilter result nominates (or clears); no PostFilter, or an error, clears the nomination.
      // PostFilter starts the preemption's goroutine (prepareCandidateAsync) before the failure is handled.
      const victims = result.postFilterDetail?.['victims'];
      if (result.nominatedNodeName && Array.isArray(victims) && victims.length > 0) this.preemption.start(fw, pod, result.nominatedNodeName, victims as Victim[], ref);
      const postFiltered = result.fitError !== undefined && fw.postFilterPlugins.length > 0;
      return yield* this.failed(fw, pInfo, result, postFiltered ? result.nominatedNodeName : '', postFiltered ? 'scheduler.postFilter' : 'scheduler.filter');
    }
    const host = result.suggestedHost;
    // The scheduler deep-copies the pod it assumes (podInfo.DeepCopy); the stored pod is frozen, so the copy shares
    // every part but the spec it changes.
    const assumed: Pod = { ...pod, spec: { ...pod.spec!, nodeName: host } };
    this.cache.assumePod(assumed);
    this.queue.deleteNominatedPodIfExists(assumed);
    yield this.bindSummary(fw, assumed, ref, host);
    const { status, wait } = yield* reserveAndPermit(fw, state, assumed, ref, host);
    if (status) {
      this.cache.forgetPod(assumed);
      return yield* this.failed(fw, pInfo, failureOn(pod, host, status), '', 'scheduler.bind');
    }
    ctx.schedule(0, `kube-scheduler: bind ${ref}`, () => this.bindingTask(fw, state, pInfo, assumed, ref, host, wait));
  }

  /** bindSummary is the phase-level scheduler.bind entry: the assumed node and the plugins the binding will run. */
  private bindSummary(fw: Framework, pod: Pod, ref: string, host: string): TraceInput {
    const name = pod.metadata?.name ?? '';
    const ns = pod.metadata?.namespace ?? 'default';
    const binder = fw.bindPlugins[0]?.name ?? '';
    const names = (list: readonly { name: string }[]): string[] => list.map((p) => p.name);
    return {
      phase: 'scheduler.bind', object: ref, field: 'spec.nodeName',
      result: `${binder}: assume ${name} on ${host}, then POST pods/${name}/binding to ${host}`,
      detail: {
        node: host,
        plugins: { Reserve: names(fw.reservePlugins), Permit: names(fw.permitPlugins), PreBind: names(fw.preBindPlugins), Bind: names(fw.bindPlugins), PostBind: names(fw.postBindPlugins) },
        binding: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: ns }, target: { apiVersion: 'v1', kind: 'Node', name: host } },
      },
    };
  }

  /** bindingTask is the binding goroutine: bindingCycle, and handleBindingCycleError when it fails. */
  private *bindingTask(fw: Framework, state: CycleState, pInfo: QueuedPodInfo, assumed: Pod, ref: string, host: string, wait?: { seconds: number; plugin: string }): Steps<void> {
    const status = yield* bindingCycle({ fw, state, pod: assumed, ref, nodeName: host, host: this.bindingHost(fw, ref), ...(wait ? { permitWait: wait } : {}) });
    if (status === null) return this.wake();
    yield* unreserve(fw, state, assumed, ref, host);
    this.cache.forgetPod(assumed);
    // Why: the forgotten pod freed what it held, like a deleted assigned pod; a rejected pod itself is not moved by it.
    const others = isRejected(status) ? (p: Pod): boolean => p.metadata?.uid !== assumed.metadata?.uid : undefined;
    this.queue.moveAllToActiveOrBackoffQueue(Events.AssignedPodDelete, assumed as KubeObject, undefined, others);
    yield* this.failed(fw, pInfo, failureOn(pInfo.pod, host, status), '', 'scheduler.bind');
    yield* this.drain();
    this.wake();
  }

  private bindingHost(fw: Framework, ref: string): BindingHost {
    const store = this.ctx.store;
    return {
      nominate: (pod, node) => void store.replace<Pod>('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '', (p) => ({ status: { ...p.status, nominatedNodeName: node } })),
      done: (pod) => this.queue.done(pod),
      send: (verb, path) => this.client.wait(CLIENT_NAME, 'scheduler.bind', ref, verb, path),
      write: (w: ObjectWrite) => {
        const { kind, metadata } = w.object;
        if (w.subresource === 'status') store.replace<KubeObject>(String(kind), metadata?.namespace, metadata?.name ?? '', () => ({ status: w.object['status'] }));
        else store.put(w.object);
      },
      bind: (pod, node) => {
        // The binding subresource clears the nomination (ClearingNominatedNodeNameAfterBinding, on in 1.36:
        // pkg/registry/core/pod/storage/storage.go setPodNodeAndMetadata, v1.36.3).
        const bound = store.replace<Pod>('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '', (p) => {
          const { nominatedNodeName: _cleared, ...status } = p.status ?? {};
          return {
            spec: { ...p.spec!, nodeName: node },
            status: { ...status, conditions: upsertCondition(p.status?.conditions ?? [], { type: 'PodScheduled', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: this.ctx.clock.timestamp() }) },
          };
        });
        if (!bound) return `pods "${pod.metadata?.name ?? ''}" not found`;
        // See schedule_one.go (finishBinding): "Successfully assigned %v/%v to %v".
        this.event(fw, ref, 'Normal', EventReason.Scheduled, scheduledMessage(pod, node));
        return undefined;
      },
    };
  }

  /**
   * failed is handleSchedulingFailure: the rejecting plugins go with the pod back to the queue, a FailedScheduling event
   * is recorded every time, and the PodScheduled condition (and nominatedNodeName) is written when it changes: a PATCH
   * that waits for the scheduler's client (updatePod in schedule_one.go, v1.36.3, with SchedulerAsyncAPICalls off as
   * by default), so that the goroutine it runs in (the scheduling loop's, or a binding's) waits with it.
   */
  private *failed(fw: Framework, pInfo: QueuedPodInfo, result: Failure, nominatedNodeName: string | undefined, phase: PhaseName): Steps<void> {
    const ctx = this.ctx;
    const pod = pInfo.pod;
    const ns = pod.metadata?.namespace;
    const name = pod.metadata?.name ?? '';
    const d = result.fitError?.diagnosis;
    if (d) {
      pInfo.unschedulablePlugins = new Set(d.unschedulablePlugins);
      pInfo.pendingPlugins = new Set(d.pendingPlugins);
    }
    const cached = ctx.store.get<Pod>('Pod', ns, name);
    if (!cached || cached.spec?.nodeName) this.queue.done(pod);
    else this.queue.addUnschedulableIfNotPresent(pInfo, cached);
    // PostFilter's nomination (or its clearing) goes to the nominator; none leaves the pod's own status to say.
    this.queue.addNominatedPod(cached ?? pod, nominatedNodeName === undefined ? undefined : { mode: 'override', nodeName: nominatedNodeName });
    const message = result.message ?? '';
    const ref = refOf({ ...pod, kind: 'Pod' });
    this.event(fw, ref, 'Warning', EventReason.FailedScheduling, truncateMessage(message));
    if (!cached) return;
    const condition: PodCondition = { type: 'PodScheduled', status: 'False', lastProbeTime: null as unknown as string, lastTransitionTime: ctx.clock.timestamp(), reason: result.reason ?? PodScheduledReason.Unschedulable, message };
    const old = cached.status?.conditions?.find((c) => c.type === 'PodScheduled');
    const conditionChanged = !old || old.status !== 'False' || old.reason !== condition.reason || old.message !== message;
    const nnnChanged = nominatedNodeName !== undefined && (cached.status?.nominatedNodeName ?? '') !== nominatedNodeName;
    if (!conditionChanged && !nnnChanged) return;
    // The patch is made before the request waits (podutil.UpdatePodCondition stamps the transition then), sent after.
    yield* this.client.wait(CLIENT_NAME, phase, ref, 'PATCH', podPath(ns, name, 'status'));
    updateStatus<Pod>(ctx, STATUS_MANAGERS.scheduler, 'Pod', ns, name, (p) => {
      const conditions = conditionChanged ? upsertCondition(p.status?.conditions ?? [], old?.status === 'False' ? { ...condition, lastTransitionTime: old.lastTransitionTime } : condition) : p.status?.conditions;
      p.status = { ...p.status, ...(conditions ? { conditions } : {}) };
      if (nnnChanged) {
        if (nominatedNodeName) p.status.nominatedNodeName = nominatedNodeName;
        else delete p.status.nominatedNodeName;
      }
    });
  }

  /** event records an event whose source is the profile's scheduler name, as each profile's recorder does. */
  private event(fw: Framework, ref: string, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.ctx.recorder.event({ type, reason, object: ref, source: fw.profile.schedulerName, message }, 'events.k8s.io');
  }
}

/** Failure is what handleSchedulingFailure needs of a failed attempt: the condition reason, the message, the FitError. */
type Failure = Pick<ScheduleResult, 'reason' | 'message' | 'fitError'>;

/**
 * failureOn is the failure of a pod rejected on its chosen node after filtering (Reserve, Permit, the Permit wait): a
 * FitError over that one node, as schedule_one.go builds it; any other failure is a scheduler error with its message.
 */
function failureOn(pod: Pod, host: string, status: Status): Failure {
  if (!isRejected(status)) return { reason: PodScheduledReason.SchedulerError, message: status.message() };
  const diagnosis = newDiagnosis();
  diagnosis.nodeToStatus.set(host, status);
  addPluginStatus(diagnosis, status);
  const fitError: FitError = { pod, numAllNodes: 1, diagnosis };
  return { reason: PodScheduledReason.Unschedulable, message: fitErrorMessage(fitError), fitError };
}

function upsertCondition(conditions: readonly PodCondition[], condition: PodCondition): PodCondition[] {
  const i = conditions.findIndex((c) => c.type === condition.type);
  return i < 0 ? [...conditions, condition] : conditions.map((c, j) => (j === i ? condition : c));
}

/** CONFIGURATIONS are the configurations read, by the cluster's config documents: runs of one cluster read it once. */
const CONFIGURATIONS = new WeakMap<readonly SourceDocument[], SchedulerConfiguration>();

/** configurationOf reads the cluster's KubeSchedulerConfiguration, once for a given list of documents. */
function configurationOf(config: readonly SourceDocument[]): SchedulerConfiguration {
  let read = CONFIGURATIONS.get(config);
  if (!read) {
    // Frozen: every run of the cluster shares it.
    read = deepFreeze(loadSchedulerConfiguration(config, IN_TREE_REGISTRY));
    CONFIGURATIONS.set(config, read);
  }
  return read;
}
