// The anonymous authenticator and the order of the chain around it: union(x509, bearer token) in the group adder,
// then union.NewFailOnError(that, anonymous). See pkg/kubeapiserver/authenticator/config.go (New),
// staging/src/k8s.io/apiserver/pkg/authentication/request/{anonymous,union}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authenticate } from '../../../../src/engine/apiserver/authn';
import type { Credentials } from '../../../../src/engine/apiserver/authn/authenticator';
import type { ClusterProfile } from '../../../../src/engine/cluster/inputs';
import { makeEnv } from './env';
import { newCA, newClient } from './pki';

const ca = newCA();
const jane = newClient(ca, { cn: 'jane', o: ['dev'] });
const stranger = newClient(newCA('other'), { cn: 'mallory' });
const noCN = newClient(ca, { o: ['dev'] });
const tokens = (p: ClusterProfile): void => {
  p.authentication.tokens = [{ token: 'good', user: 'alice' }];
  p.authentication.clientCA = ca.pem;
};

const cases: { name: string; credentials: Credentials; profile?: (p: ClusterProfile) => void; user?: string; groups?: string[]; by?: string; error?: RegExp }[] = [
  { name: 'no credentials are system:anonymous in system:unauthenticated (no system:authenticated)', credentials: {}, user: 'system:anonymous', groups: ['system:unauthenticated'], by: 'anonymous' },
  { name: 'no credentials with --anonymous-auth=false are a 401 with no error', credentials: {}, profile: (p) => { p.authentication.anonymous = false; } },
  { name: 'a bad token is never anonymous', credentials: { token: 'nope' }, profile: tokens, error: /^invalid bearer token$/ },
  { name: 'a certificate of an unknown authority is never anonymous', credentials: { certificatePem: stranger.pem }, profile: tokens, error: /unknown authority/ },
  { name: 'a verified certificate without a CommonName falls through to anonymous', credentials: { certificatePem: noCN.pem }, profile: tokens, user: 'system:anonymous', by: 'anonymous' },
  { name: 'a certificate with no client CA configured is not read: anonymous', credentials: { certificatePem: jane.pem }, user: 'system:anonymous', by: 'anonymous' },
  { name: 'x509 comes first: a good certificate wins over a good token', credentials: { certificatePem: jane.pem, token: 'good' }, profile: tokens, user: 'jane', groups: ['dev', 'system:authenticated'], by: 'x509' },
  { name: 'an x509 error does not stop the union: a good token still authenticates', credentials: { certificatePem: stranger.pem, token: 'good' }, profile: tokens, user: 'alice', by: 'token-file' },
];

for (const c of cases) {
  test(`chain: ${c.name}`, () => {
    const out = authenticate(c.credentials, makeEnv(c.profile));
    assert.equal(out.user?.name, c.user, JSON.stringify(out.steps));
    if (c.groups) assert.deepEqual(out.user?.groups, c.groups);
    if (c.by) assert.equal(out.authenticator, c.by);
    if (c.error) assert.match(out.error ?? '', c.error);
    else assert.equal(out.error, undefined);
  });
}
