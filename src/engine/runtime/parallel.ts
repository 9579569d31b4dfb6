// Goroutines of one task: what a controller sends from as many goroutines at once (slowStartBatch's batch of creates)
// and waits for as a whole (sync.WaitGroup), run within the task in virtual time.
import type { Millis } from './clock';
import { isSleep, type Steps } from './step';

/**
 * parallel runs `tasks` as goroutines started at the same instant and waits for them all: each runs until it waits,
 * then the one due soonest goes on (ties in the order given, the order `go` started them), each task's entries recorded
 * as they happen; the task waits for the one due next. It returns each task's result, in the order given.
 */
export function* parallel<R>(tasks: readonly Steps<R>[], now: () => Millis): Steps<R[]> {
  const results = new Array<R>(tasks.length);
  const dueAt = tasks.map(() => now());
  const done = tasks.map(() => false);
  for (let left = tasks.length; left > 0;) {
    let next = -1;
    for (let i = 0; i < tasks.length; i++) if (!done[i] && (next < 0 || dueAt[i]! < dueAt[next]!)) next = i;
    const wait = dueAt[next]! - now();
    if (wait > 0) yield { sleep: wait };
    for (;;) {
      const step = tasks[next]!.next();
      if (step.done) {
        results[next] = step.value;
        done[next] = true;
        left--;
        break;
      }
      if (isSleep(step.value)) {
        dueAt[next] = now() + step.value.sleep;
        break;
      }
      yield step.value;
    }
  }
  return results;
}
