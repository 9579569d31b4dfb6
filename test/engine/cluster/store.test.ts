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

/** Write is one change made to a store: an object put, or one removed by kind, namespace and name. */
type Write = { put: KubeObject } | { remove: [string, string | undefined, string] };

const cm = (name: string, labels?: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: `uid-${name}`, ...(labels ? { labels } : {}) } });
const pod = (name: string, node?: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'c', image: 'i' }] } });

/** view is all a store tells of its content, in the order it tells it. */
function view(store: Store): unknown {
  return {
    size: store.size, all: store.all().map((o) => [o.kind, o.metadata?.name, o.metadata?.resourceVersion, o.metadata?.labels]),
    configMaps: store.list('ConfigMap', 'default').map((o) => o.metadata?.name), pods: store.list('Pod').map((o) => o.metadata?.name),
    onNode: store.byIndex('node', 'n1').map((o) => o.metadata?.name), byUid: ['uid-a', 'uid-b', 'uid-p'].map((u) => store.byIndex('uid', u).length),
    a: store.get('ConfigMap', 'default', 'a')?.metadata?.labels, snapshot: [...store.snapshot().objects.keys()],
  };
}

const restoredCases: { name: string; writes: Write[] }[] = [
  { name: 'nothing written', writes: [] },
  { name: 'an object of the image replaced', writes: [{ put: cm('a', { v: '2' }) }] },
  { name: 'an object of the image removed', writes: [{ remove: ['ConfigMap', 'default', 'a'] }] },
  { name: 'an object of the image removed and stored again', writes: [{ remove: ['ConfigMap', 'default', 'a'] }, { put: cm('a', { v: '3' }) }] },
  { name: 'new objects, one bound to a node', writes: [{ put: cm('c') }, { put: pod('q', 'n1') }, { remove: ['ConfigMap', 'default', 'c'] }] },
  { name: 'a pod of the image bound, then removed', writes: [{ put: pod('p', 'n1') }, { remove: ['Pod', 'default', 'p'] }] },
];

for (const c of restoredCases) {
  test(`a store restored from an image reads as one that was written to: ${c.name}`, () => {
    const written = new Store();
    for (const o of [cm('a', { v: '1' }), cm('b'), pod('p')]) written.put(o);
    const image = written.image();
    const imageView = [...image.objects.keys()];
    const restored = new Store();
    restored.restore(image);
    for (const w of c.writes) {
      for (const store of [written, restored]) {
        if ('put' in w) store.put(w.put);
        else store.remove(...w.remove);
      }
    }
    assert.deepEqual(view(restored), view(written));
    // The image is shared, never written: another store restored from it starts where the first one did.
    assert.deepEqual([...image.objects.keys()], imageView);
    const again = new Store();
    again.restore(image);
    assert.equal(again.size, 3);
    assert.deepEqual(again.list('ConfigMap', 'default').map((o) => o.metadata?.name), ['a', 'b']);
    assert.deepEqual(again.byIndex('node', 'n1'), []);
    // Read whole, then written again, it still reads as the store written to.
    restored.put(cm('z'));
    written.put(cm('z'));
    assert.deepEqual(view(restored), view(written));
  });
}
