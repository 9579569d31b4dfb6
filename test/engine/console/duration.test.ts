// Ages as kubectl prints them: one case on each side of every branch of HumanDuration
// (staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { humanDuration, rfc1123z, since } from '../../../src/engine/console/duration';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const cases: [number, string][] = [
  [-2 * s, '<invalid>'], [-1 * s, '0s'], [0, '0s'], [1 * s, '1s'], [59 * s, '59s'], [119 * s, '119s'], [2 * m, '2m'],
  [2 * m + 5 * s, '2m5s'], [9 * m + 59 * s, '9m59s'], [10 * m, '10m'], [10 * m + 59 * s, '10m'], [179 * m, '179m'],
  [3 * h, '3h'], [3 * h + 5 * m, '3h5m'], [8 * h, '8h'], [47 * h + 59 * m, '47h'], [48 * h, '2d'], [7 * d + 23 * h, '7d23h'],
  [8 * d, '8d'], [367 * d, '367d'], [2 * 365 * d, '2y'], [2 * 365 * d + 10 * d, '2y10d'], [8 * 365 * d, '8y'],
];

for (const [ms, want] of cases) {
  test(`a duration of ${ms} ms prints as ${want}`, () => assert.equal(humanDuration(ms), want));
}

test('an age is the time from a timestamp to the virtual now; a missing timestamp is <unknown>', () => {
  const now = Date.parse('2026-01-01T00:05:30Z');
  assert.equal(since('2026-01-01T00:00:00Z', now), '5m30s');
  assert.equal(since(undefined, now), '<unknown>');
});

test('a start time prints as Go time.RFC1123Z in UTC, a zero time as Go\'s zero date', () => {
  assert.equal(rfc1123z('2026-01-01T00:00:02Z'), 'Thu, 01 Jan 2026 00:00:02 +0000');
  assert.equal(rfc1123z(undefined), 'Mon, 01 Jan 0001 00:00:00 +0000');
});
