// The virtual clock and the discrete-event queue: a 30 s grace period costs no real time.

/** Millis is a virtual time in milliseconds since the run began. */
export type Millis = number;

/** MAX_STAMPS bounds the timestamps a clock keeps for reuse. */
const MAX_STAMPS = 4096;

/** VirtualClock holds the simulation's current virtual time and the wall-clock instant it starts at. */
export class VirtualClock {
  now: Millis = 0;

  constructor(readonly epoch: Date = new Date('2026-01-01T00:00:00Z')) {}

  /** seconds is the current virtual time in seconds. */
  get seconds(): number {
    return this.now / 1000;
  }

  /**
   * timestamp renders a virtual time as an RFC 3339 timestamp with second precision, as metav1.Time marshals. The
   * same second gives the same string: the thousands of objects stamped in one second share it.
   */
  timestamp(at: Millis = this.now): string {
    const second = Math.floor(at / 1000);
    let text = this.stamps.get(second);
    if (text === undefined) {
      const iso = new Date(this.epoch.getTime() + second * 1000).toISOString();
      // One piece (joined), not a concatenation's tree of pieces.
      text = [iso.slice(0, 19), 'Z'].join('');
      if (this.stamps.size >= MAX_STAMPS) this.stamps.clear();
      this.stamps.set(second, text);
    }
    return text;
  }

  private readonly stamps = new Map<number, string>();
}

/** ScheduledTask is one entry of the event queue. */
export interface ScheduledTask<T> {
  at: Millis;
  seq: number;
  label: string;
  task: T;
  cancelled: boolean;
}

/** EventQueue orders tasks by virtual time, then by the order they were scheduled in. */
export class EventQueue<T> {
  private heap: ScheduledTask<T>[] = [];
  private seq = 0;

  /** push schedules a task at a virtual time and returns a handle that can cancel it. */
  push(at: Millis, label: string, task: T): ScheduledTask<T> {
    const entry: ScheduledTask<T> = { at, seq: this.seq++, label, task, cancelled: false };
    this.heap.push(entry);
    this.up(this.heap.length - 1);
    return entry;
  }

  /** pop removes and returns the earliest live task, or undefined when none is left. */
  pop(): ScheduledTask<T> | undefined {
    while (this.heap.length > 0) {
      const top = this.removeTop();
      if (!top.cancelled) return top;
    }
    return undefined;
  }

  /** peek returns the earliest live task without removing it; only cancelled tasks before it are dropped. */
  peek(): ScheduledTask<T> | undefined {
    while (this.heap.length > 0 && this.heap[0]!.cancelled) this.removeTop();
    return this.heap[0];
  }

  private removeTop(): ScheduledTask<T> {
    const top = this.heap[0]!;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  /** size counts the live tasks. */
  get size(): number {
    return this.heap.filter((e) => !e.cancelled).length;
  }

  private less(a: ScheduledTask<T>, b: ScheduledTask<T>): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
      if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}
