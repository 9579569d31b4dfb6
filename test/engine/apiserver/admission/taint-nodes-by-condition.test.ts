// TaintNodesByCondition: new Nodes start with the not-ready NoSchedule taint; plugin/pkg/admission/nodetaint/admission_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Taint } from '../../../../src/engine/api/types';
import { taintNodesByCondition } from '../../../../src/engine/apiserver/admission/taint-nodes-by-condition';
import { attributesFor, makeContext } from './plugin-harness';

const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const makeNode = (taints?: Taint[]): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, ...(taints ? { spec: { taints } } : {}) });

const cases: { name: string; taints?: Taint[]; want: Taint[] }[] = [
  { name: 'A node without taints gets the not-ready taint', want: [notReady] },
  { name: 'A node with the not-ready taint keeps just that one', taints: [{ ...notReady }], want: [notReady] },
  { name: 'Other taints are kept and the not-ready taint appended', taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], want: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }, notReady] },
  { name: 'A not-ready taint with another effect does not count', taints: [{ ...notReady, effect: 'NoExecute' }], want: [{ ...notReady, effect: 'NoExecute' }, notReady] },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(makeNode(c.taints));
    taintNodesByCondition.admit!(a, makeContext());
    assert.deepEqual((a.object as Node).spec?.taints, c.want);
  });
}

test('TaintNodesByCondition acts on Node creates only', () => {
  const node = makeNode();
  assert.deepEqual([
    taintNodesByCondition.handles(attributesFor(node)), taintNodesByCondition.handles(attributesFor(node, { operation: 'UPDATE' })),
    taintNodesByCondition.handles(attributesFor(node, { subresource: 'status' })), taintNodesByCondition.handles(attributesFor({ kind: 'Pod', metadata: { name: 'p' } })),
  ], [true, false, false, false]);
});
