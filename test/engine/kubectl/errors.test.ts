// kubectl's rendering of API errors, as staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go prints them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forbidden, invalid, unauthorized } from '../../../src/engine/apiserver/request';
import { addSourceToError, renderKubectlError } from '../../../src/engine/kubectl/errors';

const cases = [
  {
    name: 'a 403 on create is printed with the source and the reason',
    err: addSourceToError('creating', 'pod.yaml', forbidden('pods', '', undefined, 'User "bob" cannot create resource "pods" in API group "" in the namespace "default"')),
    want: 'Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden: User "bob" cannot create resource "pods" in API group "" in the namespace "default"',
  },
  { name: 'a 401 tells the user to log in', err: unauthorized(), want: 'error: You must be logged in to the server (Unauthorized)' },
  {
    name: 'one invalid field prints on one line',
    err: addSourceToError('creating', 'pod.yaml', invalid('Pod', '', 'web', [{ reason: 'FieldValueRequired', field: 'spec.containers[0].image', message: 'Required value' }])),
    want: 'The Pod "web" is invalid: spec.containers[0].image: Required value',
  },
  {
    name: 'several invalid fields print one per line',
    err: invalid('Pod', '', 'web', [
      { reason: 'FieldValueRequired', field: 'spec.containers[0].image', message: 'Required value' },
      { reason: 'FieldValueRequired', field: 'spec.containers[1].name', message: 'Required value' },
    ]),
    want: 'The Pod "web" is invalid: \n* spec.containers[0].image: Required value\n* spec.containers[1].name: Required value',
  },
];
for (const c of cases) test(`kubectl errors: ${c.name}`, () => assert.equal(renderKubectlError(c.err), c.want));

test('the Invalid status message joins several causes as an aggregate does', () => {
  const err = invalid('Pod', '', 'web', [
    { reason: 'FieldValueRequired', field: 'a', message: 'Required value' },
    { reason: 'FieldValueRequired', field: 'b', message: 'Required value' },
  ]);
  assert.equal(err.message, 'Pod "web" is invalid: [a: Required value, b: Required value]');
  assert.equal(err.code, 422);
});
