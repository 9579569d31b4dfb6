// How the CLI trades time for memory as a run grows. V8 lets the heap grow to two or three times what survived its
// last full collection before it collects again: for a small run that costs nothing and saves collections; for a big
// one, whose every pod is written many times and whose old versions are dropped, most of the memory is garbage.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import type { TraceEntry, TraceSink } from '../engine/runtime/recorder';

/**
 * STEPS are how far the heap may grow past what survived its last full collection, by the heap's size. From 768 MB,
 * 50%: a 30,000-pod run peaks at about 690 MB instead of 1.2 GB, and a 10,000-pod run on 5,000 nodes, which V8's own
 * growth serves about 15% faster, is not slowed. From 1.5 GB, 20%: at 100,000 pods about 1.1 GB survives each
 * collection, and at 50% the heap reached 1.7 GB between them.
 */
const STEPS: readonly { fromBytes: number; percent: number }[] = [
  { fromBytes: 768 * 2 ** 20, percent: 50 },
  { fromBytes: 1536 * 2 ** 20, percent: 20 },
];

/** tightenHeap makes V8 collect once the heap has grown by half of what was live (the first step, from the start). */
export function tightenHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${STEPS[0]!.percent}`);
}

/**
 * HeapWatch passes the trace on to a sink and, each time a batch of entries goes by, tightens the heap a step as it
 * grows past each size of STEPS: small and medium runs keep V8's faster growth, big ones stay within their memory.
 */
export class HeapWatch implements TraceSink {
  private next = 0;

  constructor(readonly inner: TraceSink) {}

  accept(entries: readonly TraceEntry[]): void {
    this.inner.accept(entries);
    const step = STEPS[this.next];
    if (step && getHeapStatistics().total_heap_size >= step.fromBytes) {
      this.next++;
      setFlagsFromString(`--heap-growing-percent=${step.percent}`);
    }
  }
}
