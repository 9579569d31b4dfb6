// The event correlator's spam filter: 25 events per source and object, then one every 5 minutes, counts kept.
// See staging/src/k8s.io/client-go/tools/record/events_cache.go (EventSourceObjectSpamFilter, defaultSpamBurst = 25,
// defaultSpamQPS = 1/300, getSpamKey: source component, host and involved object).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Recorder } from '../../../src/engine/runtime/recorder';

const failed = { type: 'Warning' as const, reason: 'Failed', object: 'Pod/default/web', source: 'kubelet', host: 'worker-1', message: 'Error: boom' };

test('events past the burst of 25 are counted but not sent until the bucket refills', () => {
  let now = 0;
  const r = new Recorder(() => now);
  for (let i = 0; i < 40; i++, now += 1000) r.event(failed);
  assert.equal(r.events.length, 1);
  assert.deepEqual({ count: r.events[0]!.count, at: r.events[0]!.at }, { count: 25, at: 24 });
  // One token comes back 300 s after the bucket's last update: the next repeat goes out with every occurrence counted.
  now = 39_000 + 300_000;
  r.event(failed);
  assert.deepEqual({ count: r.events[0]!.count, at: r.events[0]!.at }, { count: 41, at: 339 });
});

test('the budget is per source and object: another pod or another component is not held back', () => {
  let now = 0;
  const r = new Recorder(() => now);
  for (let i = 0; i < 30; i++) r.event(failed);
  r.event({ ...failed, object: 'Pod/default/api' });
  r.event({ ...failed, source: 'default-scheduler', host: undefined, reason: 'FailedScheduling' });
  assert.deepEqual(r.events.map((e) => [e.object, e.reason, e.count]), [
    ['Pod/default/web', 'Failed', 25], ['Pod/default/api', 'Failed', 1], ['Pod/default/web', 'FailedScheduling', 1],
  ]);
});

test('a first event over the budget appears later with the occurrences it missed', () => {
  let now = 0;
  const r = new Recorder(() => now);
  for (let i = 0; i < 25; i++) r.event(failed);
  const backOff = { ...failed, reason: 'BackOff', message: 'Back-off restarting failed container' };
  r.event(backOff);
  r.event(backOff);
  assert.equal(r.events.some((e) => e.reason === 'BackOff'), false);
  now = 300_000;
  r.event(backOff);
  assert.equal(r.events.find((e) => e.reason === 'BackOff')?.count, 3);
});
