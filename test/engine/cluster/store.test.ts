// The store: etcd keys as kube-apiserver writes them, resourceVersions, frozen objects and snapshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { Store, storageKey } from '../../../src/engine/cluster/store';

// Expected keys: test/integration/etcd/data.go (ExpectedEtcdPath).
const keys: { kind: string; namespace?: string; name: string; want: string }[] = [
  { kind: 'Pod', namespace: 'default', name: 'web', want: '/registry/pods/default/web' },
  { kind: 'Node', name: 'worker-1', want: '/registry/minions/worker-1' },
  { kind: 'Service', namespace: 'default', name: 'kubernetes', want: '/registry/services/specs/default/kubernetes' },
  { kind: 'Endpoints', namespace: 'default', name: 'kubernetes', want: '/registry/services/endpoints/default/kubernetes' },
  { kind: 'Deployment', namespace: 'default', name: 'web', want: '/registry/deployments/default/web' },
  { kind: 'ClusterRole', name: 'admin', want: '/registry/clusterroles/admin' },
  { kind: 'PriorityClass', name: 'system-node-critical', want: '/registry/priorityclasses/system-node-critical' },
  { kind: 'ValidatingWebhookConfiguration', name: 'hook', want: '/registry/validatingwebhookconfigurations/hook' },
  { kind: 'Namespace', namespace: 'ignored', name: 'dev', want: '/registry/namespaces/dev' },
];
for (const c of keys) test(`etcd keys: a ${c.kind} is stored at ${c.want}`, () => assert.equal(storageKey(c.kind, c.namespace, c.name), c.want));

test('every write gets the next resourceVersion and the stored object is frozen', () => {
  const store = new Store();
  const a = store.put<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
  const b = store.update('ConfigMap', 'default', 'a', (o) => { o.metadata = { ...o.metadata, labels: { x: 'y' } }; })!;
  assert.equal(Number(b.metadata?.resourceVersion), Number(a.metadata?.resourceVersion) + 1);
  assert.ok(Object.isFrozen(b) && Object.isFrozen(b.metadata));
  assert.deepEqual(a.metadata?.labels, undefined, 'the earlier version is untouched');
});

test('a snapshot keeps the objects of its moment while the store moves on', () => {
  const store = new Store();
  store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
  const snap = store.snapshot();
  store.remove('ConfigMap', 'default', 'a');
  assert.equal(snap.objects.size, 1);
  assert.equal(store.all().length, 0);
});
