// The correlator remembers only so much: each of its caches (logger, aggregator, spam filter) is an LRU of
// maxLruCacheEntries keys (staging/src/k8s.io/client-go/tools/record/events_cache.go at v0.36.0), one correlator per
// component. A repeat of an event whose key was pushed out is a new Event; one still remembered counts up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LRU_CACHE_ENTRIES, Recorder, type EventInput } from '../../../src/engine/runtime/recorder';

/** scheduled is an event about pod i from a component: each pod is its own object, with its own spam budget. */
const scheduled = (i: number, source = 'default-scheduler'): EventInput => ({
  type: 'Normal', reason: 'Scheduled', object: `Pod/default/web-${i}`, source, message: `Successfully assigned default/web-${i} to worker-1`,
});

const cases: { name: string; others: number; source?: string; want: number[] }[] = [
  { name: 'a repeat after as many other keys as the cache holds less one still counts up', others: LRU_CACHE_ENTRIES - 1, want: [2] },
  { name: 'a repeat after as many other keys as the cache holds is a new Event', others: LRU_CACHE_ENTRIES, want: [1, 1] },
  { name: 'the keys of another component do not push it out: each has its own correlator', others: LRU_CACHE_ENTRIES * 2, source: 'kubelet', want: [2] },
];

for (const c of cases) {
  test(`event LRU: ${c.name}`, () => {
    const r = new Recorder(() => 0);
    r.event(scheduled(0));
    for (let i = 1; i <= c.others; i++) r.event(scheduled(i, c.source));
    r.event(scheduled(0));
    assert.deepEqual(r.events.filter((e) => e.object === 'Pod/default/web-0').map((e) => e.count), c.want);
  });
}

test('event LRU: a key read is the newest again, so the next key pushed out is another', () => {
  const r = new Recorder(() => 0);
  r.event(scheduled(0));
  r.event(scheduled(1));
  for (let i = 2; i < LRU_CACHE_ENTRIES; i++) r.event(scheduled(i));
  // Seeing pod 0 again makes it the newest: the next new key pushes out pod 1's, not pod 0's.
  r.event(scheduled(0));
  r.event(scheduled(LRU_CACHE_ENTRIES));
  r.event(scheduled(0));
  r.event(scheduled(1));
  assert.deepEqual(r.events.filter((e) => /web-[01]$/.test(e.object)).map((e) => [e.object, e.count]), [['Pod/default/web-0', 3], ['Pod/default/web-1', 1], ['Pod/default/web-1', 1]]);
});
