// Service account tokens: the account's username, uid and groups, or the getter's NotFound for a gone account.
// See pkg/serviceaccount/claims.go and staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authenticate } from '../../../../src/engine/apiserver/authn';
import { serviceAccountAuthenticator } from '../../../../src/engine/apiserver/authn/service-account';
import { makeEnv } from './env';

const env = makeEnv(undefined, [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'ci', uid: 'b1-uid' } }]);

const cases = [
  {
    name: 'an existing account is system:serviceaccount:<ns>:<name> in the two service account groups',
    ref: 'ci/builder', want: { user: { name: 'system:serviceaccount:ci:builder', uid: 'b1-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'] } },
  },
  { name: 'a token of an account that is gone fails with the NotFound of the lookup', ref: 'ci/ghost', want: { error: 'serviceaccounts "ghost" not found' } },
];
for (const c of cases) {
  test(`service account: ${c.name}`, () => assert.deepEqual(serviceAccountAuthenticator.authenticate({ serviceAccount: c.ref }, env), c.want));
}

test('service account: the failure of a gone account is the 401 error, not "invalid bearer token"', () => {
  const out = authenticate({ serviceAccount: 'ci/ghost' }, env);
  assert.equal(out.user, undefined);
  assert.equal(out.error, 'serviceaccounts "ghost" not found');
});

test('service account: the chain adds system:authenticated', () => {
  assert.deepEqual(authenticate({ serviceAccount: 'ci/builder' }, env).user?.groups, ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated']);
});
