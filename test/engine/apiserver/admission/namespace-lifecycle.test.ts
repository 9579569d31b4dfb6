// NamespaceLifecycle: creates in a missing or terminating namespace, the immortal namespaces, and what always passes;
// cases after staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newForbidden, resourceNameOf } from '../../../../src/engine/apiserver/admission/errors';
import { namespaceLifecycle } from '../../../../src/engine/apiserver/admission/namespace-lifecycle';
import type { Operation } from '../../../../src/engine/apiserver/admission/plugin';
import { attributesFor, makeContext, makeNamespace, makePod } from './plugin-harness';

const terminating = { ...makeNamespace('dev', undefined, 'Terminating'), metadata: { name: 'dev', deletionTimestamp: '2026-01-01T00:00:00Z' } };

const cases: { name: string; objects: object[]; request: object; operation?: Operation; want: { code?: number; reason?: string; message?: string; causes?: unknown } }[] = [
  { name: 'A pod in an Active namespace is admitted', objects: [makeNamespace('dev')], request: makePod('web', {}, {}, 'dev'), want: {} },
  // admission.go: case errors.IsNotFound(err): return err (the live GET's NotFound).
  {
    name: 'A pod in a namespace that does not exist gets the 404 of the live lookup', objects: [], request: makePod('web', {}, {}, 'dev'),
    want: { code: 404, reason: 'NotFound', message: 'namespaces "dev" not found' },
  },
  // admission.go: "unable to create new content in namespace %s because it is being terminated", cause NamespaceTerminating.
  {
    name: 'A pod in a terminating namespace is forbidden with the NamespaceTerminating cause', objects: [terminating], request: makePod('web', {}, {}, 'dev'),
    want: {
      code: 403, reason: 'Forbidden', message: 'pods "web" is forbidden: unable to create new content in namespace dev because it is being terminated',
      causes: [{ reason: 'NamespaceTerminating', message: 'namespace dev is being terminated', field: 'metadata.namespace' }],
    },
  },
  {
    name: 'A pod named by generateName is named by its prefix in the error', objects: [terminating], request: makePod('', {}, { generateName: 'web-' }, 'dev'),
    want: {
      code: 403, reason: 'Forbidden', message: 'pods "web-" is forbidden: unable to create new content in namespace dev because it is being terminated',
      causes: [{ reason: 'NamespaceTerminating', message: 'namespace dev is being terminated', field: 'metadata.namespace' }],
    },
  },
  { name: 'An update in a terminating namespace is allowed', objects: [terminating], request: makePod('web', {}, {}, 'dev'), operation: 'UPDATE', want: {} },
  { name: 'A delete in a missing namespace is allowed', objects: [], request: makePod('web', {}, {}, 'dev'), operation: 'DELETE', want: {} },
  { name: 'Creating a namespace is always allowed', objects: [], request: makeNamespace('dev'), want: {} },
  { name: 'A cluster-scoped object is always allowed', objects: [], request: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }, want: {} },
  // admission.go: errors.NewForbidden(..., fmt.Errorf("this namespace may not be deleted")).
  {
    name: 'The immortal namespaces may not be deleted', objects: [makeNamespace('kube-system')], request: makeNamespace('kube-system'), operation: 'DELETE',
    want: { code: 403, reason: 'Forbidden', message: 'namespaces "kube-system" is forbidden: this namespace may not be deleted' },
  },
  { name: 'Other namespaces may be deleted', objects: [makeNamespace('dev')], request: makeNamespace('dev'), operation: 'DELETE', want: {} },
];

for (const c of cases) {
  test(c.name, () => {
    const result = namespaceLifecycle.admit!(attributesFor(c.request, { operation: c.operation ?? 'CREATE' }), makeContext(c.objects));
    const status = result.error?.status;
    assert.deepEqual(
      { code: status?.code, reason: status?.reason, message: status?.message, causes: status?.details?.causes },
      { code: c.want.code, reason: c.want.reason, message: c.want.message, causes: c.want.causes },
    );
  });
}

test('The lookups of a missing namespace include the wait for the cache before the live GET', () => {
  const result = namespaceLifecycle.admit!(attributesFor(makePod('web', {}, {}, 'dev')), makeContext());
  assert.deepEqual(result.detail?.['lookups'], ['informer cache', 'informer cache after 50ms', 'live GET']);
});

test('Admission errors name the object as extractResourceName does', () => {
  const named = attributesFor(makePod('web'));
  assert.equal(resourceNameOf(named), 'web');
  assert.equal(resourceNameOf(attributesFor(makePod('', {}, { generateName: 'rs-abc-' }))), 'rs-abc-');
  assert.equal(resourceNameOf({ ...attributesFor(makePod('')), object: { kind: 'Pod' } }), 'Unknown');
  assert.equal(newForbidden(named, 'because').message, 'pods "web" is forbidden: because');
});
