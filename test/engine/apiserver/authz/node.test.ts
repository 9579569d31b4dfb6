// The Node authorizer: identity, the subdivided resources with their reasons, relations read from the store, and
// the static node rules. See plugin/pkg/auth/authorizer/node/node_authorizer.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { AuthzAttributes } from '../../../../src/engine/apiserver/authz/authorizer';
import { nodeAuthorizer } from '../../../../src/engine/apiserver/authz/node';
import type { UserInfo } from '../../../../src/engine/apiserver/request';
import { defaultProfile } from '../../../../src/engine/cluster/inputs';
import { path, res, storeOf, user } from './helpers';

const kubelet = (node: string): UserInfo => ({ name: `system:node:${node}`, groups: ['system:nodes', 'system:authenticated'] });
const w1 = kubelet('worker-1');
const pod = (name: string, node: string, spec: object = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { nodeName: node, serviceAccountName: 'app', containers: [{ name: 'c', image: 'i', envFrom: [{ configMapRef: { name: 'env' } }] }], ...spec },
} as KubeObject);
const store = storeOf(
  pod('web', 'worker-1', { volumes: [{ name: 's', secret: { secretName: 'tls' } }, { name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }),
  pod('db', 'worker-2', { volumes: [{ name: 's', secret: { secretName: 'db-pass' } }] }),
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { volumeName: 'pv-1' } } as KubeObject,
);
const profile = defaultProfile();
const none = "no relationship found between node 'worker-1' and this object";

const cases: { name: string; attrs: AuthzAttributes; want: [string, string] }[] = [
  { name: 'a user who is not a node gets no opinion', attrs: res(user('bob'), 'get', 'pods', { namespace: 'default', name: 'web' }), want: ['NoOpinion', ''] },
  { name: 'system:node:<name> outside system:nodes is not a node', attrs: res({ name: 'system:node:worker-1', groups: [] }, 'get', 'nodes', { name: 'worker-1' }), want: ['NoOpinion', ''] },
  { name: 'a node user without a name is an unknown node', attrs: res(kubelet(''), 'get', 'nodes', { name: 'x' }), want: ['NoOpinion', 'unknown node for user "system:node:"'] },
  { name: 'a kubelet reads its own Node', attrs: res(w1, 'get', 'nodes', { name: 'worker-1' }), want: ['Allow', ''] },
  { name: 'a kubelet may not read another Node', attrs: res(w1, 'get', 'nodes', { name: 'worker-2' }), want: ['NoOpinion', "node 'worker-1' cannot read 'worker-2', only its own Node object"] },
  { name: 'a kubelet may not list all Nodes', attrs: res(w1, 'list', 'nodes'), want: ['NoOpinion', "node 'worker-1' cannot read all nodes, only its own Node object"] },
  { name: 'a kubelet updates any Node status (NodeRestriction limits it)', attrs: res(w1, 'patch', 'nodes/status', { name: 'worker-2' }), want: ['Allow', ''] },
  { name: 'a kubelet gets a pod bound to it', attrs: res(w1, 'get', 'pods', { namespace: 'default', name: 'web' }), want: ['Allow', ''] },
  { name: 'a kubelet may not get a pod bound elsewhere', attrs: res(w1, 'get', 'pods', { namespace: 'default', name: 'db' }), want: ['NoOpinion', none] },
  { name: 'a kubelet lists pods only with a spec.nodeName selector', attrs: res(w1, 'list', 'pods', { namespace: 'default' }), want: ['NoOpinion', 'can only list/watch pods with spec.nodeName field selector'] },
  { name: 'a kubelet creates mirror pods', attrs: res(w1, 'create', 'pods', { namespace: 'kube-system' }), want: ['Allow', ''] },
  { name: 'a kubelet reads a secret its pod mounts', attrs: res(w1, 'get', 'secrets', { namespace: 'default', name: 'tls' }), want: ['Allow', ''] },
  { name: 'a kubelet may not read a secret of another node\'s pod', attrs: res(w1, 'get', 'secrets', { namespace: 'default', name: 'db-pass' }), want: ['NoOpinion', none] },
  { name: 'a kubelet may not write secrets', attrs: res(w1, 'create', 'secrets', { namespace: 'default' }), want: ['NoOpinion', 'can only read resources of this type'] },
  { name: 'a kubelet reads a configmap its pod takes env from', attrs: res(w1, 'get', 'configmaps', { namespace: 'default', name: 'env' }), want: ['Allow', ''] },
  { name: 'a kubelet reads a PV through its pod\'s claim', attrs: res(w1, 'get', 'persistentvolumes', { name: 'pv-1' }), want: ['Allow', ''] },
  { name: 'a PVC may only be read with get', attrs: res(w1, 'list', 'persistentvolumeclaims', { namespace: 'default' }), want: ['NoOpinion', 'can only get individual resources of this type'] },
  { name: 'a kubelet requests a token for its pod\'s service account', attrs: res(w1, 'create', 'serviceaccounts/token', { namespace: 'default', name: 'app' }), want: ['Allow', ''] },
  { name: 'only the token subresource of a service account', attrs: res(w1, 'create', 'serviceaccounts', { namespace: 'default', name: 'app' }), want: ['NoOpinion', 'can only create token subresource of serviceaccount'] },
  { name: 'a kubelet renews its own lease', attrs: res(w1, 'update', 'leases', { group: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'worker-1' }), want: ['Allow', ''] },
  { name: 'leases live in kube-node-lease', attrs: res(w1, 'get', 'leases', { group: 'coordination.k8s.io', namespace: 'default', name: 'worker-1' }), want: ['NoOpinion', 'can only access leases in the "kube-node-lease" system namespace'] },
  { name: 'the static node rules allow watching services', attrs: res(w1, 'watch', 'services'), want: ['Allow', ''] },
  { name: 'the static node rules do not cover deployments', attrs: res(w1, 'get', 'deployments', { group: 'apps', namespace: 'default', name: 'x' }), want: ['NoOpinion', ''] },
  { name: 'the static node rules have no paths', attrs: path(w1, 'get', '/healthz'), want: ['NoOpinion', ''] },
];
for (const c of cases) {
  test(`Node: ${c.name}`, () => {
    const r = nodeAuthorizer.authorize(c.attrs, store, profile);
    assert.deepEqual([r.decision, r.reason], c.want);
  });
}
