// The event queue keeps every live task: looking at the next one never loses another.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventQueue } from '../../../src/engine/runtime/clock';

test('peek past a cancelled task drops only that task, and the next live one still runs', () => {
  const q = new EventQueue<string>();
  q.push(10, 'cancelled', 'a').cancelled = true;
  q.push(15, 'resync', 'b');
  q.push(330, 'flush', 'c');
  assert.equal(q.peek()?.label, 'resync');
  assert.deepEqual([q.pop()?.label, q.pop()?.label, q.pop()?.label], ['resync', 'flush', undefined]);
});
