// NodeResourcesFit with the MostAllocated strategy: the fuller node scores higher, by weight, with requests capped at capacity.
// Cases and expected scores from TestMostAllocatedScoringStrategy in
// pkg/scheduler/framework/plugins/noderesources/most_allocated_test.go (cpu "4000" is 4000 cores, memory in bytes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../../src/engine/api/types';
import { mostRequestedScore } from '../../../src/engine/scheduler/plugins/most-allocated';
import { newNodeResourcesFit } from '../../../src/engine/scheduler/plugins/noderesources-fit';
import { makeNode, makePod, scorePlugin, type PodBuilder } from './builders';

const EXT = 'abc.com/xyz';
const cap = (name: string, quantities: Record<string, string>): Node => makeNode(name).capacity(quantities).obj();
const two = () => makePod('p').req({ cpu: '1000', memory: '2000' }).req({ cpu: '2000', memory: '3000' });
const on = (node: string, requests: Record<string, string>): Pod => makePod(`on-${node}-${Object.values(requests).join('-')}`).node(node).req(requests).obj();
const DEFAULT = [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }];
const WITH_EXT = [...DEFAULT, { name: EXT, weight: 1 }];

const cases: { name: string; pod: PodBuilder; nodes: Node[]; pods?: Pod[]; resources: { name: string; weight: number }[]; want: [string, number][] }[] = [
  {
    name: 'Nothing scheduled and nothing requested scores 0',
    pod: makePod('p'), nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '4000', memory: '10000' })],
    resources: DEFAULT, want: [['node1', 0], ['node2', 0]],
  },
  {
    // node1: cpu 3000*100/4000 = 75, memory 5000*100/10000 = 50, (75+50)/2 = 62; node2: cpu 50, memory 50.
    name: 'The smaller node is the fuller one once the pod is on it',
    pod: two(), nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000' })],
    resources: DEFAULT, want: [['node1', 62], ['node2', 50]],
  },
  {
    // node1: cpu 6000*100/10000 = 60, memory 0 → 30; node2: cpu 60, memory 5000*100/20000 = 25 → 42.
    name: 'A pod without requests ranks nodes by what their pods request',
    pod: makePod('p'), nodes: [cap('node1', { cpu: '10000', memory: '20000' }), cap('node2', { cpu: '10000', memory: '20000' })],
    pods: [on('node1', { cpu: '3000', memory: '0' }), on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
    resources: DEFAULT, want: [['node1', 30], ['node2', 42]],
  },
  {
    name: 'The pod\'s requests add to those of the pods on the node',
    pod: two(), nodes: [cap('node1', { cpu: '10000', memory: '20000' }), cap('node2', { cpu: '10000', memory: '20000' })],
    pods: [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
    resources: DEFAULT, want: [['node1', 42], ['node2', 55]],
  },
  {
    name: 'Requests equal to the capacity score 100 for that resource',
    pod: makePod('p').req({ cpu: '2000', memory: '4000' }).req({ cpu: '3000', memory: '5000' }),
    nodes: [cap('node1', { cpu: '5000', memory: '10000' }), cap('node2', { cpu: '10000', memory: '9000' })],
    resources: DEFAULT, want: [['node1', 95], ['node2', 75]],
  },
  {
    // node1: (75*1 + 50*2) / 3 = 58; node2: (50*1 + 50*2) / 3 = 50.
    name: 'Resource weights weigh the average',
    pod: two(), nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000' })],
    resources: [{ name: 'memory', weight: 2 }, { name: 'cpu', weight: 1 }], want: [['node1', 58], ['node2', 50]],
  },
  {
    // node1: cpu (100m+100m+100m)/250m capped at 100, memory 600Mi/1000Mi = 60 → 80; node2: 40 and 20 → 30.
    name: 'Containers without requests count as 100m and 200Mi, capped at the capacity',
    pod: makePod('p').container('nginx'), nodes: [cap('node1', { cpu: '250m', memory: '1000Mi' }), cap('node2', { cpu: '250m', memory: '1000Mi' })],
    pods: [makePod('a').node('node1').container('nginx').obj(), makePod('b').node('node1').container('nginx').obj()],
    resources: DEFAULT, want: [['node1', 80], ['node2', 30]],
  },
  {
    name: 'An extended resource the pod does not request is left out',
    pod: two(), nodes: [cap('node1', { cpu: '6000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000', [EXT]: '4' })],
    resources: WITH_EXT, want: [['node1', 50], ['node2', 50]],
  },
  {
    // node1: (50 + 50 + 2*100/4) / 3 = 50; node2: (50 + 50 + 2*100/10) / 3 = 40.
    name: 'An extended resource the pod requests counts',
    pod: makePod('p').req({ cpu: '3000', memory: '5000', [EXT]: '2' }),
    nodes: [cap('node1', { cpu: '6000', memory: '10000', [EXT]: '4' }), cap('node2', { cpu: '6000', memory: '10000', [EXT]: '10' })],
    resources: WITH_EXT, want: [['node1', 50], ['node2', 40]],
  },
  {
    name: 'A resource the node does not have is left out of the average',
    pod: makePod('p').req({ cpu: '3000', memory: '4000' }),
    nodes: [cap('node1', { cpu: '6000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000', [EXT]: '4' })],
    resources: [{ name: EXT, weight: 2 }, { name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }], want: [['node1', 45], ['node2', 45]],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const plugin = newNodeResourcesFit({ scoringStrategy: { type: 'MostAllocated', resources: c.resources } });
    assert.deepEqual(scorePlugin(plugin, c.pod.obj(), c.nodes, c.pods ?? []), c.want.map(([name, score]) => ({ name, score })));
  });
}

test('mostRequestedScore is 0 without capacity and caps requests above it', () => {
  assert.deepEqual([mostRequestedScore(5, 0), mostRequestedScore(3, 4), mostRequestedScore(6, 4)], [0, 75, 100]);
});
