// Impersonation, the legacy filter: each wanted part authorized with the verb impersonate, the 403 of the first
// refusal, and the groups of the acted user. See staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/impersonation.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import { impersonate, type ImpersonationRequest, splitServiceAccount } from '../../../../src/engine/apiserver/authn/impersonation';
import type { UserInfo } from '../../../../src/engine/apiserver/request';
import { embeddedCluster } from '../../../../src/engine/cluster/files';
import { defaultProfile } from '../../../../src/engine/cluster/inputs';
import { Store } from '../../../../src/engine/cluster/store';

const store = new Store();
for (const d of embeddedCluster()) store.put(d.object);
const rbac = (kind: string, name: string, body: object): KubeObject => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name }, ...body } as KubeObject);
store.put(rbac('ClusterRole', 'impersonate-bob', { rules: [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['bob'] }] }));
store.put(rbac('ClusterRoleBinding', 'carol-impersonates-bob', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonate-bob' }, subjects: [{ kind: 'User', name: 'carol' }] }));

const admin: UserInfo = { name: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] };
const carol: UserInfo = { name: 'carol', groups: ['system:authenticated'] };
const profile = defaultProfile();

const allowed: { name: string; as: ImpersonationRequest; want: UserInfo }[] = [
  { name: 'a user without groups gets system:authenticated', as: { user: 'bob', groups: [] }, want: { name: 'bob', groups: ['system:authenticated'] } },
  { name: 'asked groups come first, then system:authenticated', as: { user: 'bob', groups: ['dev'] }, want: { name: 'bob', groups: ['dev', 'system:authenticated'] } },
  { name: 'asking for system:unauthenticated keeps system:authenticated out', as: { user: 'bob', groups: ['system:unauthenticated'] }, want: { name: 'bob', groups: ['system:unauthenticated'] } },
  { name: 'a service account gets its own two groups', as: { user: 'system:serviceaccount:ci:builder', groups: [] }, want: { name: 'system:serviceaccount:ci:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] } },
  { name: 'system:anonymous gets system:unauthenticated', as: { user: 'system:anonymous', groups: [] }, want: { name: 'system:anonymous', groups: ['system:unauthenticated'] } },
  { name: 'a uid and extras are carried', as: { user: 'bob', groups: [], uid: '42', extra: { Scopes: ['view'] } }, want: { name: 'bob', groups: ['system:authenticated'], uid: '42', extra: { scopes: ['view'] } } },
];
for (const c of allowed) {
  test(`impersonation: ${c.name}`, () => {
    const r = impersonate(admin, c.as, store, profile);
    assert.ok('user' in r, JSON.stringify(r));
    assert.deepEqual(r.user, c.want);
  });
}

const refused: { name: string; requestor: UserInfo; as: ImpersonationRequest; message: string; code?: number }[] = [
  {
    name: 'a user may impersonate only the users its rules name: the group check is refused',
    requestor: carol, as: { user: 'bob', groups: ['dev'] },
    message: 'groups "dev" is forbidden: User "carol" cannot impersonate resource "groups" in API group "" at the cluster scope',
  },
  {
    name: 'another user is refused on the users check',
    requestor: carol, as: { user: 'dave', groups: [] },
    message: 'users "dave" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope',
  },
  {
    name: 'a service account is checked in its namespace',
    requestor: carol, as: { user: 'system:serviceaccount:ci:builder', groups: [] },
    message: 'serviceaccounts "builder" is forbidden: User "carol" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ci"',
  },
  {
    name: 'an extra is checked as userextras/<key> in authentication.k8s.io',
    requestor: carol, as: { user: 'bob', groups: [], extra: { scopes: ['view'] } },
    message: 'userextras.authentication.k8s.io "view" is forbidden: User "carol" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
  },
  {
    name: 'a uid is checked as uids in authentication.k8s.io',
    requestor: carol, as: { user: 'bob', groups: [], uid: '42' },
    message: 'uids.authentication.k8s.io "42" is forbidden: User "carol" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
  },
  {
    name: 'groups without a user are a bad request',
    requestor: admin, as: { user: '', groups: ['dev'] }, code: 400,
    message: 'requested [{Group  dev    }] without impersonating a user',
  },
];
for (const c of refused) {
  test(`impersonation: ${c.name}`, () => {
    const r = impersonate(c.requestor, c.as, store, profile);
    assert.ok('error' in r, JSON.stringify(r));
    assert.equal(r.error.message, c.message);
    assert.equal(r.error.code, c.code ?? 403);
  });
}

test('impersonation: splitServiceAccount takes only well-formed service account names', () => {
  assert.deepEqual(splitServiceAccount('system:serviceaccount:ci:builder'), { namespace: 'ci', name: 'builder' });
  assert.equal(splitServiceAccount('system:serviceaccount:ci'), undefined);
  assert.equal(splitServiceAccount('system:serviceaccount:Bad:x'), undefined);
  assert.equal(splitServiceAccount('bob'), undefined);
});
