// The Debug Console's language, as the adapter calls it: evaluateConsole answers a line, completeConsole offers
// what may follow. The adapter only routes to these two; this file's own answers are field paths on the pod.
import { type PathSegment, parseFieldPath } from '../engine/api/fieldpath';
import type { KubeObject, ObjectRef } from '../engine/api/types';
import type { Simulation } from '../engine/simulation';
import { walk } from './expressions';

/** ConsoleFocus is what the console's names refer to: the pod of the selected stack frame (or the workload's first). */
export interface ConsoleFocus {
  pod?: ObjectRef;
}

/** ConsoleAnswer is the answer to one console line: text to show, and the structured value when there is one (expandable). */
export interface ConsoleAnswer {
  text: string;
  value?: unknown;
}

/** ConsoleCompletion is one completion: `text` replaces `length` characters from `start` (0-based) of the line. */
export interface ConsoleCompletion {
  label: string;
  text?: string;
  start?: number;
  length?: number;
  type?: 'property' | 'keyword' | 'value' | 'text';
}

/** ConsoleError is a line the console cannot answer; its message is shown to the user as it is. */
export class ConsoleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConsoleError';
  }
}

/**
 * evaluateConsole answers one Debug Console line over the simulation as it stands (a paused run's store is the
 * state at the current step). It throws ConsoleError for a line it cannot answer.
 *
 * This build answers field paths: `pod`, `pod.status.phase`, `status.phase` (on the focused pod), `node.status.allocatable`.
 */
export function evaluateConsole(sim: Simulation, text: string, focus: ConsoleFocus): ConsoleAnswer {
  const line = text.trim();
  if (line === '') throw new ConsoleError('Type a field path such as pod.status.phase.');
  if (/^(kubectl|etcdctl)\b/.test(line)) throw new ConsoleError(`"${line.split(/\s+/)[0]}" commands are not available in this console yet: type a field path such as pod.status.phase.`);
  const { root, name, path } = resolveLine(sim, line, focus);
  if (!root) throw new ConsoleError(name === 'node' ? 'The pod has no node yet: it is not scheduled.' : 'There is no pod yet: kubectl has not created it.');
  const value = walk(root, path);
  if (value === undefined) throw new ConsoleError(`${line} is not set on ${name === 'node' ? 'the node' : `pod ${root.metadata?.name ?? ''}`}.`);
  return { text: typeof value === 'string' ? value : JSON.stringify(value), value };
}

/** completeConsole offers the names that may complete the line at `column` (0-based): the field names at the path so far. */
export function completeConsole(sim: Simulation, text: string, column: number, focus: ConsoleFocus): ConsoleCompletion[] {
  const before = text.slice(0, column);
  const m = /([A-Za-z0-9_.[\]"-]*?)([A-Za-z0-9_-]*)$/.exec(before)!;
  const base = m[1]!.replace(/\.$/, '');
  const partial = m[2]!;
  const start = column - partial.length;
  const names: string[] = [];
  if (base === '') names.push('pod', 'node');
  try {
    const { root, path } = base === '' ? resolveLine(sim, 'pod', focus) : resolveLine(sim, base, focus);
    const value = walk(root, path);
    if (value && typeof value === 'object' && !Array.isArray(value)) names.push(...Object.keys(value));
  } catch {
    // an unreadable path so far offers nothing more
  }
  return [...new Set(names)].filter((n) => n.startsWith(partial)).map((n) => ({ label: n, start, length: partial.length, type: n === 'pod' || n === 'node' ? 'keyword' : 'property' }));
}

/** resolveLine splits a line into the object it starts from (the pod, or its node) and the field path in it. */
function resolveLine(sim: Simulation, line: string, focus: ConsoleFocus): { root: KubeObject | undefined; name: 'pod' | 'node'; path: PathSegment[] } {
  let segments: PathSegment[];
  try {
    segments = parseFieldPath(line);
  } catch (err) {
    throw new ConsoleError(`${line} is not a field path: ${err instanceof Error ? err.message : String(err)}.`);
  }
  const pod = focusedPod(sim, focus);
  if (segments[0] === 'node') {
    const nodeName = (pod as { spec?: { nodeName?: string } } | undefined)?.spec?.nodeName;
    return { root: nodeName ? sim.store.get('Node', undefined, nodeName) : undefined, name: 'node', path: segments.slice(1) };
  }
  return { root: pod, name: 'pod', path: segments[0] === 'pod' ? segments.slice(1) : segments };
}

function focusedPod(sim: Simulation, focus: ConsoleFocus): KubeObject | undefined {
  if (focus.pod) {
    const [, ns, name] = focus.pod.split('/');
    const pod = sim.store.get('Pod', ns, name ?? '');
    if (pod) return pod;
  }
  return sim.pods()[0] as KubeObject | undefined;
}
