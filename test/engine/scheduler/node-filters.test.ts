// NodeUnschedulable and NodeName: the two filters that look at one node field each.
// Cases from pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go and nodename/node_name_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Toleration } from '../../../src/engine/api/types';
import { ErrReason, NodeName } from '../../../src/engine/scheduler/plugins/nodename';
import { ErrReasonUnschedulable, NodeUnschedulable } from '../../../src/engine/scheduler/plugins/nodeunschedulable';
import { makeNode, makePod, runFilter } from './builders';

const FITS = { code: 'Success', reasons: [] };

const unschedulableCases: { name: string; cordoned: boolean; tolerations: Toleration[]; want: object }[] = [
  { name: 'A pod fits a schedulable node', cordoned: false, tolerations: [], want: FITS },
  { name: 'A cordoned node rejects a pod without the toleration', cordoned: true, tolerations: [], want: { code: 'UnschedulableAndUnresolvable', reasons: [ErrReasonUnschedulable] } },
  { name: 'A cordoned node takes a pod that tolerates node.kubernetes.io/unschedulable:NoSchedule', cordoned: true, tolerations: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }], want: FITS },
  { name: 'A cordoned node takes a pod that tolerates everything', cordoned: true, tolerations: [{ operator: 'Exists' }], want: FITS },
  { name: 'A NoExecute toleration does not tolerate the unschedulable taint', cordoned: true, tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }], want: { code: 'UnschedulableAndUnresolvable', reasons: [ErrReasonUnschedulable] } },
];

for (const c of unschedulableCases) {
  test(c.name, () => {
    const pod = makePod();
    for (const t of c.tolerations) pod.toleration(t);
    const node = makeNode('node1');
    if (c.cordoned) node.unschedulable();
    assert.deepEqual(runFilter(new NodeUnschedulable(), pod.obj(), node.obj()), c.want);
  });
}

const nodeNameCases: { name: string; wanted?: string; want: object }[] = [
  { name: 'A pod without nodeName fits any node', want: FITS },
  { name: 'A pod fits the node it names', wanted: 'foo', want: FITS },
  { name: 'A pod does not fit another node than the one it names', wanted: 'bar', want: { code: 'UnschedulableAndUnresolvable', reasons: [ErrReason] } },
];

for (const c of nodeNameCases) {
  test(c.name, () => {
    const pod = makePod();
    if (c.wanted) pod.node(c.wanted);
    assert.deepEqual(runFilter(new NodeName(), pod.obj(), makeNode('foo').obj()), c.want);
  });
}
