// ResourceQuota on its own: which quotas a request charges, the refusal messages and the status written back,
// with cases from plugin/pkg/admission/resourcequota/admission_test.go (messages from controller.go and pods.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Pod, ResourceQuota } from '../../../../src/engine/api/types';
import type { AdmissionAttributes } from '../../../../src/engine/apiserver/admission/plugin';
import { resourceQuota } from '../../../../src/engine/apiserver/admission/resource-quota';
import { Store } from '../../../../src/engine/cluster/store';
import type { EngineContext } from '../../../../src/engine/context';
import { VirtualClock } from '../../../../src/engine/runtime/clock';

type List = Record<string, string>;

/** makePod is validPod: containers foo-0..foo-n-1, all with the same requests and limits, in namespace test. */
function makePod(name: string, n: number, requests: List = {}, limits: List = {}, spec: Record<string, unknown> = {}): KubeObject {
  const resources = { ...(Object.keys(requests).length ? { requests } : {}), ...(Object.keys(limits).length ? { limits } : {}) };
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'test' },
    spec: { ...spec, containers: Array.from({ length: n }, (_, i) => ({ name: `foo-${i}`, image: `foo:V${i}`, ...(Object.keys(resources).length ? { resources } : {}) })) },
  };
  return pod as KubeObject;
}

/** makeQuota builds quota `name` with status hard/used (or no status), and optional scopes. */
function makeQuota(name: string, hard: List, used: List | undefined, spec: Record<string, unknown> = {}): KubeObject {
  const quota: ResourceQuota = {
    apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'test' }, spec: { hard, ...spec },
    ...(used ? { status: { hard, used } } : {}),
  };
  return quota as KubeObject;
}

function context(objects: KubeObject[]): EngineContext {
  const store = new Store();
  for (const o of objects) store.put(o);
  return { store, clock: new VirtualClock() } as unknown as EngineContext;
}

const RESOURCE_OF: Record<string, { resource: string; group: string }> = {
  Pod: { resource: 'pods', group: '' }, Deployment: { resource: 'deployments', group: 'apps' }, ConfigMap: { resource: 'configmaps', group: '' },
  Service: { resource: 'services', group: '' }, PersistentVolumeClaim: { resource: 'persistentvolumeclaims', group: '' },
};

function attributes(obj: KubeObject): AdmissionAttributes {
  const r = RESOURCE_OF[String(obj.kind)]!;
  return {
    operation: 'CREATE', kind: String(obj.kind), group: r.group, resource: r.resource, subresource: '',
    namespace: 'test', name: obj.metadata?.name ?? '', object: obj, user: { name: 'admin', groups: ['system:masters'] },
  };
}

const quotaBelow = makeQuota('quota', { cpu: '3', memory: '100Gi', pods: '5' }, { cpu: '1', memory: '50Gi', pods: '3' });

interface Case {
  name: string;
  objects: KubeObject[];
  obj: KubeObject;
  /** want is the refusal's message, or undefined for admitted. */
  want?: string;
  /** used is each quota's status.used after an admitted request. */
  used?: Record<string, List | undefined>;
}

const cases: Case[] = [
  {
    name: 'A pod below the quota is admitted and charged to status.used',
    objects: [quotaBelow], obj: makePod('allowed-pod', 1, { cpu: '100m', memory: '2Gi' }),
    used: { quota: { cpu: '1100m', memory: '52Gi', pods: '4' } },
  },
  {
    name: 'A pod over the cpu quota is refused with requested, used and limited of that resource only',
    objects: [quotaBelow], obj: makePod('not-allowed-pod', 1, { cpu: '3', memory: '2Gi' }),
    want: 'pods "not-allowed-pod" is forbidden: exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3',
    used: { quota: { cpu: '1', memory: '50Gi', pods: '3' } },
  },
  {
    name: 'The exceeded resources are sorted and joined by commas without spaces',
    objects: [makeQuota('compute', { 'limits.cpu': '2', 'limits.memory': '2Gi', 'requests.cpu': '1' }, { 'limits.cpu': '1', 'limits.memory': '1536Mi', 'requests.cpu': '0' })],
    obj: makePod('web', 1, { cpu: '500m', memory: '1Gi' }, { cpu: '2', memory: '1Gi' }),
    want: 'pods "web" is forbidden: exceeded quota: compute, requested: limits.cpu=2,limits.memory=1Gi, used: limits.cpu=1,limits.memory=1536Mi, limited: limits.cpu=2,limits.memory=2Gi',
  },
  {
    name: 'The brief\'s compute quota refuses 2 cpu over 3 used of 4',
    objects: [makeQuota('compute', { 'requests.cpu': '4' }, { 'requests.cpu': '3' })], obj: makePod('web', 1, { cpu: '2' }),
    want: 'pods "web" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=3, limited: requests.cpu=4',
  },
  {
    name: 'A quota on memory limits refuses a pod whose container sets none',
    objects: [makeQuota('quota', { cpu: '3', memory: '100Gi', 'limits.memory': '200Gi', pods: '5' }, { cpu: '1', memory: '50Gi', 'limits.memory': '100Gi', pods: '3' })],
    obj: makePod('not-allowed-pod', 1, { cpu: '100m', memory: '2Gi' }, { cpu: '200m' }),
    want: 'pods "not-allowed-pod" is forbidden: failed quota: quota: must specify limits.memory for: foo-0',
  },
  {
    name: 'The must-specify message lists each resource with the containers that lack it',
    objects: [makeQuota('compute', { 'limits.cpu': '4', 'limits.memory': '4Gi' }, { 'limits.cpu': '0', 'limits.memory': '0' })],
    obj: { ...makePod('web', 1), spec: { containers: [{ name: 'app', image: 'nginx' }, { name: 'sidecar', image: 'envoy', resources: { limits: { cpu: '1' } } }] } },
    want: 'pods "web" is forbidden: failed quota: compute: must specify limits.cpu for: app; limits.memory for: app,sidecar',
  },
  {
    name: 'A pod with pod-level resources is not asked for container resources',
    objects: [makeQuota('compute', { 'limits.cpu': '4' }, { 'limits.cpu': '0' })],
    obj: makePod('web', 1, {}, {}, { resources: { limits: { cpu: '1' } } }),
    used: { compute: { 'limits.cpu': '1' } },
  },
  {
    name: 'A pod in a namespace without quota is admitted',
    objects: [{ ...quotaBelow, metadata: { name: 'quota', namespace: 'other' } }], obj: makePod('allowed-pod', 1, { cpu: '100m' }, { cpu: '200m' }),
  },
  {
    name: 'A terminating pod is charged to the Terminating quota only',
    objects: [
      makeQuota('quota-non-terminating', { cpu: '3', memory: '100Gi', pods: '5' }, { cpu: '1', memory: '50Gi', pods: '3' }, { scopes: ['NotTerminating'] }),
      makeQuota('quota-terminating', { cpu: '3', memory: '100Gi', pods: '5' }, { cpu: '1', memory: '50Gi', pods: '3' }, { scopes: ['Terminating'] }),
    ],
    obj: makePod('allowed-pod', 1, { cpu: '100m', memory: '2Gi' }, {}, { activeDeadlineSeconds: 30 }),
    used: { 'quota-non-terminating': { cpu: '1', memory: '50Gi', pods: '3' }, 'quota-terminating': { cpu: '1100m', memory: '52Gi', pods: '4' } },
  },
  {
    name: 'A BestEffort quota counts only pods without requests or limits',
    objects: [
      makeQuota('quota-besteffort', { pods: '5' }, { pods: '3' }, { scopes: ['BestEffort'] }),
      makeQuota('quota-not-besteffort', { pods: '5' }, { pods: '3' }, { scopes: ['NotBestEffort'] }),
    ],
    obj: makePod('allowed-pod', 1),
    used: { 'quota-besteffort': { pods: '4' }, 'quota-not-besteffort': { pods: '3' } },
  },
  {
    name: 'A full BestEffort quota refuses a BestEffort pod',
    objects: [makeQuota('quota-besteffort', { pods: '5' }, { pods: '5' }, { scopes: ['BestEffort'] })], obj: makePod('web', 1),
    want: 'pods "web" is forbidden: exceeded quota: quota-besteffort, requested: pods=1, used: pods=5, limited: pods=5',
  },
  {
    name: 'A PriorityClass scope selector matches the pods of the listed classes only',
    objects: [
      makeQuota('pods-high', { pods: '10' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }),
      makeQuota('pods-not-high', { pods: '10' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }] } }),
      makeQuota('pods-with-class', { pods: '10' }, { pods: '0' }, { scopes: ['PriorityClass'] }),
    ],
    obj: makePod('web', 1, {}, {}, { priorityClassName: 'high' }),
    used: { 'pods-high': { pods: '1' }, 'pods-not-high': { pods: '0' }, 'pods-with-class': { pods: '1' } },
  },
  {
    name: 'A pod without a class falls in NotIn but not in the PriorityClass scope',
    objects: [
      makeQuota('pods-not-high', { pods: '10' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }] } }),
      makeQuota('pods-with-class', { pods: '10' }, { pods: '0' }, { scopes: ['PriorityClass'] }),
    ],
    obj: makePod('web', 1),
    used: { 'pods-not-high': { pods: '1' }, 'pods-with-class': { pods: '0' } },
  },
  {
    name: 'count/pods and pods are both charged',
    objects: [makeQuota('counts', { 'count/pods': '2', pods: '3' }, { 'count/pods': '2', pods: '1' })], obj: makePod('web', 1),
    want: 'pods "web" is forbidden: exceeded quota: counts, requested: count/pods=1, used: count/pods=2, limited: count/pods=2',
  },
  {
    name: 'An extended resource is quota\'d under requests.<name>',
    objects: [makeQuota('gpu', { 'requests.nvidia.com/gpu': '1' }, { 'requests.nvidia.com/gpu': '1' })],
    obj: makePod('web', 1, { 'nvidia.com/gpu': '1' }, { 'nvidia.com/gpu': '1' }),
    want: 'pods "web" is forbidden: exceeded quota: gpu, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=1, limited: requests.nvidia.com/gpu=1',
  },
  {
    name: 'A quota with a tracked resource missing from status.used is refused as status unknown',
    objects: [{ ...makeQuota('quota', { cpu: '3', pods: '5' }, { pods: '1' }), status: { hard: { cpu: '3', pods: '5' }, used: { pods: '1' } } }],
    obj: makePod('web', 1, { cpu: '1' }),
    want: 'pods "web" is forbidden: status unknown for quota: quota, resources: cpu,pods',
  },
  {
    name: 'A quota without status starts from spec.hard and the usage of the namespace\'s pods',
    objects: [
      makeQuota('compute', { 'requests.cpu': '2', pods: '10' }, undefined),
      { ...makePod('old', 1, { cpu: '1' }), status: { phase: 'Running' } },
      { ...makePod('done', 1, { cpu: '1' }), status: { phase: 'Succeeded' } },
    ],
    obj: makePod('web', 1, { cpu: '500m' }),
    used: { compute: { 'requests.cpu': '1500m', pods: '2' } },
  },
  {
    name: 'A quota without status refuses with the usage the controller would have counted',
    objects: [makeQuota('compute', { 'requests.cpu': '2' }, undefined), { ...makePod('old', 2, { cpu: '1' }), status: { phase: 'Running' } }],
    obj: makePod('web', 1, { cpu: '500m' }),
    want: 'pods "web" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=2, limited: requests.cpu=2',
    used: { compute: undefined },
  },
  {
    name: 'A deployment over count/deployments.apps is refused with the group in the names',
    objects: [makeQuota('objects', { 'count/deployments.apps': '1' }, { 'count/deployments.apps': '1' })],
    obj: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'test' }, spec: {} },
    want: 'deployments.apps "web" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
  },
  {
    name: 'A config map is counted under its legacy name too',
    objects: [makeQuota('objects', { configmaps: '1', 'count/configmaps': '5' }, { configmaps: '1', 'count/configmaps': '1' })],
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'test' } },
    want: 'configmaps "cfg" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=1, limited: configmaps=1',
  },
  {
    name: 'A NodePort service takes one node port per port',
    objects: [makeQuota('svc', { services: '5', 'services.nodeports': '1' }, { services: '0', 'services.nodeports': '0' })],
    obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'test' }, spec: { type: 'NodePort', ports: [{ port: 80 }, { port: 443 }] } },
    want: 'services "web" is forbidden: exceeded quota: svc, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
  },
  {
    name: 'A claim\'s storage is charged to its storage class as well',
    objects: [makeQuota('storage', { 'requests.storage': '10Gi', 'fast.storageclass.storage.k8s.io/requests.storage': '1Gi' }, { 'requests.storage': '0', 'fast.storageclass.storage.k8s.io/requests.storage': '0' })],
    obj: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'test' }, spec: { storageClassName: 'fast', resources: { requests: { storage: '2Gi' } } } },
    want: 'persistentvolumeclaims "data" is forbidden: exceeded quota: storage, requested: fast.storageclass.storage.k8s.io/requests.storage=2Gi, used: fast.storageclass.storage.k8s.io/requests.storage=0, limited: fast.storageclass.storage.k8s.io/requests.storage=1Gi',
  },
  {
    name: 'A scoped quota never matches objects other than pods',
    objects: [makeQuota('objects', { 'count/configmaps': '0' }, { 'count/configmaps': '0' }, { scopes: ['NotTerminating'] })],
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'test' } },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const ctx = context(c.objects);
    const result = resourceQuota.validate!(attributes(c.obj), ctx);
    assert.equal(result.error?.message, c.want);
    if (c.want) assert.deepEqual([result.error?.code, result.error?.reason], [403, 'Forbidden']);
    for (const [name, used] of Object.entries(c.used ?? {})) {
      assert.deepEqual(ctx.store.get<ResourceQuota>('ResourceQuota', 'test', name)?.status?.used, used, `status.used of ${name}`);
    }
  });
}

test('The computed status is written with status.hard from spec.hard', () => {
  const ctx = context([makeQuota('compute', { 'requests.cpu': '2' }, undefined)]);
  resourceQuota.validate!(attributes(makePod('web', 1, { cpu: '1' })), ctx);
  assert.deepEqual(ctx.store.get<ResourceQuota>('ResourceQuota', 'test', 'compute')?.status, { hard: { 'requests.cpu': '2' }, used: { 'requests.cpu': '1' } });
});

test('The plugin leaves out subresources, cluster-scoped objects, namespaces, events and deletes', () => {
  const pod = attributes(makePod('web', 1));
  assert.equal(resourceQuota.handles(pod), true);
  assert.equal(resourceQuota.handles({ ...pod, subresource: 'status' }), false);
  assert.equal(resourceQuota.handles({ ...pod, operation: 'DELETE' }), false);
  assert.equal(resourceQuota.handles({ ...pod, kind: 'Node', resource: 'nodes', namespace: '' }), false);
  assert.equal(resourceQuota.handles({ ...pod, kind: 'Event', resource: 'events' }), false);
  assert.equal(resourceQuota.handles({ ...pod, operation: 'UPDATE', oldObject: makePod('web', 1) }), false, 'a pod update that keeps its scope');
  assert.equal(resourceQuota.handles({ ...pod, kind: 'Deployment', resource: 'deployments', group: 'apps', operation: 'UPDATE' }), false, 'object counts only on create');
});

test('The Decision view gets each quota with its usage before and after', () => {
  const ctx = context([quotaBelow]);
  const result = resourceQuota.validate!(attributes(makePod('allowed-pod', 1, { cpu: '100m', memory: '2Gi' })), ctx);
  assert.deepEqual(result.detail?.['quotas'], [{
    name: 'quota', scopes: [], statusComputed: false, hard: { cpu: '3', memory: '100Gi', pods: '5' }, usedBefore: { cpu: '1', memory: '50Gi', pods: '3' },
    matches: true, requested: { cpu: '100m', memory: '2Gi', pods: '1' },
    usedAfter: { cpu: '1100m', memory: '52Gi', pods: '4' },
  }]);
});
