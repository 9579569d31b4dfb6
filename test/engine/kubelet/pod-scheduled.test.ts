// The PodScheduled condition as the kubelet sets it, v1.36.3: generateAPIPodStatus appends {Type: PodScheduled,
// Status: True, ObservedGeneration} for every pod it runs (pkg/kubelet/kubelet_pods.go), with no reason or message, and
// the status manager keeps the last transition time of a condition that was True already (the binding's), else now
// (pkg/kubelet/status/status_manager.go updateLastTransitionTime). So a pod bound by spec.nodeName, which no scheduler
// and no binding touched, is PodScheduled=True too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodCondition } from '../../../src/engine/api/types';
import { podScheduledCondition } from '../../../src/engine/kubelet/status';
import { VirtualClock } from '../../../src/engine/runtime/clock';
import { simulate } from '../console/simulate';

const pod = (nodeName = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n${nodeName ? `  nodeName: ${nodeName}\n` : ''}  containers:\n    - name: app\n      image: nginx:1.27\n`;
const scheduled = (p: Pod | undefined): PodCondition | undefined => p?.status?.conditions?.find((c) => c.type === 'PodScheduled');

test('a pod bound by spec.nodeName gets PodScheduled=True from its kubelet, without reason or message', () => {
  const sim = simulate(pod('worker-1'));
  assert.equal(sim.trace.some((e) => e.phase.startsWith('scheduler.')), false);
  assert.equal(sim.recorder.events.some((e) => e.reason === 'Scheduled'), false);
  const stored = sim.store.get<Pod>('Pod', 'default', 'web');
  assert.deepEqual(scheduled(stored), { lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1, status: 'True', type: 'PodScheduled' });
  // Listed last of the kubelet's conditions, as generateAPIPodStatus appends them.
  assert.deepEqual(stored?.status?.conditions?.map((c) => c.type), ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
});

test('the first status the kubelet sends for a spec.nodeName pod already has PodScheduled', () => {
  const sim = simulate(pod('worker-1'));
  const first = sim.trace.find((e) => e.phase === 'kubelet.status');
  const conditions = first?.detail['conditions'] as PodCondition[];
  assert.deepEqual(conditions.find((c) => c.type === 'PodScheduled'), { lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1, status: 'True', type: 'PodScheduled' });
});

test('a scheduled pod keeps the binding\'s transition time; the kubelet adds the observedGeneration', () => {
  const sim = simulate(pod());
  const bound = sim.trace.find((e) => e.phase === 'scheduler.bind');
  assert.ok(bound);
  assert.deepEqual(scheduled(sim.store.get<Pod>('Pod', 'default', 'web')), { lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1, status: 'True', type: 'PodScheduled' });
});

const transitions: { name: string; old?: PodCondition; want: string }[] = [
  { name: 'no PodScheduled before (spec.nodeName): now', want: '2026-01-01T00:01:30Z' },
  { name: 'True before (the binding\'s): its time is kept', old: { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-01-01T00:00:05Z' }, want: '2026-01-01T00:00:05Z' },
  { name: 'False before (Unschedulable, then bound by spec.nodeName): now', old: { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: '2026-01-01T00:00:05Z' }, want: '2026-01-01T00:01:30Z' },
];
for (const c of transitions) {
  test(`PodScheduled's lastTransitionTime (updateLastTransitionTime): ${c.name}`, () => {
    const clock = new VirtualClock();
    clock.now = 90_000;
    assert.deepEqual(podScheduledCondition(c.old, clock, 3), { lastProbeTime: null, lastTransitionTime: c.want, observedGeneration: 3, status: 'True', type: 'PodScheduled' });
  });
}
