// DefaultTolerationSeconds as a plugin; cases after plugin/pkg/admission/defaulttolerationseconds/admission_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, Toleration } from '../../../../src/engine/api/types';
import { defaultTolerationSeconds } from '../../../../src/engine/apiserver/admission/default-toleration-seconds';
import { attributesFor, makeContext, makePod } from './plugin-harness';

const notReady: Toleration = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable: Toleration = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };

const cases: { name: string; tolerations?: Toleration[]; want: Toleration[] }[] = [
  { name: 'A pod without tolerations gets both, not-ready first', want: [notReady, unreachable] },
  { name: 'A pod that tolerates not-ready keeps its own and gets unreachable', tolerations: [{ ...notReady, tolerationSeconds: 60 }], want: [{ ...notReady, tolerationSeconds: 60 }, unreachable] },
  { name: 'A toleration of every NoExecute taint covers both', tolerations: [{ operator: 'Exists', effect: 'NoExecute' }], want: [{ operator: 'Exists', effect: 'NoExecute' }] },
  { name: 'A NoSchedule toleration of not-ready does not count', tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
    want: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }, notReady, unreachable] },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(makePod('web', c.tolerations ? { tolerations: c.tolerations } : {}));
    defaultTolerationSeconds.admit!(a, makeContext());
    assert.deepEqual((a.object as Pod).spec?.tolerations, c.want);
  });
}

test('DefaultTolerationSeconds handles pods on create and update, not subresources or other kinds', () => {
  const pod = makePod('web');
  assert.deepEqual([
    defaultTolerationSeconds.handles(attributesFor(pod)), defaultTolerationSeconds.handles(attributesFor(pod, { operation: 'UPDATE' })),
    defaultTolerationSeconds.handles(attributesFor(pod, { subresource: 'status' })), defaultTolerationSeconds.handles(attributesFor({ kind: 'Service', metadata: { name: 's' } })),
  ], [true, true, false, false]);
});
