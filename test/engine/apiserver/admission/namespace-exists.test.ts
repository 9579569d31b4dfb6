// NamespaceExists: the validating check that a namespaced request's namespace exists; plugin/pkg/admission/namespace/exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceExists } from '../../../../src/engine/apiserver/admission/namespace-exists';
import type { Operation } from '../../../../src/engine/apiserver/admission/plugin';
import { attributesFor, makeContext, makeNamespace, makePod } from './plugin-harness';

const cases: { name: string; objects: object[]; request: object; operation?: Operation; want?: string }[] = [
  { name: 'A pod in an existing namespace passes', objects: [makeNamespace('dev')], request: makePod('web', {}, {}, 'dev') },
  // admission.go: the live Get's NotFound is returned as it is.
  { name: 'A pod in a missing namespace gets namespaces not found', objects: [], request: makePod('web', {}, {}, 'dev'), want: 'namespaces "dev" not found' },
  { name: 'A delete in a missing namespace is refused too', objects: [], request: makePod('web', {}, {}, 'dev'), operation: 'DELETE', want: 'namespaces "dev" not found' },
  { name: 'A namespace itself passes', objects: [], request: makeNamespace('dev') },
  { name: 'A cluster-scoped object passes', objects: [], request: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } },
];

for (const c of cases) {
  test(c.name, () => {
    const result = namespaceExists.validate!(attributesFor(c.request, { operation: c.operation ?? 'CREATE' }), makeContext(c.objects));
    assert.equal(result.error?.message, c.want);
    if (c.want) assert.equal(result.error?.code, 404);
  });
}

test('NamespaceExists handles create, update and delete but not connect', () => {
  const pod = makePod('web');
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((operation) => namespaceExists.handles(attributesFor(pod, { operation }))), [true, true, true, false]);
});
