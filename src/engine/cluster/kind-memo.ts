// What is worked out from a store's objects of a few kinds alone, kept until one of those kinds changes: RBAC's
// decisions (bindings and roles), the service variables of a container (Services).
import { BoundedCache } from '../runtime/bounded-cache';
import type { Store } from './store';

/** KindMemo keeps values by key per store; a put or remove of an object of one of its kinds forgets them. */
export class KindMemo<V> {
  private readonly kept = new WeakMap<Store, { revision: number; values: BoundedCache<string, V> }>();

  constructor(private readonly kinds: readonly string[], private readonly max = 4096) {}

  /** get is the value kept for `key` in `store`, or `make()`, kept while the kinds stay the same. */
  get(store: Store, key: string, make: () => V): V {
    let revision = 0;
    for (const kind of this.kinds) revision = Math.max(revision, store.kindRevision(kind));
    let kept = this.kept.get(store);
    if (kept?.revision !== revision) this.kept.set(store, (kept = { revision, values: new BoundedCache(this.max) }));
    return kept.values.get(key, make);
  }
}
