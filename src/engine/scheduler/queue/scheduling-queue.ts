// The scheduling queue: activeQ (next to schedule, in QueueSort order), backoffQ (waiting out a backoff) and
// unschedulablePods (waiting for a cluster event that may help, or the 5-minute flush), with PreEnqueue gates and hints.
// See pkg/scheduler/backend/queue/scheduling_queue.go, active_queue.go, backoff_queue.go (1.36: QueueingHints GA,
// SchedulerPopFromBackoffQ on).
import { podKey, refOf, type KubeObject, type Pod } from '../../api/types';
import type { Millis } from '../../runtime/clock';
import type { ClusterEventWithHint, PreEnqueuePlugin } from '../framework/interfaces';
import { backoffCompletesAt, backoffExpiration, isBackingOff, POD_MAX_IN_UNSCHEDULABLE_PODS, UNSCHEDULABLE_FLUSH_PERIOD } from './backoff';
import { ActionType, Events, eventLabel, isWildCard, matchAnyClusterEvent, matchClusterEvents, QueueLabel, type ClusterEvent } from './events';
import { InFlight } from './in-flight';
import { type NominatedRef, type NominatingInfo, Nominator } from './nominator';
import { UnschedulablePods } from './unschedulable-pods';
import { KeyedHeap } from './heap';
import { schedulerNameOf, type QueuedPodInfo, type QueueMove, type QueueName, type QueueOptions } from './queue-types';

/** ADD_LABEL and UPDATE_LABEL are an unscheduled pod's add and update: entering activeQ on one, it is nominated by its own status. */
const ADD_LABEL = eventLabel(Events.UnscheduledPodAdd);
const UPDATE_LABEL = eventLabel(Events.UnscheduledPodUpdate);

const NO_PODS: readonly Pod[] = Object.freeze([]);

type Strategy = 'skip' | 'afterBackoff' | 'immediately';
interface Registration { plugin: string; event: ClusterEvent; hint?: ClusterEventWithHint['hint'] }
interface SeenEvent { event: ClusterEvent; oldObj: KubeObject | undefined; newObj: KubeObject | undefined }

/** SchedulingQueue is the PriorityQueue of kube-scheduler. Every move is logged in `moves` for the trace. */
export class SchedulingQueue {
  readonly moves: QueueMove[] = [];
  private readonly activeQ: KeyedHeap<QueuedPodInfo>;
  private readonly backoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly errorBackoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly unschedulable = new UnschedulablePods<QueuedPodInfo>();
  private readonly inFlight = new InFlight<SeenEvent>();
  private readonly registrations = new Map<string, Registration[]>();
  private readonly preEnqueue = new Map<string, readonly PreEnqueuePlugin[]>();
  private cause: string | undefined;
  /** nominator keeps the pods nominated to each node (PriorityQueue's PodNominator). */
  private readonly nominator: Nominator;

  constructor(private readonly opts: QueueOptions) {
    this.nominator = new Nominator(opts.lister);
    const key = (p: QueuedPodInfo): string => p.key;
    this.activeQ = new KeyedHeap(key, opts.less);
    const expiry = (p: QueuedPodInfo): number => this.expiration(p) ?? -Infinity;
    // Why: with SchedulerPopFromBackoffQ, pods of the same window are ordered as activeQ would order them.
    this.backoffQ = new KeyedHeap(key, (a, b) => (expiry(a) !== expiry(b) ? expiry(a) < expiry(b) : opts.less(a, b)));
    this.errorBackoffQ = new KeyedHeap(key, (a, b) => expiry(a) < expiry(b));
    for (const p of opts.profiles) {
      this.preEnqueue.set(p.schedulerName, p.preEnqueuePlugins);
      this.registrations.set(p.schedulerName, p.enqueueExtensions.flatMap((x) => x.events.map((e) => ({ plugin: x.plugin, event: e.event, hint: e.hint }))));
    }
  }

  /** where tells which queue holds a pod, if any. */
  where(pod: Pod): QueueName | undefined {
    const key = podKey(pod);
    if (this.activeQ.has(key)) return 'activeQ';
    if (this.backoffQ.has(key) || this.errorBackoffQ.has(key)) return 'backoffQ';
    return this.unschedulable.has(key) ? 'unschedulablePods' : undefined;
  }

  /** hasPoppable tells whether pop would return a pod: activeQ, or backoffQ when activeQ is empty. */
  hasPoppable(): boolean {
    return this.activeQ.len > 0 || this.backoffQ.len > 0;
  }

  /** add enqueues a new unscheduled pod (Add). */
  add(pod: Pod): void {
    this.moveToActiveQ(this.newInfo(pod), ADD_LABEL, false);
  }

  /** pop takes the head of activeQ or, when it is empty, of backoffQ (PopFromBackoffQ); the pod is then in flight. */
  pop(): QueuedPodInfo | undefined {
    let p = this.activeQ.pop();
    let event = '';
    if (!p) {
      p = this.backoffQ.pop();
      event = QueueLabel.PopFromBackoffQ;
    }
    if (!p) return undefined;
    p.attempts++;
    p.unschedulablePlugins.clear();
    p.pendingPlugins.clear();
    this.inFlight.start(p.key);
    this.log(p, 'popped', event);
    return p;
  }

  /** done ends a pod's flight: events seen since it was popped are forgotten. */
  done(pod: Pod): void {
    this.inFlight.done(podKey(pod));
  }

  /**
   * addUnschedulableIfNotPresent takes back a pod whose attempt failed: with rejecting plugins it counts as unschedulable,
   * else as an error; events seen in flight may send it straight to backoffQ or activeQ (AddUnschedulableIfNotPresent).
   */
  addUnschedulableIfNotPresent(p: QueuedPodInfo, pod: Pod): void {
    p.pod = pod;
    const seen = this.inFlight.seen(p.key);
    this.done(pod);
    if (this.where(pod)) return;
    if (p.unschedulablePlugins.size === 0 && p.pendingPlugins.size === 0) p.consecutiveErrorsCount++;
    else {
      p.unschedulableCount++;
      p.consecutiveErrorsCount = 0;
    }
    p.timestamp = this.opts.now();
    let strategy: Strategy = 'skip';
    if (p.unschedulablePlugins.size === 0 && p.pendingPlugins.size === 0) strategy = 'afterBackoff';
    for (const e of seen) {
      const s = this.worthRequeuing(p, e);
      if (s === 'immediately') {
        strategy = s;
        break;
      }
      if (s === 'afterBackoff' && strategy === 'skip') strategy = s;
    }
    this.requeue(p, strategy, QueueLabel.ScheduleAttemptFailure);
  }

  /** update follows a pod's update: in activeQ/backoffQ it is replaced; in unschedulablePods the change may requeue it. */
  update(oldPod: Pod, newPod: Pod, events: readonly ClusterEvent[]): void {
    const key = podKey(newPod);
    if (this.inFlight.has(key)) {
      for (const event of events) this.inFlight.tell(key, { event, oldObj: oldPod as KubeObject, newObj: newPod as KubeObject });
      return;
    }
    for (const heap of [this.activeQ, this.backoffQ, this.errorBackoffQ]) {
      const p = heap.get(key);
      if (p) {
        p.pod = newPod;
        heap.addOrUpdate(p);
        this.nominator.update(oldPod, newPod);
        return;
      }
    }
    const p = this.unschedulable.get(key);
    if (!p) return this.moveToActiveQ(this.newInfo(newPod), UPDATE_LABEL, false);
    p.pod = newPod;
    this.nominator.update(oldPod, newPod);
    this.cause = refOf(newPod);
    for (const event of events) {
      const strategy = this.worthRequeuing(p, { event, oldObj: oldPod as KubeObject, newObj: newPod as KubeObject });
      if (strategy === 'skip') continue;
      this.unschedulable.delete(key);
      if (this.requeue(p, strategy, eventLabel(event)) !== 'unschedulablePods') break;
    }
    this.cause = undefined;
  }

  /** delete forgets a pod wherever it is, and its nomination. */
  delete(pod: Pod): void {
    this.nominator.delete(pod);
    const key = podKey(pod);
    const p = this.activeQ.delete(key) ?? this.backoffQ.delete(key) ?? this.errorBackoffQ.delete(key) ?? this.unschedulable.get(key);
    this.unschedulable.delete(key);
    if (p) this.log(p, 'removed', 'PodDelete');
  }

  /** addNominatedPod nominates a pod whose attempt failed as its PostFilter said (AddNominatedPod). */
  addNominatedPod(pod: Pod, nominating: NominatingInfo): void {
    this.nominator.add(pod, nominating);
  }

  /** deleteNominatedPodIfExists forgets the nomination of a pod the scheduler assumed on a node. */
  deleteNominatedPodIfExists(pod: Pod): void {
    this.nominator.delete(pod);
  }

  /**
   * nominatedPodsForNode lists the pods nominated to a node, each as the queue holds it; one the queue does not hold (in
   * flight) is its name and uid alone, as nominatedPodToInfo makes it.
   */
  nominatedPodsForNode(nodeName: string): readonly Pod[] {
    const refs = this.nominator.podsForNode(nodeName);
    if (refs.length === 0) return NO_PODS;
    return refs.map((ref) => this.queued(ref)?.pod ?? { metadata: { namespace: ref.namespace, name: ref.name, uid: ref.uid } });
  }

  private queued(ref: NominatedRef): QueuedPodInfo | undefined {
    const key = `${ref.namespace}/${ref.name}`;
    return this.activeQ.get(key) ?? this.unschedulable.get(key) ?? this.backoffQ.get(key) ?? this.errorBackoffQ.get(key);
  }

  /** activate moves a pod from backoffQ or unschedulablePods to activeQ (Activate, event ForceActivate). */
  activate(pod: Pod): void {
    const key = podKey(pod);
    const p = this.unschedulable.get(key) ?? this.backoffQ.delete(key) ?? this.errorBackoffQ.delete(key);
    if (!p) {
      this.inFlight.tell(key, { event: Events.ForceActivate, oldObj: undefined, newObj: pod as KubeObject });
      return;
    }
    this.moveToActiveQ(p, QueueLabel.ForceActivate, false);
  }

  /** moveAllToActiveOrBackoffQueue offers an event to every pod in unschedulablePods (MoveAllToActiveOrBackoffQueue). */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent, oldObj?: KubeObject, newObj?: KubeObject, preCheck?: (pod: Pod) => boolean): void {
    if (!this.isEventOfInterest(event)) return;
    const pods = [...this.unschedulable.values()].filter((p) => !preCheck || preCheck(p.pod));
    this.movePods(pods, event, oldObj, newObj);
  }

  /** assignedPodAdded offers a bound pod's arrival to the pods that a pod's labels may help (cross-topology terms). */
  assignedPodAdded(pod: Pod): void {
    this.movePods(this.crossTopology(pod), Events.AssignedPodAdd, undefined, pod as KubeObject);
  }

  /** assignedPodUpdated offers a bound pod's update: to all on a scale-down, else to the cross-topology pods. */
  assignedPodUpdated(oldPod: Pod, newPod: Pod, event: ClusterEvent): void {
    if ((event.actionType & ActionType.UpdatePodScaleDown) !== 0) this.moveAllToActiveOrBackoffQueue(event, oldPod as KubeObject, newPod as KubeObject);
    else this.movePods(this.crossTopology(newPod), event, oldPod as KubeObject, newPod as KubeObject);
  }

  /** flushBackoffQCompleted moves the pods whose backoff is over to activeQ (run at each whole second). */
  flushBackoffQCompleted(): void {
    const now = this.opts.now();
    for (const heap of [this.backoffQ, this.errorBackoffQ]) {
      for (let p = heap.peek(); p && !isBackingOff(this.expiration(p), now); p = heap.peek()) {
        heap.pop();
        this.moveToActiveQ(p, QueueLabel.BackoffComplete, true);
      }
    }
  }

  /** flushUnschedulablePodsLeftover retries the pods that waited in unschedulablePods longer than 5 minutes. */
  flushUnschedulablePodsLeftover(): void {
    const now = this.opts.now();
    const max = this.opts.podMaxInUnschedulablePods ?? POD_MAX_IN_UNSCHEDULABLE_PODS;
    const old = [...this.unschedulable.values()].filter((p) => now - p.timestamp > max);
    if (old.length > 0) this.movePods(old, Events.UnschedulableTimeout, undefined, undefined);
  }

  /** nextBackoffFlush is the whole second at which flushBackoffQCompleted will next move a pod. */
  nextBackoffFlush(): Millis | undefined {
    const now = this.opts.now();
    const heads = [this.backoffQ.peek(), this.errorBackoffQ.peek()].filter((p): p is QueuedPodInfo => p !== undefined);
    if (heads.length === 0) return undefined;
    return heads.reduce((soonest, p) => Math.min(soonest, backoffCompletesAt(this.expiration(p), now)), Infinity);
  }

  /** nextLeftoverFlush is the 30-second tick at which flushUnschedulablePodsLeftover will next move a pod (gated pods stay). */
  nextLeftoverFlush(): Millis | undefined {
    const max = this.opts.podMaxInUnschedulablePods ?? POD_MAX_IN_UNSCHEDULABLE_PODS;
    const oldest = this.unschedulable.oldestUngatedTimestamp();
    if (oldest === undefined) return undefined;
    const due = oldest + max;
    return (Math.floor(due / UNSCHEDULABLE_FLUSH_PERIOD) + 1) * UNSCHEDULABLE_FLUSH_PERIOD;
  }

  /** expiration is a pod's backoff expiry, or undefined when it has none. */
  expiration(p: QueuedPodInfo): Millis | undefined {
    return backoffExpiration(p, this.opts.podInitialBackoff, this.opts.podMaxBackoff);
  }

  private newInfo(pod: Pod): QueuedPodInfo {
    return {
      pod, key: podKey(pod), timestamp: this.opts.now(), attempts: 0, unschedulableCount: 0, consecutiveErrorsCount: 0,
      unschedulablePlugins: new Set(), pendingPlugins: new Set(), gatingPlugin: '', gatingMessage: '',
    };
  }

  /** runPreEnqueuePlugins runs the profile's PreEnqueue plugins, the gating one first; the first refusal gates the pod. */
  private runPreEnqueuePlugins(p: QueuedPodInfo): void {
    const plugins = [...(this.preEnqueue.get(schedulerNameOf(p.pod)) ?? [])];
    plugins.sort((a, b) => Number(b.name === p.gatingPlugin) - Number(a.name === p.gatingPlugin));
    for (const pl of plugins) {
      const status = pl.preEnqueue(p.pod);
      if (status === null || status.code === 'Success') continue;
      return this.gate(p, pl.name, status.message());
    }
    const extra = this.opts.extraGate?.(p.pod);
    if (extra) return this.gate(p, extra.plugin, extra.message);
    p.gatingPlugin = '';
    p.gatingMessage = '';
  }

  private gate(p: QueuedPodInfo, plugin: string, message: string): void {
    p.unschedulablePlugins.add(plugin);
    p.gatingPlugin = plugin;
    p.gatingMessage = message;
  }

  /** moveToActiveQ adds the pod to activeQ unless a PreEnqueue plugin gates it (then unschedulablePods). */
  private moveToActiveQ(p: QueuedPodInfo, event: string, fromBackoffQ: boolean): void {
    // Why: with PopFromBackoffQ, PreEnqueue ran when the pod entered backoffQ; it is not run again on the way out.
    if (!fromBackoffQ) this.runPreEnqueuePlugins(p);
    if (p.gatingPlugin !== '') {
      if (this.where(p.pod)) return;
      this.unschedulable.set(p.key, p);
      this.log(p, 'unschedulablePods', event);
      return;
    }
    p.initialAttemptTimestamp ??= this.opts.now();
    this.unschedulable.delete(p.key);
    this.backoffQ.delete(p.key);
    this.errorBackoffQ.delete(p.key);
    this.activeQ.addOrUpdate(p);
    this.log(p, 'activeQ', event);
    if (event === ADD_LABEL || event === UPDATE_LABEL) this.nominator.add(p.pod, undefined);
  }

  /** moveToBackoffQ adds the pod to backoffQ after its PreEnqueue check; an error-only pod goes to the error backoffQ. */
  private moveToBackoffQ(p: QueuedPodInfo, event: string): boolean {
    this.runPreEnqueuePlugins(p);
    if (p.gatingPlugin !== '') {
      if (!this.unschedulable.has(p.key)) {
        this.unschedulable.set(p.key, p);
        this.log(p, 'unschedulablePods', event);
      }
      return false;
    }
    this.unschedulable.delete(p.key);
    const errorOnly = p.unschedulablePlugins.size === 0 && p.pendingPlugins.size === 0;
    (errorOnly ? this.errorBackoffQ : this.backoffQ).addOrUpdate(p);
    this.log(p, 'backoffQ', event);
    return true;
  }

  /** requeue puts a pod where the strategy says: unschedulablePods, backoffQ while backing off, or activeQ. */
  private requeue(p: QueuedPodInfo, strategy: Strategy, event: string): QueueName {
    if (strategy === 'skip') {
      this.unschedulable.set(p.key, p);
      this.log(p, 'unschedulablePods', event);
      return 'unschedulablePods';
    }
    if (strategy === 'afterBackoff' && isBackingOff(this.expiration(p), this.opts.now())) {
      return this.moveToBackoffQ(p, event) ? 'backoffQ' : 'unschedulablePods';
    }
    this.moveToActiveQ(p, event, false);
    return this.where(p.pod) ?? 'unschedulablePods';
  }

  private movePods(pods: readonly QueuedPodInfo[], event: ClusterEvent, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): void {
    if (!this.isEventOfInterest(event)) return;
    const obj = newObj ?? oldObj;
    this.cause = obj ? refOf(obj) : undefined;
    for (const p of pods) {
      // Why: a gated pod hears only its gating plugin's events; the timeout and activation wildcards do not reach it.
      if (p.gatingPlugin !== '' && !this.gatingPluginHears(p, event)) continue;
      const strategy = this.worthRequeuing(p, { event, oldObj, newObj });
      if (strategy === 'skip') continue;
      this.unschedulable.delete(p.key);
      this.requeue(p, strategy, eventLabel(event));
    }
    this.cause = undefined;
    this.inFlight.broadcast({ event, oldObj, newObj });
  }

  private gatingPluginHears(p: QueuedPodInfo, event: ClusterEvent): boolean {
    const regs = (this.registrations.get(schedulerNameOf(p.pod)) ?? []).filter((r) => r.plugin === p.gatingPlugin);
    return matchAnyClusterEvent(event, regs.map((r) => r.event));
  }

  private isEventOfInterest(event: ClusterEvent): boolean {
    if (isWildCard(event)) return true;
    for (const regs of this.registrations.values()) if (regs.some((r) => matchClusterEvents(r.event, event))) return true;
    return false;
  }

  /** worthRequeuing is isPodWorthRequeuing: the hints of the plugins that rejected the pod decide. */
  private worthRequeuing(p: QueuedPodInfo, e: SeenEvent): Strategy {
    if (p.unschedulablePlugins.size === 0 && p.pendingPlugins.size === 0) return 'afterBackoff';
    if (isWildCard(e.event)) {
      const target = e.newObj as Pod | undefined;
      return target && podKey(target) !== p.key ? 'skip' : 'afterBackoff';
    }
    let strategy: Strategy = 'skip';
    for (const r of this.registrations.get(schedulerNameOf(p.pod)) ?? []) {
      if ((!p.unschedulablePlugins.has(r.plugin) && !p.pendingPlugins.has(r.plugin)) || !matchClusterEvents(r.event, e.event)) continue;
      const hint = r.hint ? r.hint(p.pod, e.oldObj, e.newObj) : 'Queue';
      if (hint === 'QueueSkip') continue;
      if (p.pendingPlugins.has(r.plugin)) return 'immediately';
      strategy = 'afterBackoff';
      if (p.pendingPlugins.size === 0) return strategy;
    }
    return strategy;
  }

  /** crossTopology lists the unschedulable pods an assigned pod's labels may help: PodTopologySpread or InterPodAffinity rejects. */
  private crossTopology(pod: Pod): QueuedPodInfo[] {
    return [...this.unschedulable.values()].filter((p) =>
      (p.unschedulablePlugins.has('PodTopologySpread') && p.pod.metadata?.namespace === pod.metadata?.namespace) || p.unschedulablePlugins.has('InterPodAffinity'));
  }

  private log(p: QueuedPodInfo, to: QueueMove['to'], event: string): void {
    const move: QueueMove = { pod: p.pod, to, event, attempts: p.attempts, ...(this.cause ? { cause: this.cause } : {}) };
    if (to === 'backoffQ') {
      const until = this.expiration(p);
      if (until !== undefined) move.backoffUntil = backoffCompletesAt(until, this.opts.now());
    }
    if (to === 'unschedulablePods') {
      move.plugins = p.gatingPlugin ? [p.gatingPlugin] : [...p.unschedulablePlugins, ...p.pendingPlugins].sort();
      if (p.gatingPlugin) move.gatingMessage = p.gatingMessage;
    }
    this.moves.push(move);
  }
}
