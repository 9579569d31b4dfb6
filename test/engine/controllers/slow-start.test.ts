// slowStartBatch as the ReplicaSet and Job controllers create pods: batches of 1, 2, 4... (SlowStartInitialBatchSize
// 1); a batch with a failure is waited out and the batches after it are skipped; a refusal because the namespace is
// being terminated is no failure and records no event. See pkg/controller/replicaset/replica_set.go (manageReplicas,
// slowStartBatch) and pkg/controller/controller_utils.go (RealPodControl.createPods) at kubernetes v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../../src/engine/api/types';
import { forbidden, StatusError } from '../../../src/engine/apiserver/request';
import type { ApiOutcome } from '../../../src/engine/apiserver/server';
import type { ControllerClient } from '../../../src/engine/controllers/client';
import { createPods } from '../../../src/engine/controllers/replicaset';
import type { EngineContext } from '../../../src/engine/context';
import { Recorder } from '../../../src/engine/runtime/recorder';
import { isSleep, sleep, type Steps } from '../../../src/engine/runtime/step';

type Answer = 'ok' | 'quota' | 'terminating';

const QUOTA = forbidden('pods', '', 'web-x', 'exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1');
const TERMINATING = new StatusError({
  ...forbidden('pods', '', 'web-x', 'unable to create new content in namespace dev because it is being terminated').status,
  details: { name: 'web-x', kind: 'pods', causes: [{ reason: 'NamespaceTerminating', message: 'namespace dev is being terminated', field: 'metadata.namespace' }] },
});

/**
 * run drives createPods with a client that answers the creates in order (each after `takesMs` of virtual time), and
 * returns what it did and when each create was answered.
 */
function run(count: number, answers: Answer[], takesMs = 0) {
  const clock = { now: 0 };
  const recorder = new Recorder(() => clock.now);
  let calls = 0;
  const answeredAt: number[] = [];
  const client = {
    *create(): Steps<ApiOutcome> {
      const answer = answers[calls++] ?? 'ok';
      yield* sleep(takesMs);
      answeredAt.push(clock.now);
      if (answer === 'ok') return { ok: true, code: 201, object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: `web-${calls}` } } };
      return { ok: false, error: answer === 'quota' ? QUOTA : TERMINATING, phase: 'apiserver.admit.validating' };
    },
  } as unknown as ControllerClient;
  const owner: KubeObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'default' } };
  const gen = createPods({ recorder, clock } as unknown as EngineContext, client, owner, count, () => ({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'web-' } }) as Pod, 'controllers.replicaset', 'replicaset-controller');
  let step = gen.next();
  for (; !step.done; step = gen.next()) if (isSleep(step.value)) clock.now += step.value.sleep;
  // Two refusals with one message are one Event counted twice: the occurrences are the counts.
  return { result: step.value, calls, answeredAt, events: recorder.events.flatMap((e) => Array<string>(e.count).fill(`${e.reason} ${e.message}`)) };
}

const cases: { name: string; count: number; answers: Answer[]; calls: number; successes: number; error?: boolean; events: number }[] = [
  { name: 'all succeed: batches of 1, 2 and the 2 left', count: 5, answers: [], calls: 5, successes: 5, events: 5 },
  { name: 'the first create fails: nothing more is tried', count: 5, answers: ['quota'], calls: 1, successes: 0, error: true, events: 1 },
  { name: 'a failure in the batch of 2: the whole batch is tried, the rest skipped', count: 5, answers: ['ok', 'quota', 'quota'], calls: 3, successes: 1, error: true, events: 3 },
  { name: 'a failure in the batch of 4 after 3 successes', count: 10, answers: ['ok', 'ok', 'ok', 'ok', 'quota'], calls: 7, successes: 6, error: true, events: 7 },
  { name: 'a namespace being terminated: no event, no failure, every create tried', count: 3, answers: ['terminating', 'terminating', 'terminating'], calls: 3, successes: 3, events: 0 },
];

for (const c of cases) {
  test(`slowStartBatch: ${c.name}`, () => {
    const { result, calls, events } = run(c.count, c.answers);
    assert.equal(calls, c.calls);
    assert.equal(result.successes, c.successes);
    assert.equal(result.error, c.error ? QUOTA.message : undefined);
    assert.equal(events.length, c.events);
    // RealPodControl.createPods: Eventf(object, Warning, FailedCreate, "Error creating: %v", err).
    if (c.error) assert.ok(events.includes(`FailedCreate Error creating: ${QUOTA.message}`));
  });
}

// A batch's creates go from as many goroutines at once and the sync waits for them all (sync.WaitGroup): creates that
// each take 5 s (a webhook past its timeout) hold up each batch once, not each create after them.
const timed: { name: string; count: number; answers: Answer[]; answeredAt: number[] }[] = [
  { name: 'batches of 1, 2 and 4 each wait once', count: 7, answers: [], answeredAt: [5000, 10_000, 10_000, 15_000, 15_000, 15_000, 15_000] },
  { name: 'a failure in the batch of 2 is known once the batch is done: the rest are skipped', count: 7, answers: ['ok', 'ok', 'quota'], answeredAt: [5000, 10_000, 10_000] },
];
for (const c of timed) {
  test(`slowStartBatch in parallel: ${c.name}`, () => {
    assert.deepEqual(run(c.count, c.answers, 5000).answeredAt, c.answeredAt);
  });
}
