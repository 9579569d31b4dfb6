// NodeResourcesBalancedAllocation: the change of balance the pod brings, on a 50-100 scale; best-effort pods skip it.
// Case shapes from pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go; the expected values are
// computed with the 1.36 formula of kubernetes/kubernetes#135573 (50 + (50 + withPod - withoutPod) / 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../../src/engine/api/types';
import { balancedResourceScore, balancedResourceScorer } from '../../../src/engine/scheduler/plugins/noderesources-balanced';
import { framework, makeNode, makePod, runScore, type PodBuilder } from './builders';

const cap = (name: string, cpu: string, memory: string): Node => makeNode(name).capacity({ cpu, memory }).obj();
const on = (node: string, cpu: string, memory: string): Pod => makePod(`on-${node}-${cpu}-${memory}`).node(node).req({ cpu, memory }).obj();

const cases: { name: string; pod: PodBuilder; nodes: Node[]; pods: Pod[]; want: [string, number][] | 'skip' }[] = [
  {
    // A pod without requests would pile onto one node otherwise (kubernetes/kubernetes#129138).
    name: 'A best-effort pod skips the score',
    pod: makePod('p').container('nginx'),
    nodes: [cap('node1', '4000', '10000'), cap('node2', '4000', '10000')],
    pods: [],
    want: 'skip',
  },
  {
    // node1: with the pod cpu 0.75, memory 0.5 → 87; without it 100 → 50 + (50 + 87 - 100) / 2 = 68.
    // node2: 0.5 and 0.5 → 100 both ways → 75.
    name: 'Nothing scheduled, resources requested, differently sized nodes',
    pod: makePod('p').req({ cpu: '1000', memory: '2000' }).req({ cpu: '2000', memory: '3000' }),
    nodes: [cap('node1', '4000', '10000'), cap('node2', '6000', '10000')],
    pods: [],
    want: [['node1', 68], ['node2', 75]],
  },
  {
    // node1: with 0.6/0.25 → 82, without 0.3/0 → 85 → 73. node2: with 0.6/0.5 → 95, without 0.3/0.25 → 97 → 74.
    name: 'Resources requested, pods scheduled with resources',
    pod: makePod('p').req({ cpu: '3000', memory: '5000' }),
    nodes: [cap('node1', '10000', '20000'), cap('node2', '10000', '20000')],
    pods: [on('node1', '3000', '0'), on('node2', '3000', '5000')],
    want: [['node1', 73], ['node2', 74]],
  },
  {
    name: 'A pod that makes an empty node fully unbalanced gets the lowest score, 50',
    pod: makePod('p').req({ cpu: '10000', memory: '0' }),
    nodes: [cap('node1', '10000', '20000')],
    pods: [],
    want: [['node1', 50]],
  },
  {
    name: 'A pod that makes a fully unbalanced node balanced gets the highest score, 100',
    pod: makePod('p').req({ cpu: '0', memory: '20000' }),
    nodes: [cap('node1', '10000', '20000')],
    pods: [on('node1', '10000', '0')],
    want: [['node1', 100]],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const got = runScore(framework(), 'NodeResourcesBalancedAllocation', c.pod.obj(), c.nodes, c.pods);
    if (c.want === 'skip') assert.deepEqual(got, { code: 'Skip', reasons: [] });
    else assert.deepEqual(got, c.want.map(([name, score]) => ({ name, score })));
  });
}

test('The balance of three resources is one minus their standard deviation', () => {
  // Fractions 0.5, 0.5 and 1 (capped from 2): mean 2/3, std sqrt(((1/6)^2 * 2 + (1/3)^2) / 3) ≈ 0.2357 → 76.
  assert.equal(balancedResourceScore([5, 5, 20], [10, 10, 10]), 76);
});

test('A resource without allocatable is left out of the balance', () => {
  assert.equal(balancedResourceScore([5, 7], [10, 0]), 100);
  assert.equal(balancedResourceScorer([5, 7], [5, 7], [10, 0]), 75);
});
