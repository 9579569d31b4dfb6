// The order a ReplicaSet deletes its surplus pods in. See pkg/controller/controller_utils.go (ActivePodsWithRanks.Less).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../../src/engine/api/types';
import { isPodAvailable, rankPodsForDeletion } from '../../../src/engine/controllers/pods';
import { VirtualClock } from '../../../src/engine/runtime/clock';

const clock = new VirtualClock();
clock.now = 600_000;
const at = (s: number) => clock.timestamp(s * 1000);
const pod = (name: string, o: { node?: string; phase?: string; readySince?: number; cost?: number; restarts?: number; created?: number } = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, uid: name, creationTimestamp: at(o.created ?? 0), ...(o.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': String(o.cost) } } : {}) },
  spec: { containers: [], ...(o.node ? { nodeName: o.node } : {}) },
  status: {
    phase: o.phase ?? 'Running',
    conditions: o.readySince !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: at(o.readySince) }] : [{ type: 'Ready', status: 'False' }],
    containerStatuses: [{ name: 'app', restartCount: o.restarts ?? 0, ready: o.readySince !== undefined, image: '', imageID: '' }],
  },
} as Pod);

const cases: { name: string; pods: Pod[]; want: string[] }[] = [
  { name: 'an unscheduled pod goes before a scheduled one', pods: [pod('a', { node: 'n1', readySince: 10 }), pod('b', { phase: 'Pending' })], want: ['b', 'a'] },
  { name: 'Pending before Running', pods: [pod('a', { node: 'n1', readySince: 10 }), pod('b', { node: 'n2', phase: 'Pending' })], want: ['b', 'a'] },
  { name: 'not ready before ready', pods: [pod('a', { node: 'n1', readySince: 10 }), pod('b', { node: 'n2' })], want: ['b', 'a'] },
  { name: 'the lower pod-deletion-cost first', pods: [pod('a', { node: 'n1', readySince: 10, cost: 5 }), pod('b', { node: 'n2', readySince: 10, cost: 1 })], want: ['b', 'a'] },
  { name: 'a pod doubled up on a node before a pod alone on its node', pods: [pod('a', { node: 'n1', readySince: 10 }), pod('b', { node: 'n2', readySince: 10 }), pod('c', { node: 'n2', readySince: 10 })], want: ['b', 'c', 'a'] },
  { name: 'ready for less time first (log2 buckets)', pods: [pod('a', { node: 'n1', readySince: 10 }), pod('b', { node: 'n2', readySince: 590 })], want: ['b', 'a'] },
  { name: 'more restarts first', pods: [pod('a', { node: 'n1', readySince: 10 }), pod('b', { node: 'n2', readySince: 10, restarts: 2 })], want: ['b', 'a'] },
];
for (const c of cases) test(`getPodsToDelete: ${c.name}`, () => assert.deepEqual(rankPodsForDeletion(clock, c.pods, c.pods).map((p) => p.metadata?.name), c.want));

test('IsPodAvailable: ready for minReadySeconds', () => {
  assert.equal(isPodAvailable(clock, pod('a', { readySince: 591 }), 10), false);
  assert.equal(isPodAvailable(clock, pod('a', { readySince: 590 }), 10), true);
  assert.equal(isPodAvailable(clock, pod('a', { readySince: 599 }), 0), true);
});
