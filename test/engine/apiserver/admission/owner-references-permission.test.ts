// OwnerReferencesPermissionEnforcement: who may set owner references and blockOwnerDeletion, decided by RBAC;
// cases after plugin/pkg/admission/gc/gc_admission_test.go, messages from gc_admission.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OwnerReference, Pod } from '../../../../src/engine/api/types';
import { ownerReferencesPermissionEnforcement } from '../../../../src/engine/apiserver/admission/owner-references-permission';
import type { UserInfo } from '../../../../src/engine/apiserver/request';
import type { AttributeOptions } from './plugin-harness';
import { attributesFor, makeContext, makePod } from './plugin-harness';

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const root: UserInfo = { name: 'root', groups: ['admins', 'system:authenticated'] };

/** rbac grants alice pods and, when asked, replicasets/finalizers; the group admins gets everything. */
function rbac(finalizers: boolean): object[] {
  const rules = [{ apiGroups: [''], resources: ['pods'], verbs: ['create', 'update', 'get'] }];
  if (finalizers) rules.push({ apiGroups: ['apps'], resources: ['replicasets/finalizers'], verbs: ['update'] });
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'alice-role' }, rules },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'alice' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'alice-role' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }] },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'everything' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'admins' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'everything' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'admins' }] },
  ];
}

const rs = (extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'uid-rs', controller: true, ...extra });
const owned = (...refs: OwnerReference[]): Pod => makePod('web', {}, { ownerReferences: refs });

const cases: { name: string; finalizers?: boolean; user: UserInfo; pod: Pod; options?: AttributeOptions; want?: string }[] = [
  { name: 'Creating an object with owner references needs no delete right', user: alice, pod: owned(rs()) },
  // gc_admission.go: "cannot set an ownerRef on a resource you can't delete: %v, %v" (reason, then the nil error).
  {
    name: 'Changing owner references needs the right to delete the object', user: alice, pod: owned(rs()), options: { operation: 'UPDATE', oldObject: makePod('web') },
    want: "pods \"web\" is forbidden: cannot set an ownerRef on a resource you can't delete: , <nil>",
  },
  { name: 'An update that keeps the owner references passes', user: alice, pod: owned(rs()), options: { operation: 'UPDATE', oldObject: owned(rs()) } },
  // "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: %v, %v".
  {
    name: 'blockOwnerDeletion needs update on the owner\'s finalizers', user: alice, pod: owned(rs({ blockOwnerDeletion: true })),
    want: "pods \"web\" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>",
  },
  { name: 'With update on replicasets/finalizers blockOwnerDeletion is allowed', finalizers: true, user: alice, pod: owned(rs({ blockOwnerDeletion: true })) },
  { name: 'Who may set finalizers on anything passes at once', user: root, pod: owned(rs({ blockOwnerDeletion: true })) },
  {
    name: 'An owner of an unknown kind cannot be mapped', user: alice, pod: owned(rs({ apiVersion: 'example.com/v1', kind: 'Widget', blockOwnerDeletion: true })),
    want: 'pods "web" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"',
  },
  { name: 'pods/status is whitelisted', user: alice, pod: owned(rs({ blockOwnerDeletion: true })), options: { operation: 'UPDATE', subresource: 'status', oldObject: makePod('web') } },
];

for (const c of cases) {
  test(c.name, () => {
    const result = ownerReferencesPermissionEnforcement.validate!(attributesFor(c.pod, { user: c.user, ...c.options }), makeContext(rbac(c.finalizers ?? false)));
    assert.equal(result.error?.message, c.want);
  });
}
