// Goroutines of one task: what a controller sends from as many goroutines at once (slowStartBatch's batch of creates)
// and waits for as a whole (sync.WaitGroup), run within the task in virtual time.
import type { Millis } from './clock';
import { isSleep, type Steps } from './step';

/**
 * parallel runs `tasks` as goroutines started at the same instant and waits for them all: each runs until it waits,
 * then the one due soonest goes on (ties in the order given, the order `go` started them), each task's entries recorded
 * as they happen; the task waits for the one due next. It returns each task's result, in the order given. The tasks
 * waiting are kept in a heap by when each is due: a batch of 30,000 creates, each waiting for its client's token once,
 * costs a log, not a scan, per wait.
 */
export function* parallel<R>(tasks: readonly Steps<R>[], now: () => Millis): Steps<R[]> {
  const results = new Array<R>(tasks.length);
  const start = now();
  const due = new DueHeap();
  for (let i = 0; i < tasks.length; i++) due.push(start, i);
  for (let next = due.pop(); next !== undefined; next = due.pop()) {
    const wait = next.at - now();
    if (wait > 0) yield { sleep: wait };
    const task = tasks[next.index]!;
    for (;;) {
      const step = task.next();
      if (step.done) {
        results[next.index] = step.value;
        break;
      }
      if (isSleep(step.value)) {
        due.push(now() + step.value.sleep, next.index);
        break;
      }
      yield step.value;
    }
  }
  return results;
}

/**
 * parallelizeUntil is workqueue.ParallelizeUntil with kube-scheduler's chunk size (parallelize.Parallelizer.Until,
 * pkg/scheduler/framework/parallelize/parallelism.go, v1.36.3): the pieces cut in chunks of about their square root
 * (at most pieces / parallelism + 1), as many workers as chunks up to `parallelism`, each taking the next chunk when
 * done with one and doing its pieces in order.
 */
export function* parallelizeUntil(pieces: number, parallelism: number, work: (piece: number) => Steps<void>, now: () => Millis): Steps<void> {
  if (pieces <= 0) return;
  let chunkSize = Math.trunc(Math.sqrt(pieces));
  const most = Math.trunc(pieces / parallelism) + 1;
  if (chunkSize > most) chunkSize = most;
  else if (chunkSize < 1) chunkSize = 1;
  const chunks = Math.ceil(pieces / chunkSize);
  let next = 0;
  function* worker(): Steps<void> {
    for (let chunk = next++; chunk < chunks; chunk = next++) {
      for (let piece = chunk * chunkSize; piece < Math.min(pieces, (chunk + 1) * chunkSize); piece++) yield* work(piece);
    }
  }
  yield* parallel(Array.from({ length: Math.min(parallelism, chunks) }, () => worker()), now);
}

/** DueHeap is a binary min-heap of tasks by when each is due, then by the order they were started. */
class DueHeap {
  private readonly at: Millis[] = [];
  private readonly index: number[] = [];

  push(at: Millis, index: number): void {
    let i = this.at.length;
    this.at.push(at);
    this.index.push(index);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): { at: Millis; index: number } | undefined {
    if (this.at.length === 0) return undefined;
    const top = { at: this.at[0]!, index: this.index[0]! };
    const lastAt = this.at.pop()!;
    const lastIndex = this.index.pop()!;
    if (this.at.length > 0) {
      this.at[0] = lastAt;
      this.index[0] = lastIndex;
      for (let i = 0; ;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < this.at.length && this.before(left, least)) least = left;
        if (right < this.at.length && this.before(right, least)) least = right;
        if (least === i) break;
        this.swap(i, least);
        i = least;
      }
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    return this.at[a]! < this.at[b]! || (this.at[a] === this.at[b] && this.index[a]! < this.index[b]!);
  }

  private swap(a: number, b: number): void {
    [this.at[a], this.at[b]] = [this.at[b]!, this.at[a]!];
    [this.index[a], this.index[b]] = [this.index[b]!, this.index[a]!];
  }
}
