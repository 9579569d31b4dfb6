// The timing of a watch after it opens, as kube-apiserver's watch cache and client-go's reflector make it: a bookmark
// about every minute, the last 2 s before the deadline, in whole-second buckets popped on a jittered tick.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { advanceTimeline, bookmarkSentAt, nextBookmarkTime, openTimeline } from '../../../src/engine/watch/rewatch';

const nextCases = [
  { name: 'a minute after now when the deadline is far', now: 0, deadline: 300_000, want: 60_000 },
  { name: '2 s before the deadline when that comes before the minute', now: 250_000, deadline: 300_000, want: 298_000 },
  { name: 'exactly 2 s before the deadline when that is now', now: 298_000, deadline: 300_000, want: 298_000 },
  { name: 'none once 2 s before the deadline is past', now: 299_000, deadline: 300_000, want: undefined },
];

for (const c of nextCases) {
  test(`nextBookmarkTime: ${c.name}`, () => assert.equal(nextBookmarkTime(c.now, c.deadline), c.want));
}

const sentCases = [
  { name: 'a time on a whole second goes at the first tick of its second', wanted: 60_000, random: 0, want: 60_000 },
  { name: 'the tick is at most 1.25 s into the bucket', wanted: 60_000, random: 0.999, want: 61_248 },
  { name: 'a time inside a second sits in that second\'s bucket, so it may go before it', wanted: 60_700, random: 0, want: 60_000 },
  { name: 'half way into the jitter', wanted: 298_000, random: 0.5, want: 298_625 },
  { name: 'a second whose bucket was already popped puts it in the next', wanted: 298_700, random: 0, firstBucket: 299, want: 299_000 },
];

for (const c of sentCases) {
  test(`bookmarkSentAt: ${c.name}`, () => assert.equal(bookmarkSentAt(c.wanted, c.random, c.firstBucket), c.want));
}

const timelineCases = [
  {
    name: 'a 301 s watch with ticks at the start of each bucket: four minutes, then 2 s before the end',
    timeoutSeconds: 301, random: 0, until: Infinity,
    want: { bookmarks: 5, last: { at: 299_000, resourceVersion: '7' } },
  },
  {
    name: 'late ticks push each minute on by 1.248 s; the last still comes before the deadline',
    timeoutSeconds: 301, random: 0.999, until: Infinity,
    want: { bookmarks: 5, last: { at: 300_248, resourceVersion: '7' } },
  },
  {
    name: 'only the bookmarks due by then are sent',
    timeoutSeconds: 599, random: 0, until: 150_000,
    want: { bookmarks: 2, last: { at: 120_000, resourceVersion: '7' } },
  },
  {
    name: 'a 599 s watch gets nine minutes and the pre-timeout one',
    timeoutSeconds: 599, random: 0, until: Infinity,
    want: { bookmarks: 10, last: { at: 597_000, resourceVersion: '7' } },
  },
];

for (const c of timelineCases) {
  test(`A watch's timeline: ${c.name}`, () => {
    const t = openTimeline(0, c.timeoutSeconds, () => c.random);
    assert.equal(t.deadline, c.timeoutSeconds * 1000);
    advanceTimeline(t, c.until, () => '7', () => c.random);
    assert.deepEqual({ bookmarks: t.bookmarks, last: t.lastBookmark }, c.want);
    // No bookmark is ever sent at or after the deadline.
    assert.ok((t.nextBookmark ?? 0) < t.deadline);
  });
}

test('A watch\'s timeline: each bookmark carries the version of its own time', () => {
  const t = openTimeline(0, 400, () => 0);
  const seen: number[] = [];
  advanceTimeline(t, Infinity, (at) => {
    seen.push(at);
    return String(at / 1000);
  }, () => 0);
  assert.deepEqual(seen, [60_000, 120_000, 180_000, 240_000, 300_000, 360_000, 398_000]);
  assert.deepEqual(t.lastBookmark, { at: 398_000, resourceVersion: '398' });
});
