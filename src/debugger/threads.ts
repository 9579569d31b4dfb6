// Threads of the debug session: one per pod (its lifecycle is a program of its own) and thread 1, the control
// plane, for the entries about every other object. Each thread remembers the last entry it reached.
import type { ObjectRef } from '../engine/api/types';
import type { TraceEntry } from '../engine/runtime/recorder';

/** CONTROL_PLANE_THREAD is the thread of the entries that are not about a pod (Deployments, ReplicaSets, Services). */
export const CONTROL_PLANE_THREAD = 1;

/** ThreadInfo is one thread as the client lists it, and where it is. */
export interface ThreadInfo {
  id: number;
  name: string;
  /** ref is the pod of a pod thread. */
  ref?: ObjectRef;
  /** last is the last trace entry of this thread so far. */
  last?: TraceEntry;
}

/** Threads maps trace entries to threads, creating a pod's thread when the pod first shows up. */
export class Threads {
  private readonly byRef = new Map<ObjectRef, ThreadInfo>();
  private readonly byId = new Map<number, ThreadInfo>([[CONTROL_PLANE_THREAD, { id: CONTROL_PLANE_THREAD, name: 'control plane' }]]);
  private nextId = CONTROL_PLANE_THREAD + 1;
  /** gone are the pods whose thread ended with the pod: what the controllers still do about them is control plane work. */
  private readonly gone = new Set<ObjectRef>();

  /** threadOf returns the thread of an object: its pod thread when it is a pod, else the control plane. */
  threadOf(ref: ObjectRef | undefined): { thread: ThreadInfo; created: boolean } {
    if (!ref || !isPodRef(ref) || this.gone.has(ref)) return { thread: this.byId.get(CONTROL_PLANE_THREAD)!, created: false };
    const known = this.byRef.get(ref);
    if (known) return { thread: known, created: false };
    const thread: ThreadInfo = { id: this.nextId++, name: podThreadName(ref), ref };
    this.byRef.set(ref, thread);
    this.byId.set(thread.id, thread);
    return { thread, created: true };
  }

  /** observe files an entry under its thread and returns that thread (and whether it is new). */
  observe(entry: TraceEntry): { thread: ThreadInfo; created: boolean } {
    const found = this.threadOf(entry.object);
    found.thread.last = entry;
    return found;
  }

  /** get returns a thread by id. */
  get(id: number): ThreadInfo | undefined {
    return this.byId.get(id);
  }

  /** remove forgets a pod's thread once the pod is gone from the cluster; the control plane stays. */
  remove(id: number): ThreadInfo | undefined {
    const thread = this.byId.get(id);
    if (!thread || id === CONTROL_PLANE_THREAD) return undefined;
    this.byId.delete(id);
    if (thread.ref) {
      this.byRef.delete(thread.ref);
      this.gone.add(thread.ref);
    }
    return thread;
  }

  /** list returns every thread, the control plane first, then the pods in the order they appeared. */
  list(): ThreadInfo[] {
    return [...this.byId.values()];
  }
}

/** isPodRef tells whether a trace reference names a pod (`Pod/default/web`). */
export function isPodRef(ref: ObjectRef): boolean {
  return ref.startsWith('Pod/');
}

/** podThreadName names a pod's thread as kubectl names the pod: `Pod default/web`. */
export function podThreadName(ref: ObjectRef): string {
  return `Pod ${ref.slice('Pod/'.length)}`;
}
