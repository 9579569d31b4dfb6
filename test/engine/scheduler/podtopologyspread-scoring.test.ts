// PodTopologySpread's PreScore, Score and NormalizeScore: log(size + 2) weights, maxSkew − 1, reversed normalization,
// and the system default constraints for pods a Service or a workload selects.
// Cases from pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go (TestPodTopologySpreadScore).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod } from '../../../src/engine/api/types';
import { listersOf } from '../../../src/engine/scheduler/framework/listers';
import { PodTopologySpread } from '../../../src/engine/scheduler/plugins/podtopologyspread';
import { exists, framework, makeNode, makePod, runScoreOn, type PodBuilder } from './builders';

const HOSTNAME = 'kubernetes.io/hostname';
const foo = (name: string, node: string, ns = 'default'): Pod => makePod(name, ns).label('foo', '').node(node).obj();
const bar = (name: string, node: string): Pod => makePod(name).label('bar', '').node(node).obj();
const incoming = (): PodBuilder => makePod('p').label('foo', '');
const hostnames = (...names: string[]): Node[] => names.map((n) => makeNode(n).obj());
const zoned = (...pairs: [string, string][]): Node[] => pairs.map(([n, z]) => makeNode(n).label('zone', z).obj());
const byNode = (...pairs: [string, string][]): Node[] => pairs.map(([n, v]) => makeNode(n).unlabel(HOSTNAME).label('node', v).obj());
const spread = (counts: Record<string, number>): Pod[] =>
  Object.entries(counts).flatMap(([node, n]) => Array.from({ length: n }, (_, i) => foo(`p-${node}-${i}`, node)));

const fooService: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', namespace: 'default' }, spec: { selector: { foo: '' } } };

const cases: {
  name: string; pod: PodBuilder; nodes: Node[]; failed?: Node[]; pods?: Pod[]; objects?: KubeObject[]; args?: Record<string, unknown>;
  want: Record<string, number> | { code: string };
}[] = [
  {
    name: 'With no existing pods every node scores 100',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: hostnames('node-a', 'node-b'), want: { 'node-a': 100, 'node-b': 100 },
  },
  {
    name: 'The only candidate scores 100',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: hostnames('node-a'), failed: hostnames('node-b'), pods: spread({ 'node-a': 2, 'node-b': 1 }),
    want: { 'node-a': 100 },
  },
  {
    name: 'Nodes with as many matching pods score the same',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: hostnames('node-a', 'node-b'), pods: spread({ 'node-a': 1, 'node-b': 1 }),
    want: { 'node-a': 100, 'node-b': 100 },
  },
  {
    name: 'Pods spread 2/1/0/3 over four candidates score 20/60/100/0',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: hostnames('node-a', 'node-b', 'node-c', 'node-d'), pods: spread({ 'node-a': 2, 'node-b': 1, 'node-d': 3 }),
    want: { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0 },
  },
  {
    name: 'A constraint without a selector counts no pod',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'ScheduleAnyway'),
    nodes: hostnames('node-a', 'node-b', 'node-c', 'node-d'), pods: spread({ 'node-a': 2, 'node-b': 1, 'node-d': 3 }),
    want: { 'node-a': 100, 'node-b': 100, 'node-c': 100, 'node-d': 100 },
  },
  {
    name: 'maxSkew 2 waters the differences down (33/66/100/16)',
    pod: incoming().spreadConstraint(2, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: hostnames('node-a', 'node-b', 'node-c', 'node-d'), pods: spread({ 'node-a': 2, 'node-b': 1, 'node-d': 3 }),
    want: { 'node-a': 33, 'node-b': 66, 'node-c': 100, 'node-d': 16 },
  },
  {
    name: 'maxSkew 3 over pods spread 4/3/2/1 scores 44/66/77/100',
    pod: incoming().spreadConstraint(3, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: hostnames('node-a', 'node-b', 'node-c', 'node-d'), pods: spread({ 'node-a': 4, 'node-b': 3, 'node-c': 2, 'node-d': 1 }),
    want: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
  },
  {
    name: 'Pods on a node that is not a candidate do not change the others\' scores (4/2/1/~3~)',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: hostnames('node-a', 'node-b', 'node-x'), failed: hostnames('node-y'), pods: spread({ 'node-a': 4, 'node-b': 2, 'node-x': 1, 'node-y': 3 }),
    want: { 'node-a': 33, 'node-b': 83, 'node-x': 100 },
  },
  {
    name: 'A candidate without the topology key scores 0 (4/?2?/1/~3~)',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: [makeNode('node-a').obj(), makeNode('node-b').unlabel(HOSTNAME).label('n', 'node-b').obj(), makeNode('node-x').obj()],
    failed: hostnames('node-y'), pods: spread({ 'node-a': 4, 'node-b': 2, 'node-x': 1, 'node-y': 3 }),
    want: { 'node-a': 16, 'node-b': 0, 'node-x': 100 },
  },
  {
    name: 'A zone constraint counts the pods of every node in the zone (4/2/1/~3~)',
    pod: incoming().spreadConstraint(1, 'zone', 'ScheduleAnyway', exists('foo')),
    nodes: zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-x', 'zone2']), failed: zoned(['node-y', 'zone2']),
    pods: spread({ 'node-a': 4, 'node-b': 2, 'node-x': 1, 'node-y': 3 }),
    want: { 'node-a': 75, 'node-b': 75, 'node-x': 100 },
  },
  {
    name: 'Zone and hostname constraints add up (2/~1~/2/~4~)',
    pod: incoming().spreadConstraint(1, 'zone', 'ScheduleAnyway', exists('foo')).spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: zoned(['node-a', 'zone1'], ['node-x', 'zone2']), failed: zoned(['node-b', 'zone1'], ['node-y', 'zone2']),
    pods: spread({ 'node-a': 2, 'node-b': 1, 'node-x': 2, 'node-y': 4 }),
    want: { 'node-a': 100, 'node-x': 63 },
  },
  {
    name: 'Constraints with different selectors count different pods',
    pod: incoming().label('bar', '').spreadConstraint(1, 'zone', 'ScheduleAnyway', exists('foo')).spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('bar')),
    nodes: zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-x', 'zone2'], ['node-y', 'zone2']),
    pods: [foo('p-a1', 'node-a'), makePod('p-b1').label('foo', '').label('bar', '').node('node-b').obj(), foo('p-y1', 'node-y'), bar('p-y2', 'node-y')],
    want: { 'node-a': 60, 'node-b': 20, 'node-x': 100, 'node-y': 60 },
  },
  {
    name: 'Existing pods in another namespace do not count',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: hostnames('node-a', 'node-b'), pods: [foo('p-a1', 'node-a', 'ns1'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-b2', 'node-b')],
    want: { 'node-a': 100, 'node-b': 33 },
  },
  {
    name: 'Terminating pods do not count',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', exists('foo')),
    nodes: hostnames('node-a', 'node-b'), pods: [makePod('p-a').label('foo', '').node('node-a').terminating().obj(), foo('p-b', 'node-b')],
    want: { 'node-a': 100, 'node-b': 0 },
  },
  {
    name: 'minDomains has no effect on ScheduleAnyway constraints',
    pod: incoming().spreadConstraint(2, 'node', 'ScheduleAnyway', exists('foo'), { minDomains: 10 }),
    nodes: byNode(['node-a', 'node-a'], ['node-b', 'node-b'], ['node-c', 'node-c']), pods: spread({ 'node-a': 2, 'node-b': 2, 'node-c': 1 }),
    want: { 'node-a': 75, 'node-b': 75, 'node-c': 100 },
  },
  {
    name: 'NodeAffinityPolicy Honor leaves out the pods of nodes the nodeSelector excludes',
    pod: incoming().nodeSelector({ foo: '' }).spreadConstraint(1, 'node', 'ScheduleAnyway', exists('foo')),
    nodes: [...byNode(['node-a', 'node-a'], ['node-b', 'node-b']).map((n) => withLabel(n, 'foo')), ...byNode(['node-c', 'node-c'])],
    pods: spread({ 'node-a': 2, 'node-b': 1, 'node-c': 1 }),
    want: { 'node-a': 0, 'node-b': 33, 'node-c': 100 },
  },
  {
    name: 'NodeAffinityPolicy Ignore counts them',
    pod: incoming().nodeSelector({ foo: '' }).spreadConstraint(1, 'node', 'ScheduleAnyway', exists('foo'), { nodeAffinityPolicy: 'Ignore' }),
    nodes: [...byNode(['node-a', 'node-a'], ['node-b', 'node-b']).map((n) => withLabel(n, 'foo')), ...byNode(['node-c', 'node-c'])],
    pods: spread({ 'node-a': 2, 'node-b': 1, 'node-c': 1 }),
    want: { 'node-a': 66, 'node-b': 100, 'node-c': 100 },
  },
  {
    name: 'NodeTaintsPolicy Honor leaves out the pods of tainted nodes',
    pod: incoming().spreadConstraint(1, 'node', 'ScheduleAnyway', exists('foo'), { nodeTaintsPolicy: 'Honor' }),
    nodes: [...byNode(['node-a', 'node-a'], ['node-b', 'node-b']), withTaint(byNode(['node-c', 'node-c'])[0]!)],
    pods: spread({ 'node-a': 2, 'node-b': 1, 'node-c': 1 }),
    want: { 'node-a': 0, 'node-b': 33, 'node-c': 100 },
  },
  {
    name: 'matchLabelKeys are ANDed with an empty label selector',
    pod: incoming().label('bar', '').spreadConstraint(1, 'zone', 'ScheduleAnyway', {}, { matchLabelKeys: ['foo'] }).spreadConstraint(1, HOSTNAME, 'ScheduleAnyway', {}, { matchLabelKeys: ['bar'] }),
    nodes: zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-c', 'zone2'], ['node-d', 'zone2']),
    pods: [foo('p-a1', 'node-a'), makePod('p-b1').label('foo', '').label('bar', '').node('node-b').obj(), foo('p-y1', 'node-c'), bar('p-y2', 'node-c')],
    want: { 'node-a': 60, 'node-b': 20, 'node-c': 60, 'node-d': 100 },
  },
  {
    name: 'A pod without ScheduleAnyway constraints skips Score',
    pod: incoming().spreadConstraint(1, HOSTNAME, 'DoNotSchedule', exists('foo')),
    nodes: hostnames('node-a', 'node-b'), want: { code: 'Skip' },
  },
  // The system default constraints: hostname (maxSkew 3) and zone (maxSkew 5), for pods selected by their owners.
  {
    name: 'System defaulting spreads the pods a Service selects over hostnames when nodes have no zone',
    pod: incoming(), nodes: hostnames('node-a', 'node-b', 'node-c', 'node-d'), objects: [fooService],
    pods: spread({ 'node-a': 4, 'node-b': 3, 'node-c': 2, 'node-d': 1 }),
    want: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
  },
  {
    name: 'System defaulting spreads the pods of their ReplicaSet',
    pod: incoming().controlledBy('ReplicaSet', 'web-1'), nodes: hostnames('node-a', 'node-b', 'node-c', 'node-d'),
    objects: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1', namespace: 'default' }, spec: { selector: { matchLabels: { foo: '' } } } }],
    pods: spread({ 'node-a': 4, 'node-b': 3, 'node-c': 2, 'node-d': 1 }),
    want: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
  },
  {
    name: 'System defaulting spreads the pods of their StatefulSet',
    pod: incoming().controlledBy('StatefulSet', 'db'), nodes: hostnames('node-a', 'node-b', 'node-c', 'node-d'),
    objects: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'default' }, spec: { selector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] } } }],
    pods: spread({ 'node-a': 4, 'node-b': 3, 'node-c': 2, 'node-d': 1 }),
    want: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
  },
  {
    name: 'System defaulting adds the zone constraint (maxSkew 5) where nodes have zones',
    pod: incoming(), nodes: [...zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-x', 'zone2'])].map((n) => withZone(n)), objects: [fooService],
    pods: spread({ 'node-a': 2, 'node-b': 1 }),
    want: { 'node-a': 46, 'node-b': 53, 'node-x': 100 },
  },
  {
    name: 'System defaulting skips Score for a pod nothing selects',
    pod: incoming().controlledBy('ReplicaSet', 'gone'), nodes: hostnames('node-a', 'node-b'), want: { code: 'Skip' },
  },
  {
    name: 'A Service without a selector selects nothing',
    pod: incoming(), nodes: hostnames('node-a', 'node-b'),
    objects: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'headless', namespace: 'default' }, spec: {} }], want: { code: 'Skip' },
  },
  {
    name: 'List defaulting uses the args\' constraints, which require all topology keys',
    pod: incoming(), args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway' }] },
    nodes: [...hostnames('node-a', 'node-b', 'node-c', 'node-d'), makeNode('node-e').unlabel(HOSTNAME).obj()], objects: [fooService],
    pods: spread({ 'node-a': 2, 'node-b': 1, 'node-d': 3 }),
    want: { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0, 'node-e': 0 },
  },
  {
    name: 'List defaulting with no constraints gives no defaults',
    pod: incoming(), args: { defaultingType: 'List' }, nodes: hostnames('node-a', 'node-b'), objects: [fooService], want: { code: 'Skip' },
  },
];

function withLabel(n: Node, key: string): Node {
  return { ...n, metadata: { ...n.metadata, labels: { ...n.metadata?.labels, [key]: '' } } };
}

function withTaint(n: Node): Node {
  return { ...n, spec: { taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] } };
}

function withZone(n: Node): Node {
  const zone = n.metadata?.labels?.['zone'] ?? '';
  return { ...n, metadata: { ...n.metadata, labels: { ...n.metadata?.labels, 'topology.kubernetes.io/zone': zone } } };
}

for (const c of cases) {
  test(c.name, () => {
    const fw = framework();
    const got = runScoreOn(fw, new PodTopologySpread(fw, c.args), c.pod.obj(), c.nodes, c.failed ?? [], c.pods ?? [], listersOf(c.objects ?? []));
    if ('code' in c.want) assert.deepEqual(Array.isArray(got) ? got : got.code, c.want.code);
    else assert.deepEqual(got, Object.entries(c.want).map(([name, score]) => ({ name, score })));
  });
}

test('The framework runs PodTopologySpread at PreFilter, Filter, PreScore and Score with weight 2', () => {
  const fw = framework();
  assert.ok(fw.preFilterPlugins.some((p) => p.name === 'PodTopologySpread'));
  assert.ok(fw.filterPlugins.some((p) => p.name === 'PodTopologySpread'));
  assert.ok(fw.preScorePlugins.some((p) => p.name === 'PodTopologySpread'));
  assert.equal(fw.scoreWeights.get('PodTopologySpread'), 2);
});
