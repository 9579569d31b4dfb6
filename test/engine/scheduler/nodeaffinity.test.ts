// NodeAffinity: nodeSelector and required terms filter, preferred terms score, matchFields narrow the nodes in PreFilter.
// Cases from pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeSelectorTerm } from '../../../src/engine/api/types';
import { CycleState } from '../../../src/engine/scheduler/framework/cycle-state';
import { ErrReasonConflict, ErrReasonPod, NodeAffinity } from '../../../src/engine/scheduler/plugins/nodeaffinity';
import { framework, makeNode, makePod, matchIn, runFilter, runScore, type PodBuilder } from './builders';

const NO_MATCH = { code: 'UnschedulableAndUnresolvable', reasons: [ErrReasonPod] };
const FITS = { code: 'Success', reasons: [] };

const filterCases: { name: string; pod: PodBuilder; labels: Record<string, string>; want: object }[] = [
  { name: 'A pod without nodeSelector or affinity fits any node', pod: makePod(), labels: { foo: 'bar' }, want: FITS },
  { name: 'A pod with a nodeSelector fails on a node without the label', pod: makePod().nodeSelector({ foo: 'bar' }), labels: {}, want: NO_MATCH },
  { name: 'A pod with a nodeSelector fits a node with the label', pod: makePod().nodeSelector({ foo: 'bar' }), labels: { foo: 'bar' }, want: FITS },
  { name: 'A required In term matches a node with one of the values', pod: makePod().requiredTerms({ matchExpressions: [matchIn('foo', 'value1', 'bar')] }), labels: { foo: 'bar' }, want: FITS },
  { name: 'A Gt term matches a larger numeric label', pod: makePod().requiredTerms({ matchExpressions: [{ key: 'kernel-version', operator: 'Gt', values: ['0204'] }] }), labels: { 'kernel-version': '0206' }, want: FITS },
  { name: 'A NotIn term rejects a node with one of the values', pod: makePod().requiredTerms({ matchExpressions: [{ key: 'mem-type', operator: 'NotIn', values: ['DDR', 'DDR2'] }] }), labels: { 'mem-type': 'DDR' }, want: NO_MATCH },
  { name: 'A DoesNotExist term fits a node without the label', pod: makePod().requiredTerms({ matchExpressions: [{ key: 'GPU', operator: 'DoesNotExist' }] }), labels: {}, want: FITS },
  { name: 'All expressions of a term must match', pod: makePod().requiredTerms({ matchExpressions: [matchIn('foo', 'bar'), { key: 'GPU', operator: 'Exists' }] }), labels: { foo: 'bar' }, want: NO_MATCH },
  { name: 'Terms are ORed: one matching term is enough', pod: makePod().requiredTerms({ matchExpressions: [matchIn('foo', 'other')] }, { matchExpressions: [matchIn('foo', 'bar')] }), labels: { foo: 'bar' }, want: FITS },
  { name: 'An empty term matches nothing', pod: makePod().requiredTerms({}), labels: { foo: 'bar' }, want: NO_MATCH },
  { name: 'A term that does not parse matches nothing', pod: makePod().requiredTerms({ matchExpressions: [{ key: 'foo', operator: 'In', values: [] }] }), labels: { foo: 'bar' }, want: NO_MATCH },
  { name: 'Both nodeSelector and required affinity must match', pod: makePod().nodeSelector({ foo: 'bar' }).requiredTerms({ matchExpressions: [matchIn('zone', 'a')] }), labels: { foo: 'bar' }, want: NO_MATCH },
  { name: 'A matchFields term selects the node by name', pod: makePod().requiredTerms({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node1'] }] }), labels: {}, want: FITS },
];

for (const c of filterCases) {
  test(c.name, () => {
    const node = makeNode('node1');
    for (const [k, v] of Object.entries(c.labels)) node.label(k, v);
    assert.deepEqual(runFilter(new NodeAffinity(), c.pod.obj(), node.obj()), c.want);
  });
}

const byName = (...names: string[]): NodeSelectorTerm => ({ matchFields: [{ key: 'metadata.name', operator: 'In', values: names }] });

const preFilterCases: { name: string; terms: NodeSelectorTerm[]; want: { code?: string; nodeNames?: string[] } }[] = [
  { name: 'PreFilter narrows to the node a matchFields term names', terms: [byName('node1')], want: { nodeNames: ['node1'] } },
  { name: 'PreFilter unites the names of several terms', terms: [byName('node1'), byName('node2')], want: { nodeNames: ['node1', 'node2'] } },
  { name: 'PreFilter keeps every node when one term has no metadata.name field', terms: [byName('node1'), { matchExpressions: [matchIn('foo', 'bar')] }], want: {} },
  { name: 'PreFilter rejects terms whose names do not intersect', terms: [{ matchFields: [...byName('node1').matchFields!, ...byName('node2').matchFields!] }], want: { code: 'UnschedulableAndUnresolvable' } },
];

for (const c of preFilterCases) {
  test(c.name, () => {
    const pod = makePod().requiredTerms(...c.terms).obj();
    const out = new NodeAffinity().preFilter(new CycleState(), pod);
    if (c.want.code) {
      assert.deepEqual([out.status?.code, out.status?.reasons], [c.want.code, [ErrReasonConflict]]);
    } else {
      assert.equal(out.status, null);
      assert.deepEqual(out.result?.nodeNames ? [...out.result.nodeNames].sort() : undefined, c.want.nodeNames);
    }
  });
}

test('PreFilter skips a pod without nodeSelector nor required affinity', () => {
  const out = new NodeAffinity().preFilter(new CycleState(), makePod().obj());
  assert.equal(out.status?.code, 'Skip');
});

const label1 = { foo: 'bar' };
const label2 = { key: 'value' };
const label3 = { az: 'az1' };
const label4 = { abc: 'az11', def: 'az22' };
const label5 = { foo: 'bar', key: 'value', az: 'az1' };
const affinity1 = (p: PodBuilder): PodBuilder => p.preferred(2, matchIn('foo', 'bar'));
const affinity2 = (p: PodBuilder): PodBuilder => p.preferred(2, matchIn('foo', 'bar')).preferred(4, matchIn('key', 'value')).preferred(5, matchIn('foo', 'bar'), matchIn('key', 'value'), matchIn('az', 'az1'));

const scoreCases: { name: string; pod: PodBuilder; nodes: [string, Record<string, string>][]; want: [string, number][] | 'skip' }[] = [
  { name: 'All nodes are the same priority when the pod has no node affinity (Score is skipped)', pod: makePod(), nodes: [['node1', label1], ['node2', label2]], want: 'skip' },
  { name: 'No node matches the preferred terms so every node scores zero', pod: affinity1(makePod()), nodes: [['node1', label4], ['node2', label2], ['node3', label3]], want: [['node1', 0], ['node2', 0], ['node3', 0]] },
  { name: 'Only node1 matches the preferred terms', pod: affinity1(makePod()), nodes: [['node1', label1], ['node2', label2], ['node3', label3]], want: [['node1', 100], ['node2', 0], ['node3', 0]] },
  { name: 'All nodes match preferred terms with different weights', pod: affinity2(makePod()), nodes: [['node1', label1], ['node5', label5], ['node2', label2]], want: [['node1', 18], ['node5', 100], ['node2', 36]] },
];

for (const c of scoreCases) {
  test(c.name, () => {
    const nodes = c.nodes.map(([name, labels]) => {
      const n = makeNode(name);
      for (const [k, v] of Object.entries(labels)) n.label(k, v);
      return n.obj();
    });
    const got = runScore(framework(), 'NodeAffinity', c.pod.obj(), nodes);
    if (c.want === 'skip') assert.deepEqual(got, { code: 'Skip', reasons: [] });
    else assert.deepEqual(got, c.want.map(([name, score]) => ({ name, score })));
  });
}

// NewPreferredSchedulingTerms names a preferred term's problems from an empty path, by its place in the list, and
// aggregates them flat. The reference cluster's FailedScheduling for a Deployment whose preferred term has the value
// "b c" (`npm run oracle -- --only deploy-deprecated-labels`): `running PreScore plugin "NodeAffinity": [0].matchExpressions[0].values[1][...]`.
test('A preferred term that does not parse fails PreScore, named by its place in the preferred list', () => {
  const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  const pod = makePod().obj();
  pod.spec!.affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [
    { weight: 1, preference: { matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a', 'b c'] }] } },
  ] } };
  const status = new NodeAffinity().preScore(new CycleState(), pod);
  assert.equal(status?.message(), `[0].matchExpressions[0].values[1][failure-domain.beta.kubernetes.io/zone]: Invalid value: "b c": ${LABEL_VALUE}`);
  // A term of weight 0 is skipped but keeps its place; the problems of several terms are one flat aggregate.
  pod.spec!.affinity.nodeAffinity!.preferredDuringSchedulingIgnoredDuringExecution!.unshift({ weight: 0, preference: {} }, { weight: 2, preference: { matchExpressions: [{ key: 'x', operator: 'In', values: ['$'] }] } });
  assert.equal(new NodeAffinity().preScore(new CycleState(), pod)?.message(),
    `[[1].matchExpressions[0].values[0][x]: Invalid value: "$": ${LABEL_VALUE}, [2].matchExpressions[0].values[1][failure-domain.beta.kubernetes.io/zone]: Invalid value: "b c": ${LABEL_VALUE}]`);
});
