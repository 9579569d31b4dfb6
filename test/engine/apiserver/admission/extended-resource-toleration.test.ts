// ExtendedResourceToleration: tolerations for requested extended resources; cases after
// plugin/pkg/admission/extendedresourcetoleration/admission_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, Toleration } from '../../../../src/engine/api/types';
import { extendedResourceToleration, isExtendedResourceName } from '../../../../src/engine/apiserver/admission/extended-resource-toleration';
import { attributesFor, makeContext, makePod } from './plugin-harness';

const tol = (key: string): Toleration => ({ key, operator: 'Exists', effect: 'NoSchedule' });
const requesting = (requests: Record<string, string>, init: Record<string, string> = {}, tolerations?: Toleration[]): Pod => makePod('web', {
  containers: [{ name: 'app', image: 'i', resources: { requests } }],
  ...(Object.keys(init).length ? { initContainers: [{ name: 'init', image: 'i', resources: { requests: init } }] } : {}),
  ...(tolerations ? { tolerations } : {}),
});

const cases: { name: string; pod: Pod; want: Toleration[] | undefined }[] = [
  { name: 'A pod requesting only native resources gets nothing', pod: requesting({ cpu: '1', memory: '1Gi' }), want: undefined },
  { name: 'A pod requesting an extended resource tolerates it', pod: requesting({ cpu: '1', 'example.com/device-ek': '1' }), want: [tol('example.com/device-ek')] },
  { name: 'Several resources give sorted tolerations, init containers included', pod: requesting({ 'example.com/device-ek': '1' }, { 'example.com/device-do': '1' }), want: [tol('example.com/device-do'), tol('example.com/device-ek')] },
  { name: 'An existing equal toleration is not duplicated', pod: requesting({ 'example.com/device-ek': '1' }, {}, [tol('example.com/device-ek')]), want: [tol('example.com/device-ek')] },
  { name: 'Other tolerations are kept', pod: requesting({ 'example.com/device-ek': '1' }, {}, [tol('foo')]), want: [tol('foo'), tol('example.com/device-ek')] },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(c.pod);
    extendedResourceToleration.admit!(a, makeContext());
    assert.deepEqual((a.object as Pod).spec?.tolerations, c.want);
  });
}

test('Extended resource names are the qualified names outside kubernetes.io', () => {
  assert.deepEqual(['example.com/gpu', 'nvidia.com/gpu', 'cpu', 'kubernetes.io/foo', 'requests.example.com/x', 'hugepages-2Mi'].map(isExtendedResourceName),
    [true, true, false, false, false, false]);
});
