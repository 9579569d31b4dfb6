// NodeResourcesFit: the Filter's insufficient resources and the LeastAllocated score.
// Filter cases from TestEnoughRequests in pkg/scheduler/framework/plugins/noderesources/fit_test.go (node: 10m cpu,
// 20 bytes, 32 pods, 5 example.com/aaa); score cases from least_allocated_test.go (TestLeastAllocatedScoringStrategy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../../src/engine/api/types';
import { NodeResourcesFit } from '../../../src/engine/scheduler/plugins/noderesources-fit';
import { framework, makeNode, makePod, runFilter, runScore, type PodBuilder } from './builders';

const EXT = 'example.com/aaa';
const fitNode = () => makeNode('node').capacity({ cpu: '10m', memory: '20', pods: '32', [EXT]: '5', 'ephemeral-storage': '20', 'hugepages-2Mi': '5' }).obj();
const used = (cpu: number, memory: number, extended?: number): Pod => {
  const requests: Record<string, string> = { cpu: `${cpu}m`, memory: String(memory) };
  if (extended !== undefined) requests[EXT] = String(extended);
  return makePod(`used-${cpu}-${memory}`).req(requests).node('node').obj();
};
const pod = (cpu: number, memory: number): PodBuilder => makePod('p').req({ cpu: `${cpu}m`, memory: String(memory) });

const cases: { name: string; pod: PodBuilder; existing: Pod; want: { code: string; reasons: string[] } }[] = [
  { name: 'No resources requested always fits', pod: makePod('p'), existing: used(10, 20), want: { code: 'Success', reasons: [] } },
  { name: 'Too many resources fails', pod: pod(1, 1), existing: used(10, 20), want: { code: 'Unschedulable', reasons: ['Insufficient cpu', 'Insufficient memory'] } },
  { name: 'Too many resources fails due to init container cpu', pod: pod(1, 1).initReq({ cpu: '3m', memory: '1' }), existing: used(8, 19), want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] } },
  { name: 'Too many resources fails due to highest init container cpu', pod: pod(1, 1).initReq({ cpu: '3m', memory: '1' }).initReq({ cpu: '2m', memory: '1' }), existing: used(8, 19), want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] } },
  { name: 'Too many resources fails due to init container memory', pod: pod(1, 1).initReq({ cpu: '1m', memory: '3' }), existing: used(9, 19), want: { code: 'Unschedulable', reasons: ['Insufficient memory'] } },
  { name: "Init container fits because it's the max, not sum, of containers and init containers", pod: pod(1, 1).initReq({ cpu: '1m', memory: '1' }), existing: used(9, 19), want: { code: 'Success', reasons: [] } },
  { name: 'Both resources fit', pod: pod(1, 1), existing: used(5, 5), want: { code: 'Success', reasons: [] } },
  { name: 'One resource memory fits', pod: pod(2, 1), existing: used(9, 5), want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] } },
  { name: 'One resource cpu fits', pod: pod(1, 2), existing: used(5, 19), want: { code: 'Unschedulable', reasons: ['Insufficient memory'] } },
  { name: 'Equal edge case', pod: pod(5, 1), existing: used(5, 19), want: { code: 'Success', reasons: [] } },
  { name: 'Equal edge case for init container', pod: pod(4, 1).initReq({ cpu: '5m', memory: '1' }), existing: used(5, 19), want: { code: 'Success', reasons: [] } },
  { name: 'Extended resource fits', pod: makePod('p').req({ [EXT]: '1' }), existing: used(0, 0), want: { code: 'Success', reasons: [] } },
  { name: 'Extended resource capacity enforced (the request exceeds the node: unresolvable)', pod: makePod('p').req({ cpu: '1m', memory: '1', [EXT]: '10' }), existing: used(0, 0, 0), want: { code: 'UnschedulableAndUnresolvable', reasons: [`Insufficient ${EXT}`] } },
  { name: 'Extended resource allocatable enforced', pod: makePod('p').req({ cpu: '1m', memory: '1', [EXT]: '1' }), existing: used(0, 0, 5), want: { code: 'Unschedulable', reasons: [`Insufficient ${EXT}`] } },
  { name: 'A request larger than the whole node is unresolvable', pod: pod(11, 1), existing: used(0, 0), want: { code: 'UnschedulableAndUnresolvable', reasons: ['Insufficient cpu'] } },
  { name: 'Overhead counts toward the request', pod: pod(5, 1).overhead({ cpu: '1m' }), existing: used(5, 0), want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] } },
  { name: 'A sidecar adds to the containers', pod: pod(3, 1).initReq({ cpu: '3m', memory: '1' }, true), existing: used(5, 0), want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] } },
  { name: 'Pod-level requests replace the containers sum', pod: pod(1, 1).podRequests({ cpu: '6m' }), existing: used(5, 0), want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] } },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(runFilter(new NodeResourcesFit(), c.pod.obj(), fitNode(), [c.existing]), c.want);
  });
}

test('A full node fails with Too many pods, listed first', () => {
  const node = makeNode('node').capacity({ cpu: '10m', memory: '20', pods: '1' }).obj();
  assert.deepEqual(runFilter(new NodeResourcesFit(), pod(6, 1).obj(), node, [used(5, 0)]), { code: 'Unschedulable', reasons: ['Too many pods', 'Insufficient cpu'] });
});

const cap = (name: string, cpu: string, memory: string) => makeNode(name).capacity({ cpu, memory }).obj();
const requested = () => makePod('p').req({ cpu: '1000', memory: '2000' }).req({ cpu: '2000', memory: '3000' });
const on = (node: string, cpu: string, memory: string): Pod => makePod(`on-${node}-${cpu}-${memory}`).node(node).req({ cpu, memory }).obj();

const scoreCases: { name: string; pod: PodBuilder; nodes: Node[]; pods: Pod[]; want: [string, number][] }[] = [
  { name: 'Nothing scheduled, nothing requested', pod: makePod('p'), nodes: [cap('node1', '4000', '10000'), cap('node2', '4000', '10000')], pods: [], want: [['node1', 100], ['node2', 100]] },
  { name: 'Nothing scheduled, resources requested, differently sized nodes', pod: requested(), nodes: [cap('node1', '4000', '10000'), cap('node2', '6000', '10000')], pods: [], want: [['node1', 37], ['node2', 50]] },
  {
    name: 'No resources requested, pods scheduled with resources',
    pod: makePod('p'),
    nodes: [cap('node1', '10000', '20000'), cap('node2', '10000', '20000')],
    pods: [on('node1', '3000', '0'), on('node1', '3000', '0'), on('node2', '3000', '0'), on('node2', '3000', '5000')],
    want: [['node1', 70], ['node2', 57]],
  },
  { name: 'Resources requested, pods scheduled with resources', pod: requested(), nodes: [cap('node1', '10000', '20000'), cap('node2', '10000', '20000')], pods: [on('node1', '3000', '0'), on('node2', '3000', '5000')], want: [['node1', 57], ['node2', 45]] },
  { name: 'Resources requested, pods scheduled with resources, differently sized nodes', pod: requested(), nodes: [cap('node1', '10000', '20000'), cap('node2', '10000', '50000')], pods: [on('node1', '3000', '0'), on('node2', '3000', '5000')], want: [['node1', 57], ['node2', 60]] },
  { name: 'Requested resources exceed node capacity', pod: makePod('p').req({ cpu: '3000', memory: '0' }), nodes: [cap('node1', '4000', '10000'), cap('node2', '4000', '10000')], pods: [on('node1', '3000', '0'), on('node2', '3000', '5000')], want: [['node1', 50], ['node2', 25]] },
  { name: 'Zero node resources, pods scheduled with resources', pod: makePod('p'), nodes: [makeNode('node1').obj(), makeNode('node2').obj()], pods: [on('node1', '3000', '0'), on('node2', '3000', '5000')], want: [['node1', 0], ['node2', 0]] },
  { name: 'A container without requests counts as 100m and 200Mi', pod: makePod('p').container('nginx'), nodes: [cap('node1', '1', '400Mi')], pods: [], want: [['node1', 70]] },
];

for (const c of scoreCases) {
  test(c.name, () => {
    const got = runScore(framework(), 'NodeResourcesFit', c.pod.obj(), c.nodes, c.pods);
    assert.deepEqual(got, c.want.map(([name, score]) => ({ name, score })));
  });
}
