// Function and line breakpoints on lifecycle phases: names, aliases and `prefix.*` resolved by the engine's phase
// catalog, lines bound to the phases that read their field, each with a condition, a hit count and a log message.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { PathSegment } from '../engine/api/fieldpath';
import { matchPhases, type PhaseName } from '../engine/runtime/phases';
import type { TraceEntry } from '../engine/runtime/recorder';
import { evaluate, type Expression, ExpressionError, interpolate, parseExpression, truthy, walk } from './expressions';

/** HitCondition is a parsed hit count: `3` or `== 3` (the 3rd hit), `>= 3`, `> 3`, `< 3`, `<= 3`, `% 3` (every 3rd). */
export interface HitCondition {
  op: '==' | '>=' | '>' | '<' | '<=' | '%';
  count: number;
}

/** BreakpointOptions are what any breakpoint may carry beside where it stops. */
export interface BreakpointOptions {
  condition?: Expression;
  hitCondition?: HitCondition;
  logMessage?: string;
  /** hits counts the times the breakpoint was reached with its condition true. */
  hits: number;
}

/** PhaseBreakpoint is one function or line breakpoint: where it stops and how it decides. */
export interface PhaseBreakpoint extends BreakpointOptions {
  id: number;
  name: string;
  /** matches tells whether an entry is in the breakpoint's place (its phase, or the field of its line). */
  matches: (entry: TraceEntry) => boolean;
}

/** BreakpointHit is what a resumed run does at an entry: stop on these breakpoints, and print these logpoint lines. */
export interface BreakpointHit {
  stop: PhaseBreakpoint[];
  logs: string[];
}

/** readOptions checks a breakpoint's condition, hit condition and log message; a problem is the message of an unverified breakpoint. */
export function readOptions(bp: { condition?: string; hitCondition?: string; logMessage?: string }): BreakpointOptions | string {
  const options: BreakpointOptions = { hits: 0 };
  if (bp.condition?.trim()) {
    try {
      options.condition = parseExpression(bp.condition);
    } catch (err) {
      return `The condition is not an expression: ${err instanceof ExpressionError ? err.message : String(err)}. Write e.g. node == "worker-2" && plugin != "TaintToleration".`;
    }
  }
  if (bp.hitCondition?.trim()) {
    const m = /^\s*(==|>=|>|<=|<|%)?\s*(\d+)\s*$/.exec(bp.hitCondition);
    if (!m || Number(m[2]) <= 0) return `The hit count "${bp.hitCondition}" is not a count: write 3 (the 3rd time), >= 3, > 3, < 3, <= 3 or % 3 (every 3rd time).`;
    options.hitCondition = { op: (m[1] ?? '==') as HitCondition['op'], count: Number(m[2]) };
  }
  if (bp.logMessage) options.logMessage = bp.logMessage;
  return options;
}

/**
 * entryResolver gives a condition the names of an entry: `phase`, `object`, `pod`, `namespace`, `field`, `result`,
 * `outcome`, `at`, `seq`, `step`, `kind`; the sub-step by its kind (`plugin`, `node`, `container`, `authenticator`,
 * `authorizer`, `volume`, `watcher`); `detail.…`; and any top-level key of the detail (`exitCode`, `decision`). `node` also
 * names the nodes of a scheduler table, so `node == "worker-2"` holds on a filter plugin that weighed worker-2.
 */
export function entryResolver(entry: TraceEntry): (path: readonly PathSegment[]) => unknown {
  return (path) => {
    const [head, ...rest] = path;
    return walk(entryName(entry, String(head)), rest);
  };
}

const STEP_KINDS = new Set(['plugin', 'node', 'container', 'authenticator', 'authorizer', 'volume', 'object', 'watcher']);

function entryName(entry: TraceEntry, name: string): unknown {
  const [kind, ns, objectName] = entry.object?.split('/') ?? [];
  switch (name) {
    case 'phase': return entry.phase;
    case 'object': return entry.object;
    case 'pod': return kind === 'Pod' ? objectName : undefined;
    case 'namespace': return objectName !== undefined ? ns : undefined;
    case 'field': return entry.field;
    case 'result': return entry.result;
    case 'outcome': return entry.outcome;
    case 'at': return entry.at;
    case 'seq': return entry.seq;
    case 'step': return entry.step ? `${entry.step.kind} ${entry.step.name}` : undefined;
    case 'kind': return entry.step?.kind;
    case 'detail': return entry.detail;
  }
  if (STEP_KINDS.has(name)) {
    if (entry.step?.kind === name) return entry.step.name;
    const own = entry.detail[name];
    if (typeof own === 'string') return own;
    if (name === 'node') return nodesOf(entry.detail);
    return own;
  }
  return entry.detail[name];
}

/** nodesOf lists the nodes a scheduler entry weighs: its node table, its feasible list, or its score totals. */
export function nodesOf(detail: Record<string, unknown>): string[] | undefined {
  for (const key of ['nodes', 'totals']) {
    const table = detail[key];
    if (table && typeof table === 'object' && !Array.isArray(table)) return Object.keys(table);
  }
  const feasible = detail.feasible;
  return Array.isArray(feasible) ? feasible.filter((n): n is string => typeof n === 'string') : undefined;
}

/**
 * firstInRun tells whether a breakpoint acts on an entry: the entry is in its place, its condition holds, and no
 * earlier entry of the same uninterrupted run (same phase, same object) already did. So `scheduler.filter` stops once
 * per scheduling attempt, not once per filter plugin (step in to walk the plugins), and again on the next attempt;
 * with `plugin == "NodeResourcesFit"` it stops on that plugin's entry of each attempt. A `watch` run is one change:
 * its entry and its watchers' sub-steps, so `watch` stops at every change, `watcher == "kubelet worker-1"` once in each.
 */
export function firstInRun(bp: BreakpointOptions & { matches: (e: TraceEntry) => boolean }, trace: readonly TraceEntry[], seq: number): boolean {
  const entry = trace[seq];
  if (!entry || !qualifies(bp, entry)) return false;
  const oneChange = entry.phase === 'watch';
  if (oneChange && !entry.step) return true;
  for (let i = seq - 1; i >= 0; i--) {
    const earlier = trace[i]!;
    if (earlier.phase !== entry.phase || earlier.object !== entry.object || !bp.matches(earlier)) return true;
    if (qualifies(bp, earlier)) return false;
    if (oneChange && !earlier.step) return true;
  }
  return true;
}

function qualifies(bp: BreakpointOptions & { matches: (e: TraceEntry) => boolean }, entry: TraceEntry): boolean {
  if (!bp.matches(entry)) return false;
  try {
    return !bp.condition || truthy(evaluate(bp.condition, entryResolver(entry)));
  } catch {
    return false;
  }
}

/** hitDue counts a hit and tells whether the hit condition lets it act. */
export function hitDue(bp: BreakpointOptions): boolean {
  bp.hits++;
  const h = bp.hitCondition;
  if (!h) return true;
  switch (h.op) {
    case '==': return bp.hits === h.count;
    case '>=': return bp.hits >= h.count;
    case '>': return bp.hits > h.count;
    case '<': return bp.hits < h.count;
    case '<=': return bp.hits <= h.count;
    case '%': return bp.hits % h.count === 0;
  }
}

/** PhaseBreakpoints holds the function breakpoints of the session. */
export class PhaseBreakpoints {
  private breakpoints: PhaseBreakpoint[] = [];

  constructor(private readonly ids: { next(): number }) {}

  /** set replaces every function breakpoint and answers, in order, whether each one names a phase. */
  set(requested: readonly DebugProtocol.FunctionBreakpoint[]): DebugProtocol.Breakpoint[] {
    this.breakpoints = [];
    return requested.map((bp) => {
      const id = this.ids.next();
      const name = bp.name.trim();
      const phases = matchPhases(name);
      if (phases.length === 0) {
        return { id, verified: false, message: `"${name}" names no phase. Use a phase such as scheduler.bind, an alias such as sandbox, or a prefix such as kubelet.*` };
      }
      const options = readOptions(bp);
      if (typeof options === 'string') return { id, verified: false, message: options };
      const set: ReadonlySet<PhaseName> = new Set(phases);
      this.breakpoints.push({ id, name, ...options, matches: (e) => set.has(e.phase) });
      const message = phases.length === 1 && phases[0] === name ? undefined : `stops in ${phases.join(', ')}`;
      return { id, verified: true, ...(message ? { message } : {}) };
    });
  }

  /** all lists the breakpoints in force. */
  all(): readonly PhaseBreakpoint[] {
    return this.breakpoints;
  }
}

/** collectHits decides, for the entry at `seq`, for every breakpoint, what an entry does: stop, print a logpoint line, or nothing. */
export function collectHits(breakpoints: Iterable<PhaseBreakpoint>, trace: readonly TraceEntry[], seq: number, count = true): BreakpointHit {
  const hit: BreakpointHit = { stop: [], logs: [] };
  const entry = trace[seq];
  if (!entry) return hit;
  for (const bp of breakpoints) {
    // Hit counts count going forward only; running backwards stops where the breakpoint is in place.
    if (!firstInRun(bp, trace, seq) || (count && !hitDue(bp))) continue;
    if (bp.logMessage !== undefined) hit.logs.push(interpolate(bp.logMessage, entryResolver(entry)));
    else hit.stop.push(bp);
  }
  return hit;
}

/** idCounter hands out breakpoint ids unique across every kind of breakpoint of a session. */
export function idCounter(): { next(): number } {
  let id = 0;
  return { next: () => ++id };
}
