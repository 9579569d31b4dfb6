// The static token file (--token-auth-file), alone and inside the bearer-token union: an unknown token is
// "invalid bearer token" and a 401, never anonymous.
// See staging/src/k8s.io/apiserver/pkg/authentication/token/tokenfile/tokenfile.go and request/bearertoken/bearertoken.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authenticate } from '../../../../src/engine/apiserver/authn';
import { tokenFileAuthenticator } from '../../../../src/engine/apiserver/authn/token-file';
import { makeEnv } from './env';

const env = makeEnv((p) => {
  p.authentication.tokens = [
    { token: '31ada4fd', user: 'alice', uid: '1001', groups: ['dev'] },
    { token: 'b0b', user: 'bob' },
  ];
});

const cases = [
  { name: 'a known token is its user, with uid and groups', token: '31ada4fd', want: { user: { name: 'alice', uid: '1001', groups: ['dev'] } } },
  { name: 'a token line without groups gives none', token: 'b0b', want: { user: { name: 'bob', groups: [] } } },
  { name: 'an unknown token is no opinion of the file itself', token: 'nope', want: null },
  { name: 'no token is no opinion', token: undefined, want: null },
];
for (const c of cases) {
  test(`token file: ${c.name}`, () => {
    assert.deepEqual(tokenFileAuthenticator.authenticate(c.token === undefined ? {} : { token: c.token }, env), c.want);
  });
}

test('token file: the chain adds system:authenticated and names the token file as the one that accepted', () => {
  const out = authenticate({ token: '31ada4fd' }, env);
  assert.deepEqual(out.user, { name: 'alice', uid: '1001', groups: ['dev', 'system:authenticated'] });
  assert.equal(out.authenticator, 'token-file');
});

test('token file: an unknown token is "invalid bearer token", and anonymous is not consulted', () => {
  const out = authenticate({ token: 'nope' }, env);
  assert.equal(out.user, undefined);
  assert.equal(out.error, 'invalid bearer token');
  assert.deepEqual(out.steps.map((s) => `${s.authenticator}:${s.result}`), [
    'x509:no opinion', 'token-file:no opinion', 'service-account-token:no opinion', 'bootstrap-token:no opinion', 'bearer-token:error', 'anonymous:skipped',
  ]);
});
