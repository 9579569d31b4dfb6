// unschedulablePods keeps its oldest ungated pod at hand; whatever order pods are parked, moved and gated in, the time
// it gives is the one a walk over every pod would find.
import assert from 'node:assert/strict';
import test from 'node:test';
import { type Parked, UnschedulablePods } from '../../../src/engine/scheduler/queue/unschedulable-pods';

type Op = ['park', string, number, string?] | ['move', string] | ['gate', string];

const cases: { name: string; ops: Op[]; want: number | undefined }[] = [
  { name: 'no pod parked', ops: [], want: undefined },
  { name: 'one pod', ops: [['park', 'a', 5]], want: 5 },
  { name: 'the oldest of several, parked out of order', ops: [['park', 'a', 5], ['park', 'b', 2], ['park', 'c', 9]], want: 2 },
  { name: 'the oldest moved out: the next one', ops: [['park', 'a', 5], ['park', 'b', 2], ['park', 'c', 9], ['move', 'b']], want: 5 },
  { name: 'gated pods do not count', ops: [['park', 'a', 1, 'SchedulingGates'], ['park', 'b', 4]], want: 4 },
  { name: 'only gated pods', ops: [['park', 'a', 1, 'SchedulingGates']], want: undefined },
  { name: 'the oldest parked again later', ops: [['park', 'a', 1], ['park', 'b', 3], ['park', 'a', 7]], want: 3 },
  { name: 'the oldest gated where it stands', ops: [['park', 'a', 1], ['park', 'b', 3], ['gate', 'a']], want: 3 },
  { name: 'a pod moved that is not the oldest', ops: [['park', 'a', 1], ['park', 'b', 3], ['move', 'b']], want: 1 },
];

for (const c of cases) {
  test(`unschedulablePods: ${c.name}`, () => {
    const pods = new UnschedulablePods<Parked>();
    const byKey = new Map<string, Parked>();
    for (const op of c.ops) {
      if (op[0] === 'park') {
        const p = { key: op[1], timestamp: op[2], gatingPlugin: op[3] ?? '' };
        byKey.set(op[1], p);
        pods.set(op[1], p);
        pods.oldestUngatedTimestamp();
      } else if (op[0] === 'move') pods.delete(op[1]);
      else byKey.get(op[1])!.gatingPlugin = 'SchedulingGates';
    }
    assert.equal(pods.oldestUngatedTimestamp(), c.want);
    const walked = [...pods.values()].filter((p) => p.gatingPlugin === '').map((p) => p.timestamp);
    assert.equal(walked.length ? Math.min(...walked) : undefined, c.want);
  });
}
