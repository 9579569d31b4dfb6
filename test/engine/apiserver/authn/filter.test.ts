// The authentication filter as the server runs it: the exact 401 body, the trace naming the authenticator that
// accepted the request, and impersonation recorded as its checks.
// See staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go (Unauthorized) and filters/impersonation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authenticationFilter } from '../../../../src/engine/apiserver/authn/filter';
import type { Credentials } from '../../../../src/engine/apiserver/authn/authenticator';
import { embeddedCluster } from '../../../../src/engine/cluster/files';
import type { TraceInput } from '../../../../src/engine/runtime/recorder';
import { entriesOf } from '../../../../src/engine/runtime/step';
import { makeContext } from '../admission/plugin-harness';

function runFilter(credentials: Credentials, tokens = false) {
  const ctx = makeContext(embeddedCluster().map((d) => d.object));
  if (tokens) ctx.profile.authentication.tokens = [{ token: 't', user: 'alice', groups: ['dev'] }];
  const entries: TraceInput[] = [];
  const gen = authenticationFilter(ctx, credentials, 'GET /api', 'Pod/default/web');
  for (let r = gen.next(); ; r = gen.next()) {
    if (r.done) return { result: r.value, entries };
    entries.push(...entriesOf(r.value));
  }
}

test('authn filter: a refused request gets kube-apiserver\'s bare Unauthorized Status, byte for byte', () => {
  const { result } = runFilter({ token: 'nope' });
  assert.ok('error' in result);
  assert.equal(JSON.stringify(result.error.status), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}');
});

test('authn filter: the trace names the authenticator that accepted the request', () => {
  const { result, entries } = runFilter({ token: 't' }, true);
  assert.ok('user' in result);
  assert.equal(entries[0]?.result, 'authenticated as "alice" by token-file (groups: dev, system:authenticated)');
  assert.deepEqual(entries.slice(1).map((e) => `${e.step?.name}: ${e.result}`), [
    'x509: no opinion: no client certificate',
    'token-file: accepted: user "alice"',
  ]);
});

test('authn filter: impersonation is recorded as its checks, then the switch', () => {
  const { result, entries } = runFilter({ certificatePem: 'default-admin-certificate', impersonate: { user: 'bob', groups: ['dev'] } });
  assert.ok('user' in result);
  assert.deepEqual(result.user, { name: 'bob', groups: ['dev', 'system:authenticated'] });
  assert.deepEqual(entries.filter((e) => e.step?.name === 'impersonation').map((e) => e.result), [
    '"kubernetes-admin" may impersonate users "bob" (RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins" of ClusterRole "cluster-admin" to Group "kubeadm:cluster-admins")',
    '"kubernetes-admin" may impersonate groups "dev" (RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins" of ClusterRole "cluster-admin" to Group "kubeadm:cluster-admins")',
    '"kubernetes-admin" impersonates "bob" (groups: dev, system:authenticated)',
  ]);
});
