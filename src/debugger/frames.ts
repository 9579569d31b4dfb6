// Stack frames of a trace entry — component › phase › sub-step — and where each points in the input files:
// the range of the manifest field the entry reads, mapped through the document the object came from.
import { basename, resolve } from 'node:path';
import type { ObjectRef } from '../engine/api/types';
import { parentPaths } from '../engine/api/fieldpath';
import { DEFAULT_CLUSTER_FILE } from '../engine/cluster/default-cluster';
import { GENERATED_FILE, kubectlCommandLine } from '../engine/kubectl/generate/load';
import type { FieldRange, Position, SourceDocument } from '../engine/cluster/inputs';
import { isPhaseName, phaseInfo } from '../engine/runtime/phases';
import type { TraceEntry } from '../engine/runtime/recorder';
import type { Simulation } from '../engine/simulation';

/** EMBEDDED_CLUSTER_SOURCE is the sourceReference of the embedded default cluster, which has no file on disk. */
export const EMBEDDED_CLUSTER_SOURCE = 1;

/** GENERATED_SOURCE is the sourceReference of what a kubectl command line generated (kubectl run, create deployment|job). */
export const GENERATED_SOURCE = 2;

/** SourceLocation is a place in an input file, zero-based; `end` is absent when only the start is worth showing. */
export interface SourceLocation {
  /** file is the path as the user named it, or DEFAULT_CLUSTER_FILE. */
  file: string;
  start: Position;
  end?: Position;
}

/** FrameSpec is one stack frame before it is numbered and converted to the client's lines. */
export interface FrameSpec {
  name: string;
  location?: SourceLocation;
  /** entry is the trace entry the frame belongs to; absent on the frame shown before the first phase. */
  entry?: TraceEntry;
  /** object is the object the frame works on, for the Pod scope. */
  object?: ObjectRef;
}

/** SourceMapper finds where an object's fields sit in the input files. */
export class SourceMapper {
  private readonly manifestDocs = new Map<ObjectRef, SourceDocument>();
  private readonly found = new Map<ObjectRef, { doc: SourceDocument; prefix: string }>();

  constructor(private readonly sim: Simulation) {
    // The engine learns an object's document once kubectl has created it; the entries of kubectl and of the
    // API server before that still read the manifest, so map the manifest's objects by the reference kubectl uses.
    for (const doc of sim.inputs.manifest) {
      const ref = refOfDocument(doc);
      if (ref) this.manifestDocs.set(ref, doc);
    }
  }

  /** documentOf returns the document an object came from and the path prefix of its fields in it. */
  documentOf(ref: ObjectRef | undefined): { doc: SourceDocument; prefix: string } | undefined {
    if (!ref) return undefined;
    // Remembered once found: a pod's owner (the way to its template) may be deleted later in the run.
    const known = this.found.get(ref);
    if (known) return known;
    const found = this.sim.sourceOf(ref);
    if (found) {
      this.found.set(ref, found);
      return found;
    }
    const doc = this.manifestDocs.get(ref);
    return doc ? { doc, prefix: '' } : undefined;
  }

  /** locateClusterObject finds where a cluster object is written: the start of its document in a cluster file. */
  locateClusterObject(object: { kind: string; namespace?: string; name: string } | undefined): SourceLocation | undefined {
    if (!object) return undefined;
    const doc = this.sim.inputs.cluster.objects.find((d) => d.object.kind === object.kind && d.object.metadata?.name === object.name && (object.namespace === undefined || (d.object.metadata?.namespace ?? 'default') === object.namespace));
    return doc ? { file: doc.file, start: doc.range.start } : undefined;
  }

  /**
   * locate maps an object's field to its range: the field itself, else its nearest ancestor that has a range,
   * else (for a pod made from a template) the template, else the start of the document.
   */
  locate(ref: ObjectRef | undefined, field: string | undefined): SourceLocation | undefined {
    const found = this.documentOf(ref);
    if (!found) return undefined;
    const { doc, prefix } = found;
    const candidates = field ? [prefix + field, ...safeParents(prefix + field)] : prefix ? [prefix.replace(/\.$/, '')] : [];
    for (const path of candidates) {
      const range = doc.fields.get(path);
      if (range) return { file: doc.file, ...highlight(range) };
    }
    return { file: doc.file, start: doc.range.start };
  }
}

/**
 * framesOf builds the frames of an entry, the most specific first: sub-step, phase, component. An exception stopped on
 * there may be about another field of the object than the one the entry reads (an unschedulable pod's requests, met
 * at the queue's entry): the frames point at that field, where the editor shows the exception.
 */
export function framesOf(entry: TraceEntry, sources: SourceMapper, exceptionField?: string): FrameSpec[] {
  const location = sources.locate(entry.object, exceptionField ?? entry.field);
  const base = { entry, ...(entry.object ? { object: entry.object } : {}) };
  const at = (loc: SourceLocation | undefined) => (loc ? { location: loc } : {});
  const frames: FrameSpec[] = [];
  // A sub-step about a cluster object (the RBAC binding that decided, a node) points into the cluster file.
  if (entry.step) frames.push({ name: `${entry.phase} › ${entry.step.kind} ${entry.step.name}`, ...at(sources.locateClusterObject(clusterObjectOf(entry)) ?? location), ...base });
  // A phase-level stop is named by its phase and what it decided, so that two stops in one phase look different.
  frames.push({ name: entry.step ? entry.phase : `${entry.phase} · ${headline(entry.result)}`, ...at(location), ...base });
  const component = isPhaseName(entry.phase) ? phaseInfo(entry.phase).component : 'cluster';
  // The component frame points at where the object starts (or its pod template), without a highlighted range.
  const objectStart = sources.locate(entry.object, undefined);
  const componentAt = objectStart ? { file: objectStart.file, start: objectStart.start } : undefined;
  frames.push({ name: entry.object ? `${component} (${entry.object})` : component, ...at(componentAt), ...base });
  return frames;
}

/** HEADLINE_CHARS bounds the part of a step's result a frame's name carries. */
const HEADLINE_CHARS = 48;

/** headline is the first clause of a step's result (up to a dash, colon or semicolon), at most HEADLINE_CHARS long. */
export function headline(result: string): string {
  const clause = result.split(/ — |: |; /, 1)[0] ?? result;
  return clause.length <= HEADLINE_CHARS ? clause : `${clause.slice(0, HEADLINE_CHARS - 1)}…`;
}

/** clusterObjectOf names the cluster object a sub-step is about: the RBAC binding that allowed it, or its node. */
function clusterObjectOf(entry: TraceEntry): { kind: string; namespace?: string; name: string } | undefined {
  if (entry.step?.kind === 'node') return { kind: 'Node', name: entry.step.name };
  const match = (entry.detail.detail as { match?: { binding?: { kind?: unknown; name?: unknown; namespace?: unknown } } } | undefined)?.match?.binding;
  if (entry.step?.kind !== 'authorizer' || typeof match?.kind !== 'string' || typeof match.name !== 'string') return undefined;
  return { kind: match.kind, name: match.name, ...(typeof match.namespace === 'string' ? { namespace: match.namespace } : {}) };
}

/**
 * entryFrame is the one frame shown before the first phase: `kubectl apply` (or the kubectl command line the run starts
 * from) at the start of the manifest's first document.
 */
export function entryFrame(sim: Simulation, manifest: string): FrameSpec {
  const doc = sim.inputs.manifest[0];
  const object = doc ? refOfDocument(doc) : undefined;
  return {
    name: kubectlCommandLine(sim.inputs) ?? `kubectl apply -f ${basename(manifest)}`,
    ...(doc ? { location: { file: doc.file, start: doc.range.start } } : {}),
    ...(object ? { object } : {}),
  };
}

/** refOfDocument is the reference kubectl gives a manifest document's object (`Pod/default/web`). */
export function refOfDocument(doc: SourceDocument): ObjectRef | undefined {
  const kind = doc.object.kind;
  const name = doc.object.metadata?.name;
  return kind && name ? `${kind}/${doc.object.metadata?.namespace ?? 'default'}/${name}` : undefined;
}

/** sourceOfFile describes an input file for the client: a path on disk, or the embedded cluster by reference. */
export function sourceOfFile(file: string): { name: string; path?: string; sourceReference?: number; origin?: string } {
  if (file === DEFAULT_CLUSTER_FILE) return { name: 'default-cluster.yaml', sourceReference: EMBEDDED_CLUSTER_SOURCE, origin: 'embedded default cluster' };
  if (file === GENERATED_FILE) return { name: 'kubectl-generated.yaml', sourceReference: GENERATED_SOURCE, origin: 'generated by kubectl (as --dry-run=client -o yaml prints it)' };
  const path = resolve(file);
  return { name: basename(path), path };
}

/**
 * highlight picks the part of a field's range the editor should mark: the key and its value when they share a
 * line (`image: nginx:1.27`), the key alone when the value is a block below it (`resources:`).
 */
function highlight(range: FieldRange): { start: Position; end?: Position } {
  const { key, value } = range;
  if (key) {
    const oneLine = value.start.line === key.start.line && value.end.line === key.start.line;
    return { start: key.start, end: oneLine ? value.end : key.end };
  }
  return value.start.line === value.end.line ? { start: value.start, end: value.end } : { start: value.start };
}

/** safeParents lists a path's ancestors, or none when the engine wrote a path the parser does not accept. */
function safeParents(path: string): string[] {
  try {
    return parentPaths(path);
  } catch {
    return [];
  }
}
