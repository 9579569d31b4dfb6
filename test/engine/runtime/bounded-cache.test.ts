// A bounded cache keeps what its function made, by key, and starts over past its bound; a throw keeps nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedCache } from '../../../src/engine/runtime/bounded-cache';

const cases: { name: string; max: number; keys: string[]; made: string[] }[] = [
  { name: 'a key asked again is not made again', max: 4, keys: ['a', 'b', 'a', 'b'], made: ['a', 'b'] },
  { name: 'past the bound it starts over: the first keys are made again', max: 2, keys: ['a', 'b', 'c', 'a'], made: ['a', 'b', 'c', 'a'] },
  { name: 'within the bound nothing is forgotten', max: 3, keys: ['a', 'b', 'c', 'a', 'b', 'c'], made: ['a', 'b', 'c'] },
];

for (const c of cases) {
  test(`bounded cache: ${c.name}`, () => {
    const cache = new BoundedCache<string, string>(c.max);
    const made: string[] = [];
    const values = c.keys.map((k) => cache.get(k, (key) => (made.push(key), key.toUpperCase())));
    assert.deepEqual(values, c.keys.map((k) => k.toUpperCase()));
    assert.deepEqual(made, c.made);
  });
}

test('bounded cache: a make that throws keeps nothing, and the next ask makes it again', () => {
  const cache = new BoundedCache<string, number>(4);
  let calls = 0;
  assert.throws(() => cache.get('x', () => { calls++; throw new Error('invalid'); }), /invalid/);
  assert.equal(cache.get('x', () => ++calls), 2);
});
