// How phases run: as generators that yield one trace entry per decision, so the simulation can pause between them.
import type { Millis } from './clock';
import type { TraceInput } from './recorder';

/** Sleep parks the running task for a span of virtual time; the simulation resumes it then. */
export interface Sleep {
  sleep: Millis;
}

/**
 * Batch is trace entries a task made at once, with nothing done between them (a phase's summary and its sub-steps):
 * the simulation records them one by one, exactly as if they were yielded one by one, without resuming the task and
 * every generator it runs in for each of them.
 */
export type Batch = readonly TraceInput[];

/** StepYield is what a running task hands the simulation: a decision to record, several at once, or a wait. */
export type StepYield = TraceInput | Batch | Sleep;

/**
 * Steps is the generator a phase runs as. Each yielded TraceInput is recorded (stamped with
 * the virtual time and a sequence number) and is a point where the debugger may pause; a yielded
 * Sleep parks the task until that much virtual time has passed. The return value is the phase's result.
 */
export type Steps<R = void> = Generator<StepYield, R, void>;

/** sleep waits `ms` of virtual time inside a task. */
export function* sleep(ms: Millis): Steps<void> {
  if (ms > 0) yield { sleep: ms };
}

/** isSleep tells a wait from trace entries. */
export function isSleep(value: StepYield): value is Sleep {
  return 'sleep' in value;
}

/** isBatch tells several trace entries from one (or a wait). */
export function isBatch(value: StepYield): value is Batch {
  return Array.isArray(value);
}

/** entriesOf lists what a task yielded as trace entries: none for a wait, one, or a batch's. */
export function entriesOf(value: StepYield): readonly TraceInput[] {
  return isBatch(value) ? value : isSleep(value) ? [] : [value];
}
