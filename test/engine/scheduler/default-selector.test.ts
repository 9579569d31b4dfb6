// The default spread constraints' selector (helper.DefaultSelector): worked out once per pod template while the
// Services and controllers stay as they are, and again as soon as one of them changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../../src/engine/api/types';
import { Store } from '../../../src/engine/cluster/store';
import { listersOf } from '../../../src/engine/scheduler/framework/listers';
import { defaultSelector } from '../../../src/engine/scheduler/plugins/podtopologyspread/default-selector';

const pod = (name: string, labels: Record<string, string>, owner?: { kind: string; name: string; apiVersion?: string }): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: {
    name, namespace: 'default', labels,
    ...(owner ? { ownerReferences: [{ apiVersion: owner.apiVersion ?? 'apps/v1', kind: owner.kind, name: owner.name, uid: `uid-${owner.name}`, controller: true }] } : {}),
  },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
}) as Pod;

const service = (name: string, selector: Record<string, string> | undefined, namespace = 'default'): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec: { ...(selector ? { selector } : {}), ports: [{ port: 80 }] } }) as KubeObject;

const owner = (kind: string, name: string, matchLabels: Record<string, string>, apiVersion = 'apps/v1'): KubeObject =>
  ({ apiVersion, kind, metadata: { name, namespace: 'default' }, spec: { selector: kind === 'ReplicationController' ? matchLabels : { matchLabels } } }) as KubeObject;

const pods = [
  pod('web-1', { app: 'web', tier: 'front' }, { kind: 'ReplicaSet', name: 'web' }),
  pod('web-2', { tier: 'front', app: 'web' }, { kind: 'ReplicaSet', name: 'web' }),
  pod('db-0', { app: 'db' }, { kind: 'StatefulSet', name: 'db' }),
  pod('legacy-1', { app: 'legacy' }, { kind: 'ReplicationController', name: 'legacy', apiVersion: 'v1' }),
  pod('lone', { app: 'web', tier: 'front' }),
  pod('lone-db', { app: 'db' }),
];

// Each write, then every pod's selector from the kept answers and from a fresh reading of the same objects.
const writes: { name: string; write: (store: Store) => void }[] = [
  { name: 'nothing yet', write: () => undefined },
  { name: 'the ReplicaSet', write: (s) => void s.put(owner('ReplicaSet', 'web', { app: 'web' })) },
  { name: 'a Service of the web pods', write: (s) => void s.put(service('web', { app: 'web' })) },
  { name: 'the StatefulSet and the ReplicationController', write: (s) => { s.put(owner('StatefulSet', 'db', { app: 'db' })); s.put(owner('ReplicationController', 'legacy', { app: 'legacy' }, 'v1')); } },
  { name: 'the Service selects the front tier too', write: (s) => void s.put(service('web', { app: 'web', tier: 'front' })) },
  { name: 'a Service in another namespace', write: (s) => void s.put(service('other', { app: 'db' }, 'elsewhere')) },
  { name: 'a Service without a selector', write: (s) => void s.put(service('headless', undefined)) },
  { name: 'the ReplicaSet selects on the tier', write: (s) => void s.put(owner('ReplicaSet', 'web', { app: 'web', tier: 'front' })) },
  { name: 'the Service goes', write: (s) => void s.remove('Service', 'default', 'web') },
  { name: 'the ReplicaSet goes', write: (s) => void s.remove('ReplicaSet', 'default', 'web') },
];

test('defaultSelector on a store answers as a fresh reading of its objects, after each write to the kinds it reads', () => {
  const store = new Store();
  for (const w of writes) {
    w.write(store);
    const fresh = listersOf(store.all());
    for (const p of [...pods, ...pods.slice().reverse()]) {
      assert.deepEqual(defaultSelector(p, store), defaultSelector(p, fresh), `${p.metadata!.name} after ${w.name}`);
    }
  }
  // The pods of one template get one selector while nothing changes.
  assert.equal(defaultSelector(pods[0]!, store), defaultSelector(pod('web-9', { app: 'web', tier: 'front' }, { kind: 'ReplicaSet', name: 'web' }), store));
});
