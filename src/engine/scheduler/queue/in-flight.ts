// The pods in flight (popped, not yet done) and the events they saw meanwhile, kept as the scheduling queue's
// inFlightPods and inFlightEvents are (pkg/scheduler/backend/queue/active_queue.go): one shared log of events, each pod
// remembering where it joined, and the log's head dropped as the oldest pods land. An event costs O(1), not O(pods).

/** InFlight keeps the events of type E that the pods in flight saw. */
export class InFlight<E> {
  /** log holds the shared events from `base` (the absolute position of log[head]) on. */
  private readonly log: E[] = [];
  private head = 0;
  private base = 0;
  /** pods maps a pod in flight to where it joined the log and the events told to it alone. */
  private readonly pods = new Map<string, { start: number; own: E[] }>();
  /** order lists the pods by when they took off, oldest first (entries of pods since landed are skipped). */
  private readonly order: { key: string; start: number }[] = [];
  private orderHead = 0;

  get size(): number {
    return this.pods.size;
  }

  has(key: string): boolean {
    return this.pods.has(key);
  }

  /** start puts a pod in flight: it sees the events from now on. */
  start(key: string): void {
    const start = this.base + this.log.length - this.head;
    this.pods.set(key, { start, own: [] });
    this.order.push({ key, start });
  }

  /** done lands a pod; the events no pod in flight can see any more are dropped. */
  done(key: string): void {
    if (!this.pods.delete(key)) return;
    if (this.pods.size === 0) {
      this.base += this.log.length - this.head;
      this.log.length = 0;
      this.head = 0;
      this.order.length = 0;
      this.orderHead = 0;
      return;
    }
    while (this.orderHead < this.order.length) {
      const oldest = this.order[this.orderHead]!;
      if (this.pods.get(oldest.key)?.start === oldest.start) break;
      this.orderHead++;
    }
    const keepFrom = this.order[this.orderHead]!.start;
    this.head += keepFrom - this.base;
    this.base = keepFrom;
    // Compact once the dropped part is the larger one, so that dropping costs O(1) amortized.
    if (this.head > 1024 && this.head * 2 > this.log.length) {
      this.log.splice(0, this.head);
      this.head = 0;
    }
    if (this.orderHead > 1024 && this.orderHead * 2 > this.order.length) {
      this.order.splice(0, this.orderHead);
      this.orderHead = 0;
    }
  }

  /** broadcast records an event every pod in flight sees (none is kept when no pod is in flight). */
  broadcast(event: E): void {
    if (this.pods.size > 0) this.log.push(event);
  }

  /** tell records an event for one pod in flight only; false when it is not in flight. */
  tell(key: string, event: E): boolean {
    const pod = this.pods.get(key);
    if (!pod) return false;
    pod.own.push(event);
    return true;
  }

  /** seen lists the events a pod in flight saw: the shared ones since it took off, then its own. */
  seen(key: string): E[] {
    const pod = this.pods.get(key);
    if (!pod) return [];
    return [...this.log.slice(this.head + (pod.start - this.base)), ...pod.own];
  }
}
