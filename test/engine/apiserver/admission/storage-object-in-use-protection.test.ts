// StorageObjectInUseProtection: the protection finalizers of claims, volumes and volume attributes classes;
// cases after plugin/pkg/admission/storage/storageobjectinuseprotection/admission_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storageObjectInUseProtection } from '../../../../src/engine/apiserver/admission/storage-object-in-use-protection';
import type { AttributeOptions } from './plugin-harness';
import { attributesFor, makeContext } from './plugin-harness';

const obj = (kind: string, finalizers?: string[]): object => ({ apiVersion: 'v1', kind, metadata: { name: 'x', ...(kind === 'PersistentVolumeClaim' ? { namespace: 'default' } : {}), ...(finalizers ? { finalizers } : {}) } });

const cases: { name: string; request: object; options?: AttributeOptions; want: string[] | undefined }[] = [
  { name: 'A new claim gets kubernetes.io/pvc-protection', request: obj('PersistentVolumeClaim'), want: ['kubernetes.io/pvc-protection'] },
  { name: 'A new volume gets kubernetes.io/pv-protection', request: obj('PersistentVolume'), want: ['kubernetes.io/pv-protection'] },
  { name: 'A new VolumeAttributesClass gets kubernetes.io/vac-protection', request: obj('VolumeAttributesClass'), options: { group: 'storage.k8s.io', resource: 'volumeattributesclasses' }, want: ['kubernetes.io/vac-protection'] },
  { name: 'The finalizer is appended after the others', request: obj('PersistentVolumeClaim', ['example.com/keep']), want: ['example.com/keep', 'kubernetes.io/pvc-protection'] },
  { name: 'A finalizer already there is not added twice', request: obj('PersistentVolume', ['kubernetes.io/pv-protection']), want: ['kubernetes.io/pv-protection'] },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(c.request, c.options);
    assert.equal(storageObjectInUseProtection.handles(a), true);
    storageObjectInUseProtection.admit!(a, makeContext());
    assert.deepEqual(a.object.metadata?.finalizers, c.want);
  });
}

test('StorageObjectInUseProtection leaves pods, updates and subresources alone', () => {
  assert.deepEqual([
    storageObjectInUseProtection.handles(attributesFor({ kind: 'Pod', metadata: { name: 'p' } })),
    storageObjectInUseProtection.handles(attributesFor(obj('PersistentVolumeClaim'), { operation: 'UPDATE' })),
    storageObjectInUseProtection.handles(attributesFor(obj('PersistentVolumeClaim'), { subresource: 'status' })),
  ], [false, false, false]);
});
