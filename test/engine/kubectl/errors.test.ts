// kubectl's rendering of errors, as staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go prints them (CheckErr,
// StandardErrorMessage, MultilineError, MultipleErrors, AddSourceToErr).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alreadyExists, badRequest, forbidden, invalid, notFound, StatusError, unauthorized } from '../../../src/engine/apiserver/request';
import { addSourceToError, checkErr, type KubectlError, renderKubectlError } from '../../../src/engine/kubectl/errors';

const cases: { name: string; err: KubectlError; want: string }[] = [
  {
    name: 'a 403 on create is printed with the source and the reason',
    err: addSourceToError('creating', 'pod.yaml', forbidden('pods', '', undefined, 'User "bob" cannot create resource "pods" in API group "" in the namespace "default"')),
    want: 'Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden: User "bob" cannot create resource "pods" in API group "" in the namespace "default"',
  },
  { name: 'a 401 tells the user to log in, with the Status message', err: unauthorized(), want: 'error: You must be logged in to the server (Unauthorized)' },
  { name: 'a 404 is an error from server with its reason', err: notFound('namespaces', '', 'dev'), want: 'Error from server (NotFound): namespaces "dev" not found' },
  { name: 'a 409 is AlreadyExists', err: addSourceToError('creating', 'pod.yaml', alreadyExists('pods', '', 'web')), want: 'Error from server (AlreadyExists): error when creating "pod.yaml": pods "web" already exists' },
  { name: 'a 400 is BadRequest', err: badRequest('the server could not read the body'), want: 'Error from server (BadRequest): the server could not read the body' },
  {
    name: 'a Status without a reason is "Error from server:"',
    err: new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'something broke', reason: '', code: 500 }),
    want: 'Error from server: something broke',
  },
  {
    name: 'one invalid field prints on one line, whatever the message says',
    err: addSourceToError('creating', 'pod.yaml', invalid('Pod', '', 'web', [{ reason: 'FieldValueRequired', field: 'spec.containers[0].image', message: 'Required value' }])),
    want: 'The Pod "web" is invalid: spec.containers[0].image: Required value',
  },
  {
    name: 'several invalid fields print one per line after an empty first line',
    err: invalid('Pod', '', 'web', [
      { reason: 'FieldValueRequired', field: 'spec.containers[0].image', message: 'Required value' },
      { reason: 'FieldValueRequired', field: 'spec.containers[1].name', message: 'Required value' },
    ]),
    want: 'The Pod "web" is invalid: \n* spec.containers[0].image: Required value\n* spec.containers[1].name: Required value',
  },
  {
    name: 'repeated causes are printed once',
    err: invalid('Pod', '', 'web', [
      { reason: 'FieldValueInvalid', field: 'metadata.name', message: 'Invalid value' },
      { reason: 'FieldValueInvalid', field: 'metadata.name', message: 'Invalid value' },
    ]),
    want: 'The Pod "web" is invalid: metadata.name: Invalid value',
  },
  {
    name: 'a cause without a field still gets "<field>: " (an empty field)',
    err: invalid('Pod', '', 'web', [{ reason: 'FieldValueInvalid', field: '', message: 'something is off' }]),
    want: 'The Pod "web" is invalid: : something is off',
  },
  {
    name: 'an Invalid Status without details is "The request is invalid"',
    err: new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'x', reason: 'Invalid', code: 422 }),
    want: 'The request is invalid',
  },
  { name: 'any other error gets "error: " in front', err: new Error('unable to recognize "pod.yaml": unknown'), want: 'error: unable to recognize "pod.yaml": unknown' },
  { name: 'an error that already starts with "error: " keeps one', err: new Error('error: exit'), want: 'error: exit' },
  { name: 'an aggregate of one is its error', err: [notFound('pods', '', 'web')], want: 'Error from server (NotFound): pods "web" not found' },
  {
    name: 'an aggregate prints each error on its own line, plain errors without "error: "',
    err: [notFound('pods', '', 'web'), new Error('unable to recognize "b.yaml": unknown')],
    want: 'Error from server (NotFound): pods "web" not found\nunable to recognize "b.yaml": unknown',
  },
];
for (const c of cases) test(`kubectl errors: ${c.name}`, () => assert.equal(checkErr(c.err), c.want));

test('kubectl errors: renderKubectlError is CheckErr for an API error', () => {
  assert.equal(renderKubectlError(unauthorized()), 'error: You must be logged in to the server (Unauthorized)');
});

test('kubectl errors: AddSourceToErr keeps the Status and changes only the message', () => {
  const err = addSourceToError('creating', 'pod.yaml', notFound('namespaces', '', 'dev'));
  assert.deepEqual([err.code, err.reason, err.status.details], [404, 'NotFound', { name: 'dev', kind: 'namespaces' }]);
  assert.equal(addSourceToError('creating', '', err), err);
});

test('the Invalid status message joins several causes as an aggregate does', () => {
  const err = invalid('Pod', '', 'web', [
    { reason: 'FieldValueRequired', field: 'a', message: 'Required value' },
    { reason: 'FieldValueRequired', field: 'b', message: 'Required value' },
  ]);
  assert.equal(err.message, 'Pod "web" is invalid: [a: Required value, b: Required value]');
  assert.equal(err.code, 422);
});
