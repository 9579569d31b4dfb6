// Backoff durations and the one-second windows of the backoff queue.
// Expected values from pkg/scheduler/backend/queue/backoff_queue.go (calculateBackoffDuration, getBackoffTime,
// isEntityBackingoff) and backoff_queue_test.go (TestBackoffQueue_calculateBackoffDuration, TestBackoffQueue_getBackoffTime).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignToWindow, backoffCompletesAt, backoffDuration, backoffExpiration, isBackingOff } from '../../../../src/engine/scheduler/queue/backoff';

const durationCases: { name: string; initial: number; max: number; counts: number[]; want: number[] }[] = [
  { name: 'The default backoff doubles from 1 s and stops at 10 s', initial: 1000, max: 10_000, counts: [0, 1, 2, 3, 4, 5, 6, 30, 100], want: [0, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000] },
  { name: 'A configured 2 s initial and 5 s maximum backoff caps at the third attempt', initial: 2000, max: 5000, counts: [1, 2, 3], want: [2000, 4000, 5000] },
  { name: 'An initial backoff above the maximum is the maximum at once', initial: 20_000, max: 10_000, counts: [1, 2], want: [10_000, 10_000] },
];

for (const c of durationCases) {
  test(c.name, () => {
    assert.deepEqual(c.counts.map((n) => backoffDuration(n, c.initial, c.max)), c.want);
  });
}

const expirationCases: { name: string; unschedulable: number; errors: number; timestamp: number; max?: number; want: number | undefined }[] = [
  { name: 'A pod never tried has no backoff', unschedulable: 0, errors: 0, timestamp: 1234, want: undefined },
  { name: 'The expiry is aligned down to its whole second', unschedulable: 1, errors: 0, timestamp: 1234, want: 2000 },
  { name: 'After an error the error count decides, not the unschedulable count', unschedulable: 5, errors: 1, timestamp: 0, want: 1000 },
  { name: 'Without errors the unschedulable count decides', unschedulable: 3, errors: 0, timestamp: 500, want: 4000 },
  { name: 'podMaxBackoffSeconds 0 turns backoff off', unschedulable: 3, errors: 0, timestamp: 500, max: 0, want: undefined },
];

for (const c of expirationCases) {
  test(c.name, () => {
    const got = backoffExpiration({ unschedulableCount: c.unschedulable, consecutiveErrorsCount: c.errors, timestamp: c.timestamp }, 1000, c.max ?? 10_000);
    assert.equal(got, c.want);
  });
}

const windowCases: { name: string; expiration: number | undefined; now: number; backingOff: boolean; completesAt: number }[] = [
  { name: 'A pod is backing off while its expiry is in the current window', expiration: 1000, now: 1999, backingOff: true, completesAt: 2000 },
  { name: 'A pod completes its backoff when a later window starts', expiration: 1000, now: 2000, backingOff: false, completesAt: 2000 },
  { name: 'A pod is backing off before its expiry', expiration: 4000, now: 2500, backingOff: true, completesAt: 5000 },
  { name: 'A pod without backoff is never backing off', expiration: undefined, now: 0, backingOff: false, completesAt: 0 },
];

for (const c of windowCases) {
  test(c.name, () => {
    assert.deepEqual([isBackingOff(c.expiration, c.now), backoffCompletesAt(c.expiration, c.now)], [c.backingOff, c.completesAt]);
  });
}

test('Times are aligned to whole seconds', () => {
  assert.deepEqual([0, 999, 1000, 1001, 61_500].map(alignToWindow), [0, 0, 1000, 1000, 61_000]);
});
