// Whole runs with volumes: the scheduler's volume plugins on the embedded cluster, through the Simulation facade.
// Messages: FitError.Error (framework/types.go) around VolumeRestrictions' and VolumeBinding's PreFilter reasons; the
// trailing "not found" is DynamicResources' PostFilter finding no state of its own (its PreFilter never ran).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation } from '../../../src/engine/simulation';

function simulate(manifest: string, storage: string): Simulation {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: manifest }, clusters: [{ file: 'storage.yaml', text: storage }], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, {});
  sim.run();
  return sim;
}

const pod = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: app
      image: nginx:1.27
      volumeMounts:
        - name: data
          mountPath: /data
  volumes:
    - name: data
      persistentVolumeClaim:
        claimName: data
`;

const localStorage = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: local-storage
provisioner: kubernetes.io/no-provisioner
reclaimPolicy: Delete
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: local-pv-worker-2
spec:
  capacity:
    storage: 10Gi
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: local-storage
  volumeMode: Filesystem
  local:
    path: /mnt/disks/ssd1
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions:
            - key: kubernetes.io/hostname
              operator: In
              values: [worker-2]
status:
  phase: Available
`;

const claim = (className: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: default
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: ${className}
  volumeMode: Filesystem
  resources:
    requests:
      storage: 5Gi
status:
  phase: Pending
`;

const immediate = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
provisioner: example.com/csi
reclaimPolicy: Delete
volumeBindingMode: Immediate
`;

const failedScheduling = (sim: Simulation): string | undefined => sim.result().events.find((e) => e.reason === 'FailedScheduling')?.message;

test('a pod whose claim does not exist stays Pending with the scheduler\'s message', () => {
  const sim = simulate(pod, localStorage);
  assert.equal(sim.result().outcome, 'Pending');
  assert.equal(failedScheduling(sim), '0/3 nodes are available: persistentvolumeclaim "data" not found. not found');
  assert.equal(sim.store.get<Pod>('Pod', 'default', 'web')?.spec?.nodeName, undefined);
});

test('a pod whose claim of an Immediate class is not bound yet stays Pending', () => {
  const sim = simulate(pod, immediate + claim('standard'));
  assert.equal(sim.result().outcome, 'Pending');
  assert.equal(failedScheduling(sim), '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found');
});

test('a WaitForFirstConsumer claim with a local PV on worker-2 puts the pod on worker-2', () => {
  const sim = simulate(pod, localStorage + claim('local-storage'));
  assert.equal(sim.store.get<Pod>('Pod', 'default', 'web')?.spec?.nodeName, 'worker-2');
  assert.equal(sim.result().events.find((e) => e.reason === 'Scheduled')?.message, 'Successfully assigned default/web to worker-2');
  const binding = sim.result().trace.find((e) => e.phase === 'scheduler.filter' && (e as { step?: { name?: string } }).step?.name === 'VolumeBinding');
  assert.ok(binding, 'VolumeBinding has a filter trace entry');
  assert.equal(binding.field, 'spec.volumes[0].persistentVolumeClaim');
  assert.match(String(binding.result), /^VolumeBinding rejected 1 of 2 nodes: node\(s\) didn't find available persistent volumes to bind$/);
  // PreBind bound the claim to the PV (the scheduler's PV update, then the PV controller's completion).
  const pvc = sim.store.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', 'data');
  assert.equal(pvc?.spec?.volumeName, 'local-pv-worker-2');
  assert.equal(pvc?.status?.phase, 'Bound');
  assert.equal(pvc?.metadata?.annotations?.['pv.kubernetes.io/bind-completed'], 'yes');
  const pv = sim.store.get<PersistentVolume>('PersistentVolume', undefined, 'local-pv-worker-2');
  assert.equal(pv?.spec?.claimRef?.name, 'data');
  assert.equal(pv?.status?.phase, 'Bound');
});
