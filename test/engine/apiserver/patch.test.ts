// The patch handler's patchers applied to a stored object: each patch type's result, and the Status of a patch that
// does not decode or apply (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { applyPatch, type PatchType } from '../../../src/engine/apiserver/patch';
import { StatusError } from '../../../src/engine/apiserver/request';

const stored = (): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web', tier: 'front' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27' }, { name: 'log', image: 'busybox' }] },
} as KubeObject);

const applied: { name: string; type: PatchType; patch: unknown; want: (o: KubeObject) => unknown; value: unknown }[] = [
  { name: 'a strategic merge patch merges containers by name', type: 'strategic', patch: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } }, want: (o) => (o['spec'] as { containers: unknown[] }).containers.length, value: 2 },
  { name: 'a JSON merge patch replaces the containers list', type: 'merge', patch: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } }, want: (o) => (o['spec'] as { containers: unknown[] }).containers.length, value: 1 },
  { name: 'a JSON merge patch with null removes a label', type: 'merge', patch: { metadata: { labels: { tier: null } } }, want: (o) => o.metadata?.labels, value: { app: 'web' } },
  { name: 'a JSON patch replaces one field', type: 'json', patch: [{ op: 'replace', path: '/spec/containers/1/image', value: 'busybox:1.36' }], want: (o) => (o['spec'] as { containers: { image: string }[] }).containers[1]!.image, value: 'busybox:1.36' },
];

for (const c of applied) {
  test(c.name, () => {
    assert.deepEqual(c.want(applyPatch(stored(), c.patch, c.type)), c.value);
  });
}

const refused: { name: string; type: PatchType; patch: unknown; code: number; message: string }[] = [
  { name: 'a JSON patch that is not a list is a 400', type: 'json', patch: { op: 'add' }, code: 400, message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' },
  { name: 'a JSON patch that does not apply is the generic 422', type: 'json', patch: [{ op: 'remove', path: '/metadata/labels/missing' }], code: 422, message: 'the server rejected our request due to an error in our request' },
  { name: 'a merge patch that is not an object is Invalid JSON Patch', type: 'merge', patch: 'x', code: 400, message: 'Invalid JSON Patch' },
];

for (const c of refused) {
  test(c.name, () => {
    assert.throws(() => applyPatch(stored(), c.patch, c.type), (e: unknown) => e instanceof StatusError && e.code === c.code && e.message === c.message);
  });
}
