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

  /** pod returns the pod with its spec's parts, labels and owner references shared; the pod itself is not. */
  pod<T extends Meta>(pod: T): T {
    const spec = (pod as { spec?: unknown }).spec;
    const meta = pod.metadata;
    if (spec === null || typeof spec !== 'object' || this.seen.has(spec)) return pod;
    const sharedSpec = this.children(spec as Record<string, unknown>);
    this.seen.add(sharedSpec);
    const labels = meta?.labels ? this.share(meta.labels) : undefined;
    const owners = meta?.ownerReferences ? this.share(meta.ownerReferences) : undefined;
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
      const part = v !== null && typeof v === 'object' ? this.share(v as object) : v;
      if (k === '__proto__') Object.defineProperty(out, k, { value: part, enumerable: true, writable: true, configurable: true });
      else out[k] = part;
    }
    return out;
  }

  /** share returns the one frozen object with this content (a JSON value: plain objects, arrays, primitives). */
  private share<T extends object>(value: T): T {
    if (this.ids.has(value)) return value;
    // Only plain data is shared; anything else (a Date, a Map) is left as it is.
    const proto = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
    let key = Array.isArray(value) ? '[' : '{';
    const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? new Array<unknown>(value.length) : {};
    for (const k of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[k];
      let part: unknown = v;
      if (v !== null && typeof v === 'object') {
        part = this.share(v as object);
        const id = this.ids.get(part as object);
        // A part that is not plain data cannot be told apart by a key: the object holding it stays its own.
        if (id === undefined) return value;
        key += `${JSON.stringify(k)}:#${id},`;
      } else {
        key += `${JSON.stringify(k)}:${v === undefined ? 'u' : JSON.stringify(v)},`;
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
