// How phases run: as generators that yield one trace entry per decision, so the simulation can pause between them.
import type { TraceInput } from './recorder';

/**
 * Steps is the generator a phase runs as. Each yielded TraceInput is recorded (stamped with
 * the virtual time and a sequence number) and is a point where the debugger may pause; the
 * generator's return value is the phase's result.
 */
export type Steps<R = void> = Generator<TraceInput, R, void>;
