// How the CLI trades time for memory as a run grows. V8 lets the heap grow to two or three times what survived its
// last full collection before it collects again: for a small run that costs nothing and saves collections; for a big
// one, whose every pod is written many times and whose old versions are dropped, most of the memory is garbage.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import type { TraceEntry, TraceSink } from '../engine/runtime/recorder';

/**
 * HEAP_GROWING_PERCENT is how far the heap may grow past what survived its last full collection once it is tight.
 * At 50% a 30,000-pod run peaks at about 690 MB instead of 1.2 GB; a 10,000-pod run on 5,000 nodes takes about 15%
 * longer than with V8's own growth, which is why it is not the rule from the start.
 */
const HEAP_GROWING_PERCENT = 50;

/** TIGHT_FROM_BYTES is the heap's size from which memory counts more than time: a run this big is near its end. */
const TIGHT_FROM_BYTES = 768 * 2 ** 20;

/** tightenHeap makes V8 collect once the heap has grown by half of what was live. */
export function tightenHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * HeapWatch passes the trace on to a sink and, each time a batch of entries goes by, tightens the heap once it has
 * grown past TIGHT_FROM_BYTES: small and medium runs keep V8's faster growth, big ones stay within their memory.
 */
export class HeapWatch implements TraceSink {
  private tight = false;

  constructor(readonly inner: TraceSink) {}

  accept(entries: readonly TraceEntry[]): void {
    this.inner.accept(entries);
    if (!this.tight && getHeapStatistics().total_heap_size >= TIGHT_FROM_BYTES) {
      this.tight = true;
      tightenHeap();
    }
  }
}
