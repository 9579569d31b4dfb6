// NodeRestriction: what a kubelet may create, delete and update, with messages from
// plugin/pkg/admission/noderestriction/admission.go and cases after its admission_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../../../src/engine/api/types';
import { nodeIdentity, nodeRestriction } from '../../../../src/engine/apiserver/admission/node-restriction';
import type { AttributeOptions } from './plugin-harness';
import { ADMIN, attributesFor, kubelet, makeContext, makePod } from './plugin-harness';

const node = (name: string, labels: Record<string, string> = {}): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-${name}`, labels } });
const owner = { apiVersion: 'v1', kind: 'Node', name: 'mynode', uid: 'uid-mynode', controller: true };
const mirrorMeta = (extra: object = {}): Pod['metadata'] => ({ annotations: { 'kubernetes.io/config.mirror': 'x' }, ownerReferences: [owner], ...extra });
const mirror = (spec: Partial<Pod['spec']> = {}, meta: Pod['metadata'] = mirrorMeta()): Pod => makePod('mirror', { nodeName: 'mynode', ...spec }, meta, 'ns');
const bound = (name: string, nodeName: string): Pod => makePod(name, { nodeName }, {}, 'ns');

const cases: { name: string; objects?: object[]; request: object; options?: AttributeOptions; want?: string; code?: number }[] = [
  { name: 'A kubelet creates a mirror pod bound to itself', objects: [node('mynode')], request: mirror() },
  { name: 'Other users are not restricted', request: makePod('web', {}, {}, 'ns'), options: { user: ADMIN } },
  {
    name: 'A kubelet may only create mirror pods', request: makePod('web', { nodeName: 'mynode' }, {}, 'ns'),
    want: 'pods "web" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "mynode" can only create mirror pods',
  },
  { name: 'A mirror pod must be bound to the kubelet itself', request: mirror({ nodeName: 'other' }), want: 'pods "mirror" is forbidden: node "mynode" can only create pods with spec.nodeName set to itself' },
  {
    name: 'A mirror pod needs an owner reference', request: mirror({}, mirrorMeta({ ownerReferences: [] })),
    want: 'pods "mirror" is forbidden: node "mynode" can only create pods with an owner reference set to itself',
  },
  {
    name: 'A mirror pod may have only one owner reference', request: mirror({}, mirrorMeta({ ownerReferences: [owner, owner] })),
    want: 'pods "mirror" is forbidden: node "mynode" can only create pods with a single owner reference set to itself',
  },
  {
    name: 'The owner must be a controller reference', request: mirror({}, mirrorMeta({ ownerReferences: [{ ...owner, controller: false }] })),
    want: 'pods "mirror" is forbidden: node "mynode" can only create pods with a controller owner reference set to itself',
  },
  {
    name: 'The owner may not block owner deletion', request: mirror({}, mirrorMeta({ ownerReferences: [{ ...owner, blockOwnerDeletion: true }] })),
    want: 'pods "mirror" is forbidden: node "mynode" must not set blockOwnerDeletion on an owner reference',
  },
  {
    name: 'The owner uid must be the node\'s', objects: [node('mynode')], request: mirror({}, mirrorMeta({ ownerReferences: [{ ...owner, uid: 'bad' }] })),
    want: 'pods "mirror" is forbidden: node mynode UID mismatch: expected bad got uid-mynode',
  },
  { name: 'The node must exist', request: mirror(), want: 'node "mynode" not found', code: 404 },
  {
    name: 'A mirror pod may not reference a configmap', objects: [node('mynode')], request: mirror({ volumes: [{ name: 'c', configMap: { name: 'cm' } }] }),
    want: 'pods "mirror" is forbidden: node "mynode" can not create pods that reference configmaps',
  },
  {
    name: 'A mirror pod may not reference a claim', objects: [node('mynode')], request: mirror({ volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'c' } }] }),
    want: 'pods "mirror" is forbidden: node "mynode" can not create pods that reference persistentvolumeclaims',
  },
  { name: 'A kubelet deletes a pod bound to itself', objects: [bound('web', 'mynode')], request: bound('web', 'mynode'), options: { operation: 'DELETE' } },
  {
    name: 'A kubelet may not delete a pod bound elsewhere', objects: [bound('web', 'other')], request: bound('web', 'other'), options: { operation: 'DELETE' },
    want: 'pods "web" is forbidden: node "mynode" can only delete pods with spec.nodeName set to itself',
  },
  {
    name: 'A kubelet may not update a pod', request: bound('web', 'mynode'), options: { operation: 'UPDATE' },
    want: 'pods "web" is forbidden: unexpected operation "UPDATE", node "mynode" can only create and delete mirror pods',
  },
  {
    name: 'A kubelet may not touch other pod subresources', request: bound('web', 'mynode'), options: { operation: 'UPDATE', subresource: 'binding' },
    want: 'pods "web" is forbidden: unexpected pod subresource "binding", only \'status\' and \'eviction\' are allowed',
  },
  {
    name: 'A kubelet updates the status of its own pods but not their labels', request: makePod('web', { nodeName: 'mynode' }, { labels: { a: 'b' } }, 'ns'),
    options: { operation: 'UPDATE', subresource: 'status', oldObject: bound('web', 'mynode') },
    want: 'pods "web" is forbidden: node "mynode" cannot update labels through pod status',
  },
  { name: 'A kubelet registers its own Node', request: node('mynode', { 'kubernetes.io/hostname': 'mynode', 'node.kubernetes.io/instance-type': 'big' }) },
  { name: 'A kubelet may not create another Node', request: node('other'), want: 'nodes "other" is forbidden: node "mynode" is not allowed to modify node "other"' },
  {
    name: 'A kubelet may not give its Node restricted labels', request: node('mynode', { 'node-restriction.kubernetes.io/x': '1', 'kubernetes.io/role': 'a', 'example.com/ok': '1' }),
    want: 'nodes "mynode" is forbidden: node "mynode" is not allowed to set the following labels: kubernetes.io/role, node-restriction.kubernetes.io/x',
  },
  {
    name: 'A kubelet may not change its own taints', request: { ...node('mynode'), spec: { taints: [] } },
    options: { operation: 'UPDATE', oldObject: { ...node('mynode'), spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } } },
    want: 'nodes "mynode" is forbidden: node "mynode" is not allowed to modify taints',
  },
];

for (const c of cases) {
  test(c.name, () => {
    const result = nodeRestriction.admit!(attributesFor(c.request, { user: kubelet('mynode'), ...c.options }), makeContext(c.objects ?? []));
    assert.equal(result.error?.message, c.want);
    if (c.want) assert.equal(result.error?.code, c.code ?? 403);
  });
}

test('A user named system:node: with no name is refused', () => {
  const result = nodeRestriction.admit!(attributesFor(makePod('web'), { user: { name: 'system:node:', groups: ['system:nodes'] } }), makeContext());
  assert.equal(result.error?.message, 'pods "web" is forbidden: could not determine node from user "system:node:"');
});

test('Only a system:node: user in system:nodes is a node', () => {
  assert.deepEqual(
    [nodeIdentity(kubelet('n1')), nodeIdentity({ name: 'system:node:n1', groups: [] }), nodeIdentity(ADMIN)],
    [{ isNode: true, nodeName: 'n1' }, { isNode: false, nodeName: '' }, { isNode: false, nodeName: '' }],
  );
});

test('A node lease must be in kube-node-lease and carry the node\'s name', () => {
  const lease = (ns: string, name: string): object => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: ns } });
  const run = (obj: object): string | undefined =>
    nodeRestriction.admit!(attributesFor(obj, { user: kubelet('mynode'), resource: 'leases', group: 'coordination.k8s.io' }), makeContext()).error?.message;
  assert.deepEqual([run(lease('kube-node-lease', 'mynode')), run(lease('default', 'mynode')), run(lease('kube-node-lease', 'other'))], [
    undefined,
    'leases.coordination.k8s.io "mynode" is forbidden: can only access leases in the "kube-node-lease" system namespace',
    'leases.coordination.k8s.io "other" is forbidden: can only access node lease with the same name as the requesting node',
  ]);
});
