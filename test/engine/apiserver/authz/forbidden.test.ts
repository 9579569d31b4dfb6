// The 403 Status of a refused request: the sentence of responsewriters.forbiddenMessage, the reason after a colon,
// and apierrors.NewForbidden around it. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
// and staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuthzAttributes } from '../../../../src/engine/apiserver/authz/authorizer';
import { forbiddenStatus } from '../../../../src/engine/apiserver/authz/forbidden';
import { path, res, user } from './helpers';

const bob = user('bob');
const cases: { name: string; attrs: AuthzAttributes; reason?: string; message: string; details: object }[] = [
  {
    name: 'a named object in a namespace', attrs: res(bob, 'get', 'pods', { namespace: 'default', name: 'web' }),
    message: 'pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"', details: { name: 'web', kind: 'pods' },
  },
  {
    name: 'a create has no name', attrs: res(bob, 'create', 'pods', { namespace: 'default' }),
    message: 'pods is forbidden: User "bob" cannot create resource "pods" in API group "" in the namespace "default"', details: { kind: 'pods' },
  },
  {
    name: 'a cluster-scoped resource of a group', attrs: res(bob, 'list', 'clusterroles', { group: 'rbac.authorization.k8s.io' }),
    message: 'clusterroles.rbac.authorization.k8s.io is forbidden: User "bob" cannot list resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
    details: { group: 'rbac.authorization.k8s.io', kind: 'clusterroles' },
  },
  {
    name: 'a subresource is named with its resource in the sentence, not in the qualified resource', attrs: res(bob, 'get', 'pods/log', { namespace: 'default', name: 'web' }),
    message: 'pods "web" is forbidden: User "bob" cannot get resource "pods/log" in API group "" in the namespace "default"', details: { name: 'web', kind: 'pods' },
  },
  {
    name: 'a path', attrs: path(user('system:anonymous'), 'get', '/openapi/v3'),
    message: 'forbidden: User "system:anonymous" cannot get path "/openapi/v3"', details: {},
  },
  {
    name: 'the reason follows a colon', attrs: res(bob, 'get', 'secrets', { namespace: 'team', name: 's' }), reason: 'RBAC: role.rbac.authorization.k8s.io "r" not found',
    message: 'secrets "s" is forbidden: User "bob" cannot get resource "secrets" in API group "" in the namespace "team": RBAC: role.rbac.authorization.k8s.io "r" not found',
    details: { name: 's', kind: 'secrets' },
  },
  {
    name: 'the sentence is sanitized of HTML, the reason is not', attrs: path(user('<b>'), 'get', '/a&b'), reason: '<i>',
    message: 'forbidden: User "&lt;b&gt;" cannot get path "/a&amp;b": <i>', details: {},
  },
];
for (const c of cases) {
  test(`forbidden: ${c.name}`, () => {
    const err = forbiddenStatus(c.attrs, c.reason ?? '');
    assert.deepEqual(err.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: c.message, reason: 'Forbidden', details: c.details, code: 403 });
  });
}
