// unschedulablePods, the scheduling queue's parking place for pods no cluster event has made worth another try yet,
// with the oldest ungated pod's time kept at hand: the flush timer asks for it after every watch event, and a cluster
// with thousands of unschedulable pods must not walk them all each time.
// See pkg/scheduler/backend/queue/scheduling_queue.go (unschedulablePods, flushUnschedulablePodsLeftover).
import type { Millis } from '../../runtime/clock';

/** Parked is what the map keeps of a pod: its key, the time it was parked, and the plugin gating it ('' if none). */
export interface Parked {
  key: string;
  timestamp: Millis;
  gatingPlugin: string;
}

/** UnschedulablePods is a map of parked pods by key that knows its oldest ungated one without a walk, mostly. */
export class UnschedulablePods<P extends Parked> {
  private readonly pods = new Map<string, P>();
  /** oldest is the oldest ungated pod, null when none, undefined when it must be found again. */
  private oldest: P | null | undefined = null;

  get size(): number {
    return this.pods.size;
  }

  has(key: string): boolean {
    return this.pods.has(key);
  }

  get(key: string): P | undefined {
    return this.pods.get(key);
  }

  values(): IterableIterator<P> {
    return this.pods.values();
  }

  set(key: string, p: P): void {
    const before = this.pods.get(key);
    this.pods.set(key, p);
    // A pod parked again may have another time or gate: the oldest is found again. A new pod is only compared.
    if (before !== undefined) this.oldest = undefined;
    else if (this.oldest !== undefined && p.gatingPlugin === '' && (this.oldest === null || p.timestamp < this.oldest.timestamp)) this.oldest = p;
  }

  delete(key: string): boolean {
    const had = this.pods.delete(key);
    if (had && this.oldest?.key === key) this.oldest = undefined;
    return had;
  }

  /** oldestUngatedTimestamp is the earliest time an ungated pod was parked at, or undefined when none is. */
  oldestUngatedTimestamp(): Millis | undefined {
    // A PreEnqueue check may gate a parked pod where it stands.
    if (this.oldest && this.oldest.gatingPlugin !== '') this.oldest = undefined;
    if (this.oldest === undefined) {
      this.oldest = null;
      for (const p of this.pods.values()) if (p.gatingPlugin === '' && (this.oldest === null || p.timestamp < this.oldest.timestamp)) this.oldest = p;
    }
    return this.oldest?.timestamp;
  }
}
