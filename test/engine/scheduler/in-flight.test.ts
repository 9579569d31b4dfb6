// The in-flight events log: each pod in flight sees exactly the events since it was popped (shared ones, then its own),
// as a per-pod list would give, while the log drops what no pod in flight can see.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../../src/engine/runtime/random';
import { InFlight } from '../../../src/engine/scheduler/queue/in-flight';

const seeds = [1, 2, 3, 42];

for (const seed of seeds) {
  test(`in-flight pods see the events since they took off (seed ${seed})`, () => {
    const rng = new Random(seed);
    const random = (n: number): number => rng.intn(n);
    const log = new InFlight<number>();
    // The model: a list per pod in flight, as the queue kept them before.
    const model = new Map<string, { shared: number[]; own: number[] }>();
    let event = 0;
    for (let step = 0; step < 5000; step++) {
      const key = `p${random(40)}`;
      const action = random(10);
      if (action < 3) {
        log.start(key);
        model.set(key, { shared: [], own: [] });
      } else if (action < 5) {
        assert.deepEqual(log.seen(key), model.has(key) ? [...model.get(key)!.shared, ...model.get(key)!.own] : [], `step ${step}`);
        log.done(key);
        model.delete(key);
      } else if (action < 9) {
        event++;
        log.broadcast(event);
        for (const m of model.values()) m.shared.push(event);
      } else {
        event++;
        assert.equal(log.tell(key, event), model.has(key));
        model.get(key)?.own.push(event);
      }
      assert.equal(log.size, model.size);
    }
    for (const [key, m] of model) assert.deepEqual(log.seen(key), [...m.shared, ...m.own]);
  });
}

test('a long run of pods landing in order keeps only the events the ones in flight can see', () => {
  const log = new InFlight<number>();
  for (let i = 0; i < 3000; i++) {
    log.start(`p${i}`);
    log.broadcast(i);
    if (i >= 2) {
      // Each pod lands two pops later: it saw its own pop's event and the next two.
      assert.deepEqual(log.seen(`p${i - 2}`), [i - 2, i - 1, i]);
      log.done(`p${i - 2}`);
    }
  }
  assert.deepEqual(log.seen('p2999'), [2999]);
  assert.deepEqual(log.seen('p2998'), [2998, 2999]);
  assert.equal(log.size, 2);
});
