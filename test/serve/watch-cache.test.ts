// The watch cache's window (the cacher's capacity rule and its 410), etcd's compacted history of Events, and the
// lease manager that makes Events expire, each driven by virtual times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/engine/api/types';
import { LeaseManager } from '../../src/engine/runtime/event-leases';
import { COMPACT_INTERVAL_MS, EtcdHistory, WATCH_TOO_OLD } from '../../src/serve/event-history';
import { type CachedChange, WatchCache } from '../../src/serve/watch-cache';

/** change is a MODIFIED change of one ConfigMap at a resourceVersion and a virtual second. */
function change(resourceVersion: number, atSeconds: number): CachedChange {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default', resourceVersion: String(resourceVersion) } } as KubeObject;
  return { type: 'MODIFIED', object, prev: object, resourceVersion, at: atSeconds * 1000 };
}

/** fill adds `count` changes from resourceVersion 1001 on, `gapSeconds` apart. */
function fill(cache: WatchCache, count: number, gapSeconds: number): void {
  for (let i = 0; i < count; i++) cache.add(change(1001 + i, i * gapSeconds));
}

const windows: { name: string; count: number; gapSeconds: number; from: number; want: { capacity: number; size: number; since: number[] | string } }[] = [
  { name: 'a watch from the list\'s resourceVersion gets every change after it', count: 5, gapSeconds: 1, from: 1000, want: { capacity: 100, size: 5, since: [1001, 1002, 1003, 1004, 1005] } },
  { name: 'a watch from the middle of the window gets the changes after its resourceVersion', count: 5, gapSeconds: 1, from: 1003, want: { capacity: 100, size: 5, since: [1004, 1005] } },
  { name: 'a resourceVersion older than the list the cache started from is too old, nothing dropped yet', count: 5, gapSeconds: 1, from: 998, want: { capacity: 100, size: 5, since: 'too old resource version: 998 (1000)' } },
  { name: 'a resourceVersion newer than any change gets nothing (the watch waits for later ones)', count: 5, gapSeconds: 1, from: 2000, want: { capacity: 100, size: 5, since: [] } },
  { name: 'a full window of changes spread over more than 75 s drops its oldest: a watch from before it is too old', count: 101, gapSeconds: 1, from: 1000, want: { capacity: 100, size: 100, since: 'too old resource version: 1000 (1001)' } },
  { name: 'the oldest change still in the window minus one is not too old', count: 101, gapSeconds: 1, from: 1001, want: { capacity: 100, size: 100, since: Array.from({ length: 100 }, (_, i) => 1002 + i) } },
  { name: 'a full window whose changes all came within 75 s doubles instead of dropping one', count: 101, gapSeconds: 0.5, from: 1000, want: { capacity: 200, size: 101, since: Array.from({ length: 101 }, (_, i) => 1001 + i) } },
];

for (const c of windows) {
  test(`watch cache: ${c.name}`, () => {
    const cache = new WatchCache(1000);
    fill(cache, c.count, c.gapSeconds);
    const since = cache.since(c.from);
    assert.deepEqual({ capacity: cache.currentCapacity, size: cache.size, since: Array.isArray(since) ? since.map((e) => e.resourceVersion) : since.expired }, c.want);
  });
}

test('watch cache: a grown window whose latest quarter is older than 75 s halves and keeps its latest changes', () => {
  const cache = new WatchCache(1000);
  fill(cache, 200, 0.1);
  assert.equal(cache.currentCapacity, 200);
  // The 201st change comes 10 minutes later: the window is full, its oldest is stale, its latest quarter too.
  cache.add(change(1201, 600));
  assert.deepEqual({ capacity: cache.currentCapacity, size: cache.size }, { capacity: 100, size: 100 });
  const since = cache.since(1101);
  assert.ok(Array.isArray(since));
  assert.deepEqual(since.map((e) => e.resourceVersion), Array.from({ length: 100 }, (_, i) => 1102 + i));
});

test('etcd history: a compaction tick compacts up to the revision seen at the tick before; a watch from before it is too old', () => {
  const history = new EtcdHistory(0, 1000);
  assert.deepEqual(history.since(998), { expired: WATCH_TOO_OLD }, 'what came before the history began is compacted');
  history.add(change(1001, 10));
  history.tick(COMPACT_INTERVAL_MS, 1001);
  history.add(change(1002, 310));
  history.add(change(1003, 320));
  const before = history.since(1000);
  assert.ok(Array.isArray(before));
  assert.deepEqual(before.map((e) => e.resourceVersion), [1001, 1002, 1003]);
  // The second tick compacts to 1001, the revision of the first: a watch must start at 1001 or later.
  history.tick(2 * COMPACT_INTERVAL_MS, 1003);
  assert.deepEqual(history.since(999), { expired: WATCH_TOO_OLD });
  const kept = history.since(1000);
  assert.ok(Array.isArray(kept));
  assert.deepEqual(kept.map((e) => e.resourceVersion), [1001, 1002, 1003]);
});

const leases: { name: string; ttlSeconds: number; writes: number[]; want: { id: number; expiresAt: number }[] }[] = [
  { name: 'a write gets a lease of the TTL plus 60 s (5% of an hour is more)', ttlSeconds: 3600, writes: [0], want: [{ id: 1, expiresAt: 3_660_000 }] },
  { name: 'writes within the reuse window share the lease; a later one gets a new lease', ttlSeconds: 3600, writes: [0, 30_000, 59_000, 61_000], want: [{ id: 1, expiresAt: 3_660_000 }, { id: 1, expiresAt: 3_660_000 }, { id: 1, expiresAt: 3_660_000 }, { id: 2, expiresAt: 3_721_000 }] },
  { name: 'a short TTL reuses a lease for 5% of it', ttlSeconds: 60, writes: [0, 2_000, 3_000], want: [{ id: 1, expiresAt: 63_000 }, { id: 1, expiresAt: 63_000 }, { id: 2, expiresAt: 66_000 }] },
];

for (const c of leases) {
  test(`event leases: ${c.name}`, () => {
    const manager = new LeaseManager(c.ttlSeconds);
    assert.deepEqual(c.writes.map((at) => {
      const { lease } = manager.grant(at);
      return { id: lease.id, expiresAt: lease.expiresAt };
    }), c.want);
  });
}

test('event leases: a lease takes 1000 writes, the next write gets a new one', () => {
  const manager = new LeaseManager(3600);
  const ids = Array.from({ length: 1001 }, (_, i) => manager.grant(i).lease.id);
  assert.deepEqual([ids[0], ids[999], ids[1000]], [1, 1, 2]);
});
