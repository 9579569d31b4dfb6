// Goroutines of one task (runtime/parallel.ts): each runs until it waits, the one due soonest goes on (ties in the order
// they were started), their entries in the order they happen, and the task waits for the one due next.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parallel, parallelizeUntil } from '../../../src/engine/runtime/parallel';
import { entriesOf, isSleep, sleep, type Steps } from '../../../src/engine/runtime/step';

/** goroutine records `name@ms` at each of its waits' ends, then returns its name. */
function* goroutine(name: string, waits: number[], clock: { now: number }): Steps<string> {
  yield { phase: 'controllers.replicaset', result: `${name}@${clock.now}` };
  for (const ms of waits) {
    yield* sleep(ms);
    yield { phase: 'controllers.replicaset', result: `${name}@${clock.now}` };
  }
  return name;
}

const cases: { name: string; waits: number[][]; entries: string[]; slept: number[] }[] = [
  { name: 'none waits: one after another, at once', waits: [[], []], entries: ['a@0', 'b@0'], slept: [] },
  { name: 'the one due soonest goes on', waits: [[300], [100, 100]], entries: ['a@0', 'b@0', 'b@100', 'b@200', 'a@300'], slept: [100, 100, 100] },
  { name: 'due at the same time: in the order started', waits: [[100], [100]], entries: ['a@0', 'b@0', 'a@100', 'b@100'], slept: [100] },
  { name: 'the task waits for the slowest', waits: [[50], [5000], []], entries: ['a@0', 'b@0', 'c@0', 'a@50', 'b@5000'], slept: [50, 4950] },
];
for (const c of cases) {
  test(`parallel: ${c.name}`, () => {
    const clock = { now: 0 };
    const names = ['a', 'b', 'c'];
    const gen = parallel(c.waits.map((w, i) => goroutine(names[i]!, w, clock)), () => clock.now);
    const entries: string[] = [];
    const slept: number[] = [];
    let step = gen.next();
    for (; !step.done; step = gen.next()) {
      if (isSleep(step.value)) {
        slept.push(step.value.sleep);
        clock.now += step.value.sleep;
      } else entries.push(...entriesOf(step.value).map((e) => e.result));
    }
    assert.deepEqual(entries, c.entries);
    assert.deepEqual(slept, c.slept);
    assert.deepEqual(step.value, names.slice(0, c.waits.length));
  });
}

test('parallel: 1,000 goroutines with waits of every length go on by when each is due, then by the order started', () => {
  const clock = { now: 0 };
  const waits = Array.from({ length: 1000 }, (_, i) => [(i * 7919) % 97, (i * 104729) % 13]);
  const gen = parallel(waits.map((w, i) => goroutine(String(i), w, clock)), () => clock.now);
  const seen: { at: number; index: number }[] = [];
  let step = gen.next();
  for (; !step.done; step = gen.next()) {
    if (isSleep(step.value)) clock.now += step.value.sleep;
    else {
      for (const e of entriesOf(step.value)) {
        const [name, at] = e.result.split('@');
        seen.push({ at: Number(at), index: Number(name) });
      }
    }
  }
  assert.equal(seen.length, 3000);
  // Each goroutine's entries in its own order; across them, by time (a goroutine due again at the same instant as one
  // started later goes on first only if it was started first).
  assert.deepEqual(seen.map((s) => s.at), [...seen.map((s) => s.at)].sort((a, b) => a - b));
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1]!, seen[i]!];
    if (a.at === b.at && a.index > b.index) {
      // Allowed only when a ran on without waiting (its wait was 0): the same goroutine's entries come together.
      assert.fail(`at ${a.at}: goroutine ${a.index} went on before ${b.index}`);
    }
  }
  assert.equal(step.value.length, 1000);
});

// kube-scheduler's Parallelizer.Until (pkg/scheduler/framework/parallelize/parallelism.go, v1.36.3): pieces in chunks of
// about their square root, at most pieces / parallelism + 1; one worker a chunk up to the parallelism; a worker takes the
// next chunk once done with its own. Each piece here waits 10 ms: the total is the longest worker's pieces × 10 ms.
const untilCases: { name: string; pieces: number; parallelism: number; ms: number; firstAt10: number[] }[] = [
  { name: '10 pieces, 16 goroutines: chunks of 1, all at once', pieces: 10, parallelism: 16, ms: 10, firstAt10: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] },
  { name: '100 pieces, 16 goroutines: 15 chunks of 7 (the last of 2), 15 workers', pieces: 100, parallelism: 16, ms: 70, firstAt10: [0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98] },
  { name: '20 pieces, 2 goroutines: 5 chunks of 4, each worker taking the next when done (3 for the first)', pieces: 20, parallelism: 2, ms: 120, firstAt10: [0, 4] },
];
for (const c of untilCases) {
  test(`parallelizeUntil: ${c.name}`, () => {
    const clock = { now: 0 };
    const done: { piece: number; at: number }[] = [];
    const gen = parallelizeUntil(c.pieces, c.parallelism, function* (piece) {
      yield* sleep(10);
      done.push({ piece, at: clock.now });
    }, () => clock.now);
    for (let step = gen.next(); !step.done; step = gen.next()) if (isSleep(step.value)) clock.now += step.value.sleep;
    assert.equal(clock.now, c.ms);
    assert.equal(done.length, c.pieces);
    assert.deepEqual(done.filter((d) => d.at === 10).map((d) => d.piece), c.firstAt10);
  });
}
