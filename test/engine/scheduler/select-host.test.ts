// selectHost: the highest total wins; ties are broken by reservoir sampling, every tied node equally likely.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectHost } from '../../../src/engine/scheduler/framework/runner';
import type { NodePluginScores } from '../../../src/engine/scheduler/framework/score';
import { Random } from '../../../src/engine/runtime/random';

const scores = (...totals: [string, number][]): NodePluginScores[] => totals.map(([name, totalScore]) => ({ name, scores: [], totalScore }));

test('the node with the highest total is chosen, whatever the random source says', () => {
  for (let seed = 0; seed < 20; seed++) {
    assert.deepEqual(selectHost(scores(['a', 10], ['b', 30], ['c', 20]), new Random(seed)), { chosen: 'b', tied: ['b'] });
  }
});

test('ties at the top are broken uniformly: each of three tied nodes wins about a third of the time', () => {
  const rng = new Random(7);
  const wins = new Map<string, number>();
  const runs = 3000;
  for (let i = 0; i < runs; i++) {
    const { chosen, tied } = selectHost(scores(['a', 50], ['low', 10], ['b', 50], ['c', 50]), rng);
    assert.deepEqual(tied, ['a', 'b', 'c']);
    wins.set(chosen, (wins.get(chosen) ?? 0) + 1);
  }
  for (const node of ['a', 'b', 'c']) assert.ok(Math.abs((wins.get(node) ?? 0) - runs / 3) < 150, `${node} won ${wins.get(node)} of ${runs}`);
});

test('the same seed breaks the same tie the same way', () => {
  const pick = () => selectHost(scores(['a', 5], ['b', 5], ['c', 5], ['d', 5]), new Random(42)).chosen;
  assert.equal(pick(), pick());
});
