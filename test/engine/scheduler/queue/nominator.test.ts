// The nominator and the filters that count nominated pods. Expected values from
// pkg/scheduler/backend/queue/nominator.go (addNominatedPodUnlocked, UpdateNominatedPod, deleteUnlocked),
// scheduling_queue.go (moveToActiveQ nominates on UnscheduledPodAdd/Update, Update, Delete, NominatedPodsForNode) and
// framework/runtime/framework.go (RunFilterPluginsWithNominatedPods, addGENominatedPods), v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../../src/engine/api/types';
import { CycleState } from '../../../../src/engine/scheduler/framework/cycle-state';
import { Framework } from '../../../../src/engine/scheduler/framework/framework';
import { Snapshot } from '../../../../src/engine/scheduler/framework/snapshot';
import { Random } from '../../../../src/engine/runtime/random';
import { DEFAULT_PROFILE } from '../../../../src/engine/scheduler/framework/profile';
import { IN_TREE_REGISTRY } from '../../../../src/engine/scheduler/plugins/registry';
import { viewOf } from '../../../../src/engine/scheduler/framework/status';
import { queueProfileOf } from '../../../../src/engine/scheduler/queue/hints';
import { Nominator, type NominatingInfo } from '../../../../src/engine/scheduler/queue/nominator';
import { SchedulingQueue } from '../../../../src/engine/scheduler/queue/scheduling-queue';
import { makeNode, makePod, type PodBuilder } from '../builders';

function pod(name: string, more: (b: PodBuilder) => PodBuilder = (b) => b): Pod {
  const p = more(makePod(name).req({ cpu: '1' }).uid(`uid-${name}`)).obj();
  p.spec!.schedulerName = 'default-scheduler';
  return p;
}

const names = (n: Nominator, node: string): string[] => n.podsForNode(node).map((r) => r.name);

const nominatorCases: { name: string; stored: Pod[]; run: (n: Nominator) => void; want: Record<string, string[]> }[] = [
  {
    name: 'an override puts the pod on the node given',
    stored: [pod('a')], run: (n) => n.add(pod('a'), { mode: 'override', nodeName: 'node-1' }), want: { 'node-1': ['a'] },
  },
  {
    name: 'no nominating info (ModeNoop) takes the pod\'s own status.nominatedNodeName',
    stored: [pod('a')], run: (n) => n.add(pod('a', (b) => b.nominatedNodeName('node-2')), undefined), want: { 'node-2': ['a'] },
  },
  {
    name: 'ModeNoop without a nominatedNodeName nominates nothing, and forgets the old nomination',
    stored: [pod('a')], run: (n) => { n.add(pod('a'), { mode: 'override', nodeName: 'node-1' }); n.add(pod('a'), undefined); }, want: { 'node-1': [] },
  },
  {
    name: 'a pod the informer no longer has is not nominated',
    stored: [], run: (n) => n.add(pod('a'), { mode: 'override', nodeName: 'node-1' }), want: { 'node-1': [] },
  },
  {
    name: 'a pod already bound is not nominated',
    stored: [pod('a', (b) => b.node('node-3'))], run: (n) => n.add(pod('a'), { mode: 'override', nodeName: 'node-1' }), want: { 'node-1': [] },
  },
  {
    name: 'a new nomination moves the pod: never on two nodes',
    stored: [pod('a')], run: (n) => { n.add(pod('a'), { mode: 'override', nodeName: 'node-1' }); n.add(pod('a'), { mode: 'override', nodeName: 'node-2' }); },
    want: { 'node-1': [], 'node-2': ['a'] },
  },
  {
    name: 'an update with no nominatedNodeName before or after keeps the node nominated in memory',
    stored: [pod('a')], run: (n) => { n.add(pod('a'), { mode: 'override', nodeName: 'node-1' }); n.update(pod('a'), pod('a', (b) => b.label('x', 'y'))); },
    want: { 'node-1': ['a'] },
  },
  {
    name: 'an update that drops the nominatedNodeName drops the nomination',
    stored: [pod('a')], run: (n) => { n.add(pod('a', (b) => b.nominatedNodeName('node-1')), undefined); n.update(pod('a', (b) => b.nominatedNodeName('node-1')), pod('a')); },
    want: { 'node-1': [] },
  },
  {
    name: 'delete forgets it; the others on the node stay in the order nominated',
    stored: [pod('a'), pod('b'), pod('c')],
    run: (n) => { for (const x of ['a', 'b', 'c']) n.add(pod(x), { mode: 'override', nodeName: 'node-1' }); n.delete(pod('b')); },
    want: { 'node-1': ['a', 'c'] },
  },
];
for (const c of nominatorCases) {
  test(`nominator: ${c.name}`, () => {
    const stored = new Map(c.stored.map((p) => [p.metadata!.name!, p]));
    const n = new Nominator((_ns, name) => stored.get(name));
    c.run(n);
    for (const [node, want] of Object.entries(c.want)) assert.deepEqual(names(n, node), want, node);
  });
}

/** queue is a scheduling queue over the default profile whose informer holds `stored`. */
function queue(stored: Pod[]): SchedulingQueue {
  const fw = new Framework(IN_TREE_REGISTRY, DEFAULT_PROFILE);
  const byName = new Map(stored.map((p) => [p.metadata!.name!, p]));
  return new SchedulingQueue({
    now: () => 0, less: (a, b) => fw.queueSortPlugins[0]!.less(a, b), profiles: [queueProfileOf(fw)], podInitialBackoff: 1000, podMaxBackoff: 10_000,
    lister: (_ns, name) => byName.get(name),
  });
}

test('queue: a pod added with a nominatedNodeName is nominated, and listed for its node as the queue holds it', () => {
  const a = pod('a', (b) => b.nominatedNodeName('node-1').priority(100));
  const q = queue([a]);
  q.add(a);
  const listed = q.nominatedPodsForNode('node-1');
  assert.equal(listed.length, 1);
  assert.equal(listed[0], a);
});

test('queue: a gated pod is not nominated (it never entered activeQ)', () => {
  const a = pod('a', (b) => b.nominatedNodeName('node-1'));
  a.spec!.schedulingGates = [{ name: 'example.com/wait' }];
  const q = queue([a]);
  q.add(a);
  assert.deepEqual(q.nominatedPodsForNode('node-1'), []);
});

test('queue: a nominated pod in flight is its name and uid alone; deleting it forgets it', () => {
  const a = pod('a', (b) => b.priority(100));
  const q = queue([a]);
  q.add(a);
  q.addNominatedPod(a, { mode: 'override', nodeName: 'node-1' } satisfies NominatingInfo);
  q.pop();
  assert.deepEqual(q.nominatedPodsForNode('node-1'), [{ metadata: { namespace: 'default', name: 'a', uid: 'uid-a' } }]);
  q.delete(a);
  assert.deepEqual(q.nominatedPodsForNode('node-1'), []);
});

const filterCases: { name: string; running?: string; nominated: (b: PodBuilder) => PodBuilder; incoming: (b: PodBuilder) => PodBuilder; want: string | null }[] = [
  { name: 'a nominated pod of higher priority counts: no room left', nominated: (b) => b.priority(1000), incoming: (b) => b, want: 'NodeResourcesFit: Unschedulable: Insufficient cpu' },
  { name: 'one of equal priority counts too', nominated: (b) => b.priority(0), incoming: (b) => b, want: 'NodeResourcesFit: Unschedulable: Insufficient cpu' },
  { name: 'one of lower priority does not: the room freed for it may be taken', nominated: (b) => b.priority(0), incoming: (b) => b.priority(10), want: null },
  { name: 'with room for both, both passes fit', running: '1', nominated: (b) => b.priority(1000), incoming: (b) => b, want: null },
];
for (const c of filterCases) {
  test(`filters with nominated pods: ${c.name}`, () => {
    const fw = new Framework(IN_TREE_REGISTRY, DEFAULT_PROFILE);
    // Each pod asks for 1 cpu; the running one for more (3 of the node's 4 in all, unless the case says).
    const snapshot = Snapshot.build([makeNode('node-1').capacity({ cpu: '4', pods: '110' }).obj()], [pod('running', (b) => b.node('node-1').req({ cpu: c.running ?? '2' }))]);
    fw.startCycle(snapshot, new Random(1));
    const node = snapshot.nodeInfoList[0]!;
    const nominated = pod('nominated', c.nominated);
    fw.nominatedPods = (name) => (name === 'node-1' ? [nominated] : []);
    const incoming = pod('incoming', c.incoming);
    const state = new CycleState();
    fw.runPreFilterPlugins(state, incoming, [node]);
    const status = fw.runFilterPluginsWithNominatedPods(state, incoming, node);
    assert.equal(status === null ? null : `${status.plugin}: ${viewOf(status).code}: ${status.reasons.join(', ')}`, c.want);
    // The node itself is left as it was.
    assert.equal(node.pods.length, 1);
  });
}
