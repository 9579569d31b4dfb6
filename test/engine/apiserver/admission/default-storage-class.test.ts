// DefaultStorageClass: claims without a class get the default; cases after
// plugin/pkg/admission/storage/storageclass/setdefault/admission_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { PersistentVolumeClaim } from '../../../../src/engine/api/types';
import { defaultStorageClass } from '../../../../src/engine/apiserver/admission/default-storage-class';
import { attributesFor, makeContext } from './plugin-harness';

const sc = (name: string, isDefault?: string, created = '2026-01-01T00:00:00Z', beta = false): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', provisioner: 'example.com/p',
  metadata: { name, creationTimestamp: created, ...(isDefault !== undefined ? { annotations: { [`storageclass.${beta ? 'beta.' : ''}kubernetes.io/is-default-class`]: isDefault } } : {}) },
});
const claim = (storageClassName?: string | null, annotations?: Record<string, string>): PersistentVolumeClaim => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...(storageClassName !== undefined ? { storageClassName: storageClassName as string } : {}) },
});

const cases: { name: string; classes: StorageClass[]; claim: PersistentVolumeClaim; want: string | undefined }[] = [
  { name: 'A claim without a class gets the default one', classes: [sc('fast'), sc('standard', 'true')], claim: claim(), want: 'standard' },
  { name: 'The beta annotation marks a default too', classes: [sc('old', 'true', undefined, true)], claim: claim(), want: 'old' },
  { name: 'A class annotated false is no default', classes: [sc('standard', 'false')], claim: claim(), want: undefined },
  { name: 'Without a default the claim keeps no class', classes: [sc('fast')], claim: claim(), want: undefined },
  { name: 'A claim naming a class keeps it', classes: [sc('standard', 'true')], claim: claim('fast'), want: 'fast' },
  { name: 'An explicit empty class asks for none and is kept', classes: [sc('standard', 'true')], claim: claim(''), want: '' },
  { name: 'The beta storage-class annotation counts as a class', classes: [sc('standard', 'true')], claim: claim(undefined, { 'volume.beta.kubernetes.io/storage-class': 'x' }), want: undefined },
  // volumeutil.GetDefaultClass: the newest default wins, then the name.
  { name: 'Of two defaults the newest wins', classes: [sc('a', 'true', '2026-01-01T00:00:00Z'), sc('b', 'true', '2026-02-01T00:00:00Z')], claim: claim(), want: 'b' },
  { name: 'Of two defaults of the same age the first name wins', classes: [sc('b', 'true'), sc('a', 'true')], claim: claim(), want: 'a' },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(c.claim);
    const result = defaultStorageClass.admit!(a, makeContext(c.classes));
    assert.equal(result.error, undefined);
    assert.equal((a.object as PersistentVolumeClaim).spec?.storageClassName, c.want);
  });
}

test('DefaultStorageClass acts on claim creates only', () => {
  const pvc = claim();
  assert.deepEqual([
    defaultStorageClass.handles(attributesFor(pvc)), defaultStorageClass.handles(attributesFor(pvc, { operation: 'UPDATE' })),
    defaultStorageClass.handles(attributesFor(pvc, { subresource: 'status' })), defaultStorageClass.handles(attributesFor({ kind: 'Pod', metadata: { name: 'p' } })),
  ], [true, false, false, false]);
});
