// How a process of ours that owns its heap (the CLI, the debug adapter run as a program) trades time for memory as a
// run grows. V8 lets the heap grow to two or three times what survived its last full collection before it collects
// again: for a small run that costs nothing and saves collections; for a big one, whose every pod is written many
// times and whose old versions are dropped, most of the memory is garbage.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { collectNow } from './collect';
import type { ObjectRef } from '../engine/api/types';
import { SINK_LAG, type TraceEntry, type TraceInput, type TraceSink } from '../engine/runtime/recorder';

/**
 * STEPS are how far the heap may grow past what survived its last full collection, by the heap's size: 50% from
 * 512 MB, 20% from 1 GB, 10% from 1.4 GB. V8 keeps the memory it took at its peak, and fragments it: at 100,000 pods
 * on 5,000 nodes the heap it held stayed 700 MB above what was live. Stepping at these sizes (and collecting at once,
 * below) took that run's peak from about 2.3 GB to about 2.1 GB; a 10,000-pod run on 5,000 nodes took no more CPU in
 * the same measurement.
 */
const STEPS: readonly { fromBytes: number; percent: number }[] = [
  { fromBytes: 512 * 2 ** 20, percent: 50 },
  { fromBytes: 1024 * 2 ** 20, percent: 20 },
  { fromBytes: 1434 * 2 ** 20, percent: 10 },
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
  /** left counts the entries the sink left out since the heap was last looked at: a cut run hands on few batches. */
  private left = 0;

  constructor(readonly inner: TraceSink) {}

  leaves(entry: TraceInput): boolean {
    if (this.inner.leaves?.(entry) !== true) return false;
    if (++this.left >= SINK_LAG) this.watch();
    return true;
  }

  isQuiet(object: ObjectRef): boolean {
    return this.inner.isQuiet?.(object) === true;
  }

  accept(entries: readonly TraceEntry[]): void {
    this.inner.accept(entries);
    this.watch();
  }

  private watch(): void {
    this.left = 0;
    const step = STEPS[this.next];
    if (step && getHeapStatistics().total_heap_size >= step.fromBytes) {
      this.next++;
      setFlagsFromString(`--heap-growing-percent=${step.percent}`);
      // V8 reads the growth when it collects: the limit it set at its last collection, with the growth of then,
      // would let the heap reach several times what is live first. Collecting now sets the limit by the new step.
      collectNow();
    }
  }
}
