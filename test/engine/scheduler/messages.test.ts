// The FitError message of FailedScheduling events and PodScheduled conditions.
// Cases from TestFitError_Error in pkg/scheduler/framework/types_test.go, plus messages seen from 1.36 clusters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newDiagnosis, type Diagnosis } from '../../../src/engine/scheduler/framework/diagnosis';
import { Code, newStatus } from '../../../src/engine/scheduler/framework/status';
import { fitErrorMessage, scheduledMessage, truncateMessage } from '../../../src/engine/scheduler/messages';
import { makePod } from './builders';

function diagnosis(statuses: Record<string, string[]>, extra: Partial<Diagnosis> = {}): Diagnosis {
  const d = { ...newDiagnosis(), ...extra };
  for (const [node, reasons] of Object.entries(statuses)) d.nodeToStatus.set(node, newStatus(Code.Unschedulable, ...reasons));
  return d;
}

const preFilter = 'Node(s) failed PreFilter plugin FalsePreFilter';
const filter1 = 'Node(s) failed Filter plugin FalseFilter-1';
const filter2 = 'Node(s) failed Filter plugin FalseFilter-2';
const postFilter = 'Error running PostFilter plugin FailedPostFilter';

const cases: { name: string; numAllNodes: number; diagnosis: Diagnosis; want: string }[] = [
  { name: 'Nodes failed Prefilter plugin', numAllNodes: 3, diagnosis: diagnosis({ node1: [preFilter], node2: [preFilter], node3: [preFilter] }, { preFilterMsg: preFilter }), want: `0/3 nodes are available: ${preFilter}.` },
  { name: 'Nodes failed Prefilter plugin and the preemption also failed', numAllNodes: 3, diagnosis: diagnosis({ node1: [preFilter], node2: [preFilter], node3: [preFilter] }, { preFilterMsg: preFilter, postFilterMsg: postFilter }), want: `0/3 nodes are available: ${preFilter}. ${postFilter}` },
  { name: 'Nodes failed one Filter plugin with an empty PostFilterMsg', numAllNodes: 3, diagnosis: diagnosis({ node1: [filter1], node2: [filter1], node3: [filter1] }), want: `0/3 nodes are available: 3 ${filter1}.` },
  { name: 'Nodes failed one Filter plugin with a non-empty PostFilterMsg', numAllNodes: 3, diagnosis: diagnosis({ node1: [filter1], node2: [filter1], node3: [filter1] }, { postFilterMsg: postFilter }), want: `0/3 nodes are available: 3 ${filter1}. ${postFilter}` },
  { name: 'Nodes failed two Filter plugins with an empty PostFilterMsg', numAllNodes: 3, diagnosis: diagnosis({ node1: [filter1], node2: [filter1], node3: [filter2] }), want: `0/3 nodes are available: 1 ${filter2}, 2 ${filter1}.` },
  { name: 'Nodes failed two Filter plugins with a non-empty PostFilterMsg', numAllNodes: 3, diagnosis: diagnosis({ node1: [filter1], node2: [filter1], node3: [filter2] }, { postFilterMsg: postFilter }), want: `0/3 nodes are available: 1 ${filter2}, 2 ${filter1}. ${postFilter}` },
  { name: 'Failed to Permit on node', numAllNodes: 1, diagnosis: diagnosis({ node1: ['Node failed Permit plugin Permit-1'] }), want: '0/1 nodes are available: 1 Node failed Permit plugin Permit-1.' },
  { name: 'Every reason of a node counts once', numAllNodes: 4, diagnosis: diagnosis({ a: ['Too many pods', 'Insufficient memory'], b: ['Insufficient memory'], c: ['Insufficient memory'], d: ['Insufficient memory'] }), want: '0/4 nodes are available: 1 Too many pods, 4 Insufficient memory.' },
  { name: 'Reasons sort as strings, so 10 comes before 2', numAllNodes: 12, diagnosis: diagnosis(Object.fromEntries([...Array(12).keys()].map((i) => [`n${i}`, [i < 10 ? 'Insufficient cpu' : 'node(s) were unschedulable']]))), want: '0/12 nodes are available: 10 Insufficient cpu, 2 node(s) were unschedulable.' },
];

for (const c of cases) {
  test(c.name, () => {
    assert.equal(fitErrorMessage({ pod: makePod().obj(), numAllNodes: c.numAllNodes, diagnosis: c.diagnosis }), c.want);
  });
}

test('Nodes without their own status count the absent-nodes reasons', () => {
  const d = diagnosis({ 'worker-1': ['Insufficient cpu'] });
  d.nodeToStatus.setAbsentNodesStatus(newStatus(Code.UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin(s) [NodeAffinity]"));
  assert.equal(fitErrorMessage({ pod: makePod().obj(), numAllNodes: 3, diagnosis: d }), "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].");
});

test('The Scheduled event names the namespace, the pod and the node', () => {
  assert.equal(scheduledMessage(makePod('web').obj(), 'worker-1'), 'Successfully assigned default/web to worker-1');
});

test('An event message longer than 1024 characters is cut with " ..."', () => {
  const long = 'x'.repeat(1100);
  assert.equal(truncateMessage(long).length, 1024);
  assert.ok(truncateMessage(long).endsWith(' ...'));
  assert.equal(truncateMessage('short'), 'short');
});
