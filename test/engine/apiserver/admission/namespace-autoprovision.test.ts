// NamespaceAutoProvision: a create in a missing namespace creates it; plugin/pkg/admission/namespace/autoprovision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Namespace } from '../../../../src/engine/api/types';
import { namespaceAutoProvision } from '../../../../src/engine/apiserver/admission/namespace-autoprovision';
import { attributesFor, makeContext, makeNamespace, makePod } from './plugin-harness';

test('A pod in a missing namespace creates the namespace as the API server stores it', () => {
  const ctx = makeContext();
  const result = namespaceAutoProvision.admit!(attributesFor(makePod('web', {}, {}, 'dev')), ctx);
  assert.equal(result.error, undefined);
  const ns = ctx.store.get<Namespace>('Namespace', undefined, 'dev');
  assert.deepEqual(
    { labels: ns?.metadata?.labels, finalizers: ns?.spec?.finalizers, phase: ns?.status?.phase, uid: typeof ns?.metadata?.uid },
    { labels: { 'kubernetes.io/metadata.name': 'dev' }, finalizers: ['kubernetes'], phase: 'Active', uid: 'string' },
  );
  assert.equal(result.detail?.['created'], true);
});

const untouched: { name: string; objects: object[]; request: object }[] = [
  { name: 'An existing namespace is left alone', objects: [makeNamespace('dev')], request: makePod('web', {}, {}, 'dev') },
  { name: 'Creating a namespace provisions nothing', objects: [], request: makeNamespace('other') },
  { name: 'A cluster-scoped object provisions nothing', objects: [], request: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } },
];

for (const c of untouched) {
  test(c.name, () => {
    const ctx = makeContext(c.objects);
    const before = ctx.store.list('Namespace').length;
    const result = namespaceAutoProvision.admit!(attributesFor(c.request), ctx);
    assert.deepEqual([result.error, ctx.store.list('Namespace').length], [undefined, before]);
  });
}

test('NamespaceAutoProvision acts on creates only', () => {
  const pod = makePod('web', {}, {}, 'dev');
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE'] as const).map((operation) => namespaceAutoProvision.handles(attributesFor(pod, { operation }))), [true, false, false]);
});
