// InterPodAffinity's PreFilter and Filter: the pod's required affinity and anti-affinity, the existing pods'
// anti-affinity, namespaces and namespaceSelector, the first pod of a group.
// Cases after pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go (TestRequiredAffinitySingleNode, ...MultipleNodes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, LabelSelector, Node, Pod } from '../../../src/engine/api/types';
import { Random } from '../../../src/engine/runtime/random';
import { CycleState } from '../../../src/engine/scheduler/framework/cycle-state';
import { listersOf } from '../../../src/engine/scheduler/framework/listers';
import { PodInfo } from '../../../src/engine/scheduler/framework/node-info';
import { Snapshot } from '../../../src/engine/scheduler/framework/snapshot';
import { viewOf } from '../../../src/engine/scheduler/framework/status';
import {
  ErrReasonAffinityRulesNotMatch, ErrReasonAntiAffinityRulesNotMatch, ErrReasonExistingAntiAffinityRulesNotMatch, InterPodAffinity,
} from '../../../src/engine/scheduler/plugins/interpodaffinity';
import { affinityTerm, framework, makeNode, makePod, runPreFilterAndFilter, type PodBuilder } from './builders';

const FITS = { code: 'Success', reasons: [] };
const AFFINITY = { code: 'UnschedulableAndUnresolvable', reasons: [ErrReasonAffinityRulesNotMatch] };
const ANTI = { code: 'Unschedulable', reasons: [ErrReasonAntiAffinityRulesNotMatch] };
const EXISTING = { code: 'Unschedulable', reasons: [ErrReasonExistingAntiAffinityRulesNotMatch] };
const SKIP = { code: 'Skip', reasons: [] };

const HOSTNAME = 'kubernetes.io/hostname';
const securityS1: LabelSelector = { matchExpressions: [{ key: 'security', operator: 'In', values: ['S1'] }] };
const serviceSecurityscan: LabelSelector = { matchLabels: { service: 'securityscan' } };

/** node1 is in region r1, zone z11. */
const node1 = (): Node => makeNode('node1').label('region', 'r1').label('zone', 'z11').obj();
/** regions are node1 (r1), node2 (r1, same zone as node1) and node3 (r2). */
const regions = (): Node[] => [node1(), makeNode('node2').label('region', 'r1').label('zone', 'z11').obj(), makeNode('node3').label('region', 'r2').label('zone', 'z21').obj()];
const on = (pod: PodBuilder, node: string): Pod => pod.node(node).obj();
const labelled = (name: string, key: string, value: string, ns = 'default'): PodBuilder => makePod(name, ns).label(key, value);

const namespaces: KubeObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default', team: 'web' } } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other', labels: { 'kubernetes.io/metadata.name': 'other', team: 'db' } } },
];

const cases: { name: string; pod: PodBuilder; nodes?: Node[]; pods?: Pod[]; want: Record<string, object> | object }[] = [
  {
    name: 'A pod without affinity and no existing anti-affinity skips Filter',
    pod: makePod('p'), pods: [on(labelled('p1', 'service', 'securityscan'), 'node1')], want: SKIP,
  },
  {
    name: 'Required affinity is satisfied by a matching pod on the node',
    pod: makePod('p').podAffinity(affinityTerm('region', serviceSecurityscan)),
    pods: [on(labelled('p1', 'service', 'securityscan'), 'node1')], want: { node1: FITS },
  },
  {
    name: 'Required affinity with an In expression is satisfied by a pod with one of the values',
    pod: makePod('p').podAffinity(affinityTerm('region', { matchExpressions: [{ key: 'service', operator: 'In', values: ['securityscan', 'value2'] }] })),
    pods: [on(labelled('p1', 'service', 'securityscan'), 'node1')], want: { node1: FITS },
  },
  {
    name: 'Required affinity with no matching pod fails, and preemption cannot help',
    pod: makePod('p').podAffinity(affinityTerm('region', serviceSecurityscan)),
    pods: [on(labelled('p1', 'service', 'other'), 'node1')], want: { node1: AFFINITY },
  },
  {
    name: 'Required affinity ignores matching pods in other namespaces',
    pod: makePod('p').podAffinity(affinityTerm('region', serviceSecurityscan)),
    pods: [on(labelled('p1', 'service', 'securityscan', 'other'), 'node1')], want: { node1: AFFINITY },
  },
  {
    name: 'Required affinity naming the other namespace finds the pod there',
    pod: makePod('p').podAffinity(affinityTerm('region', serviceSecurityscan, { namespaces: ['other'] })),
    pods: [on(labelled('p1', 'service', 'securityscan', 'other'), 'node1')], want: { node1: FITS },
  },
  {
    name: 'Required affinity with a namespaceSelector finds the pod in a namespace it selects',
    pod: makePod('p').podAffinity(affinityTerm('region', serviceSecurityscan, { namespaceSelector: { matchLabels: { team: 'db' } } })),
    pods: [on(labelled('p1', 'service', 'securityscan', 'other'), 'node1')], want: { node1: FITS },
  },
  {
    name: 'An empty namespaceSelector selects every namespace',
    pod: makePod('p').podAffinity(affinityTerm('region', serviceSecurityscan, { namespaceSelector: {} })),
    pods: [on(labelled('p1', 'service', 'securityscan', 'elsewhere'), 'node1')], want: { node1: FITS },
  },
  {
    name: 'The first pod of a group that matches its own affinity fits when no pod matches yet',
    pod: makePod('p').label('service', 'securityscan').podAffinity(affinityTerm('region', serviceSecurityscan)),
    want: { node1: FITS },
  },
  {
    name: 'The first pod of a group still needs the topology key on the node',
    pod: makePod('p').label('service', 'securityscan').podAffinity(affinityTerm('rack', serviceSecurityscan)),
    want: { node1: AFFINITY },
  },
  {
    name: 'Once a matching pod runs in one region, a self-matching pod must join it there',
    pod: makePod('p').label('service', 'securityscan').podAffinity(affinityTerm('region', serviceSecurityscan)),
    nodes: regions(), pods: [on(labelled('p1', 'service', 'securityscan'), 'node3')],
    want: { node1: AFFINITY, node2: AFFINITY, node3: FITS },
  },
  {
    name: 'An existing pod must match all required affinity terms',
    pod: makePod('p').podAffinity(affinityTerm('region', serviceSecurityscan)).podAffinity(affinityTerm('zone', securityS1)),
    pods: [on(labelled('p1', 'service', 'securityscan'), 'node1'), on(labelled('p2', 'security', 'S1'), 'node1')],
    want: { node1: AFFINITY },
  },
  {
    name: 'Required anti-affinity against a pod on the node fails',
    pod: makePod('p').podAffinity(affinityTerm(HOSTNAME, serviceSecurityscan), true),
    pods: [on(labelled('p1', 'service', 'securityscan'), 'node1')], want: { node1: ANTI },
  },
  {
    name: 'Required anti-affinity on zone keeps the pod out of the whole zone',
    pod: makePod('p').podAffinity(affinityTerm('zone', serviceSecurityscan), true),
    nodes: regions(), pods: [on(labelled('p1', 'service', 'securityscan'), 'node2')],
    want: { node1: ANTI, node2: ANTI, node3: FITS },
  },
  {
    name: 'Required anti-affinity against pods in other namespaces does not apply',
    pod: makePod('p').podAffinity(affinityTerm(HOSTNAME, serviceSecurityscan), true),
    pods: [on(labelled('p1', 'service', 'securityscan', 'other'), 'node1')], want: { node1: FITS },
  },
  {
    name: 'Required anti-affinity with a namespaceSelector applies to the namespaces it selects',
    pod: makePod('p').podAffinity(affinityTerm(HOSTNAME, serviceSecurityscan, { namespaceSelector: { matchLabels: { team: 'db' } } }), true),
    pods: [on(labelled('p1', 'service', 'securityscan', 'other'), 'node1')], want: { node1: ANTI },
  },
  {
    name: 'Affinity is checked before anti-affinity',
    pod: makePod('p').podAffinity(affinityTerm('region', securityS1)).podAffinity(affinityTerm(HOSTNAME, serviceSecurityscan), true),
    pods: [on(labelled('p1', 'service', 'securityscan'), 'node1')], want: { node1: AFFINITY },
  },
  {
    name: 'Affinity and anti-affinity to different pods can both be satisfied',
    pod: makePod('p').podAffinity(affinityTerm('region', securityS1)).podAffinity(affinityTerm('zone', serviceSecurityscan), true),
    nodes: regions(), pods: [on(labelled('p1', 'security', 'S1'), 'node1'), on(labelled('p2', 'service', 'securityscan'), 'node3')],
    want: { node1: FITS, node2: FITS, node3: AFFINITY },
  },
  {
    name: 'An existing pod\'s required anti-affinity keeps the pod out of its topology',
    pod: labelled('p', 'service', 'securityscan'),
    nodes: regions(), pods: [on(makePod('p1').podAffinity(affinityTerm('region', serviceSecurityscan), true), 'node1')],
    want: { node1: EXISTING, node2: EXISTING, node3: FITS },
  },
  {
    name: 'An existing pod\'s anti-affinity does not apply to pods it does not select',
    pod: labelled('p', 'service', 'other'),
    pods: [on(makePod('p1').podAffinity(affinityTerm(HOSTNAME, serviceSecurityscan), true), 'node1')], want: SKIP,
  },
  {
    name: 'An existing pod\'s anti-affinity in another namespace applies only to its own namespace',
    pod: labelled('p', 'service', 'securityscan'),
    pods: [on(makePod('p1', 'other').podAffinity(affinityTerm(HOSTNAME, serviceSecurityscan), true), 'node1')], want: SKIP,
  },
  {
    name: 'An existing pod\'s anti-affinity namespaceSelector matches the incoming pod\'s namespace labels',
    pod: labelled('p', 'service', 'securityscan'),
    pods: [on(makePod('p1', 'other').podAffinity(affinityTerm(HOSTNAME, serviceSecurityscan, { namespaceSelector: { matchLabels: { team: 'web' } } }), true), 'node1')],
    want: { node1: EXISTING },
  },
  {
    name: 'The pod\'s own anti-affinity is checked before the existing pods\'',
    pod: labelled('p', 'service', 'securityscan').podAffinity(affinityTerm(HOSTNAME, securityS1), true),
    pods: [on(makePod('p1').label('security', 'S1').podAffinity(affinityTerm(HOSTNAME, serviceSecurityscan), true), 'node1')],
    want: { node1: ANTI },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const fw = framework();
    const run = runPreFilterAndFilter(fw, new InterPodAffinity(fw), c.pod.obj(), c.nodes ?? [node1()], c.pods ?? [], listersOf(namespaces));
    if ('code' in c.want) assert.deepEqual(run.preFilter, c.want);
    else assert.deepEqual(run, { preFilter: FITS, nodes: c.want });
  });
}

test('A pod whose affinity selector does not parse is UnschedulableAndUnresolvable at PreFilter', () => {
  const fw = framework();
  const pod = makePod('p').podAffinity(affinityTerm('region', { matchExpressions: [{ key: 'service', operator: 'Bogus' }] })).obj();
  const run = runPreFilterAndFilter(fw, new InterPodAffinity(fw), pod, [node1()]);
  assert.equal(run.preFilter.code, 'UnschedulableAndUnresolvable');
  assert.match(run.preFilter.reasons[0] ?? '', /^parsing pod: requiredAffinityTerms: "Bogus" is not a valid/);
});

test('RemovePod and AddPod change a copy of the state, for preemption\'s dry runs', () => {
  const fw = framework();
  const plugin = new InterPodAffinity(fw);
  const victim = on(labelled('v', 'service', 'securityscan'), 'node1');
  const pod = makePod('p').podAffinity(affinityTerm(HOSTNAME, serviceSecurityscan), true).obj();
  const snapshot = Snapshot.build([node1()], [victim]);
  fw.startCycle(snapshot, new Random(1));
  const state = new CycleState();
  plugin.preFilter(state, pod, snapshot.nodeInfoList);
  const ni = snapshot.nodeInfoList[0]!;
  const dryRun = state.clone();
  assert.equal(plugin.removePod(dryRun, pod, ni.pods[0]!, ni), null);
  assert.equal(plugin.filter(dryRun, pod, ni), null);
  assert.deepEqual(viewOf(plugin.filter(state, pod, ni)), ANTI);
  plugin.addPod(dryRun, pod, new PodInfo(victim), ni);
  assert.deepEqual(viewOf(plugin.filter(dryRun, pod, ni)), ANTI);
});
