// TaintToleration: Filter on NoSchedule/NoExecute taints, Score on untolerated PreferNoSchedule taints.
// Cases from pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go (the Filter reason is the 1.36 one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Taint, Toleration } from '../../../src/engine/api/types';
import { ErrReasonNotMatch, TaintToleration } from '../../../src/engine/scheduler/plugins/tainttoleration';
import { framework, makeNode, makePod, runFilter, runScore } from './builders';

const UNRESOLVABLE = { code: 'UnschedulableAndUnresolvable', reasons: [ErrReasonNotMatch] };
const FITS = { code: 'Success', reasons: [] };

const filterCases: { name: string; tolerations: Toleration[]; taints: Taint[]; want: object }[] = [
  { name: "A pod having no tolerations can't be scheduled onto a node with nonempty taints", tolerations: [], taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], want: UNRESOLVABLE },
  { name: 'A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule', tolerations: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], want: FITS },
  { name: "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule", tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }], taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], want: UNRESOLVABLE },
  { name: 'A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node', tolerations: [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }], taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], want: FITS },
  {
    name: 'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node',
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }, { key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
    taints: [{ key: 'dedicated', value: 'user2', effect: 'NoSchedule' }, { key: 'foo', value: 'bar', effect: 'NoSchedule' }],
    want: FITS,
  },
  { name: "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node", tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }], taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], want: UNRESOLVABLE },
  { name: 'The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node', tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar' }], taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], want: FITS },
  { name: "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node", tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }], taints: [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }], want: FITS },
  { name: 'The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node', tolerations: [], taints: [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }], want: FITS },
  { name: 'A NoExecute taint is filtered like NoSchedule', tolerations: [], taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }], want: UNRESOLVABLE },
  { name: 'An empty key with Exists tolerates every taint', tolerations: [{ operator: 'Exists' }], taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }], want: FITS },
  { name: 'The control-plane taint without a value is tolerated by Equal with no value', tolerations: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }], taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }], want: FITS },
  { name: 'An Lt toleration matches nothing while TaintTolerationComparisonOperators is off', tolerations: [{ key: 'level', operator: 'Lt', value: '5', effect: 'NoSchedule' }], taints: [{ key: 'level', value: '9', effect: 'NoSchedule' }], want: UNRESOLVABLE },
];

for (const c of filterCases) {
  test(c.name, () => {
    const pod = makePod('pod1');
    for (const t of c.tolerations) pod.toleration(t);
    const node = makeNode('nodeA');
    for (const t of c.taints) node.taint(t.key, t.value, t.effect);
    assert.deepEqual(runFilter(new TaintToleration(), pod.obj(), node.obj()), c.want);
  });
}

const prefer = (key: string, value: string): Taint => ({ key, value, effect: 'PreferNoSchedule' });

const scoreCases: { name: string; tolerations: Toleration[]; nodes: [string, Taint[]][]; want: [string, number][] }[] = [
  {
    name: 'Node with taints tolerated by the pod gets a higher score than those node with intolerable taints',
    tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
    nodes: [['nodeA', [prefer('foo', 'bar')]], ['nodeB', [prefer('foo', 'blah')]]],
    want: [['nodeA', 100], ['nodeB', 0]],
  },
  {
    name: 'The nodes whose taints are all tolerated get the same score, however many taints they have',
    tolerations: [{ key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' }, { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'PreferNoSchedule' }],
    nodes: [['nodeA', []], ['nodeB', [prefer('cpu-type', 'arm64')]], ['nodeC', [prefer('cpu-type', 'arm64'), prefer('disk-type', 'ssd')]]],
    want: [['nodeA', 100], ['nodeB', 100], ['nodeC', 100]],
  },
  {
    name: 'The more intolerable taints a node has, the lower score it gets',
    tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
    nodes: [['nodeA', []], ['nodeB', [prefer('cpu-type', 'arm64')]], ['nodeC', [prefer('cpu-type', 'arm64'), prefer('disk-type', 'ssd')]]],
    want: [['nodeA', 100], ['nodeB', 50], ['nodeC', 0]],
  },
  {
    name: 'Only taints and tolerations with effect PreferNoSchedule count for the score',
    tolerations: [{ key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' }, { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'NoSchedule' }],
    nodes: [['nodeA', []], ['nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }]], ['nodeC', [prefer('cpu-type', 'arm64'), prefer('disk-type', 'ssd')]]],
    want: [['nodeA', 100], ['nodeB', 100], ['nodeC', 0]],
  },
  {
    name: 'Without taints and tolerations the pod prefers the node with no taints',
    tolerations: [],
    nodes: [['nodeA', []], ['nodeB', [prefer('cpu-type', 'arm64')]]],
    want: [['nodeA', 100], ['nodeB', 0]],
  },
];

for (const c of scoreCases) {
  test(c.name, () => {
    const pod = makePod('pod1');
    for (const t of c.tolerations) pod.toleration(t);
    const nodes = c.nodes.map(([name, taints]) => {
      const n = makeNode(name);
      for (const t of taints) n.taint(t.key, t.value, t.effect);
      return n.obj();
    });
    const got = runScore(framework(), 'TaintToleration', pod.obj(), nodes);
    assert.deepEqual(got, c.want.map(([name, score]) => ({ name, score })));
  });
}
