// The scheduling queue: pop order, PreEnqueue gates, where a failed pod goes, which events wake it, backoff and the flushes.
// Expected values from pkg/scheduler/backend/queue/scheduling_queue.go and scheduling_queue_test.go (TestPriorityQueue_Pop,
// TestPriorityQueue_AddUnschedulableIfNotPresent, TestPriorityQueue_MoveAllToActiveOrBackoffQueue, TestPriorityQueue_Update,
// TestPriorityQueue_PreEnqueue, TestPriorityQueue_FlushUnschedulablePodsLeftover, TestBackOffFlow), 1.36 gates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod } from '../../../../src/engine/api/types';
import { Framework } from '../../../../src/engine/scheduler/framework/framework';
import { DEFAULT_PROFILE } from '../../../../src/engine/scheduler/framework/profile';
import { IN_TREE_REGISTRY } from '../../../../src/engine/scheduler/plugins/registry';
import { ActionType, Events, type ClusterEvent } from '../../../../src/engine/scheduler/queue/events';
import { queueProfileOf } from '../../../../src/engine/scheduler/queue/hints';
import { SchedulingQueue } from '../../../../src/engine/scheduler/queue/scheduling-queue';
import { makeNode, makePod, type PodBuilder } from '../builders';

/** harness is a queue over the default profile with a settable clock (virtual ms). */
function harness() {
  let now = 0;
  const fw = new Framework(IN_TREE_REGISTRY, DEFAULT_PROFILE);
  const q = new SchedulingQueue({
    now: () => now, less: (a, b) => fw.queueSortPlugins[0]!.less(a, b), profiles: [queueProfileOf(fw)],
    podInitialBackoff: 1000, podMaxBackoff: 10_000,
  });
  return { q, at: (t: number) => void (now = t) };
}

/** pod is a pod of the default scheduler asking for 1 cpu. */
function pod(name: string, more: (b: PodBuilder) => PodBuilder = (b) => b): Pod {
  const p = more(makePod(name).req({ cpu: '1' }).uid(`uid-${name}`)).obj();
  p.spec!.schedulerName = 'default-scheduler';
  return p;
}

/** fail pops the head and hands it back as rejected by the plugins (none: an error). */
function fail(q: SchedulingQueue, ...plugins: string[]): Pod {
  const p = q.pop()!;
  p.unschedulablePlugins = new Set(plugins);
  q.addUnschedulableIfNotPresent(p, p.pod);
  return p.pod;
}

const node = (name: string, cpu: string, more: (n: ReturnType<typeof makeNode>) => ReturnType<typeof makeNode> = (n) => n): KubeObject =>
  more(makeNode(name).capacity({ cpu, memory: '8Gi' })).obj() as KubeObject;

test('Pods pop by priority, then in the order they were added', () => {
  const { q, at } = harness();
  q.add(pod('low', (b) => b.priority(1)));
  at(10);
  q.add(pod('high', (b) => b.priority(100)));
  at(20);
  q.add(pod('low-later', (b) => b.priority(1)));
  assert.deepEqual([q.pop(), q.pop(), q.pop()].map((p) => p?.pod.metadata?.name), ['high', 'low', 'low-later']);
  assert.equal(q.pop(), undefined);
});

const requeueCases: { name: string; rejectedBy: string[]; eventAt: number; event: ClusterEvent; oldObj?: KubeObject; newObj?: KubeObject; want: string }[] = [
  { name: 'A node that fits moves a pod NodeResourcesFit rejected to activeQ once its backoff is over', rejectedBy: ['NodeResourcesFit'], eventAt: 5000, event: Events.NodeAdd, newObj: node('big', '8'), want: 'activeQ' },
  { name: 'A node that fits moves a pod still backing off to backoffQ', rejectedBy: ['NodeResourcesFit'], eventAt: 500, event: Events.NodeAdd, newObj: node('big', '8'), want: 'backoffQ' },
  { name: 'A node too small for the pod leaves it in unschedulablePods', rejectedBy: ['NodeResourcesFit'], eventAt: 5000, event: Events.NodeAdd, newObj: node('small', '500m'), want: 'unschedulablePods' },
  { name: 'A node whose taint the pod does not tolerate leaves a pod TaintToleration rejected', rejectedBy: ['TaintToleration'], eventAt: 5000, event: Events.NodeAdd, newObj: node('tainted', '8', (n) => n.taint('k', 'v', 'NoSchedule')), want: 'unschedulablePods' },
  { name: 'A node without taints wakes a pod TaintToleration rejected', rejectedBy: ['TaintToleration'], eventAt: 5000, event: Events.NodeAdd, newObj: node('clean', '8'), want: 'activeQ' },
  { name: 'A deleted pod that had a node frees room for a pod NodeResourcesFit rejected', rejectedBy: ['NodeResourcesFit'], eventAt: 5000, event: Events.AssignedPodDelete, oldObj: pod('gone', (b) => b.node('n1')) as KubeObject, want: 'activeQ' },
  { name: 'A PersistentVolumeClaim added means nothing to a pod NodeResourcesFit rejected', rejectedBy: ['NodeResourcesFit'], eventAt: 5000, event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add }, want: 'unschedulablePods' },
  { name: 'A PersistentVolumeClaim added wakes a pod VolumeBinding rejected', rejectedBy: ['VolumeBinding'], eventAt: 5000, event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add }, want: 'activeQ' },
  { name: 'A node added means nothing to a pod only NodeName rejected, unless it is the named node', rejectedBy: ['NodeName'], eventAt: 5000, event: Events.NodeAdd, newObj: node('other', '8'), want: 'unschedulablePods' },
];

for (const c of requeueCases) {
  test(c.name, () => {
    const { q, at } = harness();
    q.add(pod('web'));
    fail(q, ...c.rejectedBy);
    assert.equal(q.where(pod('web')), 'unschedulablePods');
    at(c.eventAt);
    q.moveAllToActiveOrBackoffQueue(c.event, c.oldObj, c.newObj);
    assert.equal(q.where(pod('web')), c.want);
  });
}

test('A pod that erred is retried after 1, 2, 4, 8, then 10 s, each expiry flushed at the next whole second', () => {
  const { q, at } = harness();
  q.add(pod('web'));
  const retries: number[] = [];
  let now = 0;
  for (let i = 0; i < 6; i++) {
    fail(q);
    assert.equal(q.where(pod('web')), 'backoffQ');
    assert.equal(q.hasPoppable(), false, 'an erred pod is not popped before its backoff ends');
    now = q.nextBackoffFlush()!;
    retries.push(now);
    at(now - 1);
    q.flushBackoffQCompleted();
    assert.equal(q.where(pod('web')), 'backoffQ', 'not a millisecond early');
    at(now);
    q.flushBackoffQCompleted();
    assert.equal(q.where(pod('web')), 'activeQ');
  }
  assert.deepEqual(retries, [2000, 5000, 10_000, 19_000, 30_000, 41_000]);
});

test('With activeQ empty, a pod in backoffQ for an unschedulable attempt is popped at once (SchedulerPopFromBackoffQ)', () => {
  const { q, at } = harness();
  q.add(pod('web'));
  fail(q, 'NodeResourcesFit');
  at(300);
  q.moveAllToActiveOrBackoffQueue(Events.NodeAdd, undefined, node('big', '8'));
  assert.equal(q.where(pod('web')), 'backoffQ');
  assert.equal(q.pop()?.pod.metadata?.name, 'web');
  assert.equal(q.moves.at(-1)?.event, 'PopFromBackoffQ');
});

test('A pod left in unschedulablePods is retried by the 30-second flush after 5 minutes', () => {
  const { q, at } = harness();
  at(100);
  q.add(pod('web'));
  fail(q, 'NodeResourcesFit');
  assert.equal(q.nextLeftoverFlush(), 330_000);
  at(300_000);
  q.flushUnschedulablePodsLeftover();
  assert.equal(q.where(pod('web')), 'unschedulablePods');
  at(330_000);
  q.flushUnschedulablePodsLeftover();
  assert.equal(q.where(pod('web')), 'activeQ');
  assert.equal(q.moves.at(-1)?.event, 'UnschedulableTimeout');
});

test('A gated pod waits in unschedulablePods and enters activeQ when its last gate is removed', () => {
  const { q } = harness();
  const gated = pod('web', (b) => b.schedulingGates('example.com/a'));
  q.add(gated);
  assert.equal(q.where(gated), 'unschedulablePods');
  assert.deepEqual(q.moves.at(-1), { pod: gated, to: 'unschedulablePods', event: 'UnschedulablePodAdd', attempts: 0, plugins: ['SchedulingGates'], gatingMessage: 'waiting for scheduling gates: [example.com/a]' });
  assert.equal(q.nextLeftoverFlush(), undefined, 'the 5-minute flush cannot help a gated pod');
  const ungated = pod('web');
  q.update(gated, ungated, [{ resource: 'UnschedulablePod', actionType: ActionType.UpdatePodSchedulingGatesEliminated }]);
  assert.equal(q.where(ungated), 'activeQ');
});

test('An event seen while the pod was being scheduled sends it back at once instead of to unschedulablePods', () => {
  const { q, at } = harness();
  q.add(pod('web'));
  const p = q.pop()!;
  at(5000);
  q.moveAllToActiveOrBackoffQueue(Events.NodeAdd, undefined, node('big', '8'));
  p.unschedulablePlugins = new Set(['NodeResourcesFit']);
  q.addUnschedulableIfNotPresent(p, p.pod);
  assert.equal(q.where(pod('web')), 'backoffQ');
});

test('Deleting a queued pod forgets it', () => {
  const { q } = harness();
  q.add(pod('web'));
  q.delete(pod('web'));
  assert.equal(q.where(pod('web')), undefined);
  assert.equal(q.pop(), undefined);
});

test('A bound pod arriving wakes only the pods a pod may help: PodTopologySpread and InterPodAffinity rejects', () => {
  const { q } = harness();
  q.add(pod('spread'));
  fail(q, 'PodTopologySpread');
  q.add(pod('fit'));
  fail(q, 'NodeResourcesFit');
  q.assignedPodAdded(pod('other', (b) => b.node('n1')));
  assert.deepEqual([q.where(pod('spread')), q.where(pod('fit'))], ['backoffQ', 'unschedulablePods']);
});

const nodeOf = (o: KubeObject): Node => o as Node;
test('Queue moves name the event and the object that caused them', () => {
  const { q, at } = harness();
  q.add(pod('web'));
  fail(q, 'NodeResourcesFit');
  at(5000);
  const big = node('big', '8');
  q.moveAllToActiveOrBackoffQueue(Events.NodeAdd, undefined, big);
  assert.deepEqual(q.moves.map((m) => [m.to, m.event, m.cause ?? '']), [
    ['activeQ', 'UnschedulablePodAdd', ''], ['popped', '', ''], ['unschedulablePods', 'ScheduleAttemptFailure', ''], ['activeQ', 'NodeAdd', `Node/${nodeOf(big).metadata?.name}`],
  ]);
});
