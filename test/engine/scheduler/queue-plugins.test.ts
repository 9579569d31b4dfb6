// PrioritySort and SchedulingGates: the queue order and the gate that keeps a pod out of the queue.
// Cases from pkg/scheduler/framework/plugins/queuesort/priority_sort_test.go and schedulinggates/scheduling_gates_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PrioritySort } from '../../../src/engine/scheduler/plugins/queuesort';
import { SchedulingGates } from '../../../src/engine/scheduler/plugins/schedulinggates';
import { makePod } from './builders';

const lowPriority = 10;
const highPriority = 100;

const lessCases: { name: string; p1: [number | undefined, number]; p2: [number | undefined, number]; want: boolean }[] = [
  { name: 'P1 is less than p2 when its priority is higher', p1: [highPriority, 1], p2: [lowPriority, 1], want: true },
  { name: 'P1 is not less than p2 when its priority is lower', p1: [lowPriority, 1], p2: [highPriority, 1], want: false },
  { name: 'With equal priority, the pod queued first comes first', p1: [highPriority, 1], p2: [highPriority, 2], want: true },
  { name: 'A pod without priority counts as priority 0', p1: [undefined, 1], p2: [lowPriority, 0], want: false },
];

for (const c of lessCases) {
  test(c.name, () => {
    const pod = (priority: number | undefined) => (priority === undefined ? makePod() : makePod().priority(priority)).obj();
    const got = new PrioritySort().less({ pod: pod(c.p1[0]), timestamp: c.p1[1] }, { pod: pod(c.p2[0]), timestamp: c.p2[1] });
    assert.equal(got, c.want);
  });
}

test('A pod without scheduling gates enters the queue', () => {
  assert.equal(new SchedulingGates().preEnqueue(makePod().obj()), null);
});

test('A pod with scheduling gates waits for them, listed as Go prints a slice', () => {
  const status = new SchedulingGates().preEnqueue(makePod().schedulingGates('foo', 'bar').obj());
  assert.deepEqual([status?.code, status?.reasons], ['UnschedulableAndUnresolvable', ['waiting for scheduling gates: [foo bar]']]);
});
