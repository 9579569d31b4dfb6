// The event correlator's aggregator (k8s.io/client-go v0.36.0 tools/record/events_cache.go: EventAggregate with
// defaultAggregateMaxEvents 10 and defaultAggregateIntervalInSeconds 600, EventAggregatorByReasonFunc,
// EventAggregatorByReasonMessageFunc): from the 10th distinct message of one source, object, type and reason, the
// events become one "(combined from similar events): " event that counts up, until 10 quiet minutes start it over.
// kube-scheduler records through the events API (events.k8s.io), which has no aggregator.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Recorder } from '../../../src/engine/runtime/recorder';

const failed = (i: number) => ({ type: 'Warning' as const, reason: 'FailedCreate', object: 'ReplicaSet/default/web', source: 'replicaset-controller', message: `Error creating: pods "web-${i}" is forbidden` });
const line = (e: { reason: string; message: string; count: number }) => `${e.count} ${e.message}`;

test('nine distinct messages are nine events; the tenth and later are one combined event that counts up', () => {
  let now = 0;
  const r = new Recorder(() => now);
  for (let i = 1; i <= 14; i++, now += 1000) r.event(failed(i));
  assert.deepEqual(r.events.map(line), [
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `1 Error creating: pods "web-${i}" is forbidden`),
    '5 (combined from similar events): Error creating: pods "web-14" is forbidden',
  ]);
  assert.deepEqual({ firstAt: r.events[9]!.firstAt, at: r.events[9]!.at }, { firstAt: 9, at: 13 });
});

test('a repeated message is the same event counted up, not a new distinct message', () => {
  const r = new Recorder(() => 0);
  for (let i = 0; i < 20; i++) r.event(failed(1));
  assert.deepEqual(r.events.map(line), ['20 Error creating: pods "web-1" is forbidden']);
});

test('more than 10 minutes after the last one, the count of distinct messages starts over', () => {
  let now = 0;
  const r = new Recorder(() => now);
  for (let i = 1; i <= 10; i++) r.event(failed(i));
  now = 600_001;
  r.event(failed(11));
  assert.equal(r.events.at(-1)!.message, 'Error creating: pods "web-11" is forbidden');
  now = 600_002;
  for (let i = 12; i <= 20; i++) r.event(failed(i));
  // web-11 to web-19 are events of their own again; web-20, the 10th, counts up the combined event (its 2nd).
  assert.equal(r.events.length, 19);
  assert.deepEqual(line(r.events[9]!), '2 (combined from similar events): Error creating: pods "web-20" is forbidden');
});

test('the events API recorder of kube-scheduler does not aggregate', () => {
  const r = new Recorder(() => 0);
  for (let i = 1; i <= 12; i++) r.event({ ...failed(i), reason: 'FailedScheduling', source: 'default-scheduler' }, 'events.k8s.io');
  assert.equal(r.events.length, 12);
  assert.ok(r.events.every((e) => !e.message.startsWith('(combined')));
});

test('the spam filter counts per type too: Normal events do not spend the Warning budget (getSpamKey has the type)', () => {
  const r = new Recorder(() => 0);
  for (let i = 0; i < 30; i++) r.event({ ...failed(1), type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod: web-1' });
  r.event(failed(1));
  assert.equal(r.events.find((e) => e.type === 'Warning')?.count, 1);
});
