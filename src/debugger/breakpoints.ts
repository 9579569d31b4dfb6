// Function breakpoints on lifecycle phases: names, aliases and `prefix.*` resolved by the engine's phase
// catalog, and the rule that decides which trace entry a breakpoint stops on.
import type { DebugProtocol } from '@vscode/debugprotocol';
import { matchPhases, type PhaseName } from '../engine/runtime/phases';
import type { TraceEntry } from '../engine/runtime/recorder';

/** PhaseBreakpoint is one function breakpoint as the user wrote it and the phases it resolved to. */
export interface PhaseBreakpoint {
  id: number;
  name: string;
  phases: ReadonlySet<PhaseName>;
}

/**
 * PhaseBreakpoints holds the function breakpoints of the session.
 *
 * A breakpoint stops when the lifecycle enters one of its phases for an object: on the first trace entry of
 * each uninterrupted run of entries with that phase and object, whether that entry is the phase-level one or a
 * sub-step. So `scheduler.filter` stops once per scheduling attempt, not once per filter plugin (step in to walk
 * the plugins), and it stops again when the scheduler retries the pod later, or for the next pod of a Deployment.
 */
export class PhaseBreakpoints {
  private breakpoints: PhaseBreakpoint[] = [];
  private nextId = 1;

  /** set replaces every function breakpoint and answers, in order, whether each one names a phase. */
  set(requested: readonly DebugProtocol.FunctionBreakpoint[]): DebugProtocol.Breakpoint[] {
    this.breakpoints = [];
    return requested.map((bp) => {
      const id = this.nextId++;
      const phases = matchPhases(bp.name);
      if (phases.length === 0) {
        return { id, verified: false, message: `"${bp.name.trim()}" names no phase. Use a phase such as scheduler.bind, an alias such as sandbox, or a prefix such as kubelet.*` };
      }
      this.breakpoints.push({ id, name: bp.name.trim(), phases: new Set(phases) });
      const message = phases.length === 1 && phases[0] === bp.name.trim() ? undefined : `stops in ${phases.join(', ')}`;
      return { id, verified: true, ...(message ? { message } : {}) };
    });
  }

  /** hits lists the breakpoints that stop on `entry`, given the entry recorded just before it. */
  hits(entry: TraceEntry, previous: TraceEntry | undefined): PhaseBreakpoint[] {
    if (previous && previous.phase === entry.phase && previous.object === entry.object) return [];
    return this.breakpoints.filter((bp) => bp.phases.has(entry.phase));
  }

  /** isEmpty tells whether no breakpoint is set. */
  get isEmpty(): boolean {
    return this.breakpoints.length === 0;
  }
}
