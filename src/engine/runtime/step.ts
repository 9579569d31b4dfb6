// How phases run: as generators that yield one trace entry per decision, so the simulation can pause between them.
import type { Millis } from './clock';
import type { TraceInput } from './recorder';

/** Sleep parks the running task for a span of virtual time; the simulation resumes it then. */
export interface Sleep {
  sleep: Millis;
}

/** StepYield is what a running task hands the simulation: a decision to record, or a wait. */
export type StepYield = TraceInput | Sleep;

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

/** isSleep tells a wait from a trace entry. */
export function isSleep(value: StepYield): value is Sleep {
  return 'sleep' in value;
}
