// Builders for authorizer tests: request attributes and RBAC objects.
import type { KubeObject } from '../../../../src/engine/api/types';
import type { AuthzAttributes } from '../../../../src/engine/apiserver/authz/authorizer';
import type { UserInfo } from '../../../../src/engine/apiserver/request';
import { Store } from '../../../../src/engine/cluster/store';

/** user is an authenticated user in the given groups (system:authenticated added). */
export const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });

/** res is a resource request: `verb` on `resource[/subresource]` of `group`, in `namespace` (cluster scope when empty). */
export function res(u: UserInfo, verb: string, resource: string, opts: { group?: string; namespace?: string; name?: string } = {}): AuthzAttributes {
  const [r, sub = ''] = resource.split('/') as [string, string?];
  return { user: u, verb, resource: r, subresource: sub, apiGroup: opts.group ?? '', apiVersion: 'v1', namespace: opts.namespace ?? '', name: opts.name ?? '', resourceRequest: true, path: '' };
}

/** path is a non-resource request: `verb` on a URL path. */
export function path(u: UserInfo, verb: string, p: string): AuthzAttributes {
  return { user: u, verb, resource: '', subresource: '', apiGroup: '', apiVersion: '', namespace: '', name: '', resourceRequest: false, path: p };
}

/** rbac builds an rbac.authorization.k8s.io/v1 object. */
export function rbac(kind: string, name: string, body: object, namespace?: string): KubeObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name, ...(namespace ? { namespace } : {}) }, ...body } as KubeObject;
}

/** bind is a (Cluster)RoleBinding of roleRef `kind/name` to subjects. */
export function bind(kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, role: string, subjects: object[], namespace?: string): KubeObject {
  const [roleKind, roleName] = role.split('/') as [string, string];
  return rbac(kind, name, { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName }, subjects }, namespace);
}

/** storeOf is a store holding the objects. */
export function storeOf(...objects: readonly (KubeObject | readonly KubeObject[])[]): Store {
  const store = new Store();
  for (const o of objects.flat()) store.put(o as KubeObject);
  return store;
}
