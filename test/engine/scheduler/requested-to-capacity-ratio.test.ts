// NodeResourcesFit with the RequestedToCapacityRatio strategy and its broken-linear function.
// Cases from TestRequestedToCapacityRatioScoringStrategy, TestBrokenLinearFunction, TestResourceBinPackingSingleExtended and
// TestResourceBinPackingMultipleExtended in pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../../src/engine/api/types';
import { newNodeResourcesFit } from '../../../src/engine/scheduler/plugins/noderesources-fit';
import { buildBrokenLinearFunction, type FunctionShapePoint } from '../../../src/engine/scheduler/plugins/requested-to-capacity-ratio';
import { makeNode, makePod, scorePlugin, type PodBuilder } from './builders';

const cap = (name: string, quantities: Record<string, string>): Node => makeNode(name).capacity(quantities).obj();
const score = (pod: PodBuilder, nodes: Node[], pods: Pod[], resources: { name: string; weight: number }[], shape: FunctionShapePoint[]) =>
  scorePlugin(newNodeResourcesFit({ scoringStrategy: { type: 'RequestedToCapacityRatio', resources, requestedToCapacityRatio: { shape } } }), pod.obj(), nodes, pods);
const scores = (...pairs: [string, number][]) => pairs.map(([name, s]) => ({ name, score: s }));

const LEAST = [{ utilization: 0, score: 10 }, { utilization: 100, score: 0 }];
const DEFAULT = [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }];
const empty = (node: string, i: number): Pod => makePod(`empty-${i}`).node(node).obj();

const strategyCases: { name: string; pod: PodBuilder; nodes: Node[]; pods: Pod[]; want: ReturnType<typeof scores> }[] = [
  {
    name: 'With the least-requested shape, nothing requested scores the maximum',
    pod: makePod('p'), nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '4000', memory: '10000' })],
    pods: [empty('node1', 1), empty('node1', 2)], want: scores(['node1', 100], ['node2', 100]),
  },
  {
    // node1: cpu 75% → 25, memory 50% → 50, round((25+50)/2) = 38; node2: 50% and 50% → 50.
    name: 'With the least-requested shape, the emptier node scores higher, rounded',
    pod: makePod('p').req({ cpu: '1000', memory: '2000' }).req({ cpu: '2000', memory: '3000' }),
    nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000' })],
    pods: [empty('node1', 1), empty('node1', 2)], want: scores(['node1', 38], ['node2', 50]),
  },
  {
    name: 'With the least-requested shape, the pods on the node count',
    pod: makePod('p'), nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000' })],
    pods: [makePod('a').node('node1').req({ cpu: '3000', memory: '5000' }).obj(), makePod('b').node('node2').req({ cpu: '3000', memory: '5000' }).obj()],
    want: scores(['node1', 38], ['node2', 50]),
  },
];

for (const c of strategyCases) {
  test(c.name, () => assert.deepEqual(score(c.pod, c.nodes, c.pods, DEFAULT, LEAST), c.want));
}

const linearCases: { points: FunctionShapePoint[]; assertions: [number, number][] }[] = [
  { points: [{ utilization: 10, score: 1 }, { utilization: 90, score: 9 }], assertions: [[-10, 1], [0, 1], [9, 1], [10, 1], [15, 1], [19, 1], [20, 2], [89, 8], [90, 9], [99, 9], [100, 9], [110, 9]] },
  { points: [{ utilization: 0, score: 2 }, { utilization: 40, score: 10 }, { utilization: 100, score: 0 }], assertions: [[-10, 2], [0, 2], [20, 6], [30, 8], [40, 10], [70, 5], [100, 0], [110, 0]] },
  { points: [{ utilization: 0, score: 2 }, { utilization: 40, score: 2 }, { utilization: 100, score: 2 }], assertions: [[-10, 2], [0, 2], [20, 2], [30, 2], [40, 2], [70, 2], [100, 2], [110, 2]] },
];

linearCases.forEach((c, i) => {
  test(`The broken-linear function holds the first and last scores outside its points and is linear between them (case ${i})`, () => {
    const f = buildBrokenLinearFunction(c.points);
    assert.deepEqual(c.assertions.map(([p]) => [p, f(p)]), c.assertions);
  });
});

test('A falling segment truncates toward zero, as Go\'s integer division does', () => {
  // 10 + (0-10)*(71-40)/60 = 10 - 310/60 = 10 - 5 (not 10 - 6).
  assert.equal(buildBrokenLinearFunction([{ utilization: 40, score: 10 }, { utilization: 100, score: 0 }])(71), 5);
});

const FOO = 'intel.com/foo';
const BAR = 'intel.com/bar';
const BIN_PACK = [{ utilization: 0, score: 0 }, { utilization: 100, score: 1 }];
const binNode = (name: string, extended: Record<string, string>): Node => cap(name, { cpu: '4', memory: '10000Mi', ...extended });

const singleCases: { name: string; pod: PodBuilder; pods: Pod[]; want: ReturnType<typeof scores> }[] = [
  { name: 'A pod that does not request the extended resource scores 0', pod: makePod('p'), pods: [], want: scores(['node1', 0], ['node2', 0]) },
  // node1: 2/8 = 25% → 2 (2.5 truncated); node2: 2/4 = 50% → 5.
  { name: 'Bin packing one extended resource prefers the node it fills more', pod: makePod('p').req({ [FOO]: '2' }), pods: [makePod('x').obj()], want: scores(['node1', 2], ['node2', 5]) },
  {
    name: 'Bin packing counts the extended resource already used on the node',
    pod: makePod('p').req({ [FOO]: '2' }), pods: [makePod('x').req({ [FOO]: '2' }).node('node2').obj()], want: scores(['node1', 2], ['node2', 10]),
  },
  { name: 'Bin packing with a larger request', pod: makePod('p').req({ [FOO]: '4' }), pods: [makePod('x').obj()], want: scores(['node1', 5], ['node2', 10]) },
];

for (const c of singleCases) {
  test(c.name, () => {
    const nodes = [binNode('node1', { [FOO]: '8' }), binNode('node2', { [FOO]: '4' })];
    assert.deepEqual(score(c.pod, nodes, c.pods, [{ name: FOO, weight: 1 }], BIN_PACK), c.want);
  });
}

const multipleCases: { name: string; pod: PodBuilder; pods: Pod[]; want: ReturnType<typeof scores> }[] = [
  { name: 'Two extended resources, nothing requested', pod: makePod('p'), pods: [], want: scores(['node1', 0], ['node2', 0]) },
  // node1: foo 25% → 2, bar 50% → 5, round((2*3 + 5*5)/8) = 4; node2: foo 5, bar 2, round((5*3 + 2*5)/8) = 3.
  { name: 'Two extended resources weigh their scores', pod: makePod('p').req({ [FOO]: '2', [BAR]: '2' }), pods: [makePod('x').obj()], want: scores(['node1', 4], ['node2', 3]) },
  {
    // node2: foo (4+2)/4 is over the capacity → 10, bar 4/8 → 5, round((10*3 + 5*5)/8) = 7.
    name: 'A resource requested beyond its capacity scores as full',
    pod: makePod('p').req({ [FOO]: '2', [BAR]: '2' }), pods: [makePod('x').req({ [FOO]: '4', [BAR]: '2' }).node('node2').obj()], want: scores(['node1', 4], ['node2', 7]),
  },
  { name: 'Two extended resources with a larger request', pod: makePod('p').req({ [FOO]: '4', [BAR]: '2' }), pods: [makePod('x').obj()], want: scores(['node1', 5], ['node2', 5]) },
];

for (const c of multipleCases) {
  test(c.name, () => {
    const nodes = [binNode('node1', { [FOO]: '8', [BAR]: '4' }), binNode('node2', { [FOO]: '4', [BAR]: '8' })];
    assert.deepEqual(score(c.pod, nodes, c.pods, [{ name: FOO, weight: 3 }, { name: BAR, weight: 5 }], BIN_PACK), c.want);
  });
}
