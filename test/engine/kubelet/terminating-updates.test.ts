// The pod worker's grace period for a pod it is terminating: pkg/kubelet/pod_workers.go calculateEffectiveGracePeriod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../src/engine/api/types';
import { calculateEffectiveGracePeriod } from '../../../src/engine/kubelet/terminating-updates';

const makePod = (deletionGracePeriodSeconds?: number, terminationGracePeriodSeconds?: number): Pod => ({
  metadata: { name: 'web', ...(deletionGracePeriodSeconds !== undefined ? { deletionGracePeriodSeconds } : {}) },
  spec: { containers: [], ...(terminationGracePeriodSeconds !== undefined ? { terminationGracePeriodSeconds } : {}) },
}) as Pod;

const cases = [
  { name: 'a first kill takes the API server\'s deletionGracePeriodSeconds', current: 0, pod: makePod(30, 45), want: { seconds: 30, shortened: false } },
  { name: 'a shorter deletionGracePeriodSeconds lowers it, and that is a shortening', current: 30, pod: makePod(5), want: { seconds: 5, shortened: true } },
  { name: 'a longer one leaves it as it is', current: 30, pod: makePod(60), want: { seconds: 30, shortened: false } },
  { name: 'the same one is no shortening', current: 5, pod: makePod(5), want: { seconds: 5, shortened: false } },
  { name: 'a grace period of 0 becomes 1 ("we always supply a grace period of 1"), and shortens a longer one', current: 30, pod: makePod(0), want: { seconds: 1, shortened: true } },
  { name: 'a grace period of 0 on a first kill is 1, not the spec\'s', current: 0, pod: makePod(0, 30), want: { seconds: 1, shortened: false } },
  { name: 'with no deletionGracePeriodSeconds, the spec\'s terminationGracePeriodSeconds', current: 0, pod: makePod(undefined, 45), want: { seconds: 45, shortened: false } },
  { name: 'with neither, 1', current: 0, pod: makePod(), want: { seconds: 1, shortened: false } },
];

for (const c of cases) test(`calculateEffectiveGracePeriod: ${c.name}`, () => assert.deepEqual(calculateEffectiveGracePeriod(c.current, c.pod), c.want));
