// PodTopologySpread's PreFilter and Filter: skew per domain, missing labels, minDomains, node inclusion policies, matchLabelKeys.
// Cases after pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go (TestSingleConstraint, TestMultipleConstraints).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../../src/engine/api/types';
import { Random } from '../../../src/engine/runtime/random';
import { CycleState } from '../../../src/engine/scheduler/framework/cycle-state';
import { listersOf } from '../../../src/engine/scheduler/framework/listers';
import { Snapshot } from '../../../src/engine/scheduler/framework/snapshot';
import { viewOf } from '../../../src/engine/scheduler/framework/status';
import {
  ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch, PodTopologySpread,
} from '../../../src/engine/scheduler/plugins/podtopologyspread';
import { exists, framework, makeNode, makePod, runPreFilterAndFilter, type PodBuilder } from './builders';

const FITS = { code: 'Success', reasons: [] };
const SKEW = { code: 'Unschedulable', reasons: [ErrReasonConstraintsNotMatch] };
const NO_LABEL = { code: 'UnschedulableAndUnresolvable', reasons: [ErrReasonNodeLabelNotMatch] };
const SKIP = { code: 'Skip', reasons: [] };

/** zonedNodes are node-a and node-b in zone1, node-x and node-y in zone2, each with a `node` label. */
function zonedNodes(): Node[] {
  return [['node-a', 'zone1'], ['node-b', 'zone1'], ['node-x', 'zone2'], ['node-y', 'zone2']].map(([name, zone]) =>
    makeNode(name!).label('zone', zone!).label('node', name!).obj());
}

/** foo makes an existing pod with label foo on a node. */
const foo = (name: string, node: string, ns = 'default'): Pod => makePod(name, ns).label('foo', '').node(node).obj();
const incoming = (): PodBuilder => makePod('p').label('foo', '');

const cases: { name: string; pod: PodBuilder; nodes?: Node[]; pods?: Pod[]; want: Record<string, object> }[] = [
  {
    name: 'With no existing pods every node fits',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': FITS, 'node-y': FITS },
  },
  {
    name: 'Pods spread 1/2 over the zones leave only the emptier zone within maxSkew 1',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    pods: [foo('p-a1', 'node-a'), foo('p-x1', 'node-x'), foo('p-y1', 'node-y')],
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': SKEW, 'node-y': SKEW },
  },
  {
    name: 'Pods spread 3/3 over the zones leave every node within maxSkew 1',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    pods: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-x1', 'node-x')],
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': FITS, 'node-y': FITS },
  },
  {
    name: 'Existing pods in another namespace do not count',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    pods: [foo('p-a1', 'node-a', 'ns1'), foo('p-b1', 'node-b'), foo('p-x1', 'node-x'), foo('p-x2', 'node-x')],
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': SKEW, 'node-y': SKEW },
  },
  {
    name: 'Terminating pods do not count',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    pods: [foo('p-x1', 'node-x'), makePod('p-a1').label('foo', '').node('node-a').terminating().obj()],
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': SKEW, 'node-y': SKEW },
  },
  {
    name: 'Pods spread 2/1/0/3 over the nodes leave only the empty node within maxSkew 1',
    pod: incoming().spreadConstraint(1, 'node', 'DoNotSchedule', exists('foo')),
    pods: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y')],
    want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': FITS, 'node-y': SKEW },
  },
  {
    name: 'A pod its own selector does not match adds nothing to the skew',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('bar')),
    pods: [makePod('p-a1').label('bar', '').node('node-a').obj()],
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': FITS, 'node-y': FITS },
  },
  {
    name: 'A node without the topology key is rejected for the missing label',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    nodes: [makeNode('node-a').label('zone', 'zone1').obj(), makeNode('node-c').obj()],
    want: { 'node-a': FITS, 'node-c': NO_LABEL },
  },
  {
    name: 'Fewer domains than minDomains make the global minimum 0',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo'), { minDomains: 3 }),
    pods: [foo('p-a1', 'node-a'), foo('p-x1', 'node-x')],
    want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': SKEW, 'node-y': SKEW },
  },
  {
    name: 'Without minDomains the same pods leave every node within maxSkew 1',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    pods: [foo('p-a1', 'node-a'), foo('p-x1', 'node-x')],
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': FITS, 'node-y': FITS },
  },
  {
    name: 'NodeAffinityPolicy Honor leaves out the nodes the pod\'s nodeSelector excludes',
    pod: incoming().nodeSelector({ ssd: 'true' }).spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    nodes: ssdNodes(),
    pods: [foo('p-a1', 'node-a'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y')],
    want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': FITS, 'node-y': FITS },
  },
  {
    name: 'NodeAffinityPolicy Ignore counts every node',
    pod: incoming().nodeSelector({ ssd: 'true' }).spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo'), { nodeAffinityPolicy: 'Ignore' }),
    nodes: ssdNodes(),
    pods: [foo('p-a1', 'node-a'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y')],
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': SKEW, 'node-y': SKEW },
  },
  {
    name: 'NodeTaintsPolicy Honor leaves out the nodes with taints the pod does not tolerate',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo'), { nodeTaintsPolicy: 'Honor' }),
    nodes: taintedNodes(),
    pods: [foo('p-a1', 'node-a'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y')],
    want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': FITS, 'node-y': FITS },
  },
  {
    name: 'NodeTaintsPolicy Ignore, the default, counts tainted nodes',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    nodes: taintedNodes(),
    pods: [foo('p-a1', 'node-a'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y')],
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': SKEW, 'node-y': SKEW },
  },
  {
    name: 'matchLabelKeys count only the pods with the pod\'s value of the key',
    pod: incoming().label('rev', '2').spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo'), { matchLabelKeys: ['rev'] }),
    pods: [withRev('p-a1', 'node-a', '1'), withRev('p-a2', 'node-a', '1'), withRev('p-x1', 'node-x', '2')],
    want: { 'node-a': FITS, 'node-b': FITS, 'node-x': SKEW, 'node-y': SKEW },
  },
  {
    name: 'Without matchLabelKeys every revision counts',
    pod: incoming().label('rev', '2').spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')),
    pods: [withRev('p-a1', 'node-a', '1'), withRev('p-a2', 'node-a', '1'), withRev('p-x1', 'node-x', '2')],
    want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': FITS, 'node-y': FITS },
  },
  {
    name: 'Two constraints (zone 3/4, node 2/1/0/4) leave no node that satisfies both',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')).spreadConstraint(1, 'node', 'DoNotSchedule', exists('foo')),
    pods: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y'), foo('p-y4', 'node-y')],
    want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': SKEW, 'node-y': SKEW },
  },
  {
    name: 'Two constraints (zone 3/3, node 2/1/0/3) leave the empty node',
    pod: incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')).spreadConstraint(1, 'node', 'DoNotSchedule', exists('foo')),
    pods: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y')],
    want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': FITS, 'node-y': SKEW },
  },
  {
    name: 'ScheduleAnyway constraints are left to scoring',
    pod: incoming().spreadConstraint(1, 'zone', 'ScheduleAnyway', exists('foo')).spreadConstraint(1, 'node', 'DoNotSchedule', exists('foo')),
    pods: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y'), foo('p-y4', 'node-y')],
    want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': FITS, 'node-y': SKEW },
  },
];

function ssdNodes(): Node[] {
  return zonedNodes().map((n) => (n.metadata?.name === 'node-y' ? n : { ...n, metadata: { ...n.metadata, labels: { ...n.metadata?.labels, ssd: 'true' } } }));
}

function taintedNodes(): Node[] {
  return zonedNodes().map((n) => (n.metadata?.name === 'node-y' ? { ...n, spec: { taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] } } : n));
}

function withRev(name: string, node: string, rev: string): Pod {
  return makePod(name).label('foo', '').label('rev', rev).node(node).obj();
}

for (const c of cases) {
  test(c.name, () => {
    const fw = framework();
    const run = runPreFilterAndFilter(fw, new PodTopologySpread(fw), c.pod.obj(), c.nodes ?? zonedNodes(), c.pods ?? []);
    assert.deepEqual(run, { preFilter: FITS, nodes: c.want });
  });
}

test('A pod without constraints skips Filter when no Service or workload selects it', () => {
  const fw = framework();
  assert.deepEqual(runPreFilterAndFilter(fw, new PodTopologySpread(fw), makePod('p').obj(), zonedNodes()).preFilter, SKIP);
});

test('A pod with only ScheduleAnyway constraints skips Filter', () => {
  const fw = framework();
  const pod = incoming().spreadConstraint(1, 'zone', 'ScheduleAnyway', exists('foo')).obj();
  assert.deepEqual(runPreFilterAndFilter(fw, new PodTopologySpread(fw), pod, zonedNodes()).preFilter, SKIP);
});

test('The system default constraints are ScheduleAnyway: a ReplicaSet\'s pod skips Filter', () => {
  const fw = framework();
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1', namespace: 'default' }, spec: { selector: { matchLabels: { foo: '' } } } };
  const pod = incoming().controlledBy('ReplicaSet', 'web-1').obj();
  assert.deepEqual(runPreFilterAndFilter(fw, new PodTopologySpread(fw), pod, zonedNodes(), [], listersOf([rs])).preFilter, SKIP);
});

test('List default constraints with DoNotSchedule filter the pods a Service selects', () => {
  const fw = framework();
  const plugin = new PodTopologySpread(fw, { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] });
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', namespace: 'default' }, spec: { selector: { foo: '' } } };
  const run = runPreFilterAndFilter(fw, plugin, incoming().obj(), zonedNodes(), [foo('p-x1', 'node-x')], listersOf([service]));
  assert.deepEqual(run.nodes, { 'node-a': FITS, 'node-b': FITS, 'node-x': SKEW, 'node-y': SKEW });
});

test('A constraint whose label selector does not parse is an Error', () => {
  const fw = framework();
  const pod = incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', { matchExpressions: [{ key: 'foo', operator: 'Bogus' }] }).obj();
  const run = runPreFilterAndFilter(fw, new PodTopologySpread(fw), pod, zonedNodes());
  assert.equal(run.preFilter.code, 'Error');
  assert.match(run.preFilter.reasons[0] ?? '', /^get constraints from pod: obtaining pod's hard topology spread constraints: "Bogus" is not a valid/);
});

test('RemovePod and AddPod change a copy of the state, for preemption\'s dry runs', () => {
  const fw = framework();
  const plugin = new PodTopologySpread(fw);
  const pod = incoming().spreadConstraint(1, 'zone', 'DoNotSchedule', exists('foo')).obj();
  const snapshot = Snapshot.build(zonedNodes(), [foo('p-x1', 'node-x'), foo('p-x2', 'node-x')]);
  fw.startCycle(snapshot, new Random(1));
  const state = new CycleState();
  plugin.preFilter(state, pod, snapshot.nodeInfoList);
  const nodeX = snapshot.get('node-x')!;
  const dryRun = state.clone();
  assert.equal(plugin.removePod(dryRun, pod, nodeX.pods[0]!, nodeX), null);
  assert.deepEqual(viewOf(plugin.filter(dryRun, pod, nodeX)), SKEW);
  assert.equal(plugin.removePod(dryRun, pod, nodeX.pods[1]!, nodeX), null);
  assert.deepEqual(viewOf(plugin.filter(dryRun, pod, nodeX)), FITS);
  assert.deepEqual(viewOf(plugin.filter(state, pod, nodeX)), SKEW);
  plugin.addPod(dryRun, pod, nodeX.pods[0]!, nodeX);
  assert.deepEqual(viewOf(plugin.filter(dryRun, pod, nodeX)), SKEW);
});
