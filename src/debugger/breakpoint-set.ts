// Every breakpoint of a session — function, line, exception and data — and the one question the run asks of
// them at each entry, going forward or backward: does the lifecycle stop here, and why.
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename } from 'node:path';
import type { KubeEvent, TraceEntry } from '../engine/runtime/recorder';
import { collectHits, entryResolver, hitDue, idCounter, type PhaseBreakpoint, PhaseBreakpoints, readOptions } from './breakpoints';
import { DataBreakpoints, type ReadField, readFrom } from './data';
import { ExceptionFilters, type ExceptionStop } from './exceptions';
import { evaluate, truthy, walk } from './expressions';
import { bindLine } from './lines';
import type { LifecycleRun } from './run';

/** LineRequest is the line breakpoints of one file as the client last sent them. */
interface LineRequest {
  path: string;
  requested: DebugProtocol.SourceBreakpoint[];
  ids: number[];
  active: PhaseBreakpoint[];
}

/** LineConversion turns the client's line numbers into the engine's zero-based ones and back, and paths for the client. */
export interface LineConversion {
  toEngine(line: number): number;
  toClient(line: number): number;
  pathToClient(path: string): string;
}

/** Stop says why a run stops at an entry: the stopped event's reason, the breakpoints hit, the exception met. */
export interface Stop {
  seq: number;
  reason: string;
  ids: number[];
  exception?: ExceptionStop;
}

/** BreakpointSet holds the session's breakpoints of every kind. */
export class BreakpointSet {
  private readonly ids = idCounter();
  readonly functions = new PhaseBreakpoints(this.ids);
  readonly exceptions = new ExceptionFilters();
  readonly data = new DataBreakpoints(this.ids);
  private readonly lineRequests = new Map<string, LineRequest>();

  constructor(private readonly lines: LineConversion) {}

  /** setLines replaces one file's line breakpoints and binds them (pending while no run has read the files). */
  setLines(path: string, requested: DebugProtocol.SourceBreakpoint[], run: LifecycleRun | undefined): DebugProtocol.Breakpoint[] {
    const request: LineRequest = { path, requested, ids: requested.map(() => this.ids.next()), active: [] };
    this.lineRequests.set(path, request);
    return this.bindLines(request, run);
  }

  /** rebind binds every line breakpoint to a new run's inputs and returns them, for `breakpoint` changed events. */
  rebind(run: LifecycleRun): DebugProtocol.Breakpoint[] {
    return [...this.lineRequests.values()].flatMap((request) => this.bindLines(request, run));
  }

  /** restart starts hit counts over and takes the run's field values as the data breakpoints' last seen. */
  restart(read: ReadField): void {
    this.data.rebase(read);
    for (const bp of [...this.all(), ...this.data.all()]) bp.hits = 0;
  }

  /** all lists the function and line breakpoints in force. */
  all(): PhaseBreakpoint[] {
    return [...this.functions.all(), ...[...this.lineRequests.values()].flatMap((r) => r.active)];
  }

  /**
   * forward decides what the entry just run does: the logpoint lines it prints, and the stop it makes — an
   * exception first, then function or line breakpoints, then data breakpoints — if any. Hit counts count here.
   */
  forward(run: LifecycleRun, entry: TraceEntry, events: readonly KubeEvent[], read: ReadField): { logs: string[]; stop?: Stop } {
    const exception = this.exceptions.detect(entry, events, run.sim.trace);
    if (exception) run.exceptions.set(entry.seq, exception);
    const hits = collectHits(this.all(), run.sim.trace, entry.seq);
    // A data breakpoint's condition is read over the step that changed the field; its hit count counts those changes.
    const data = this.data.changed(read).filter((d) => (!d.condition || truthy(evaluate(d.condition, entryResolver(entry)))) && hitDue(d));
    const seq = entry.seq;
    if (exception) return { logs: hits.logs, stop: { seq, reason: 'exception', ids: [], exception } };
    if (hits.stop.length > 0) {
      const functionIds = new Set(this.functions.all().map((b) => b.id));
      const reason = hits.stop.every((h) => functionIds.has(h.id)) ? 'function breakpoint' : 'breakpoint';
      return { logs: hits.logs, stop: { seq, reason, ids: hits.stop.map((h) => h.id) } };
    }
    if (data.length > 0) return { logs: hits.logs, stop: { seq, reason: 'data breakpoint', ids: data.map((d) => d.id) } };
    return { logs: hits.logs };
  }

  /**
   * backward finds where running backwards from the current entry stops: stepBack at the previous phase-level entry,
   * reverseContinue at the previous entry an exception, breakpoint or data breakpoint stopped (or would stop) on.
   * Undefined means the start, before the first phase.
   */
  backward(run: LifecycleRun, kind: 'stepBack' | 'reverseContinue'): Stop | undefined {
    const trace = run.sim.trace;
    for (let seq = (run.current?.seq ?? 0) - 1; seq >= 0; seq--) {
      const entry = trace[seq]!;
      if (kind === 'stepBack') {
        if (!entry.step) return { seq, reason: 'step', ids: [] };
        continue;
      }
      const exception = run.exceptions.get(seq);
      if (exception) return { seq, reason: 'exception', ids: [], exception };
      const hits = collectHits(this.all(), trace, seq, false);
      if (hits.stop.length > 0) return { seq, reason: 'breakpoint', ids: hits.stop.map((h) => h.id) };
      const data = this.data.changedBetween(readFrom(run.sim.snapshot(seq - 1)), readFrom(run.sim.snapshot(seq)));
      if (data.length > 0) return { seq, reason: 'data breakpoint', ids: data.map((d) => d.id) };
    }
    return undefined;
  }

  private bindLines(request: LineRequest, run: LifecycleRun | undefined): DebugProtocol.Breakpoint[] {
    request.active = [];
    return request.requested.map((bp, i) => {
      const id = request.ids[i]!;
      if (!run) return { id, verified: false, line: bp.line, message: 'Waiting for the launch to read the manifest and cluster files.' };
      const probe = run.probe();
      // Entries of the live run are located through its own sources; the probe's pods may not exist there yet.
      const binding = bindLine(run.inputs, request.path, this.lines.toEngine(bp.line), probe.trace, (ref) => run.sources.documentOf(ref) ?? probe.locate(ref));
      const line = this.lines.toClient(binding.line);
      if (!binding.verified || !binding.matches) return { id, verified: false, line, message: binding.message };
      const options = readOptions(bp);
      if (typeof options === 'string') return { id, verified: false, line, message: options };
      request.active.push({ id, name: `${basename(request.path)}:${bp.line}`, ...options, matches: binding.matches });
      return { id, verified: true, line, message: binding.message, source: { name: basename(request.path), path: this.lines.pathToClient(request.path) } };
    });
  }
}

/** liveReader reads a field of a stored object as the run has it now. */
export function liveReader(run: LifecycleRun): ReadField {
  return (ref, path) => {
    const [kind, ns, name] = ref.split('/');
    const obj = name !== undefined ? run.sim.store.get(kind ?? '', ns, name) : run.sim.store.get(kind ?? '', undefined, ns ?? '');
    return walk(obj, path);
  };
}
