// Tests the escalation guard of the binding storages before validation: pkg/registry/rbac/escalation_check.go
// (EscalationAllowed, BindingAuthorized) and pkg/registry/rbac/validation/rule.go (GetRoleReferenceRules), v1.36.3.
// The reference answer for a RoleBinding without roleRef by a cluster-admin outside system:masters is
// `Error from server: ... unsupported role reference kind: ""` (500, no reason), as kube-apiserver v1.36.3 answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { bindingEscalationCheck } from '../../../src/engine/apiserver/rbac-escalation';
import type { UserInfo } from '../../../src/engine/apiserver/request';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { bind, rbac, storeOf, user } from './authz/helpers';

const store = storeOf(
  rbac('ClusterRole', 'cluster-admin', { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }),
  bind('ClusterRoleBinding', 'admins', 'ClusterRole/cluster-admin', [{ kind: 'Group', name: 'admins', apiGroup: 'rbac.authorization.k8s.io' }]),
  rbac('Role', 'pod-reader', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }, 'default'),
);
const binding = (roleRef: object | undefined): KubeObject =>
  rbac('RoleBinding', 'read-pods', roleRef ? { roleRef, subjects: [] } : { subjects: [] }, 'default');

const cases: { name: string; u: UserInfo; roleRef?: object; want: { passed: boolean; code?: number; reason?: string | undefined; message?: string } }[] = [
  { name: 'system:masters passes whatever the roleRef', u: user('root', 'system:masters'), want: { passed: true } },
  { name: 'a user who may bind the role passes to validation', u: user('alice', 'admins'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: '' }, want: { passed: true } },
  {
    name: 'no roleRef kind: the resolver error, a plain 500 without reason',
    u: user('alice', 'admins'),
    want: { passed: false, code: 500, reason: undefined, message: 'unsupported role reference kind: ""' }, // fmt.Errorf("unsupported role reference kind: %q", roleRef.Kind)
  },
  {
    name: 'a user who may not bind: a missing Role is NotFound',
    u: user('bob'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'ghost' },
    want: { passed: false, code: 404, reason: 'NotFound', message: 'role.rbac.authorization.k8s.io "ghost" not found' },
  },
  { name: 'a user who may not bind: an existing Role resolves', u: user('bob'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' }, want: { passed: true } },
];

for (const c of cases) {
  test(`binding escalation check: ${c.name}`, () => {
    const got = bindingEscalationCheck(store, defaultProfile(), binding(c.roleRef), 'default', c.u);
    if (c.want.passed) {
      assert.ok('passed' in got, JSON.stringify(got));
      return;
    }
    assert.ok('error' in got);
    const s = got.error.status;
    assert.deepEqual({ passed: false, code: s.code, reason: s.reason, message: s.message }, c.want);
  });
}
