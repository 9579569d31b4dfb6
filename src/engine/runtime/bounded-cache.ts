// A cache of what a pure function made, by key, that never holds more than a bound: past it, it starts over. For values
// a run makes again and again from a few keys (a cluster's images, quantities, selectors), kept for the run's life
// without growing with what a long run passes through.

/** BoundedCache remembers `make(key)` for up to `max` keys; the key past them empties it first. */
export class BoundedCache<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly max: number) {}

  /** get is the value kept for `key`, or `make(key)`, kept; a `make` that throws keeps nothing. */
  get(key: K, make: (key: K) => V): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = make(key);
      if (this.values.size >= this.max) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}
