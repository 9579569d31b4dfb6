// The scheduling cycle: filter, postFilter, score and the choice, with its trace entries, tables and FailedScheduling message.
// numFeasibleNodesToFind cases from TestNumFeasibleNodesToFind in pkg/scheduler/schedule_one_test.go; the messages are
// those 1.36 clusters print (DynamicResources' PostFilter adds "no new claims to deallocate").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../../src/engine/api/types';
import { numFeasibleNodesToFind } from '../../../src/engine/scheduler/framework/filter';
import { Snapshot } from '../../../src/engine/scheduler/framework/snapshot';
import { affinityTerm, makeNode, makePod, matchIn, runCycle, unevenCluster, type PodBuilder } from './builders';

const CONTROL_PLANE_TAINT = 'node-role.kubernetes.io/control-plane';

/** cluster is the embedded default cluster's nodes: a tainted control plane and two workers. */
function cluster(): Node[] {
  return [
    makeNode('control-plane').capacity({ cpu: '2', memory: '4091904Ki', pods: '110' }).taint(CONTROL_PLANE_TAINT, undefined, 'NoSchedule').obj(),
    makeNode('worker-1').capacity({ cpu: '4', memory: '8286208Ki', pods: '110' }).obj(),
    makeNode('worker-2').capacity({ cpu: '4', memory: '8286208Ki', pods: '110' }).obj(),
  ];
}

/** busy puts a pod requesting 2 cpu on each worker, at a priority. */
function busy(priority = 0): Pod[] {
  return ['worker-1', 'worker-2'].map((n) => makePod(`busy-${n}`, 'kube-system').node(n).req({ cpu: '2' }).priority(priority).obj());
}

function run(pod: PodBuilder, pods: Pod[] = [], nodes: Node[] = cluster(), seed = 1) {
  return runCycle({ pod: pod.obj(), snapshot: Snapshot.build(nodes, pods), seed });
}

const feasibleCases: { name: string; percentage: number; numAllNodes: number; want: number }[] = [
  { name: 'Not set percentageOfNodesToScore and nodes number not more than 50', percentage: 0, numAllNodes: 10, want: 10 },
  { name: 'Set percentageOfNodesToScore and nodes number not more than 50', percentage: 40, numAllNodes: 10, want: 10 },
  { name: 'Not set percentageOfNodesToScore and nodes number more than 50', percentage: 0, numAllNodes: 1000, want: 420 },
  { name: 'Set percentageOfNodesToScore and nodes number more than 50', percentage: 40, numAllNodes: 1000, want: 400 },
  { name: 'Not set percentageOfNodesToScore and nodes number more than 50*125', percentage: 0, numAllNodes: 6000, want: 300 },
  { name: 'Set percentageOfNodesToScore and nodes number more than 50*125', percentage: 40, numAllNodes: 6000, want: 2400 },
  { name: 'A small percentage still finds at least 100 nodes', percentage: 1, numAllNodes: 5000, want: 100 },
];

for (const c of feasibleCases) {
  test(c.name, () => assert.equal(numFeasibleNodesToFind(c.percentage, c.numAllNodes), c.want));
}

const messageCases: { name: string; pod: PodBuilder; pods: Pod[]; want: string }[] = [
  {
    name: 'A pod too big for the free cpu of the workers, with no lower-priority pod to evict',
    pod: makePod('web').req({ cpu: '3' }),
    pods: busy(),
    want: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
  },
  {
    name: 'A pod bigger than any node: preemption cannot help anywhere',
    pod: makePod('web').req({ cpu: '5' }),
    pods: [],
    want: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
  },
  {
    name: 'A pod that may not preempt says so',
    pod: makePod('web').req({ cpu: '3' }).preemptionPolicy('Never'),
    pods: busy(),
    want: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.',
  },
  {
    name: 'Evicting the lower-priority pods would not free enough: preemption names the filter reason',
    pod: makePod('web').req({ cpu: '3' }).priority(100),
    pods: [...busy(100), ...['worker-1', 'worker-2'].map((n) => makePod(`low-${n}`).node(n).req({ cpu: '1' }).obj())],
    want: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 Insufficient cpu.',
  },
  {
    name: 'A nodeSelector no node matches',
    pod: makePod('web').nodeSelector({ disktype: 'ssd' }),
    pods: [],
    want: "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
  },
  {
    // The PreFilter rejection stops PreFilter before DynamicResources runs, so its PostFilter finds no state: "not found".
    name: 'Required terms naming no common node fail at PreFilter',
    pod: makePod('web').requiredTerms({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['worker-1'] }, { key: 'metadata.name', operator: 'In', values: ['worker-2'] }] }),
    pods: [],
    want: '0/3 nodes are available: pod affinity terms conflict. not found',
  },
  {
    name: 'A pod narrowed to one full node counts the other nodes as not satisfying NodeAffinity',
    pod: makePod('web').req({ cpu: '3' }).requiredTerms({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['worker-1'] }] }),
    pods: busy(),
    want: "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
  },
  {
    name: 'A cordoned worker and a full one',
    pod: makePod('web').req({ cpu: '3' }),
    pods: busy().slice(0, 1),
    want: '0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
  },
];

for (const c of messageCases) {
  test(c.name, () => {
    const nodes = cluster();
    if (c.name.startsWith('A cordoned')) nodes[2]!.spec!.unschedulable = true;
    const { result } = run(c.pod, c.pods, nodes);
    assert.deepEqual([result.outcome, result.reason, result.message], ['Unschedulable', 'Unschedulable', c.want]);
  });
}

test('Preemption that could make room ends the PostFilter without a message and lists the candidates', () => {
  const low = ['worker-1', 'worker-2'].map((n) => makePod(`low-${n}`).node(n).req({ cpu: '2' }).obj());
  const { result, trace } = run(makePod('web').req({ cpu: '3' }).priority(1000), low);
  assert.equal(result.message, '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.');
  const candidates = (result.postFilterDetail?.candidates ?? []) as { node: string; potentialVictims: string[] }[];
  assert.deepEqual(candidates.map((c) => c.node).sort(), ['worker-1', 'worker-2']);
  assert.equal(trace.filter((t) => t.phase === 'scheduler.postFilter' && t.step).length, 2);
});

test('A pod that fits two equal workers goes to one of them, the same one for the same seed', () => {
  const first = run(makePod('web').req({ cpu: '500m' }), [], cluster(), 7).result;
  const again = run(makePod('web').req({ cpu: '500m' }), [], cluster(), 7).result;
  assert.equal(first.outcome, 'Scheduled');
  assert.equal(again.suggestedHost, first.suggestedHost);
  const chosen = new Set([...Array(20).keys()].map((seed) => run(makePod('web').req({ cpu: '500m' }), [], cluster(), seed).result.suggestedHost));
  assert.deepEqual([...chosen].sort(), ['worker-1', 'worker-2']);
});

test('The emptier worker wins on LeastAllocated and balance', () => {
  const { result, trace } = run(makePod('web').req({ cpu: '500m', memory: '128Mi' }), busy().slice(0, 1));
  assert.equal(result.suggestedHost, 'worker-2');
  const summary = trace.find((t) => t.phase === 'scheduler.score' && !t.step)!;
  assert.deepEqual([summary.phase, summary.step, summary.result], ['scheduler.score', undefined, 'worker-2 has the highest score, 464, of 2 nodes']);
  assert.deepEqual(result.tables.totals, { 'worker-1': 438, 'worker-2': 464 });
});

test('The trace has one entry per phase, then one per plugin in the framework order', () => {
  const { trace } = run(makePod('web').req({ cpu: '500m', memory: '128Mi' }), busy());
  assert.deepEqual(trace.map((t) => `${t.phase} ${t.step?.name ?? '-'}`), [
    'scheduler.filter -', 'scheduler.filter NodeUnschedulable', 'scheduler.filter NodeName', 'scheduler.filter TaintToleration',
    'scheduler.filter NodeAffinity', 'scheduler.filter NodePorts', 'scheduler.filter NodeResourcesFit', 'scheduler.filter VolumeRestrictions',
    'scheduler.filter NodeVolumeLimits', 'scheduler.filter VolumeBinding', 'scheduler.filter VolumeZone', 'scheduler.filter PodTopologySpread',
    'scheduler.filter InterPodAffinity', 'scheduler.filter DynamicResources',
    'scheduler.score -', 'scheduler.score TaintToleration', 'scheduler.score NodeAffinity', 'scheduler.score NodeResourcesFit',
    'scheduler.score VolumeBinding', 'scheduler.score PodTopologySpread', 'scheduler.score InterPodAffinity',
    'scheduler.score NodeResourcesBalancedAllocation', 'scheduler.score ImageLocality',
  ]);
});

test('A filter entry holds the plugin verdict per node and the field it reads (the request it found short when it rejects)', () => {
  const { trace } = run(makePod('web').req({ cpu: '3' }), busy());
  const taints = trace.find((t) => t.step?.name === 'TaintToleration')!;
  assert.equal(taints.field, 'spec.tolerations');
  assert.equal(taints.outcome, 'rejected');
  assert.deepEqual(taints.detail?.nodes, {
    'control-plane': { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint(s)'] },
    'worker-1': { code: 'Success', reasons: [] },
    'worker-2': { code: 'Success', reasons: [] },
  });
  const fit = trace.find((t) => t.step?.name === 'NodeResourcesFit')!;
  assert.equal(fit.field, 'spec.containers[0].resources.requests.cpu');
  assert.equal(fit.result, 'NodeResourcesFit rejected 2 of 2 nodes: Insufficient cpu');
  assert.deepEqual((fit.detail?.nodes as Record<string, unknown>)['control-plane'], { code: 'NotRun', reasons: [] });
});

test('A score entry holds raw, normalized and weighted scores per node', () => {
  const { trace } = run(makePod('web').req({ cpu: '500m' }).toleration({ key: 'tier', operator: 'Exists' }), [], [
    makeNode('a').capacity({ cpu: '4', memory: '8Gi' }).taint('tier', 'batch', 'PreferNoSchedule').obj(),
    makeNode('b').capacity({ cpu: '4', memory: '8Gi' }).taint('other', 'x', 'PreferNoSchedule').obj(),
  ]);
  const taints = trace.find((t) => t.phase === 'scheduler.score' && t.step?.name === 'TaintToleration')!;
  assert.deepEqual(taints.detail?.nodes, { a: { raw: 0, normalized: 100, weighted: 300 }, b: { raw: 1, normalized: 0, weighted: 0 } });
});

test('A single feasible node is chosen without scoring', () => {
  const { result, trace } = run(makePod('web').req({ cpu: '3' }), busy().slice(0, 1));
  assert.equal(result.suggestedHost, 'worker-2');
  assert.equal(trace.filter((t) => t.phase === 'scheduler.score').length, 1);
  assert.equal(trace.at(-1)!.result, 'worker-2 is the only node that fits: no scoring');
});

test('A cluster without nodes has no nodes available', () => {
  const { result } = run(makePod('web'), [], []);
  assert.deepEqual([result.outcome, result.message], ['Unschedulable', 'no nodes available to schedule pods']);
});

test('A pod with resource claims is a scheduler error until DRA is simulated', () => {
  const pod = makePod('web');
  (pod.obj().spec as { resourceClaims?: unknown[] }).resourceClaims = [{ name: 'gpu', resourceClaimName: 'gpu' }];
  const { result } = run(pod);
  assert.deepEqual([result.outcome, result.reason, result.message], ['Error', 'SchedulerError', 'running PreFilter plugin "DynamicResources": resource claims are not simulated yet']);
});

test('The nominated node is tried first and taken when it fits', () => {
  const pod: Pod = { ...makePod('web').req({ cpu: '500m' }).obj(), status: { nominatedNodeName: 'worker-1' } };
  const { result, trace } = runCycle({ pod, snapshot: Snapshot.build(cluster()) });
  assert.deepEqual([result.suggestedHost, result.evaluatedNodes], ['worker-1', 1]);
  assert.equal(trace.find((t) => t.phase === 'scheduler.filter' && !t.step)!.detail?.nominatedNode, 'worker-1');
});

test('The search stops once enough nodes fit and the next cycle starts where it stopped', () => {
  const nodes = [...Array(150).keys()].map((i) => makeNode(`n${i}`).capacity({ cpu: '4', memory: '8Gi' }).obj());
  const snapshot = Snapshot.build(nodes);
  const first = runCycle({ pod: makePod('a').obj(), snapshot, nextStartNodeIndex: 0 }).result;
  assert.deepEqual([first.feasibleNodes, first.nextStartNodeIndex], [100, 100]);
  const second = runCycle({ pod: makePod('b').obj(), snapshot, nextStartNodeIndex: first.nextStartNodeIndex }).result;
  assert.deepEqual([second.feasibleNodes, second.nextStartNodeIndex], [100, 50]);
  assert.equal(second.tables.evaluated[0], 'n100');
});

test('Rejected nodes passed on the way count toward the next start', () => {
  const nodes = [...Array(120).keys()].map((i) => {
    const n = makeNode(`n${i}`).capacity({ cpu: '4', memory: '8Gi' });
    return (i % 2 === 0 ? n.taint('dedicated', 'x', 'NoSchedule') : n).obj();
  });
  const { result } = runCycle({ pod: makePod('a').obj(), snapshot: Snapshot.build(nodes), nextStartNodeIndex: 0 });
  assert.deepEqual([result.feasibleNodes, result.evaluatedNodes, result.nextStartNodeIndex], [60, 120, 0]);
});

test('The decision tables keep every node, plugin and score', () => {
  const { result } = run(makePod('web').req({ cpu: '500m' }), busy());
  const t = result.tables;
  assert.deepEqual(t.nodes, ['control-plane', 'worker-1', 'worker-2']);
  assert.deepEqual(t.filterPlugins, [
    'NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'VolumeRestrictions', 'NodeVolumeLimits',
    'VolumeBinding', 'VolumeZone', 'PodTopologySpread', 'InterPodAffinity',
  ]);
  assert.deepEqual(t.filter['control-plane']!['NodeResourcesFit'], { code: 'NotRun', reasons: [] });
  assert.deepEqual(t.filter['worker-1']!['NodeAffinity'], { code: 'Skip', reasons: [] });
  assert.deepEqual(Object.keys(t.scores).sort(), ['worker-1', 'worker-2']);
  assert.equal(t.scorePlugins.find((p) => p.name === 'NodeAffinity')!.skipped, true);
  assert.equal(t.chosen, result.suggestedHost);
});


const quietCases: { name: string; pod: () => PodBuilder }[] = [
  { name: 'a pod with requests', pod: () => makePod('p', 'default').req({ cpu: '1', memory: '1Gi' }) },
  { name: 'a pod preferring ssd nodes and tolerating nothing', pod: () => makePod('p', 'default').req({ cpu: '500m' }).preferred(10, matchIn('disk', 'ssd')) },
  { name: 'a pod spreading over zones and hosts', pod: () => makePod('p', 'default').label('app', 'web').spreadConstraint(1, 'topology.kubernetes.io/zone', 'ScheduleAnyway', { matchLabels: { app: 'web' } }).spreadConstraint(1, 'kubernetes.io/hostname', 'ScheduleAnyway', { matchLabels: { app: 'web' } }) },
  { name: 'a pod that prefers to be away from web pods', pod: () => makePod('p', 'default').container('nginx:1.27').preferredPodAffinity(50, affinityTerm('kubernetes.io/hostname', { matchLabels: { app: 'web' } }), true) },
  { name: 'a pod too big for most nodes', pod: () => makePod('p', 'default').req({ cpu: '5' }) },
];
for (const c of quietCases) {
  test(`A quiet cycle decides as a traced one, with as many entries: ${c.name}`, () => {
    const { nodes, pods } = unevenCluster();
    for (let seed = 1; seed <= 12; seed++) {
      const traced = runCycle({ pod: c.pod().obj(), snapshot: Snapshot.build(nodes, pods), seed });
      const quiet = runCycle({ pod: c.pod().obj(), snapshot: Snapshot.build(nodes, pods), seed, quiet: true });
      // The tables are the trace's: a quiet cycle leaves them empty.
      assert.deepEqual({ ...quiet.result, tables: undefined }, { ...traced.result, tables: undefined }, `seed ${seed}`);
      assert.deepEqual(quiet.trace.map((e) => [e.phase, e.step?.name]), traced.trace.map((e) => [e.phase, e.step?.name]), `seed ${seed}`);
    }
  });
}
