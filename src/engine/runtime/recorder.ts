// The recorder: the trace of every decision and the Kubernetes Events, the one store all fronts read.
import { type ObjectRef, sameShape } from '../api/types';
import type { Millis } from './clock';
import { EventCorrelator, keyOf } from './event-correlator';
import { type EventChange, type EventTtl, KeptEvents } from './kept-events';
import type { PhaseName } from './phases';

export type { EventChange, EventChangeType, EventTtl } from './kept-events';
export { AGGREGATE_INTERVAL_MS, AGGREGATE_MAX_EVENTS, EVENT_SPAM_BURST, EVENT_SPAM_QPS, LRU_CACHE_ENTRIES } from './event-correlator';

/** SubStepKind says what a sub-step of a phase is about. */
export type SubStepKind = 'authenticator' | 'authorizer' | 'plugin' | 'node' | 'container' | 'volume' | 'object' | 'watcher';

/** TraceEntry is one recorded decision: the unit the debugger steps through. */
export interface TraceEntry {
  /** seq numbers the entries from 0 in the order they happened. */
  seq: number;
  phase: PhaseName;
  /** at is virtual seconds since the run began. */
  at: number;
  /** object is the object the step works on (`Pod/default/web`): the debugger's thread. */
  object?: ObjectRef;
  /** field is the manifest field the step reads, as a field path (`spec.containers[0].image`). */
  field?: string;
  /** result says in one line what was decided. */
  result: string;
  /** detail carries the data of the decision (tables, patches, the chosen IP). */
  detail: Record<string, unknown>;
  /** step names the sub-step (one plugin, one node, one container); absent on a phase-level entry. */
  step?: { kind: SubStepKind; name: string };
  /** outcome marks steps that refuse or fail something. */
  outcome?: 'ok' | 'rejected' | 'failed' | 'waiting';
}

/** EventType is the type of a Kubernetes Event. */
export type EventType = 'Normal' | 'Warning';

/** KubeEvent is a Kubernetes Event as `kubectl get events` would list it. */
export interface KubeEvent {
  at: number;
  type: EventType;
  reason: string;
  object: ObjectRef;
  /**
   * fieldPath is the involved object's fieldPath: the container a kubelet event is about, `spec.containers{app}` or
   * `spec.initContainers{init}` (pkg/kubelet/container/ref.go GenerateContainerRef, v1.36.3); absent for the pod itself.
   */
  fieldPath?: string;
  source: string;
  message: string;
  /** host is the node of a kubelet event (the event's source.host). */
  host?: string;
  /** count is how many times the same event repeated (the event series count). */
  count: number;
  /** firstAt is when a repeated event was first seen (its firstTimestamp); `at` is then the last time. */
  firstAt?: number;
}

/** TraceInput is what a phase hands the recorder; seq and time are filled in. */
export type TraceInput = Omit<TraceEntry, 'seq' | 'at' | 'detail'> & { detail?: Record<string, unknown> };

/** EventInput is what a component hands the recorder for a Kubernetes Event. */
export type EventInput = Omit<KubeEvent, 'at' | 'count'>;

/**
 * TraceSink takes the trace of a run too big to hold: each entry once, in order, once it is SINK_LAG entries old (a
 * phase still finishing its step can add to its entry), and the rest when the run ends.
 */
export interface TraceSink {
  accept(entries: readonly TraceEntry[]): void;
  /**
   * leaves is asked once for each entry, in the order recorded, before anything of it is kept: true when the sink
   * would leave it out (a summary's cut), and then the recorder neither keeps nor hands it on; the sink counts it.
   */
  leaves?(entry: TraceInput): boolean;
  /** isQuiet tells whether the sink leaves out every entry about an object from here on: its steps need no detail. */
  isQuiet?(object: ObjectRef): boolean;
}

/** QUIET_DETAIL is the detail of an entry made for a sink that leaves it out (isQuiet): nothing reads it. */
const QUIET_DETAIL: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * quietEntry is an entry about an object whose entries the sink leaves out (Recorder.isQuiet): it is recorded, and
 * numbered, as the full entry would be, without the result and detail nobody will read.
 */
export function quietEntry(phase: PhaseName, object: ObjectRef, step?: { kind: SubStepKind; name: string }): TraceInput {
  return step ? { phase, object, step, result: '', detail: QUIET_DETAIL } : { phase, object, result: '', detail: QUIET_DETAIL };
}

/**
 * quietSteps are the quiet entries of a phase with sub-steps: its summary, then one per sub-step of `kind` (each
 * authenticator, authorizer or plugin), as many as the traced phase makes; `field` is kept when the phase names one.
 */
export function quietSteps(phase: PhaseName, object: ObjectRef, kind: SubStepKind, names: readonly string[], field?: string): TraceInput[] {
  const at = (step?: { kind: SubStepKind; name: string }): TraceInput => {
    const entry = quietEntry(phase, object, step);
    return field ? { ...entry, field } : entry;
  };
  return [at(), ...names.map((name) => at({ kind, name }))];
}

/** INTERN_LIMIT is how many distinct strings (and steps) the recorder keeps to share; the repeated ones come back. */
const INTERN_LIMIT = 16_384;

/** SINK_LAG is how many of the latest entries a recorder with a sink keeps before handing them on. */
export const SINK_LAG = 1024;

/** Recorder keeps the trace and the events in the order they happened. */
export class Recorder {
  /** trace is every entry recorded; with a sink, only the latest ones, the others having been handed to it. */
  readonly trace: TraceEntry[] = [];
  /** kept are the Events as storage keeps them: numbered, and on a live cluster expiring (expireEventsAfter). */
  private readonly kept: KeptEvents<KubeEvent>;
  /** handedOn counts the entries handed to the sink or left out by it: the seq of the next entry after the kept ones. */
  private handedOn = 0;
  private sink: TraceSink | undefined;

  constructor(private readonly now: () => Millis) {
    this.kept = new KeptEvents<KubeEvent>(now);
  }

  /** events are the Events kept, in the order they were first recorded. */
  get events(): readonly KubeEvent[] {
    return this.kept.events;
  }

  /** eventNumber is an Event's record number (it tells apart Events of one object and millisecond); -1 if not kept. */
  eventNumber(event: KubeEvent): number {
    return this.kept.numberOf(event);
  }

  /** eventResourceVersion is the resourceVersion of an Event's last write; 0 on a run that does not number them. */
  eventResourceVersion(event: KubeEvent): number {
    return this.kept.resourceVersionOf(event);
  }

  /**
   * expireEventsAfter gives each Event write a revision and makes Events expire `ttl.ttlSeconds` after their last
   * write, as kube-apiserver's --event-ttl (a live cluster's).
   */
  expireEventsAfter(ttl: EventTtl): void {
    this.kept.expireAfter(ttl);
  }

  /** onEventChange calls `listener` with each Event recorded, counted up or expired; it returns the unsubscribe. */
  onEventChange(listener: (change: EventChange<KubeEvent>) => void): () => void {
    return this.kept.onChange(listener);
  }

  /**
   * onEventWrite calls `listener` with the source of each Event write a component's broadcaster sends (a create, or the
   * patch that counts one up; not one the spam filter drops): the writes go through the component's client.
   */
  onEventWrite(listener: (source: string) => void): void {
    this.eventWriteListeners.push(listener);
  }

  private readonly eventWriteListeners: ((source: string) => void)[] = [];

  /** spillTo hands every entry from here on to `sink` instead of keeping it; drain hands over the last ones. */
  spillTo(sink: TraceSink): void {
    this.sink = sink;
  }

  /** drain hands the entries still kept to the sink, if there is one. */
  drain(): void {
    if (!this.sink || this.trace.length === 0) return;
    this.sink.accept(this.trace);
    this.handedOn += this.trace.length;
    this.trace.length = 0;
  }

  /** count is how many entries have been recorded, kept, handed on or left out. */
  get count(): number {
    return this.handedOn + this.trace.length;
  }

  /** last is the latest entry recorded, kept or not. */
  get last(): TraceEntry | undefined {
    return this.lastEntry;
  }

  private lastEntry: TraceEntry | undefined;

  /**
   * isQuiet tells whether the trace keeps nothing more about an object (a summary past a workload's first pods): a
   * component may then record its steps without the detail only the trace would read.
   */
  isQuiet(object: ObjectRef): boolean {
    return this.sink?.isQuiet?.(object) === true;
  }

  /** record appends a trace entry stamped with the current virtual time and returns it. */
  record(input: TraceInput): TraceEntry {
    if (this.sink?.leaves?.(input) === true) {
      // Left out by the sink: numbered and returned, for the phase that records it reads it, but not kept.
      const left = { phase: input.phase, result: input.result, detail: input.detail ?? {}, seq: this.count, at: toSeconds(this.now()) } as TraceEntry;
      if (input.object !== undefined) left.object = input.object;
      if (input.field !== undefined) left.field = input.field;
      if (input.step !== undefined) left.step = input.step;
      if (input.outcome !== undefined) left.outcome = input.outcome;
      this.handedOn++;
      this.lastEntry = left;
      return left;
    }
    if (this.sink && this.trace.length >= 2 * SINK_LAG) {
      const old = this.trace.splice(0, SINK_LAG);
      this.sink.accept(old);
      this.handedOn += old.length;
    }
    // The entry is built field by field in one order (not spread from inputs of many shapes, which is slow), and the
    // object and field it names, which repeat across thousands of entries, are each kept once, as is each step.
    const entry = { phase: input.phase } as TraceEntry;
    if (input.object !== undefined) entry.object = this.intern(input.object);
    if (input.field !== undefined) entry.field = this.intern(input.field);
    entry.result = input.result;
    entry.detail = input.detail ?? {};
    if (input.step !== undefined) entry.step = this.internStep(input.step);
    if (input.outcome !== undefined) entry.outcome = input.outcome;
    entry.seq = this.count;
    entry.at = toSeconds(this.now());
    // A result built by concatenation is a tree of pieces until read: reading one character makes it one string, at
    // less than half the memory.
    this.flat(entry.result);
    this.trace.push(entry);
    this.lastEntry = entry;
    return entry;
  }

  private readonly strings = new Map<string, string>();
  private readonly steps = new Map<string, Map<string, { kind: SubStepKind; name: string }>>();
  private stepCount = 0;
  /** flattened only keeps the flattening reads from being optimized away. */
  private flattened = 0;

  /**
   * flat returns a string built by concatenation as one piece: V8 keeps it as a tree of its pieces (32 bytes a piece)
   * until a character of it is read. The keys and messages the recorder keeps for thousands of pods are read once here.
   */
  private flat(s: string): string {
    this.flattened ^= s.charCodeAt(0);
    return s;
  }

  private internStep(step: { kind: SubStepKind; name: string }): { kind: SubStepKind; name: string } {
    if (Object.keys(step).length !== 2) return step;
    // Kept by kind, then by name: the lookup reads the two strings as they are instead of joining them first.
    let byName = this.steps.get(step.kind);
    if (byName === undefined) this.steps.set(step.kind, (byName = new Map()));
    const kept = byName.get(step.name);
    if (kept !== undefined) return kept;
    const frozen = Object.freeze({ kind: step.kind, name: step.name });
    // A name seen once (a pod's own) is not worth keeping for ever: past the limit the table starts again.
    if (++this.stepCount > INTERN_LIMIT) {
      this.steps.clear();
      this.stepCount = 1;
      this.steps.set(step.kind, (byName = new Map()));
    }
    byName.set(step.name, frozen);
    return frozen;
  }

  private intern(s: string): string {
    const kept = this.strings.get(s);
    if (kept !== undefined) return kept;
    if (this.strings.size >= INTERN_LIMIT) this.strings.clear();
    this.strings.set(s, this.flat(s));
    return s;
  }

  /**
   * event records a Kubernetes Event, as client-go's event correlator does (tools/record/events_cache.go at
   * k8s.io/client-go v0.36.0, EventCorrelate): the aggregator first — from the 10th distinct message of one source,
   * object, type and reason within 10 minutes of the last, the event is one "(combined from similar events): ..."
   * event, counted up — then the logger, which counts up a repeat of the same event (getEventKey: the object with its
   * fieldPath, so `Pulled` for two containers of a pod is two Events), then the spam filter: each source may send 25
   * events about one object and type (getSpamKey: without the fieldPath), then one more every 5 minutes; a repeat over
   * that budget is still counted, and shows with its count once one gets through. `api` 'events.k8s.io' is the events
   * API's recorder (kube-scheduler's), which has no aggregator.
   */
  event(input: EventInput, api: 'record' | 'events.k8s.io' = 'record'): KubeEvent | undefined {
    const now = this.now();
    const correlator = this.correlatorOf(input);
    // Each component has its own correlator: its keys leave out the source and host, the same for all of them.
    // EventAggregatorByReasonFunc's key: the involved object (without its fieldPath), the type, the reason.
    const aggregateParts = [input.object, input.type, input.reason];
    let ev = input;
    // getEventKey: the involved object with its fieldPath, the type, the reason and the message.
    let key = keyOf([...aggregateParts, input.fieldPath ?? '', input.message]);
    if (api === 'record' && correlator.aggregate(keyOf(aggregateParts), input.message, now)) {
      // EventAggregate: the aggregate event is keyed by the aggregate key, whatever its message and fieldPath.
      ev = { ...input, message: `${AGGREGATE_PREFIX}${input.message}` };
      key = keyOf([...aggregateParts, '\u0000aggregate']);
    }
    // eventObserve: the logger counts every repeat it still remembers, even one the spam filter then drops.
    const logged = correlator.observe(key);
    // getSpamKey: the involved object (without its fieldPath) and the type.
    if (!correlator.tryAccept(keyOf([input.object, input.type]), now)) return undefined;
    for (const l of this.eventWriteListeners) l(input.source);
    // The event key is a map lookup, O(1) per event, as the correlator's LRU cache is.
    const same = logged.event;
    if (same) {
      same.firstAt ??= same.at;
      same.count = Math.max(same.count + 1, logged.observed);
      same.at = toSeconds(now);
      // The logger's patch carries the message: an aggregate event shows its latest one.
      same.message = ev.message;
      this.kept.touch(logged.index);
      return same;
    }
    const recorded = sameShape(ev) as KubeEvent;
    // A container's fieldPath is the same for all its events: kept once.
    if (recorded.fieldPath !== undefined) recorded.fieldPath = this.intern(recorded.fieldPath);
    recorded.message = this.flat(ev.message);
    recorded.at = toSeconds(now);
    recorded.count = logged.observed;
    // An Event that expired while the logger remembered it is created again with its first time (and name).
    if (logged.expired && logged.expired.firstAt !== recorded.at) recorded.firstAt = logged.expired.firstAt;
    this.kept.add(recorded, logged);
    return recorded;
  }

  /**
   * correlatorOf is the event correlator of the component that sends the event: each kubelet, scheduler and controller
   * has its own (NewEventCorrelatorWithOptions), whose three caches each remember the latest 4096 keys.
   */
  private correlatorOf(input: EventInput): EventCorrelator<KubeEvent> {
    const component = `${input.source}\u0000${input.host ?? ''}`;
    let correlator = this.correlators.get(component);
    if (!correlator) {
      correlator = new EventCorrelator<KubeEvent>();
      this.correlators.set(component, correlator);
    }
    return correlator;
  }

  /**
   * changedSince returns the events recorded or counted up since a cursor with their record numbers, in record order
   * and once each, with the cursor to pass next time: a front printing events as they happen reads only what changed.
   */
  changedSince(cursor: number): { changed: { no: number; event: KubeEvent }[]; cursor: number } {
    return this.kept.changedSince(cursor);
  }

  /** clear forgets the trace and the events recorded so far (the cluster's warm-up); the spam budgets stay spent. */
  clear(): void {
    this.trace.length = 0;
    this.handedOn = 0;
    this.lastEntry = undefined;
    this.kept.clear();
    // The logger's records point into the events: they go with them; its counts, like the spam budgets, stay.
    for (const correlator of this.correlators.values()) correlator.forgetEvents();
  }

  /** correlators are the event correlators by component: the source and its host. */
  private readonly correlators = new Map<string, EventCorrelator<KubeEvent>>();
}

/** AGGREGATE_PREFIX is EventAggregatorByReasonMessageFunc's prefix of a combined event's message. */
export const AGGREGATE_PREFIX = '(combined from similar events): ';


/** toSeconds turns virtual milliseconds into seconds rounded to the millisecond. */
export function toSeconds(ms: Millis): number {
  return Math.round(ms) / 1000;
}
