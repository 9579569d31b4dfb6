// Tests the escalation guard of the binding storages before validation: pkg/registry/rbac/escalation_check.go
// (EscalationAllowed, BindingAuthorized) and pkg/registry/rbac/validation/rule.go (GetRoleReferenceRules,
// ConfirmNoEscalation), v1.36.3.
// The reference answer for a RoleBinding without roleRef by a cluster-admin outside system:masters is
// `Error from server: ... unsupported role reference kind: ""` (500, no reason), as kube-apiserver v1.36.3 answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { escalationCheck, type EscalationCheck } from '../../../src/engine/apiserver/rbac-escalation';
import type { UserInfo } from '../../../src/engine/apiserver/request';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { bind, rbac, storeOf, user } from './authz/helpers';

/** check is the storage guard of a create (or, with `old`, an update) of `obj` in `namespace`. */
const check = (obj: KubeObject, namespace: string, u: UserInfo, old?: KubeObject): EscalationCheck =>
  escalationCheck(store, defaultProfile(), { obj, namespace, user: u, ...(old ? { old } : {}) }) ?? { passed: 'not an RBAC kind' };

const store = storeOf(
  rbac('ClusterRole', 'cluster-admin', { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }),
  bind('ClusterRoleBinding', 'admins', 'ClusterRole/cluster-admin', [{ kind: 'Group', name: 'admins', apiGroup: 'rbac.authorization.k8s.io' }]),
  rbac('Role', 'pod-reader', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }, 'default'),
  rbac('Role', 'deployer', { rules: [
    { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: ['get', 'update'] },
    { apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'], verbs: ['get'] },
    { nonResourceURLs: ['/healthz/ready'], verbs: ['get'] },
  ] }, 'default'),
  // carol reads pods in default (her own binding), and her second binding names a ClusterRole that does not exist.
  rbac('Role', 'reader', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] }, 'default'),
  bind('RoleBinding', 'carol-reads', 'Role/reader', [{ kind: 'User', name: 'carol', apiGroup: 'rbac.authorization.k8s.io' }], 'default'),
  bind('ClusterRoleBinding', 'carol-ghost', 'ClusterRole/ghost', [{ kind: 'User', name: 'carol', apiGroup: 'rbac.authorization.k8s.io' }]),
  // dave may update every subresource named scale, get the deployments and configmaps, and GET any /healthz path.
  rbac('ClusterRole', 'scaler', { rules: [
    { apiGroups: ['apps'], resources: ['deployments', '*/scale'], verbs: ['get', 'update'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
    { nonResourceURLs: ['/healthz*'], verbs: ['get'] },
  ] }),
  bind('ClusterRoleBinding', 'dave-scales', 'ClusterRole/scaler', [{ kind: 'User', name: 'dave', apiGroup: 'rbac.authorization.k8s.io' }]),
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
  {
    name: 'a user who may not bind and holds none of the role\'s permissions: Forbidden, naming them',
    u: user('bob'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
    want: {
      passed: false, code: 403, reason: 'Forbidden',
      message: 'rolebindings.rbac.authorization.k8s.io "read-pods" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
    },
  },
  {
    name: 'the missing rules are compacted by resource (verbs joined), sorted, one a line',
    u: user('bob'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deployer' },
    want: {
      passed: false, code: 403, reason: 'Forbidden',
      message: [
        'rolebindings.rbac.authorization.k8s.io "read-pods" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["settings"], Verbs:["get"]}',
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "update"]}',
        '{APIGroups:["apps"], Resources:["deployments/scale"], Verbs:["get" "update"]}',
        '{NonResourceURLs:["/healthz/ready"], Verbs:["get"]}',
      ].join('\n'),
    },
  },
  { name: 'a user holding every permission of the role passes (*/scale, no resourceNames, a URL prefix)', u: user('dave'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deployer' }, want: { passed: true } },
  { name: 'a user holding the role\'s permissions through a binding of their own passes', u: user('carol'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' }, want: { passed: true } },
  {
    name: 'the user\'s bindings whose roles do not resolve are named after the missing rules',
    u: user('carol'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deployer' },
    want: {
      passed: false, code: 403, reason: 'Forbidden',
      message: [
        'rolebindings.rbac.authorization.k8s.io "read-pods" is forbidden: user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["settings"], Verbs:["get"]}',
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "update"]}',
        '{APIGroups:["apps"], Resources:["deployments/scale"], Verbs:["get" "update"]}',
        '{NonResourceURLs:["/healthz/ready"], Verbs:["get"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "ghost" not found]',
      ].join('\n'),
    },
  },
];

for (const c of cases) {
  test(`binding escalation check: ${c.name}`, () => {
    const got = check(binding(c.roleRef), 'default', c.u);
    if (c.want.passed) {
      assert.ok('passed' in got, JSON.stringify(got));
      return;
    }
    assert.ok('error' in got);
    const s = got.error.status;
    assert.deepEqual({ passed: false, code: s.code, reason: s.reason, message: s.message }, c.want);
  });
}

test('binding escalation check: a ClusterRoleBinding is checked against the user\'s cluster-wide rules only', () => {
  const crb = rbac('ClusterRoleBinding', 'read-pods', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'scaler' }, subjects: [] });
  assert.ok('passed' in check(crb, '', user('dave')));
  const got = check(crb, '', user('carol'));
  assert.ok('error' in got);
  assert.match(got.error.status.message ?? '', /^clusterrolebindings\.rbac\.authorization\.k8s\.io "read-pods" is forbidden: user "carol" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/);
});

// Roles and ClusterRoles (role/policybased and clusterrole/policybased storage.go): the rules written must be the
// user's own unless the user may `escalate`; an aggregationRule needs every permission.
const role = (kind: 'Role' | 'ClusterRole', name: string, body: object): KubeObject => rbac(kind, name, body, kind === 'Role' ? 'default' : undefined);
const deploymentsRule = { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'update'] };

const roleCases: { name: string; obj: KubeObject; namespace: string; u: UserInfo; old?: KubeObject; want: string | undefined }[] = [
  { name: 'a Role of rules the user holds is created', obj: role('Role', 'scale', { rules: [deploymentsRule] }), namespace: 'default', u: user('dave'), want: undefined },
  {
    name: 'a Role of rules the user lacks is Forbidden, naming them', obj: role('Role', 'scale', { rules: [deploymentsRule] }), namespace: 'default', u: user('bob'),
    want: 'roles.rbac.authorization.k8s.io "scale" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "update"]}',
  },
  { name: 'a user who may escalate roles writes any Role', obj: role('Role', 'everything', { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }), namespace: 'default', u: user('alice', 'admins'), want: undefined },
  {
    name: 'an aggregationRule needs every permission', obj: role('ClusterRole', 'monitoring', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { team: 'ops' } }] } }), namespace: '', u: user('dave'),
    want: 'clusterroles.rbac.authorization.k8s.io "monitoring" is forbidden: must have cluster-admin privileges to use the aggregationRule',
  },
  {
    name: 'an update that changes only the owner references and finalizers passes',
    obj: { ...role('Role', 'scale', { rules: [deploymentsRule] }), metadata: { name: 'scale', namespace: 'default', finalizers: ['example.com/keep'] } },
    old: role('Role', 'scale', { rules: [deploymentsRule] }), namespace: 'default', u: user('bob'), want: undefined,
  },
  {
    name: 'an update that changes the rules is checked as a create is',
    obj: role('Role', 'scale', { rules: [deploymentsRule, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
    old: role('Role', 'scale', { rules: [deploymentsRule] }), namespace: 'default', u: user('carol'),
    want: 'roles.rbac.authorization.k8s.io "scale" is forbidden: user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "update"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "ghost" not found]',
  },
];

for (const c of roleCases) {
  test(`role escalation check: ${c.name}`, () => {
    const got = check(c.obj, c.namespace, c.u, c.old);
    assert.equal('error' in got ? got.error.status.message : undefined, c.want);
    if ('error' in got) assert.deepEqual([got.error.status.code, got.error.status.reason], [403, 'Forbidden']);
  });
}
