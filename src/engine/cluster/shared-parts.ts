// Stored pods share the parts of their spec and metadata that are the same: thousands of pods of one template carry
// equal tolerations, projected token volumes, resources, security contexts, labels and owner references, each a
// handful of small objects. A stored object is frozen and never changed in place, so equal parts can be one object.
// This is memory only: every pod reads as before. Cost: one walk of a pod's spec when its spec is new.
import type { Meta } from '../api/types';

/** MAX_PARTS bounds the table: past it the table starts again (parts a pod alone has fill it, and go with it). */
const MAX_PARTS = 20_000;

/** SharedParts hands out one frozen object per distinct content, by a key made of its children's identities. */
export class SharedParts {
  private readonly byKey = new Map<string, object>();
  /** ids number the shared objects; a child's id stands for its whole content in its parent's key. */
  private readonly ids = new WeakMap<object, number>();
  /** seen are the pod specs already walked: a status write keeps its pod's spec, which is not walked again. */
  private readonly seen = new WeakSet<object>();
  private nextId = 1;
  /**
   * last are the shared parts the previous pod's spec had, by field name (and its labels and owner references): pods
   * of one template come one after another, so a part equal to the last one is found without building its key.
   */
  private readonly last = new Map<string, object>();

  /** pod returns the pod with its spec's parts, labels and owner references shared; the pod itself is not. */
  pod<T extends Meta>(pod: T): T {
    const spec = (pod as { spec?: unknown }).spec;
    const meta = pod.metadata;
    if (spec === null || typeof spec !== 'object' || this.seen.has(spec)) return pod;
    const sharedSpec = this.children(spec as Record<string, unknown>);
    this.seen.add(sharedSpec);
    const labels = meta?.labels ? this.shareLike('\u0000labels', meta.labels) : undefined;
    const owners = meta?.ownerReferences ? this.shareLike('\u0000ownerReferences', meta.ownerReferences) : undefined;
    return {
      ...pod, spec: sharedSpec,
      ...(meta ? { metadata: { ...meta, ...(labels ? { labels } : {}), ...(owners ? { ownerReferences: owners } : {}) } } : {}),
    };
  }

  /** children is a copy of an object whose object and array fields are shared; the object itself is not. */
  private children(o: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o)) {
      const v = o[k];
      const part = v !== null && typeof v === 'object' ? this.shareLike(k, v as object) : v;
      if (k === '__proto__') Object.defineProperty(out, k, { value: part, enumerable: true, writable: true, configurable: true });
      else out[k] = part;
    }
    return out;
  }

  /** shareLike shares a part, against the part the previous pod had under the same name. */
  private shareLike<T extends object>(name: string, value: T): T {
    const part = this.share(value, this.last.get(name));
    if (this.ids.has(part)) this.last.set(name, part);
    return part;
  }

  /**
   * share returns the one frozen object with this content (a JSON value: plain objects, arrays, primitives). `like` is
   * a shared part it may equal (the previous pod's in the same place): its children are shared against like's own, and
   * when each is like's and the keys are like's, it is like, found without building a key. Otherwise only the parts
   * that differ are keyed (a pod's containers differ from the last pod's by the name of one volume mount, deep inside).
   */
  private share<T extends object>(value: T, like?: unknown): T {
    if (this.ids.has(value)) return value;
    // Only plain data is shared; anything else (a Date, a Map) is left as it is.
    const isArray = Array.isArray(value);
    const proto = Object.getPrototypeOf(value);
    if (!isArray && proto !== Object.prototype && proto !== null) return value;
    const likeParts = like !== null && typeof like === 'object' && Array.isArray(like) === isArray ? (like as Record<string, unknown>) : undefined;
    const keys = Object.keys(value);
    const likeKeys = likeParts ? Object.keys(likeParts) : undefined;
    // same stays true while every key so far is like's, in like's place, with like's part or value.
    let same = likeKeys !== undefined && likeKeys.length === keys.length;
    const parts = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = (value as Record<string, unknown>)[k];
      const likeHas = likeParts !== undefined && Object.hasOwn(likeParts, k);
      const part = v !== null && typeof v === 'object' ? this.share(v as object, likeHas ? likeParts[k] : undefined) : v;
      parts[i] = part;
      if (same && (likeKeys![i] !== k || likeParts![k] !== part)) same = false;
    }
    if (same) return like as T;
    let key = isArray ? '[' : '{';
    const copy: Record<string, unknown> | unknown[] = isArray ? new Array<unknown>(keys.length) : {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const part = parts[i];
      if (part !== null && typeof part === 'object') {
        const id = this.ids.get(part);
        // A part that is not plain data cannot be told apart by a key: the object holding it stays its own.
        if (id === undefined) return value;
        key += `${JSON.stringify(k)}:#${id},`;
      } else {
        key += `${JSON.stringify(k)}:${part === undefined ? 'u' : JSON.stringify(part)},`;
      }
      // A `__proto__` key stays an own field, as JSON.parse keeps it.
      if (k === '__proto__') Object.defineProperty(copy, k, { value: part, enumerable: true, writable: true, configurable: true });
      else (copy as Record<string, unknown>)[k] = part;
    }
    const known = this.byKey.get(key);
    if (known) return known as T;
    if (this.byKey.size >= MAX_PARTS) this.byKey.clear();
    Object.freeze(copy);
    this.ids.set(copy, this.nextId++);
    this.byKey.set(key, copy);
    return copy as T;
  }
}
