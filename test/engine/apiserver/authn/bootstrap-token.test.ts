// Bootstrap tokens (kubeadm's --enable-bootstrap-token-auth): the kube-system Secret decides, and every failure is
// silent (no opinion). See plugin/pkg/auth/authenticator/token/bootstrap/bootstrap.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapTokenAuthenticator } from '../../../../src/engine/apiserver/authn/bootstrap-token';
import { makeEnv } from './env';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const secret = (id: string, data: Record<string, string>, type = 'bootstrap.kubernetes.io/token'): object => ({
  apiVersion: 'v1', kind: 'Secret', type, metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
});
const good = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' };
const env = makeEnv(undefined, [
  secret('abcdef', good),
  secret('expird', { ...good, 'token-id': 'expird', expiration: '2025-12-31T00:00:00Z' }),
  secret('nousag', { ...good, 'token-id': 'nousag', 'usage-bootstrap-authentication': 'false' }),
  secret('badgrp', { ...good, 'token-id': 'badgrp', 'auth-extra-groups': 'admins' }),
  secret('opaque', { ...good, 'token-id': 'opaque' }, 'Opaque'),
]);

const cases = [
  {
    name: 'a valid token is system:bootstrap:<id> in system:bootstrappers and its extra groups, sorted',
    token: 'abcdef.0123456789abcdef', want: { user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token'] } },
  },
  { name: 'a wrong secret is no opinion', token: 'abcdef.ffffffffffffffff', want: null },
  { name: 'an expired token is no opinion', token: 'expird.0123456789abcdef', want: null },
  { name: 'a token not marked for authentication is no opinion', token: 'nousag.0123456789abcdef', want: null },
  { name: 'an extra group outside system:bootstrappers: is no opinion', token: 'badgrp.0123456789abcdef', want: null },
  { name: 'a Secret of another type is no opinion', token: 'opaque.0123456789abcdef', want: null },
  { name: 'a token of another form is not a bootstrap token', token: '31ada4fd', want: null },
];
for (const c of cases) {
  test(`bootstrap token: ${c.name}`, () => assert.deepEqual(bootstrapTokenAuthenticator.authenticate({ token: c.token }, env), c.want));
}
