// Tests for the scheme defaulting of the kinds besides pods and workloads, field by field as pkg/apis/*/v1/defaults.go
// sets them (the oracle's many-kinds case compares the same objects with the real kube-apiserver).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultKind } from '../../../src/engine/api/defaults-kinds';
import type { KubeObject } from '../../../src/engine/api/types';

const obj = (o: Record<string, unknown>): KubeObject => o as unknown as KubeObject;

const cases: { name: string; in: Record<string, unknown>; want: Record<string, unknown>; changes: string[] }[] = [
  { name: 'a Secret without a type is Opaque', in: { kind: 'Secret', metadata: { name: 's' } }, want: { kind: 'Secret', metadata: { name: 's' }, type: 'Opaque' }, changes: ['type'] },
  { name: 'a Secret keeps its type', in: { kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/tls' }, want: { kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/tls' }, changes: [] },
  {
    name: 'a PersistentVolume is Pending, Retain, Filesystem, and a hostPath gets type ""',
    in: { kind: 'PersistentVolume', spec: { capacity: { storage: '1Gi' }, hostPath: { path: '/mnt' } } },
    want: { kind: 'PersistentVolume', spec: { capacity: { storage: '1Gi' }, hostPath: { path: '/mnt', type: '' }, persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' }, status: { phase: 'Pending' } },
    changes: ['status.phase', 'spec.persistentVolumeReclaimPolicy', 'spec.volumeMode', 'spec.hostPath.type'],
  },
  {
    name: 'a claim is Pending and Filesystem, its requests kept',
    in: { kind: 'PersistentVolumeClaim', spec: { resources: { requests: { storage: '1Gi' } } } },
    want: { kind: 'PersistentVolumeClaim', spec: { resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, status: { phase: 'Pending' } },
    changes: ['status.phase', 'spec.volumeMode'],
  },
  {
    name: 'a claim in Block mode stays in it',
    in: { kind: 'PersistentVolumeClaim', spec: { volumeMode: 'Block' }, status: { phase: 'Bound' } },
    want: { kind: 'PersistentVolumeClaim', spec: { volumeMode: 'Block' }, status: { phase: 'Bound' } },
    changes: [],
  },
  {
    name: "Endpoints' ports are TCP",
    in: { kind: 'Endpoints', subsets: [{ ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }] },
    want: { kind: 'Endpoints', subsets: [{ ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] }] },
    changes: ['subsets[0].ports[0].protocol'],
  },
  {
    name: 'a Namespace is labelled with its name and Active',
    in: { kind: 'Namespace', metadata: { name: 'team-a', labels: { tier: 'x' } } },
    want: { kind: 'Namespace', metadata: { name: 'team-a', labels: { tier: 'x', 'kubernetes.io/metadata.name': 'team-a' } }, status: { phase: 'Active' } },
    changes: ['metadata.labels.kubernetes.io/metadata.name', 'status.phase'],
  },
  {
    name: "a LimitRange's default limit comes from max and its default request from the default",
    in: { kind: 'LimitRange', spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } }] } },
    want: { kind: 'LimitRange', spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '64Mi' } }] } },
    changes: ['spec.limits[0].default.cpu', 'spec.limits[0].defaultRequest.cpu', 'spec.limits[0].defaultRequest.memory'],
  },
  {
    name: "a Pod item of a LimitRange gets no defaults",
    in: { kind: 'LimitRange', spec: { limits: [{ type: 'Pod', max: { cpu: '2' } }] } },
    want: { kind: 'LimitRange', spec: { limits: [{ type: 'Pod', max: { cpu: '2' } }] } },
    changes: [],
  },
  { name: 'a PriorityClass preempts lower priorities', in: { kind: 'PriorityClass', value: 10 }, want: { kind: 'PriorityClass', value: 10, preemptionPolicy: 'PreemptLowerPriority' }, changes: ['preemptionPolicy'] },
  {
    name: 'a StorageClass deletes its volumes and binds at once',
    in: { kind: 'StorageClass', provisioner: 'x' },
    want: { kind: 'StorageClass', provisioner: 'x', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' },
    changes: ['reclaimPolicy', 'volumeBindingMode'],
  },
  {
    name: "a RoleBinding's roleRef and User subject get the RBAC group, a ServiceAccount subject none",
    in: { kind: 'RoleBinding', roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'jane' }, { kind: 'ServiceAccount', name: 'sa' }] },
    want: { kind: 'RoleBinding', roleRef: { kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.k8s.io' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 'sa' }] },
    changes: ['roleRef.apiGroup', 'subjects[0].apiGroup'],
  },
  {
    // rbac/v1 RoleRef is a struct, not a pointer: SetDefaults_ClusterRoleBinding fills its apiGroup even when it is absent.
    name: 'a ClusterRoleBinding without roleRef still gets its apiGroup',
    in: { kind: 'ClusterRoleBinding' },
    want: { kind: 'ClusterRoleBinding', roleRef: { apiGroup: 'rbac.authorization.k8s.io' } },
    changes: ['roleRef.apiGroup'],
  },
  {
    name: 'a CSIDriver gets its seven defaults',
    in: { kind: 'CSIDriver', spec: {} },
    want: { kind: 'CSIDriver', spec: { attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', volumeLifecycleModes: ['Persistent'], requiresRepublish: false, seLinuxMount: false } },
    changes: ['spec.attachRequired', 'spec.podInfoOnMount', 'spec.storageCapacity', 'spec.fsGroupPolicy', 'spec.volumeLifecycleModes', 'spec.requiresRepublish', 'spec.seLinuxMount'],
  },
  { name: 'a ConfigMap comes back as it is', in: { kind: 'ConfigMap', data: { a: 'b' } }, want: { kind: 'ConfigMap', data: { a: 'b' } }, changes: [] },
];

for (const c of cases) {
  test(`defaultKind: ${c.name}`, () => {
    const before = structuredClone(c.in);
    const out = defaultKind(obj(c.in));
    assert.deepEqual(out.object, c.want);
    assert.deepEqual(out.changes, c.changes);
    assert.deepEqual(c.in, before, 'the object given is not changed');
  });
}
