// The RBAC authorizer: rule matching (pkg/apis/rbac/v1/evaluation_helpers.go), bindings and subjects, reasons
// (plugin/pkg/auth/authorizer/rbac/rbac.go, pkg/registry/rbac/validation/rule.go) and aggregated ClusterRoles
// (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterRole, KubeObject } from '../../../../src/engine/api/types';
import type { AuthzAttributes } from '../../../../src/engine/apiserver/authz/authorizer';
import { rbacAuthorizer } from '../../../../src/engine/apiserver/authz/rbac';
import { aggregatedRules } from '../../../../src/engine/apiserver/authz/rbac-roles';
import { embeddedCluster } from '../../../../src/engine/cluster/files';
import { defaultProfile } from '../../../../src/engine/cluster/inputs';
import { bind, path, rbac, res, storeOf, user } from './helpers';

const bob = user('bob', 'dev');
const objects: KubeObject[] = [
  rbac('ClusterRole', 'pod-reader', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] }),
  rbac('ClusterRole', 'log-reader', { rules: [{ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] }] }),
  rbac('ClusterRole', 'scaler', { rules: [{ apiGroups: ['apps'], resources: ['*/scale'], verbs: ['update'] }] }),
  rbac('ClusterRole', 'one-cm', { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'], resourceNames: ['settings'] }] }),
  rbac('ClusterRole', 'probe', { rules: [{ nonResourceURLs: ['/healthz', '/api/*'], verbs: ['get'] }] }),
  rbac('Role', 'deployer', { rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }] }, 'team'),
  bind('ClusterRoleBinding', 'devs-read-pods', 'ClusterRole/pod-reader', [{ kind: 'Group', name: 'dev' }]),
  bind('ClusterRoleBinding', 'bob-scales', 'ClusterRole/scaler', [{ kind: 'User', name: 'bob' }]),
  bind('ClusterRoleBinding', 'bob-probes', 'ClusterRole/probe', [{ kind: 'User', name: 'bob' }]),
  bind('ClusterRoleBinding', 'sa-without-namespace', 'ClusterRole/pod-reader', [{ kind: 'ServiceAccount', name: 'builder' }]),
  bind('RoleBinding', 'bob-deploys', 'Role/deployer', [{ kind: 'User', name: 'bob' }], 'team'),
  bind('RoleBinding', 'logs', 'ClusterRole/log-reader', [{ kind: 'ServiceAccount', name: 'builder' }], 'team'),
  bind('RoleBinding', 'settings', 'ClusterRole/one-cm', [{ kind: 'User', name: 'bob' }], 'team'),
];
const store = storeOf(objects);
const profile = defaultProfile();
const sa = { name: 'system:serviceaccount:team:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] };

const cases: { name: string; attrs: AuthzAttributes; allow: boolean; reason?: string }[] = [
  { name: 'a ClusterRoleBinding to a group allows its members', attrs: res(bob, 'get', 'pods', { namespace: 'default' }), allow: true, reason: 'RBAC: allowed by ClusterRoleBinding "devs-read-pods" of ClusterRole "pod-reader" to Group "dev"' },
  { name: 'a verb the rule does not list is not allowed', attrs: res(bob, 'delete', 'pods', { namespace: 'default' }), allow: false, reason: '' },
  { name: 'a rule on pods does not cover the pods/log subresource', attrs: res(user('carol', 'dev'), 'get', 'pods/log', { namespace: 'default' }), allow: false },
  { name: 'a RoleBinding to a ClusterRole grants it in its namespace, to a ServiceAccount named without namespace', attrs: res(sa, 'get', 'pods/log', { namespace: 'team' }), allow: true, reason: 'RBAC: allowed by RoleBinding "logs/team" of ClusterRole "log-reader" to ServiceAccount "builder/team"' },
  { name: 'the same RoleBinding grants nothing in another namespace', attrs: res(sa, 'get', 'pods/log', { namespace: 'default' }), allow: false },
  { name: 'a ServiceAccount subject without namespace in a ClusterRoleBinding matches no one', attrs: res(sa, 'get', 'pods', { namespace: 'team' }), allow: false },
  { name: '*/scale covers the scale subresource of any resource of the group', attrs: res(bob, 'update', 'deployments/scale', { group: 'apps', namespace: 'team' }), allow: true, reason: 'RBAC: allowed by ClusterRoleBinding "bob-scales" of ClusterRole "scaler" to User "bob"' },
  { name: '*/scale does not cover the resource itself', attrs: res(bob, 'update', 'deployments', { group: 'apps', namespace: 'team' }), allow: false },
  { name: 'the API group must match', attrs: res(bob, 'update', 'widgets/scale', { group: 'example.com', namespace: 'team' }), allow: false },
  { name: 'a RoleBinding to a Role in its namespace', attrs: res(bob, 'create', 'deployments', { group: 'apps', namespace: 'team' }), allow: true, reason: 'RBAC: allowed by RoleBinding "bob-deploys/team" of Role "deployer" to User "bob"' },
  { name: 'resourceNames allow the named object with any verb of *', attrs: res(bob, 'patch', 'configmaps', { namespace: 'team', name: 'settings' }), allow: true, reason: 'RBAC: allowed by RoleBinding "settings/team" of ClusterRole "one-cm" to User "bob"' },
  { name: 'resourceNames never cover a create, which has no name', attrs: res(bob, 'create', 'configmaps', { namespace: 'team' }), allow: false },
  { name: 'a nonResourceURL matches exactly', attrs: path(bob, 'get', '/healthz'), allow: true, reason: 'RBAC: allowed by ClusterRoleBinding "bob-probes" of ClusterRole "probe" to User "bob"' },
  { name: 'a * suffix matches the paths below', attrs: path(bob, 'get', '/api/v1'), allow: true },
  { name: '/api/* does not match /api itself', attrs: path(bob, 'get', '/api'), allow: false },
  { name: 'a resource rule never matches a path', attrs: path(bob, 'get', '/pods'), allow: false },
];
for (const c of cases) {
  test(`RBAC: ${c.name}`, () => {
    const r = rbacAuthorizer.authorize(c.attrs, store, profile);
    assert.equal(r.decision, c.allow ? 'Allow' : 'NoOpinion');
    if (c.reason !== undefined) assert.equal(r.reason, c.reason);
  });
}

const missing = [
  { name: 'a binding to a missing ClusterRole is the reason of the denial', objects: [bind('ClusterRoleBinding', 'x', 'ClusterRole/ghost', [{ kind: 'User', name: 'bob' }])], reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found' },
  {
    name: 'several missing roles are listed in brackets, in the order visited',
    objects: [bind('ClusterRoleBinding', 'x', 'ClusterRole/ghost', [{ kind: 'User', name: 'bob' }]), bind('RoleBinding', 'y', 'Role/phantom', [{ kind: 'User', name: 'bob' }], 'team')],
    reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "phantom" not found]',
  },
  {
    name: 'the same missing role twice is said once',
    objects: [bind('ClusterRoleBinding', 'x', 'ClusterRole/ghost', [{ kind: 'User', name: 'bob' }]), bind('ClusterRoleBinding', 'y', 'ClusterRole/ghost', [{ kind: 'Group', name: 'dev' }])],
    reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found',
  },
  { name: 'a roleRef of another kind is unsupported', objects: [bind('ClusterRoleBinding', 'x', 'Policy/p', [{ kind: 'User', name: 'bob' }])], reason: 'RBAC: unsupported role reference kind: "Policy"' },
  { name: 'a binding that does not apply to the user adds no error', objects: [bind('ClusterRoleBinding', 'x', 'ClusterRole/ghost', [{ kind: 'User', name: 'alice' }])], reason: '' },
];
for (const c of missing) {
  test(`RBAC: ${c.name}`, () => {
    const r = rbacAuthorizer.authorize(res(bob, 'get', 'secrets', { namespace: 'team' }), storeOf(c.objects), profile);
    assert.deepEqual([r.decision, r.reason], ['NoOpinion', c.reason]);
  });
}

test('RBAC: a missing role does not stop another binding from allowing', () => {
  const s = storeOf(bind('ClusterRoleBinding', 'a', 'ClusterRole/ghost', [{ kind: 'User', name: 'bob' }]), objects);
  assert.equal(rbacAuthorizer.authorize(res(bob, 'get', 'pods', { namespace: 'x' }), s, profile).decision, 'Allow');
});

const cluster = embeddedCluster().map((d) => d.object);

test('RBAC: the embedded cluster\'s aggregated roles hold exactly the rules the controller would compute', () => {
  const s = storeOf(cluster);
  for (const role of s.list<ClusterRole>('ClusterRole').filter((r) => r.aggregationRule)) {
    assert.deepEqual(aggregatedRules(s, role, new Set()).rules, role.rules ?? [], role.metadata?.name);
  }
});

test('RBAC: a ClusterRole labeled aggregate-to-edit adds its rules to edit, and through edit to admin', () => {
  const widgets = rbac('ClusterRole', 'widget-editor', {
    metadata: { name: 'widget-editor', labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
    rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'create'] }],
  });
  const s = storeOf(cluster, widgets, bind('RoleBinding', 'bob-edits', 'ClusterRole/edit', [{ kind: 'User', name: 'bob' }], 'team'),
    bind('RoleBinding', 'carol-admins', 'ClusterRole/admin', [{ kind: 'User', name: 'carol' }], 'team'));
  const asBob = rbacAuthorizer.authorize(res(bob, 'create', 'widgets', { group: 'example.com', namespace: 'team' }), s, profile);
  assert.deepEqual([asBob.decision, asBob.reason], ['Allow', 'RBAC: allowed by RoleBinding "bob-edits/team" of ClusterRole "edit" to User "bob"']);
  assert.equal(rbacAuthorizer.authorize(res(user('carol'), 'get', 'widgets', { group: 'example.com', namespace: 'team' }), s, profile).decision, 'Allow');
  assert.equal(rbacAuthorizer.authorize(res(user('dave'), 'get', 'widgets', { group: 'example.com', namespace: 'team' }), s, profile).decision, 'NoOpinion');
});

test('RBAC: kubeadm\'s admin is allowed by the kubeadm:cluster-admins binding', () => {
  const r = rbacAuthorizer.authorize(res({ name: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] }, 'create', 'pods', { namespace: 'default' }), storeOf(cluster), profile);
  assert.equal(r.reason, 'RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins" of ClusterRole "cluster-admin" to Group "kubeadm:cluster-admins"');
});

// Decisions are kept per store while its RBAC objects stay the same (rbac.ts, DECISIONS): a kept one is the one walked
// afresh, a change to any RBAC kind is seen at once, and a rule with resourceNames makes the decision the name's own.
test('RBAC: kept decisions are the ones a fresh store gives, in any order and for any name', () => {
  const s = storeOf(objects);
  const asked = [...cases, ...[...cases].reverse()].map((c) => c.attrs);
  for (const a of [...asked, ...asked.map((a) => ({ ...a, name: a.name ? `${a.name}-other` : 'other' }))]) {
    assert.deepEqual(rbacAuthorizer.authorize(a, s, profile), rbacAuthorizer.authorize(a, storeOf(objects), profile), JSON.stringify(a));
  }
});

test('RBAC: a decision kept per store follows each change of a binding or role', () => {
  const s = storeOf(objects);
  const ask = () => rbacAuthorizer.authorize(res(user('erin'), 'get', 'secrets', { namespace: 'team' }), s, profile);
  const steps: [string, () => void, string][] = [
    ['before', () => {}, 'NoOpinion'],
    ['a Role is made', () => s.put(rbac('Role', 'secret-reader', { rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] }, 'team')), 'NoOpinion'],
    ['a RoleBinding to it', () => s.put(bind('RoleBinding', 'erin-secrets', 'Role/secret-reader', [{ kind: 'User', name: 'erin' }], 'team')), 'Allow'],
    ['the Role loses the verb', () => s.put(rbac('Role', 'secret-reader', { rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }] }, 'team')), 'NoOpinion'],
    ['the verb is back', () => s.put(rbac('Role', 'secret-reader', { rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] }, 'team')), 'Allow'],
    ['the binding goes', () => s.remove('RoleBinding', 'team', 'erin-secrets'), 'NoOpinion'],
    ['a ClusterRoleBinding to cluster-admin', () => {
      s.put(rbac('ClusterRole', 'everything', { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }));
      s.put(bind('ClusterRoleBinding', 'erin-all', 'ClusterRole/everything', [{ kind: 'User', name: 'erin' }]));
    }, 'Allow'],
  ];
  for (const [what, change, decision] of steps) {
    change();
    assert.equal(ask().decision, decision, what);
  }
});

test('RBAC: a rule with resourceNames decides for each name, whichever is asked first', () => {
  for (const order of [['settings', 'other', 'settings'], ['other', 'settings', 'other']]) {
    const s = storeOf(objects);
    const got = order.map((name) => rbacAuthorizer.authorize(res(bob, 'get', 'configmaps', { namespace: 'team', name }), s, profile).decision);
    assert.deepEqual(got, order.map((name) => (name === 'settings' ? 'Allow' : 'NoOpinion')), order.join(', '));
  }
});
