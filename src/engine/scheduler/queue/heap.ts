// A binary heap with keyed entries: O(log n) add, update, delete and pop, as the scheduling queue's heaps need.
// See pkg/scheduler/backend/heap/heap.go.

/** KeyedHeap orders items by `less` and finds them by key. */
export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly keyOf: (item: T) => string, private readonly less: (a: T, b: T) => boolean) {}

  /** len is the number of items. */
  get len(): number {
    return this.items.length;
  }

  /** has tells whether an item with the key is in the heap. */
  has(key: string): boolean {
    return this.index.has(key);
  }

  /** get returns the item with the key. */
  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  /** addOrUpdate inserts the item, or replaces the one with its key and restores the order. */
  addOrUpdate(item: T): void {
    const key = this.keyOf(item);
    const i = this.index.get(key);
    if (i !== undefined) {
      this.items[i] = item;
      this.fix(i);
      return;
    }
    this.items.push(item);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  /** delete removes the item with the key and returns it. */
  delete(key: string): T | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const item = this.items[i]!;
    const last = this.items.length - 1;
    if (i !== last) this.swap(i, last);
    this.items.pop();
    this.index.delete(key);
    if (i < this.items.length) this.fix(i);
    return item;
  }

  /** peek returns the first item without removing it. */
  peek(): T | undefined {
    return this.items[0];
  }

  /** pop removes and returns the first item. */
  pop(): T | undefined {
    const top = this.items[0];
    if (top !== undefined) this.delete(this.keyOf(top));
    return top;
  }

  /** list returns the items in heap order (not sorted). */
  list(): T[] {
    return [...this.items];
  }

  private fix(i: number): void {
    if (!this.down(i)) this.up(i);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.items[i]!, this.items[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i0: number): boolean {
    let i = i0;
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let j = l;
      if (l + 1 < n && this.less(this.items[l + 1]!, this.items[l]!)) j = l + 1;
      if (!this.less(this.items[j]!, this.items[i]!)) break;
      this.swap(i, j);
      i = j;
    }
    return i > i0;
  }

  private swap(i: number, j: number): void {
    const a = this.items[i]!;
    const b = this.items[j]!;
    this.items[i] = b;
    this.items[j] = a;
    this.index.set(this.keyOf(b), i);
    this.index.set(this.keyOf(a), j);
  }
}
