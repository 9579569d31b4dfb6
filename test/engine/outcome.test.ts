// The verdict on a run's workloads, from the store as it stands: a ReplicationController is judged by the pods it
// controls, as a ReplicaSet is (no kind is NotSimulated any more), a PodDisruptionBudget is no workload, and a workload
// deleted from under the run (a bare pod a drain evicted) is Deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/engine/api/types';
import { Store } from '../../src/engine/cluster/store';
import { computeOutcome, NOT_SIMULATED, workloadOutcomes } from '../../src/engine/outcome';

const meta = (name: string, uid: string) => ({ name, namespace: 'default', uid });
const rc: KubeObject = { apiVersion: 'v1', kind: 'ReplicationController', metadata: meta('legacy', 'u-rc'), spec: { replicas: 1 } };
const rcOwned = (status: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', spec: { containers: [] }, status,
  metadata: { ...meta('legacy-x7k2p', 'u-rc-pod'), ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid: 'u-rc', controller: true }] },
});
const rcPodRunning = rcOwned({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] });
const rcPodPending = rcOwned({ phase: 'Pending' });
const pdb: KubeObject = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta('web', 'u-pdb'), spec: { minAvailable: 1 } };
const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: meta('web', 'u-pod'), spec: { containers: [] } };
const running: KubeObject = { ...pod, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };

const cases: { name: string; stored: KubeObject[]; applied: KubeObject[]; allowUnsimulated?: boolean; want: string; workloads: unknown }[] = [
  {
    name: 'a ReplicationController whose replica runs and is Ready is Running, as a ReplicaSet is', stored: [rc, rcPodRunning], applied: [rc], want: 'Running',
    workloads: [{ object: 'ReplicationController/default/legacy', outcome: 'Running' }],
  },
  { name: 'a ReplicationController whose pod is not yet made is Pending', stored: [rc], applied: [rc], want: 'Pending', workloads: [{ object: 'ReplicationController/default/legacy', outcome: 'Pending' }] },
  { name: 'a ReplicationController whose pod is not yet running is Pending', stored: [rc, rcPodPending], applied: [rc], want: 'Pending', workloads: undefined },
  { name: 'beside a running pod, --allow-unsimulated changes nothing: the ReplicationController is judged too', stored: [rc, rcPodRunning, running], applied: [rc, pod], allowUnsimulated: true, want: 'Running', workloads: undefined },
  { name: 'a PodDisruptionBudget alone is Succeeded: it runs nothing', stored: [pdb], applied: [pdb], want: 'Succeeded', workloads: [] },
  { name: 'a PodDisruptionBudget beside a running pod: the pod speaks', stored: [pdb, running], applied: [pdb, pod], want: 'Running', workloads: [{ object: 'Pod/default/web', outcome: 'Running' }] },
  { name: 'a bare pod no longer stored (a drain evicted it) is Deleted', stored: [pdb], applied: [pdb, pod], want: 'Deleted', workloads: [{ object: 'Pod/default/web', outcome: 'Deleted' }] },
];

for (const c of cases) {
  test(`outcome: ${c.name}`, () => {
    const store = new Store();
    for (const o of c.stored) store.put(o);
    assert.equal(computeOutcome(store, c.applied, undefined, false, new Set(), false, new Map(), c.allowUnsimulated), c.want);
    if (c.workloads !== undefined) assert.deepEqual(workloadOutcomes(store, c.applied, undefined, false, new Map()), c.workloads);
  });
}

test('outcome: no stored kind is NotSimulated any more', () => {
  assert.deepEqual([...NOT_SIMULATED.keys()], []);
});
