// The Variables view: JSON values (stored objects, decisions, events) rendered one level at a time behind
// variablesReference handles that live until the next stop; large arrays are paged, nothing is walked in advance.
// A value that belongs to a stored object remembers which object and field, for setVariable and data breakpoints.
import type { DebugProtocol } from '@vscode/debugprotocol';
import { appendFieldPath, formatFieldPath, type PathSegment } from '../engine/api/fieldpath';
import { type KubeObject, type ObjectRef, refOf } from '../engine/api/types';

/** Owner says which stored object (and which field of it) a value is: what setVariable would change. */
export interface Owner {
  ref: ObjectRef;
  path: PathSegment[];
  /** evaluateName is how the console names the value (`pod.spec.nodeName`). */
  prefix?: string;
}

/** ObjectsByName marks a map of stored objects by name (a kind in the Cluster scope): each child is an object of its own. */
export class ObjectsByName {
  constructor(readonly objects: Record<string, KubeObject>) {}
}

/** Described is a value shown by a line of text of its own (a watch's summary) whose children are its fields. */
export class Described {
  constructor(readonly text: string, readonly children: Record<string, unknown> | readonly unknown[]) {}
}

/** Lazy is a value computed only when the user expands it (the Cluster scope's objects). */
export type Lazy = () => Container;

interface Handle {
  value: Container | Lazy;
  owner?: Owner;
  /** objects marks a name → object map whose children are stored objects of their own. */
  objects?: boolean;
}

/** PAGE_THRESHOLD is the length from which an array is shown as indexed children the client pages through. */
export const PAGE_THRESHOLD = 100;

const PREVIEW_LENGTH = 80;

type Container = Record<string, unknown> | readonly unknown[];

/**
 * SessionHandles hands out references that live until the next reset, numbered on across resets: a number is never
 * handed out twice in a session. VS Code still sends requests with the references of the view it is replacing after
 * a stop or a what-if (variables, scopes, setVariable), sometimes after the adapter handed out the new ones; with
 * numbers started over, such a request would be answered for another value (a what-if refused, or made on another
 * field). Numbered on, it is refused as stale.
 */
export class SessionHandles<T> {
  private next = 1000;
  private readonly values = new Map<number, T>();

  create(value: T): number {
    const handle = this.next++;
    this.values.set(handle, value);
    return handle;
  }

  get(handle: number): T | undefined {
    return this.values.get(handle);
  }

  /** reset forgets every handle handed out; the numbers are not handed out again. */
  reset(): void {
    this.values.clear();
  }
}

/** VariableStore hands out references to values and renders their children on request. */
export class VariableStore {
  private readonly handles = new SessionHandles<Handle>();

  /** reset forgets every reference handed out: called at each stop, as references are only valid while stopped. */
  reset(): void {
    this.handles.reset();
  }

  /** reference returns a handle to expand a value, or 0 for values with no children. */
  reference(value: unknown, owner?: Owner, objects = false): number {
    if (typeof value === 'function') return this.handles.create({ value: value as Lazy, ...(objects ? { objects } : {}) });
    return isContainer(value) && size(value) > 0 ? this.handles.create({ value, ...(owner ? { owner } : {}), ...(objects ? { objects } : {}) }) : 0;
  }

  /** ownerOf says which stored object and field the child `name` of a reference is; undefined for read-only values. */
  ownerOf(ref: number, name: string): Owner | undefined {
    const handle = this.handles.get(ref);
    if (!handle?.owner) return undefined;
    const value = this.resolved(handle);
    const key: PathSegment = isArray(value) ? Number(name) : name;
    return { ...handle.owner, path: [...handle.owner.path, key] };
  }

  /** fieldOf writes an owner's path as a field path (`status.containerStatuses[0].state`). */
  static fieldOf(owner: Owner): string {
    return formatFieldPath(owner.path);
  }

  /** has tells whether a reference was handed out since the last reset. */
  has(ref: number): boolean {
    return this.handles.get(ref) !== undefined;
  }

  /** children renders the children of a reference; `start`/`count` page through an array's indexed children. */
  children(ref: number, args: Pick<DebugProtocol.VariablesArguments, 'filter' | 'start' | 'count'> = {}): DebugProtocol.Variable[] | undefined {
    const handle = this.handles.get(ref);
    if (handle === undefined) return undefined;
    const value = this.resolved(handle);
    const child = (key: PathSegment, v: unknown): DebugProtocol.Variable => {
      if (handle.objects && isKubeObject(v)) return this.variable(String(key), v, { ref: refOf(v), path: [] });
      return this.variable(String(key), v, handle.owner ? { ...handle.owner, path: [...handle.owner.path, key] } : undefined);
    };
    if (isArray(value)) {
      if (args.filter === 'named') return [];
      const start = Math.max(0, args.start ?? 0);
      const end = args.count ? Math.min(value.length, start + args.count) : value.length;
      const out: DebugProtocol.Variable[] = [];
      for (let i = start; i < end; i++) out.push(child(i, value[i]));
      return out;
    }
    if (args.filter === 'indexed') return [];
    return Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => child(k, v));
  }

  /** variable renders one named value: its one-line preview, and a reference when it can be expanded. */
  variable(name: string, value: unknown, owner?: Owner, objects = false): DebugProtocol.Variable {
    if (value instanceof ObjectsByName) {
      const count = Object.keys(value.objects).length;
      return { name, value: `${count} object${count === 1 ? '' : 's'}`, type: 'object', variablesReference: this.reference(value.objects, undefined, true), namedVariables: count };
    }
    if (value instanceof Described) return { name, value: value.text, type: 'object', variablesReference: this.reference(value.children) };
    const variable: DebugProtocol.Variable = { name, value: preview(value), type: typeName(value), variablesReference: this.reference(value, owner, objects) };
    if (isArray(value) && value.length >= PAGE_THRESHOLD) variable.indexedVariables = value.length;
    if (owner?.prefix !== undefined) variable.evaluateName = owner.path.reduce<string>((p, s) => appendFieldPath(p, s), owner.prefix);
    return variable;
  }

  private resolved(handle: Handle): Container {
    if (typeof handle.value === 'function') handle.value = handle.value();
    return handle.value;
  }
}

/** preview renders a value on one line: strings quoted, objects by their first keys, Kubernetes objects by kind and name. */
export function preview(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined || typeof value !== 'object') return String(value);
  if (isArray(value)) return `[${value.length}] ${clip(value.map(shortPreview).join(', '))}`.trimEnd();
  const record = value as Record<string, unknown>;
  const meta = record.metadata;
  if (typeof record.kind === 'string' && isRecord(meta) && typeof meta.name === 'string') {
    return `${record.kind} ${typeof meta.namespace === 'string' ? `${meta.namespace}/` : ''}${meta.name}`;
  }
  if (typeof record.reason === 'string' && typeof record.message === 'string') {
    return clip(`${typeof record.type === 'string' ? `${record.type} ` : ''}${record.reason}: ${record.message}`); // a Kubernetes Event
  }
  const entries = Object.entries(record).filter(([, v]) => v !== undefined);
  return `{${clip(entries.map(([k, v]) => `${k}: ${shortPreview(v)}`).join(', '))}}`;
}

function shortPreview(value: unknown): string {
  if (isArray(value)) return `[${value.length}]`;
  if (isRecord(value)) return typeof value.name === 'string' ? `{name: ${JSON.stringify(value.name)}, …}` : '{…}';
  return preview(value);
}

function clip(text: string): string {
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (isArray(value)) return 'array';
  return typeof value;
}

function isArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isKubeObject(value: unknown): value is KubeObject {
  return isRecord(value) && typeof value.kind === 'string' && isRecord(value.metadata);
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function size(value: Container): number {
  return isArray(value) ? value.length : Object.keys(value).length;
}
