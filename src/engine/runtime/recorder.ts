// The recorder: the trace of every decision and the Kubernetes Events, the one store all fronts read.
import type { ObjectRef } from '../api/types';
import type { Millis } from './clock';
import type { PhaseName } from './phases';

/** SubStepKind says what a sub-step of a phase is about. */
export type SubStepKind = 'authenticator' | 'authorizer' | 'plugin' | 'node' | 'container' | 'volume' | 'object';

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

/** Recorder keeps the trace and the events in the order they happened. */
export class Recorder {
  readonly trace: TraceEntry[] = [];
  readonly events: KubeEvent[] = [];

  constructor(private readonly now: () => Millis) {}

  /** record appends a trace entry stamped with the current virtual time and returns it. */
  record(input: TraceInput): TraceEntry {
    const entry: TraceEntry = { ...input, seq: this.trace.length, at: toSeconds(this.now()), detail: input.detail ?? {} };
    this.trace.push(entry);
    return entry;
  }

  /**
   * event records a Kubernetes Event. A repeat of the last event with the same object, reason and
   * message counts up instead, as the event recorder's correlator does.
   * See staging/src/k8s.io/client-go/tools/record/events_cache.go.
   */
  event(input: EventInput): KubeEvent {
    const same = [...this.events].reverse().find((e) => e.object === input.object && e.reason === input.reason && e.message === input.message && e.type === input.type);
    if (same) {
      same.firstAt ??= same.at;
      same.count++;
      same.at = toSeconds(this.now());
      return same;
    }
    const ev: KubeEvent = { ...input, at: toSeconds(this.now()), count: 1 };
    this.events.push(ev);
    return ev;
  }
}

/** toSeconds turns virtual milliseconds into seconds rounded to the millisecond. */
export function toSeconds(ms: Millis): number {
  return Math.round(ms) / 1000;
}
