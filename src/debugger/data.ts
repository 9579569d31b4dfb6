// Data breakpoints on a pod's fields (status.phase, spec.nodeName, metadata.deletionTimestamp, a container's
// state, or any other): the run stops on the entry after which the stored value differs.
import type { DebugProtocol } from '@vscode/debugprotocol';
import { type PathSegment, parseFieldPath } from '../engine/api/fieldpath';
import { type KubeObject, type ObjectRef, refOf } from '../engine/api/types';
import { type BreakpointOptions, readOptions } from './breakpoints';
import { walk } from './expressions';

/** ReadField reads a field of a stored object as it is now (undefined when the object or field is absent). */
export type ReadField = (ref: ObjectRef, path: readonly PathSegment[]) => unknown;

/** DataBreakpoint is one watched pod field and the value it had when last looked at. */
export interface DataBreakpoint extends BreakpointOptions {
  id: number;
  dataId: string;
  ref: ObjectRef;
  path: PathSegment[];
  field: string;
  last: string;
}

/** dataIdOf names a pod field for setDataBreakpoints: `Pod/default/web#status.phase`. */
export function dataIdOf(ref: ObjectRef, field: string): string {
  return `${ref}#${field}`;
}

/** dataBreakpointInfo says whether a field can be watched, and by which dataId. */
export function dataBreakpointInfo(ref: ObjectRef | undefined, field: string | undefined): DebugProtocol.DataBreakpointInfoResponse['body'] {
  if (!ref || !ref.startsWith('Pod/') || !field) {
    return { dataId: null, description: 'Only the fields of a pod (in the Pod scope) can be watched: status.phase, spec.nodeName, metadata.deletionTimestamp, a container\'s state.' };
  }
  try {
    parseFieldPath(field);
  } catch {
    return { dataId: null, description: `${field} is not a field path.` };
  }
  return { dataId: dataIdOf(ref, field), description: `${ref.slice('Pod/'.length)} ${field} changes`, accessTypes: ['write'], canPersist: true };
}

/** DataBreakpoints holds the watched fields of the session. */
export class DataBreakpoints {
  private breakpoints: DataBreakpoint[] = [];

  constructor(private readonly ids: { next(): number }) {}

  /** set replaces the watched fields; each starts from the value it has now. */
  set(requested: readonly DebugProtocol.DataBreakpoint[], read: ReadField | undefined): DebugProtocol.Breakpoint[] {
    this.breakpoints = [];
    return requested.map((bp) => {
      const id = this.ids.next();
      const hash = bp.dataId.lastIndexOf('#');
      const ref = hash > 0 ? bp.dataId.slice(0, hash) : '';
      const field = bp.dataId.slice(hash + 1);
      let path: PathSegment[];
      try {
        path = parseFieldPath(field);
      } catch {
        return { id, verified: false, message: `"${bp.dataId}" names no pod field.` };
      }
      if (!ref.startsWith('Pod/')) return { id, verified: false, message: `"${bp.dataId}" names no pod field.` };
      const options = readOptions(bp);
      if (typeof options === 'string') return { id, verified: false, message: options };
      this.breakpoints.push({ id, dataId: bp.dataId, ref, path, field, ...options, last: read ? fingerprint(read(ref, path)) : '' });
      return { id, verified: true, message: `Stops when ${field} of ${ref.slice('Pod/'.length)} changes.` };
    });
  }

  /** changed lists the watched fields whose value differs from the last look, and remembers the new values. */
  changed(read: ReadField): DataBreakpoint[] {
    const out: DataBreakpoint[] = [];
    for (const bp of this.breakpoints) {
      const now = fingerprint(read(bp.ref, bp.path));
      if (now !== bp.last) out.push(bp);
      bp.last = now;
    }
    return out;
  }

  /** changedBetween lists the watched fields that differ between two states (for running backwards). */
  changedBetween(before: ReadField, after: ReadField): DataBreakpoint[] {
    return this.breakpoints.filter((bp) => fingerprint(before(bp.ref, bp.path)) !== fingerprint(after(bp.ref, bp.path)));
  }

  /** rebase takes the values of a rewound or restarted run as the last seen. */
  rebase(read: ReadField): void {
    for (const bp of this.breakpoints) bp.last = fingerprint(read(bp.ref, bp.path));
  }

  /** all lists the watched fields. */
  all(): readonly DataBreakpoint[] {
    return this.breakpoints;
  }
}

/** readFrom reads fields from a list of stored objects (a snapshot). */
export function readFrom(objects: readonly KubeObject[]): ReadField {
  const byRef = new Map(objects.map((o) => [refOf(o), o]));
  return (ref, path) => walk(byRef.get(ref), path);
}

function fingerprint(value: unknown): string {
  return value === undefined ? '<absent>' : JSON.stringify(value);
}
