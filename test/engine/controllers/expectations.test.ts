// The ReplicaSet controller's expectations, as controller_utils.go keeps them: creations and deletions asked for hold
// the next manageReplicas back until seen, failures are observed at once, and five minutes end the wait.
import assert from 'node:assert/strict';
import test from 'node:test';
import { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS } from '../../../src/engine/controllers/expectations';
import { VirtualClock } from '../../../src/engine/runtime/clock';

type Op = ['create', number] | ['delete', string[]] | ['created'] | ['deleted', string] | ['wait', number] | ['forget'];

const cases: { name: string; ops: Op[]; want: boolean }[] = [
  { name: 'a controller with no expectations may sync', ops: [], want: true },
  { name: 'three creations asked for hold it back', ops: [['create', 3]], want: false },
  { name: 'two of three seen still hold it back', ops: [['create', 3], ['created'], ['created']], want: false },
  { name: 'all three seen let it sync', ops: [['create', 3], ['created'], ['created'], ['created']], want: true },
  { name: 'deletions are expected by pod', ops: [['delete', ['default/a', 'default/b']], ['deleted', 'default/a']], want: false },
  { name: 'a deletion of another pod is not one expected', ops: [['delete', ['default/a']], ['deleted', 'default/z']], want: false },
  { name: 'every pod to delete seen lets it sync', ops: [['delete', ['default/a', 'default/b']], ['deleted', 'default/b'], ['deleted', 'default/a']], want: true },
  { name: 'expectations five minutes old no longer hold it back', ops: [['create', 2], ['wait', EXPECTATIONS_TIMEOUT_MS + 1]], want: true },
  { name: 'at exactly five minutes they still do', ops: [['create', 2], ['wait', EXPECTATIONS_TIMEOUT_MS]], want: false },
  { name: 'a deleted controller forgets them', ops: [['create', 2], ['forget']], want: true },
  { name: 'new creations replace what was left of the last ones', ops: [['create', 2], ['create', 1], ['created']], want: true },
];

for (const c of cases) {
  test(`expectations: ${c.name}`, () => {
    const clock = new VirtualClock();
    const e = new ControllerExpectations(clock);
    const key = 'default/web-1';
    for (const op of c.ops) {
      if (op[0] === 'create') e.expectCreations(key, op[1]);
      else if (op[0] === 'delete') e.expectDeletions(key, op[1]);
      else if (op[0] === 'created') e.creationObserved(key);
      else if (op[0] === 'deleted') e.deletionObserved(key, op[1]);
      else if (op[0] === 'wait') clock.now += op[1];
      else e.forget(key);
    }
    assert.equal(e.satisfied(key), c.want);
    assert.equal(e.satisfied('default/other'), true);
  });
}
