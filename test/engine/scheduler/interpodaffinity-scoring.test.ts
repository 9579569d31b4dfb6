// InterPodAffinity's PreScore, Score and NormalizeScore: preferred terms of the pod and of existing pods, existing pods'
// required affinity at hardPodAffinityWeight, and the [min, max] → [0, 100] normalization.
// Cases after pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go (TestPreferredAffinity).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, LabelSelector, Node, Pod } from '../../../src/engine/api/types';
import { listersOf } from '../../../src/engine/scheduler/framework/listers';
import { InterPodAffinity } from '../../../src/engine/scheduler/plugins/interpodaffinity';
import { affinityTerm, framework, makeNode, makePod, runScoreOn, type PodBuilder } from './builders';

const security = (...values: string[]): LabelSelector => ({ matchExpressions: [{ key: 'security', operator: 'In', values }] });
/** Three nodes: node1 in region China, node2 in region India, node3 with only an az label. */
const nodes = (): Node[] => [
  makeNode('node1').label('region', 'China').obj(),
  makeNode('node2').label('region', 'India').obj(),
  makeNode('node3').label('az', 'az1').obj(),
];
const s1 = (name: string, node: string, ns = 'default'): Pod => makePod(name, ns).label('security', 'S1').node(node).obj();
const s2 = (name: string, node: string): Pod => makePod(name).label('security', 'S2').node(node).obj();
const incoming = (): PodBuilder => makePod('p').label('security', 'S1');
const scores = (...values: number[]): { name: string; score: number }[] => values.map((score, i) => ({ name: `node${i + 1}`, score }));

const namespaces: KubeObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { team: 'web' } } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a' } } },
];

const cases: { name: string; pod: PodBuilder; nodes?: Node[]; pods?: Pod[]; args?: Record<string, unknown>; want: object }[] = [
  {
    name: 'Without any affinity in play Score is skipped',
    pod: makePod('p'), pods: [s1('p1', 'node1')], want: { code: 'Skip' },
  },
  {
    name: 'A preferred affinity term favours the region of the matching pod',
    pod: incoming().preferredPodAffinity(5, affinityTerm('region', security('S1'))), pods: [s1('p1', 'node1')],
    want: scores(100, 0, 0),
  },
  {
    name: 'Matching pods in several regions add up per region',
    pod: incoming().preferredPodAffinity(5, affinityTerm('region', security('S1'))),
    pods: [s1('p1', 'node1'), s1('p2', 'node2'), s1('p3', 'node2')],
    want: scores(50, 100, 0),
  },
  {
    name: 'Scores are truncated after scaling',
    pod: incoming().preferredPodAffinity(1, affinityTerm('region', security('S1'))),
    nodes: [...nodes(), makeNode('node4').label('region', 'Japan').obj()],
    pods: [s1('p1', 'node1'), s1('p2', 'node2'), s1('p3', 'node2'), s1('p4', 'node4'), s1('p5', 'node4'), s1('p6', 'node4')],
    want: [...scores(33, 66, 0), { name: 'node4', score: 100 }],
  },
  {
    name: 'A preferred anti-affinity term disfavours the region of the matching pod',
    pod: incoming().preferredPodAffinity(5, affinityTerm('region', security('S1')), true), pods: [s1('p1', 'node1')],
    want: scores(0, 100, 100),
  },
  {
    name: 'Affinity and anti-affinity together spread over [min, max]',
    pod: incoming().preferredPodAffinity(5, affinityTerm('region', security('S1'))).preferredPodAffinity(5, affinityTerm('region', security('S2')), true),
    pods: [s1('p1', 'node1'), s2('p2', 'node2')],
    want: scores(100, 0, 50),
  },
  {
    name: 'The pod\'s preferred terms ignore pods in other namespaces',
    pod: incoming().preferredPodAffinity(5, affinityTerm('region', security('S1'))), pods: [s1('p1', 'node1', 'team-a'), s1('p2', 'node2')],
    want: scores(0, 100, 0),
  },
  {
    name: 'A namespaceSelector in the pod\'s preferred term selects namespaces by label',
    pod: incoming().preferredPodAffinity(5, affinityTerm('region', security('S1'), { namespaceSelector: { matchLabels: { team: 'a' } } })),
    pods: [s1('p1', 'node1', 'team-a'), s1('p2', 'node2')],
    want: scores(100, 0, 0),
  },
  {
    name: 'An existing pod\'s required affinity to the pod counts at hardPodAffinityWeight 1',
    pod: incoming(), pods: [makePod('p1').node('node1').podAffinity(affinityTerm('region', security('S1'))).obj()],
    want: scores(100, 0, 0),
  },
  {
    name: 'A hardPodAffinityWeight of 0 ignores existing pods\' required affinity',
    pod: incoming(), args: { hardPodAffinityWeight: 0 }, pods: [makePod('p1').node('node1').podAffinity(affinityTerm('region', security('S1'))).obj()],
    want: { code: 'Skip' },
  },
  {
    name: 'An existing pod\'s preferred affinity to the pod favours its region',
    pod: incoming(), pods: [makePod('p1').node('node2').preferredPodAffinity(8, affinityTerm('region', security('S1'))).obj()],
    want: scores(0, 100, 0),
  },
  {
    name: 'An existing pod\'s preferred anti-affinity to the pod disfavours its region',
    pod: incoming(), pods: [makePod('p1').node('node1').preferredPodAffinity(5, affinityTerm('region', security('S1')), true).obj()],
    want: scores(0, 100, 100),
  },
  {
    name: 'An existing pod\'s terms match the pod through its namespace\'s labels',
    pod: incoming(), pods: [makePod('p1', 'team-a').node('node1').preferredPodAffinity(5, affinityTerm('region', security('S1'), { namespaceSelector: { matchLabels: { team: 'web' } } })).obj()],
    want: scores(100, 0, 0),
  },
  {
    name: 'An existing pod\'s terms that do not select the pod count nothing',
    pod: incoming(), pods: [makePod('p1').node('node1').preferredPodAffinity(5, affinityTerm('region', security('S2'))).obj()],
    want: { code: 'Skip' },
  },
  {
    name: 'ignorePreferredTermsOfExistingPods skips Score for a pod without preferred terms',
    pod: incoming(), args: { ignorePreferredTermsOfExistingPods: true },
    pods: [makePod('p1').node('node2').preferredPodAffinity(8, affinityTerm('region', security('S1'))).obj()],
    want: { code: 'Skip' },
  },
  {
    name: 'ignorePreferredTermsOfExistingPods still scores a pod with preferred terms',
    pod: incoming().preferredPodAffinity(5, affinityTerm('region', security('S1'))), args: { ignorePreferredTermsOfExistingPods: true },
    pods: [s1('p1', 'node1')],
    want: scores(100, 0, 0),
  },
  {
    name: 'Pods on nodes that failed filtering still count',
    pod: incoming().preferredPodAffinity(5, affinityTerm('region', security('S1'))),
    nodes: [makeNode('node1').label('region', 'China').obj(), makeNode('node2').label('region', 'India').obj()],
    pods: [s1('p1', 'failed')],
    want: scores(100, 0),
  },
];

for (const c of cases) {
  test(c.name, () => {
    const fw = framework();
    const failed = c.name.startsWith('Pods on nodes that failed') ? [makeNode('failed').label('region', 'China').obj()] : [];
    const got = runScoreOn(fw, new InterPodAffinity(fw, c.args), c.pod.obj(), c.nodes ?? nodes(), failed, c.pods ?? [], listersOf(namespaces));
    if ('code' in c.want) assert.equal(Array.isArray(got) ? 'scores' : got.code, (c.want as { code: string }).code);
    else assert.deepEqual(got, c.want);
  });
}

test('The framework runs InterPodAffinity at PreFilter, Filter, PreScore and Score with weight 2', () => {
  const fw = framework();
  assert.ok(fw.preFilterPlugins.some((p) => p.name === 'InterPodAffinity'));
  assert.ok(fw.filterPlugins.some((p) => p.name === 'InterPodAffinity'));
  assert.ok(fw.preScorePlugins.some((p) => p.name === 'InterPodAffinity'));
  assert.equal(fw.scoreWeights.get('InterPodAffinity'), 2);
});

test('InterPodAffinity names the fields it reads', () => {
  const plugin = new InterPodAffinity(undefined);
  const pod = incoming().preferredPodAffinity(5, affinityTerm('region', security('S1'))).podAffinity(affinityTerm('zone', security('S1')), true).obj();
  assert.equal(plugin.fieldPath(pod, 'Filter'), 'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution');
  assert.equal(plugin.fieldPath(pod, 'Score'), 'spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution');
  assert.equal(plugin.fieldPath(makePod('p').obj(), 'Filter'), 'metadata.labels');
});
