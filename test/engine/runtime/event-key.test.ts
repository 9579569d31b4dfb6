// Which events the correlator counts as one: getEventKey takes the involved object's fieldPath, getSpamKey does not.
// See staging/src/k8s.io/client-go/tools/record/events_cache.go at v0.36.0 (getEventKey: source component and host,
// involvedObject kind/namespace/name/fieldPath/uid/apiVersion, type, reason, message; getSpamKey: the same without
// fieldPath, reason and message).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_SPAM_BURST, Recorder, type EventInput } from '../../../src/engine/runtime/recorder';

const pulled = (fieldPath?: string): EventInput => ({
  type: 'Normal', reason: 'Pulled', object: 'Pod/default/web', ...(fieldPath ? { fieldPath } : {}), source: 'kubelet', host: 'worker-1',
  message: 'Container image "nginx:1.27" already present on machine and can be accessed by the pod',
});

const cases: { name: string; sent: EventInput[]; want: [string | undefined, number][] }[] = [
  {
    name: 'the same message about two containers is two Events',
    sent: [pulled('spec.containers{app}'), pulled('spec.containers{sidecar}')],
    want: [['spec.containers{app}', 1], ['spec.containers{sidecar}', 1]],
  },
  {
    name: 'a repeat about the same container counts up',
    sent: [pulled('spec.containers{app}'), pulled('spec.containers{app}')],
    want: [['spec.containers{app}', 2]],
  },
  {
    name: 'an init container and a container of the same name would be apart (spec.initContainers{} against spec.containers{})',
    sent: [pulled('spec.initContainers{init}'), pulled('spec.containers{init}'), pulled('spec.initContainers{init}')],
    want: [['spec.initContainers{init}', 2], ['spec.containers{init}', 1]],
  },
  {
    name: 'an event on the pod itself (no fieldPath) is apart from one on its container',
    sent: [pulled(), pulled('spec.containers{app}'), pulled()],
    want: [[undefined, 2], ['spec.containers{app}', 1]],
  },
  {
    name: 'the same event from another node is another Event (source.host is part of the key)',
    sent: [pulled('spec.containers{app}'), { ...pulled('spec.containers{app}'), host: 'worker-2' }],
    want: [['spec.containers{app}', 1], ['spec.containers{app}', 1]],
  },
];

for (const c of cases) {
  test(`event key: ${c.name}`, () => {
    const r = new Recorder(() => 0);
    for (const e of c.sent) r.event(e);
    assert.deepEqual(r.events.map((e) => [e.fieldPath, e.count]), c.want);
  });
}

test('the spam budget is the pod\'s, whatever container an event names: fieldPath is not in getSpamKey', () => {
  const r = new Recorder(() => 0);
  // Each with a reason of its own, so that the aggregator (10 messages of one reason) leaves them apart.
  for (let i = 0; i < EVENT_SPAM_BURST; i++) r.event({ ...pulled(`spec.containers{c${i}}`), reason: `Reason${i}`, message: `m${i}` });
  // The 26th event about the pod is held back even though it names a container not seen before.
  assert.equal(r.event(pulled('spec.containers{other}')), undefined);
  assert.equal(r.events.length, EVENT_SPAM_BURST);
});
