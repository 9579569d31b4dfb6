// Line breakpoints: a manifest line binds to the phases that read its field (learned from the engine's own trace of
// the same inputs, as the map of field readers names them: the map hover shows); a line of a cluster file binds to
// what reads that object — a Node to the scheduler weighing it, a Role or binding to the authorizer reading it.
import { resolve } from 'node:path';
import type { ObjectRef } from '../engine/api/types';
import type { SimulationInputs, SourceDocument } from '../engine/cluster/inputs';
import { phaseReads } from '../engine/runtime/field-readers';
import type { TraceEntry } from '../engine/runtime/recorder';
import { nodesOf } from './breakpoints';

/** Located is where an object's fields are written: its document, and the path prefix of its fields there. */
export type Located = { doc: SourceDocument; prefix: string } | undefined;

/** LineBinding is a line breakpoint resolved: verified with what it stops in, or not with the reason why. */
export interface LineBinding {
  verified: boolean;
  line: number;
  message: string;
  matches?: (entry: TraceEntry) => boolean;
}

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/** isInputFile tells whether a path is one of the run's input files (manifest or cluster). */
export function isInputFile(inputs: SimulationInputs, path: string): boolean {
  const target = resolve(path);
  return [...inputs.manifest, ...inputs.cluster.objects].some((d) => resolve(d.file) === target);
}

/**
 * bindLine resolves a breakpoint at a zero-based line of an input file. `trace` is the full trace of the same
 * inputs and `locate` finds an entry's document, so the binding names the phases that will stop.
 */
export function bindLine(inputs: SimulationInputs, file: string, line: number, trace: readonly TraceEntry[], locate: (ref: ObjectRef | undefined) => Located): LineBinding {
  const target = resolve(file);
  const inManifest = inputs.manifest.find((d) => resolve(d.file) === target && contains(d, line));
  if (inManifest) return bindField(inManifest, line, trace, locate);
  const inCluster = inputs.cluster.objects.find((d) => resolve(d.file) === target && contains(d, line));
  if (inCluster) return bindObject(inCluster, line, trace);
  const known = [...inputs.manifest, ...inputs.cluster.objects].some((d) => resolve(d.file) === target);
  return { verified: false, line, message: known ? `Line ${line + 1} is outside every object of this file.` : 'This file is not an input of the running lifecycle: set breakpoints in its manifest or cluster files.' };
}

function bindField(doc: SourceDocument, line: number, trace: readonly TraceEntry[], locate: (ref: ObjectRef | undefined) => Located): LineBinding {
  const field = fieldAt(doc, line);
  if (!field) return { verified: false, line, message: `Line ${line + 1} holds no field: put the breakpoint on a field such as image: or preStop:.` };
  const key = docKey(doc);
  // An entry stops the line when it reads the line's field (or one inside it, or the map that holds it) and the map of
  // field readers says its phase reads what it read: the map hover's "Read by" shows, so the two never disagree.
  const matches = (entry: TraceEntry): boolean => {
    if (!entry.field) return false;
    const found = locate(entry.object);
    if (found === undefined || docKey(found.doc) !== key) return false;
    const read = found.prefix + entry.field;
    return related(read, field) && phaseReads(entry.phase, read);
  };
  const phases = [...new Set(trace.filter(matches).map((e) => e.phase))];
  if (phases.length === 0) return { verified: false, line, message: `No phase reads ${field} in this run, so a breakpoint here would never stop.` };
  return { verified: true, line, message: `Stops in ${phases.join(', ')} (they read ${field}).`, matches };
}

function bindObject(doc: SourceDocument, line: number, trace: readonly TraceEntry[]): LineBinding {
  const kind = String(doc.object.kind);
  const name = doc.object.metadata?.name ?? '';
  let matches: ((e: TraceEntry) => boolean) | undefined;
  let what: string;
  if (kind === 'Node') {
    matches = (e) => e.phase.startsWith('scheduler.') && (e.detail.node === name || (nodesOf(e.detail) ?? []).includes(name));
    what = `when the scheduler weighs node ${name}`;
  } else if (RBAC_KINDS.has(kind)) {
    const quoted = new RegExp(`(^|[^A-Za-z])${kind} \\\\"${escapeRegExp(name)}\\\\"|"kind":"${kind}","name":"${escapeRegExp(name)}"`);
    matches = (e) => e.phase === 'apiserver.authorize' && quoted.test(JSON.stringify(e.detail));
    what = `when the RBAC authorizer reads ${kind} ${name}`;
  } else {
    return { verified: false, line, message: `A cluster file's breakpoints stop on a Node (when the scheduler weighs it) or on a Role, ClusterRole or binding (when RBAC reads it); a ${kind} has no phase of its own.` };
  }
  const phases = [...new Set(trace.filter(matches).map((e) => e.phase))];
  if (phases.length === 0) return { verified: false, line, message: `Would stop ${what}, but no phase does in this run.` };
  return { verified: true, line, message: `Stops ${what} (${phases.join(', ')}).`, matches };
}

/** fieldAt is the field written on a line: the outermost one whose key (or list item) starts there. */
export function fieldAt(doc: SourceDocument, line: number): string | undefined {
  let best: string | undefined;
  for (const [path, range] of doc.fields) {
    if ((range.key ?? range.value).start.line !== line) continue;
    if (best === undefined || path.length < best.length) best = path;
  }
  return best;
}

/**
 * related tells whether an entry reading `read` reads the field `field` of a line: the same field, a field inside it
 * (a line on `resources:` stops where `resources.requests` is read), or a map that holds it (a line on `cpu:` stops
 * where `resources.requests` is read, `path:` where the `readinessProbe` is), but not a whole list item (a
 * container) read for another purpose.
 */
function related(read: string, field: string): boolean {
  if (read === field || read.startsWith(`${field}.`) || read.startsWith(`${field}[`)) return true;
  if (!field.startsWith(`${read}.`) || read.endsWith(']') || !/[.[]/.test(read)) return false;
  return !field.slice(read.length + 1).includes('[');
}

function contains(doc: SourceDocument, line: number): boolean {
  return doc.range.start.line <= line && line <= doc.range.end.line;
}

/** docKey identifies a document across copies of the inputs: its file and where it starts. */
export function docKey(doc: SourceDocument): string {
  return `${resolve(doc.file)}#${doc.range.start.line}:${doc.range.start.character}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
