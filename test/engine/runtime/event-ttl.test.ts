// Events that expire, as a live cluster's do (kube-apiserver's --event-ttl): each write attaches the Event to an etcd
// lease (the TTL plus min(5% of it, 60 s), shared by writes close together), and the lease's expiry deletes it, its
// storage dropped. See pkg/registry/core/event/storage/storage.go (v1.36.3) and
// staging/src/k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go (v0.36.3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type EventInput, type KubeEvent, Recorder } from '../../../src/engine/runtime/recorder';

const event = (object: string, message = 'Successfully assigned'): EventInput => ({ type: 'Normal', reason: 'Scheduled', object, source: 'default-scheduler', message });

/** live is a recorder whose Events expire after `ttlSeconds`, with the clock, the due tasks and the changes it told. */
function live(ttlSeconds: number) {
  let now = 0;
  let revision = 1000;
  const tasks: { at: number; run: () => void }[] = [];
  const recorder = new Recorder(() => now);
  recorder.expireEventsAfter({ ttlSeconds, schedule: (delay, run) => tasks.push({ at: now + delay, run }), revision: () => ++revision });
  const changes: string[] = [];
  recorder.onEventChange((c) => changes.push(`${c.type} ${c.event.object} #${c.no} rv=${c.resourceVersion} count=${c.event.count}`));
  return {
    recorder, changes, tasks,
    /** at moves the clock to `seconds`, running each task due by then in time order, then records what is sent. */
    at(seconds: number, ...sent: EventInput[]): KubeEvent[] {
      for (;;) {
        tasks.sort((a, b) => a.at - b.at);
        if (!tasks[0] || tasks[0].at > seconds * 1000) break;
        const task = tasks.shift()!;
        now = task.at;
        task.run();
      }
      now = seconds * 1000;
      return sent.map((e) => recorder.event(e)!);
    },
  };
}

test('an Event expires when its lease does, the TTL plus 5% after its write, and the recorder keeps nothing of it', () => {
  const r = live(60);
  const [web] = r.at(0, event('Pod/default/web'));
  r.at(62.999);
  assert.equal(r.recorder.events.length, 1);
  r.at(63);
  assert.deepEqual(r.recorder.events, []);
  assert.equal(r.recorder.eventNumber(web!), -1);
  assert.deepEqual(r.changes, ['ADDED Pod/default/web #0 rv=1001 count=1', 'DELETED Pod/default/web #0 rv=1002 count=1']);
});

test('a repeat is a write: the Event lives on for the TTL after it, on a lease of its own', () => {
  const r = live(60);
  r.at(0, event('Pod/default/web'));
  r.at(30, event('Pod/default/web'));
  r.at(63);
  assert.equal(r.recorder.events.length, 1, 'the first lease expired with nothing attached to it any more');
  r.at(93);
  assert.deepEqual(r.recorder.events, []);
  assert.deepEqual(r.changes, ['ADDED Pod/default/web #0 rv=1001 count=1', 'MODIFIED Pod/default/web #0 rv=1002 count=2', 'DELETED Pod/default/web #0 rv=1003 count=2']);
});

test('a repeat after the Event expired creates it again under its number and first time, counted on', () => {
  const r = live(60);
  r.at(0, event('Pod/default/web'));
  const [again] = r.at(100, event('Pod/default/web'));
  assert.deepEqual({ count: again!.count, firstAt: again!.firstAt, at: again!.at, no: r.recorder.eventNumber(again!) }, { count: 2, firstAt: 0, at: 100, no: 0 });
  assert.deepEqual(r.changes.at(-1), 'ADDED Pod/default/web #0 rv=1003 count=2');
});

test('the Events of one lease are deleted at one revision, in key order (namespace, then name)', () => {
  const r = live(60);
  // Written within the 3 s a 60 s TTL's lease is reused for: all on one lease.
  r.at(0, event('Pod/default/web-2'));
  r.at(0.5, event('Pod/default/web'));
  r.at(1, event('Node/big-1'));
  r.at(1.5, event('Pod/apps/api'));
  r.at(2, event('Pod/default/db'));
  r.at(63);
  assert.deepEqual(r.changes.filter((c) => c.startsWith('DELETED')), [
    'DELETED Pod/apps/api #3 rv=1006 count=1',
    // A node's Events are written to the default namespace.
    'DELETED Node/big-1 #2 rv=1006 count=1',
    'DELETED Pod/default/db #4 rv=1006 count=1',
    // The Event's name is `<object>.<hex>`: "web-2." sorts before "web." ('-' before '.').
    'DELETED Pod/default/web-2 #0 rv=1006 count=1',
    'DELETED Pod/default/web #1 rv=1006 count=1',
  ]);
});

test('a TTL of 0 keeps Events for ever, each write still numbered with a revision', () => {
  const r = live(0);
  r.at(0, event('Pod/default/web'));
  r.at(10_000);
  assert.equal(r.tasks.length, 0);
  assert.equal(r.recorder.events.length, 1);
  assert.deepEqual(r.changes, ['ADDED Pod/default/web #0 rv=1001 count=1']);
});
